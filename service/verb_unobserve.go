package service

import (
	"context"
	"strings"

	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb unobserve (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "unobserve", who: self, lobbyHelp: "stop that", lobby: lobbyUnobserve})
}

// lobbyUnobserve ends the sender's observing of a game.
func lobbyUnobserve(_ *Service, _ context.Context, c lobbyCall) (templates.Notice, error) {
	l, n := c.l, c.n
	for _, p := range l.Players {
		if strings.EqualFold(p.Email, c.from) && p.Role == store.RoleObserver {
			c.tx.commit(store.Commit{GameID: l.Game.ID, ExpectSeq: l.LastSeq(), RemoveSeats: []int{p.Seat}})
			n.Kind = "unobserved"
			return n, nil
		}
	}
	return lobbyError(c.tx.t("You do not observe game %s.", l.Game.ID)), nil
}
