package service

import (
	"context"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb join (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "join", who: self, lobbyHelp: "take a seat in an open game",
		lobby: func(s *Service, _ context.Context, c lobbyCall) (templates.Notice, error) {
			if why := s.joinRefusal(c.tx.lang, c.l, c.from, c.args[1:], c.cred); why != "" {
				return lobbyError(why), nil
			}
			return s.lobbyJoin(c.tx, c.l, c.from, c.args[1:], c.n)
		},
		pending: func(id string, args []string) string {
			if len(args) > 1 {
				return "join " + id + " " + args[1] // checked: one word, kept as written
			}
			return "join " + id
		}})
}

// joinRefusal says why from cannot join game l ("" when they can, or play there
// already): a game that has started, a private game without an invitation, a
// full game, a player name that is not one word or is taken.
func (s *Service) joinRefusal(lang i18n.Lang, l *Loaded, from string, args []string, cred credential) string {
	id := l.Game.ID
	t := func(format string, args ...any) string { return s.tr.Sprintf(lang, format, args...) }
	if _, ok := l.playerByEmail(from); ok {
		return ""
	}
	if l.Settings.Private && !(cred.game == id && cred.grant == grantInvite) {
		return t("Game %s takes players by invitation only.", id)
	}
	if l.Game.Status != store.GameOpen {
		return t("Game %s has started already; you can follow it with observe %s.", id, id)
	}
	if max := s.maxSeats(l); max > 0 && len(l.Seats()) >= max {
		return t("Game %s is full (%d players).", id, max)
	}
	if len(args) > 0 {
		want := args[0] // as written: "Davide" stays Davide, compared without case
		if len(args) > 1 || !strings.EqualFold(seatName(want+"@x", nil), want) {
			return t("A player name is one word of letters, digits, - or _.")
		}
		if _, taken := l.playerByName(want); taken {
			return t("The name %s is taken in game %s; choose another: join %s NAME.", want, id, id)
		}
		if s.reservedName(want) {
			return t("The name %s is reserved for the service (or the host); choose another: join %s NAME.", want, id)
		}
		if other := lookalikePlayer(want, l.Seats()); other != "" {
			return t("The name %s reads too much like %s, who plays in game %s; choose another: join %s NAME.", want, other, id, id)
		}
	}
	return ""
}

// lobbyJoin seats the sender in an open game (joinRefusal has said they may).
func (s *Service) lobbyJoin(tx *lobbyTx, l *Loaded, from string, args []string, n templates.Notice) (templates.Notice, error) {
	id := l.Game.ID
	if p, ok := l.playerByEmail(from); ok {
		n.Kind, n.Player = "joined", p.Name
		return n, nil
	}
	seats := l.Seats()
	name := seatName(from, s.nameFree(l.Players))
	if len(args) > 0 {
		name = args[0] // the case the player wrote (joinRefusal checked it)
	}
	seat := 0
	for _, p := range seats {
		if p.Seat >= seat {
			seat = p.Seat + 1
		}
	}
	p := store.Player{Seat: seat, Name: name, Email: from, Role: store.RolePlayer, Active: true}
	c := store.Commit{GameID: id, ExpectSeq: l.LastSeq(), Players: []store.Player{p}}
	if !strings.EqualFold(l.Game.Host, from) {
		var names []string
		for _, q := range seats {
			names = append(names, q.Name)
		}
		names = append(names, name)
		if err := s.tellHost(&c, l, templates.Notice{Kind: "player-joined", Game: n.Game, Player: name, Address: from, ToAct: names}); err != nil {
			return n, err
		}
	}
	tx.commit(c)
	n.Kind, n.Player = "joined", name
	return n, nil
}

// maxSeats is the most players a game opened by mail takes: players= or the
// engine's most (0: no limit known).
func (s *Service) maxSeats(l *Loaded) int {
	if l.Settings.MaxPlayers > 0 {
		return l.Settings.MaxPlayers
	}
	g, err := s.games.Lookup(l.Game.Kind)
	if oc, ok := g.(engine.OptionChecker); ok && err == nil {
		_, hi := oc.PlayerRange()
		return hi
	}
	return 0
}
