package service

import (
	"context"
	"strings"

	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb observe (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "observe", who: self, lobbyHelp: "get the public state after every move",
		lobby: func(s *Service, _ context.Context, c lobbyCall) (templates.Notice, error) {
			return s.lobbyObserve(c.tx, c.l, c.from, c.n, c.cred)
		}})
}

// lobbyObserve makes from an observer of game l (proven by cred). Its players are
// told. A private game needs its host's approval first: the host is asked (once
// per address).
func (s *Service) lobbyObserve(tx *lobbyTx, l *Loaded, from string, n templates.Notice, cred credential) (templates.Notice, error) {
	id := l.Game.ID
	for _, p := range l.Players {
		if strings.EqualFold(p.Email, from) {
			n.Kind = "observing"
			return n, nil
		}
	}
	if l.Game.Status == store.GameFinished {
		return lobbyError(tx.t("Game %s is over.", id)), nil
	}
	if l.Settings.Private && !(cred.game == id && cred.grant == grantApprove) {
		if l.Game.Host == "" {
			return lobbyError(tx.t("Game %s is private.", id)), nil
		}
		if l.Consent[strings.ToLower(from)] == store.ConsentNo {
			return templates.Notice{}, nil // denied before: the host is not asked again
		}
		c := store.Commit{}
		k := store.Confirmation{Address: l.Game.Host, Actor: from, GameID: id, Grant: grantApprove, Commands: []string{"observe " + id}}
		approve := templates.Notice{Game: n.Game, Text: "approve", Actor: from, HostReply: s.HostAddress(id), Lang: string(s.langAt(l, l.Game.Host))}
		if err := s.ask(&c, k, approve, false, ""); err != nil {
			return n, err
		}
		c.Consents = append(c.Consents, store.Consent{GameID: id, Address: from, State: store.ConsentAsked})
		tx.commit(c)
		n.Kind = "approval-asked"
		return n, nil
	}
	seat := observerSeat
	for _, p := range l.Players {
		if p.Seat >= seat {
			seat = p.Seat + 1
		}
	}
	o := store.Player{Seat: seat, Name: "observer:" + from, Email: from, Role: store.RoleObserver, Active: true}
	c := store.Commit{GameID: id, ExpectSeq: l.LastSeq(), Players: []store.Player{o}}
	if l.State != nil {
		data, err := s.stateData(l, l.State, o, nil)
		if err != nil {
			return n, err
		}
		m, err := s.mail(outMail{kind: "state", data: data, game: id, to: from, replyTo: s.address(), thread: l.threadOf(from), auto: "auto-generated"})
		if err != nil {
			return n, err
		}
		m.Seen = l.LastSeq()
		c.Outbox = append(c.Outbox, m)
	}
	// The players (and the host) are told who follows their game.
	told := map[string]bool{}
	for _, p := range l.Seats() {
		if told[p.Email] || !s.mayMail(l, p.Email) {
			continue
		}
		told[p.Email] = true
		note := templates.Notice{Kind: "observer-joined", Game: n.Game, To: p.Name, Address: from}
		if l.State != nil {
			note.ReplyTo = s.replyAddr(id, p)
		}
		m, err := s.notice(note, l.threadOf(p.Email), id, p.Email, "")
		if err != nil {
			return n, err
		}
		c.Outbox = append(c.Outbox, m)
	}
	if !told[strings.ToLower(l.Game.Host)] {
		if err := s.tellHost(&c, l, templates.Notice{Kind: "observer-joined", Game: n.Game, Address: from}); err != nil {
			return n, err
		}
	}
	tx.commit(c)
	n.Kind = "observing"
	return n, nil
}
