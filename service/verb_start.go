package service

import (
	"context"
	"encoding/json"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb start (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "start", who: host, lobbyHelp: "(host) start the game; everyone gets the opening mail",
		lobby: func(s *Service, _ context.Context, c lobbyCall) (templates.Notice, error) {
			return s.lobbyStart(c.tx, c.l, c.n)
		}})
}

// lobbyStart sets the game up through the engine and mails the opening state.
func (s *Service) lobbyStart(tx *lobbyTx, l *Loaded, n templates.Notice) (templates.Notice, error) {
	id := l.Game.ID
	if l.Game.Status != store.GameOpen {
		n.Kind = "started"
		return n, nil // already started (or a mail processed again)
	}
	a := l.Archive()
	setup, err := a.SetupOf()
	if err != nil {
		return n, err
	}
	g, _ := s.games.Lookup(l.Game.Kind)
	state, outcomes, err := engine.Start(g, setup, nil)
	if err != nil {
		return lobbyError(tx.t("Game %s cannot start with %d players: %v", id, len(a.Players), err)), nil
	}
	now := s.opts.Clock().UTC()
	l.Settings.StartedAt = &now
	l.Game.Status = store.GameRunning
	l.State = state
	l.Facts = newFacts(state.ToAct(), l.startedAt())
	outcomesJSON, _ := json.Marshal(outcomes)
	settingsJSON, _ := json.Marshal(l.Settings)
	mails, err := s.stateMails(l, change{after: state})
	if err != nil {
		return n, err
	}
	tx.commit(store.Commit{GameID: id, ExpectSeq: l.LastSeq(), GameStatus: store.GameRunning, SetupOutcomes: outcomesJSON, Settings: settingsJSON, Outbox: play(mails, l.Game.Host)})
	n.Kind = "started"
	for _, p := range l.Seats() {
		n.ToAct = append(n.ToAct, p.Name)
	}
	return n, nil
}
