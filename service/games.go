package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/compose"
	"github.com/turnmail/turnmail/store"
)

// NewGame describes a game to create.
type NewGame struct {
	// Kind is the engine name ("smallworld", "empire").
	Kind string
	// Players in turn order, each with a name and a mail address.
	Players []engine.Player
	// Options are the game options (map, variant …).
	Options map[string]json.RawMessage
	// Setup is the archive "setup" object (seed and fixed stack orders); Seed is used
	// when Setup has none.
	Setup json.RawMessage
	Seed  int64
	// Host is the address of the game's host (may be empty).
	Host string
	// Settings are the service settings (deadline, reminders, list …).
	Settings Settings
}

// CreateGame validates the setup through the engine, stores the game with its setup
// outcomes and queues the opening mail to every player, in one transaction.
func (s *Service) CreateGame(ctx context.Context, ng NewGame) (string, error) {
	g, err := s.games.Lookup(ng.Kind)
	if err != nil {
		return "", err
	}
	if len(ng.Players) == 0 {
		return "", fmt.Errorf("new game: no players")
	}
	if ng.Host != "" {
		host, err := compose.ParseRecipient(ng.Host)
		if err != nil {
			return "", fmt.Errorf("new game: host: %w", err)
		}
		ng.Host = host
	}
	seen := map[string]bool{}
	for i, p := range ng.Players {
		addr, err := compose.ParseRecipient(p.Email)
		if err != nil {
			return "", fmt.Errorf("new game: player %q: %w", p.Name, err)
		}
		ng.Players[i].Email = addr
		if p.Name == "" || strings.ContainsAny(p.Name, " \t\n=#") {
			return "", fmt.Errorf("new game: player name %q: use one word", p.Name)
		}
		key := strings.ToLower(p.Name)
		if seen[key] {
			return "", fmt.Errorf("new game: player %q named twice", p.Name)
		}
		seen[key] = true
	}
	setup := map[string]json.RawMessage{}
	if len(ng.Setup) > 0 {
		if err := json.Unmarshal(ng.Setup, &setup); err != nil {
			return "", fmt.Errorf("new game: setup: %w", err)
		}
	}
	if _, ok := setup["seed"]; !ok {
		setup["seed"], _ = json.Marshal(ng.Seed)
	}
	engine.StampSetup(g, setup)
	setupJSON, _ := json.Marshal(setup) // re-encoding decoded JSON cannot fail
	a := &engine.Archive{Format: engine.ArchiveFormat, Game: ng.Kind, Options: ng.Options, Players: ng.Players, Setup: setupJSON}
	es, err := a.SetupOf()
	if err != nil {
		return "", err
	}
	state, outcomes, err := engine.Start(g, es, nil)
	if err != nil {
		return "", fmt.Errorf("new game: %w", err)
	}
	for draw := 1; ; draw++ {
		_, game, players, err := s.newGameRecord(a, outcomes)
		if err != nil {
			return "", err
		}
		game.Host = strings.ToLower(ng.Host)
		st := ng.Settings
		now := s.opts.Clock().UTC()
		st.StartedAt = &now
		game.Settings, _ = json.Marshal(st)
		game.List = st.List
		l := &Loaded{Game: game, Players: players, State: state, Settings: st}
		l.Facts = newFacts(state.ToAct(), l.startedAt())
		mails, err := s.stateMails(l, change{after: state})
		if err != nil {
			return "", err
		}
		err = s.store.CreateGame(ctx, game, players, mails)
		if errors.Is(err, store.ErrDuplicate) && draw < maxIDDraws {
			continue // the random id is taken: draw another (the mails name the id)
		}
		if err != nil {
			return "", fmt.Errorf("new game: %w", err)
		}
		s.log.Info("game created", "game", game.ID, "kind", ng.Kind, "players", len(players))
		return game.ID, nil
	}
}

// maxIDDraws bounds the random game ids drawn for one new game. With about a
// million ids per kind, a second draw is rare and a fifth taken one means
// something else is wrong.
const maxIDDraws = 5

// Import creates a game from an archive: the archive's events are replayed (and so
// validated), stored with their recorded outcomes and hashes and with the snapshots a
// game played through the service would have (importSnapshots), and every player is
// mailed the resulting state. Every player needs a mail address.
func (s *Service) Import(ctx context.Context, a *engine.Archive) (string, error) {
	states, err := engine.ReplayAll(s.games, a, -1)
	if err != nil {
		return "", fmt.Errorf("import: %w", err)
	}
	g, _ := s.games.Lookup(a.Game) // ReplayAll looked it up
	setup, err := a.SetupOf()
	if err != nil {
		return "", err
	}
	_, setupOutcomes, err := engine.Start(g, setup, a.SetupOutcomes)
	if err != nil {
		return "", err
	}
	for draw := 1; ; draw++ {
		id, err := s.importOnce(ctx, a, states, setup, setupOutcomes)
		if errors.Is(err, store.ErrDuplicate) && draw < maxIDDraws {
			continue // the random id is taken: draw another
		}
		return id, err
	}
}

// importOnce stores an imported game under a new random id: the game, its events
// and the mails announcing it, in one transaction.
func (s *Service) importOnce(ctx context.Context, a *engine.Archive, states []engine.State, setup engine.Setup, setupOutcomes engine.Outcomes) (string, error) {
	id, game, players, err := s.newGameRecord(a, setupOutcomes)
	if err != nil {
		return "", err
	}
	events := make([]store.Event, 0, len(a.Events))
	for i, e := range a.Events {
		// Re-run each move to learn the outcomes it drew where the archive dictated none.
		ev := store.Event{GameID: id, Seq: i + 1, Kind: e.Kind, Player: e.Player, Command: engine.Normalize(e.Command), Hash: states[i+1].Hash(), MessageID: e.MessageID}
		if e.At != nil {
			ev.At = *e.At
		}
		if e.Kind == engine.KindMove {
			_, outcomes, err := engine.Step(states[i], setup.Seed, i+1, e.Player, e.Command, e.Outcomes)
			if err != nil {
				return "", fmt.Errorf("import: event %d: %w", i+1, err)
			}
			if len(outcomes) > 0 {
				ev.Outcomes, _ = json.Marshal(outcomes)
			}
		} else {
			ev.Command = e.Command
		}
		events = append(events, ev)
	}
	final := states[len(states)-1]
	if final.Finished() {
		game.Status = "finished"
	}
	l := &Loaded{Game: game, Players: players, State: final, Settings: settingsOf(game.Settings)}
	mails, err := s.stateMails(l, change{after: final})
	if err != nil {
		return "", err
	}
	snapshots, err := s.importSnapshots(l, events, states)
	if err != nil {
		return "", err
	}
	err = s.store.CommitBatch(ctx, store.Batch{
		Games:   []store.NewGame{{Game: game, Players: players}},
		Commits: []store.Commit{{GameID: id, Events: events, Outbox: mails, Snapshots: snapshots}},
	})
	if err != nil {
		return "", fmt.Errorf("import: %w", err)
	}
	return id, nil
}

// newGameRecord builds the store rows of a new game from a validated archive header.
func (s *Service) newGameRecord(a *engine.Archive, setupOutcomes engine.Outcomes) (string, store.Game, []store.Player, error) {
	emails := make([]string, len(a.Players))
	for i, p := range a.Players {
		addr, err := compose.ParseRecipient(p.Email)
		if err != nil {
			return "", store.Game{}, nil, fmt.Errorf("player %q: %w", p.Name, err)
		}
		emails[i] = addr
	}
	optionsJSON, _ := json.Marshal(a.Options) // decoded JSON re-encodes
	outcomesJSON, _ := json.Marshal(setupOutcomes)
	now := s.opts.Clock()
	game := store.Game{
		ID: s.newGameID(a.Game), Kind: a.Game, Options: optionsJSON, Setup: a.Setup,
		SetupOutcomes: outcomesJSON, Status: "running", CreatedAt: now, UpdatedAt: now,
	}
	players := make([]store.Player, len(a.Players))
	for i, p := range a.Players {
		players[i] = store.Player{GameID: game.ID, Seat: i, Name: p.Name, Email: emails[i], Role: "player", Active: true}
	}
	return game.ID, game, players, nil
}
