package service

import (
	"context"
	"strings"

	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb leave (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "leave", who: self, lobbyHelp: "give your seat back before the game starts", lobby: lobbyLeave})
}

// lobbyLeave gives the sender's seat in an open game back.
func lobbyLeave(s *Service, _ context.Context, c lobbyCall) (templates.Notice, error) {
	l, n, tx, from, id := c.l, c.n, c.tx, c.from, c.l.Game.ID
	p, ok := l.playerByEmail(from)
	switch {
	case !ok:
		return lobbyError(tx.t("You do not play in game %s.", id)), nil
	case l.Game.Status != store.GameOpen:
		return lobbyError(tx.t("Game %s has started; to stop playing, reply to a game mail with resign.", id)), nil
	case strings.EqualFold(from, l.Game.Host):
		return lobbyError(tx.t("The host cannot leave the game they opened.")), nil
	}
	cm := store.Commit{GameID: id, ExpectSeq: l.LastSeq(), RemoveSeats: []int{p.Seat}}
	if err := s.tellHost(&cm, l, templates.Notice{Kind: "player-left", Game: n.Game, Player: p.Name, Address: from}); err != nil {
		return n, err
	}
	tx.commit(cm)
	n.Kind, n.Player = "left", p.Name
	return n, nil
}
