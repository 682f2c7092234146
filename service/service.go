// Package service is the game service: it turns a stored incoming mail into accepted
// events and the mails that report them, one game at a time, each in one SQLite
// transaction.
package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/scene/raster"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// Options configure a Service. Zero fields take the documented defaults.
type Options struct {
	// Address is the service address (local@domain); reply addresses are
	// local+token@domain.
	Address string
	// Name is the display name on outgoing mail (default "turnmail").
	Name string
	// Secret keys the reply tokens. Required.
	Secret []byte
	// MaxMessageBytes is the largest mail interpreted (default 1 MiB).
	MaxMessageBytes int64
	// Limits cap the mail queued (default store.DefaultLimits); see store.Limits.
	Limits *store.Limits
	// RepliesPerHour, when not 0, replaces Limits.AnswersPerHour: the answers sent
	// to one address in an hour.
	RepliesPerHour int
	// MaxCommandLines is the most command lines read from one mail (default 100);
	// the answer says where reading stopped.
	MaxCommandLines int
	// MaxMailBytes is the largest mail turnmail sends (default 512 KiB), well under
	// what SMTP servers accept.
	MaxMailBytes int64
	// NoPictures leaves the board's picture out of the mails: for tests whose subject
	// is not the picture (a picture costs tens of milliseconds of CPU).
	NoPictures bool
	// Clock returns the current time (default time.Now).
	Clock func() time.Time
	// Logger receives the service's log (default slog.Default()).
	Logger *slog.Logger
	// Language is what the lobby answers in until a sender's language is known, and
	// the language of games opened without lang= (default i18n.English).
	Language i18n.Lang
	// PageURL is the base URL of the games' web pages (issue 25), ending in "/":
	// state mails link each reader's page. Empty: no links.
	PageURL string
	// KeptGames is how many games' states are kept in memory between mails (default
	// DefaultKeptGames; negative: none); SnapshotEvery how many events apart their
	// snapshots are stored (default DefaultSnapshotEvery; negative: none). A mail to
	// a game, a deadline or a restart replays at most about SnapshotEvery events.
	KeptGames     int
	SnapshotEvery int
}

// Defaults of Options.KeptGames and Options.SnapshotEvery.
const (
	DefaultKeptGames     = 256
	DefaultSnapshotEvery = 32
)

// Service processes mail for all games. It is safe for concurrent use; each game is
// processed one mail (or deadline) at a time, different games at the same time.
type Service struct {
	store  *store.Store
	games  engine.Registry
	tmpl   *templates.Set
	tr     *i18n.Bundle // the message catalogues and command words
	opts   Options
	local  string
	domain string
	limits store.Limits // checked by the store in the transaction queueing a mail
	log    *slog.Logger

	// locks serialise the processing of each game (see gameLocks).
	locks *gameLocks
	// transient counts the transient failures of the mails failing now, by dedupe
	// key (see mustQuarantine).
	transientMu sync.Mutex
	transient   map[string]int

	tickMu sync.Mutex // serialises Tick
	swept  bool       // a Tick looked at every running game (guarded by tickMu)
	// replays counts the replays through an engine, replayed the events they
	// replayed (read by tests).
	replays, replayed atomic.Int64
	// tickLooks counts the games ticks looked at (read by tests).
	tickLooks atomic.Int64
	// kept are the games kept in memory; formats the snapshot format of each engine.
	kept      *keptGames
	formatsMu sync.Mutex
	formats   map[string]string
	// newGameID draws a random game id (store.NewGameID; tests replace it).
	newGameID func(kind string) string
	// pictures keeps the latest board pictures of the state mails (issue 22).
	pictures pictureCache
	// replayFiles keeps the end-of-game replay files last written (issue 25).
	replayFiles replayFiles
	// boards keeps the boards' static layers drawn for the pictures.
	boards raster.Cache
}

// New returns a Service. It does no I/O.
func New(st *store.Store, games engine.Registry, tmpl *templates.Set, opts Options) (*Service, error) {
	i := strings.LastIndexByte(opts.Address, '@')
	if i <= 0 || i == len(opts.Address)-1 {
		return nil, fmt.Errorf("service: address %q is not local@domain", opts.Address)
	}
	if len(opts.Secret) < 16 {
		return nil, errors.New("service: secret shorter than 16 bytes")
	}
	if opts.Name == "" {
		opts.Name = "turnmail"
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = 1 << 20
	}
	if opts.MaxCommandLines <= 0 {
		opts.MaxCommandLines = DefaultMaxCommandLines
	}
	if opts.MaxMailBytes <= 0 {
		opts.MaxMailBytes = DefaultMaxMailBytes
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.KeptGames == 0 {
		opts.KeptGames = DefaultKeptGames
	}
	if opts.SnapshotEvery == 0 {
		opts.SnapshotEvery = DefaultSnapshotEvery
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	if lang, ok := i18n.ParseLang(string(opts.Language)); ok {
		opts.Language = lang
	} else {
		opts.Language = i18n.English
	}
	tr, err := i18n.Load()
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	return &Service{
		tr:        tr,
		store:     st,
		games:     games,
		tmpl:      tmpl,
		opts:      opts,
		local:     strings.ToLower(opts.Address[:i]),
		domain:    strings.ToLower(opts.Address[i+1:]),
		limits:    limitsOf(opts),
		newGameID: store.NewGameID,
		transient: map[string]int{},
		kept:      newKeptGames(opts.KeptGames),
		locks:     newGameLocks(),
		formats:   map[string]string{},
		log:       log,
	}, nil
}

// Bundle returns the message catalogues the service writes with.
func (s *Service) Bundle() *i18n.Bundle { return s.tr }

// limitsOf returns the limits opts ask for.
func limitsOf(opts Options) store.Limits {
	l := store.DefaultLimits
	if opts.Limits != nil {
		l = *opts.Limits
	}
	if opts.RepliesPerHour > 0 {
		l.AnswersPerHour = opts.RepliesPerHour
	}
	return l
}

// Loaded is a game read from the store and replayed.
type Loaded struct {
	Game    store.Game
	Players []store.Player
	Events  []store.Event
	// State is the current state; nil while the game is open (not started).
	State engine.State
	// hist gives the states after earlier events, for the account of what each move
	// did and the board a reader saw last; nil while the game is open.
	hist *history
	Seed int64
	// Settings are the game's service settings (deadlines, list …).
	Settings Settings
	// Facts are what the administrative events say (resignations, vacations, a
	// pending undo) and when each player's turn began.
	Facts Facts
	// Readers are the game's mail threads by lower-case address (see thread).
	Readers map[string]store.Reader
	// Consent is the consent state (store.ConsentAsked …) of addresses asked to
	// confirm something about the game, by lower-case address.
	Consent map[string]string
}

// Seats returns the players (not observers) in seat order.
func (l *Loaded) Seats() []store.Player {
	var out []store.Player
	for _, p := range l.Players {
		if p.Role == "" || p.Role == "player" {
			out = append(out, p)
		}
	}
	return out
}

// seatOf is the seat numbered seat of l.
func seatOf(l *Loaded, seat int) (store.Player, bool) {
	for _, p := range l.Seats() {
		if p.Seat == seat {
			return p, true
		}
	}
	return store.Player{}, false
}

// LastSeq is the sequence number of the last event (0 when none).
func (l *Loaded) LastSeq() int {
	if len(l.Events) == 0 {
		return 0
	}
	return l.Events[len(l.Events)-1].Seq
}

// Archive returns the game as an archive document.
func (l *Loaded) Archive() *engine.Archive {
	a := l.archiveHead()
	a.Events = make([]engine.Event, 0, len(l.Events))
	for _, e := range l.Events {
		ev := engine.Event{Kind: e.Kind, Player: e.Player, Command: e.Command, Hash: e.Hash, MessageID: e.MessageID}
		if len(e.Outcomes) > 0 {
			_ = json.Unmarshal(e.Outcomes, &ev.Outcomes)
		}
		if !e.At.IsZero() {
			at := e.At
			ev.At = &at
		}
		a.Events = append(a.Events, ev)
	}
	return a
}

// archiveHead is the archive of the game without its events: what its setup needs.
func (l *Loaded) archiveHead() *engine.Archive {
	a := &engine.Archive{Format: engine.ArchiveFormat, Game: l.Game.Kind, Setup: l.Game.Setup}
	if len(l.Game.Options) > 0 {
		_ = json.Unmarshal(l.Game.Options, &a.Options) // validated when the game was created
	}
	if len(l.Game.SetupOutcomes) > 0 {
		_ = json.Unmarshal(l.Game.SetupOutcomes, &a.SetupOutcomes)
	}
	for _, p := range l.Seats() {
		a.Players = append(a.Players, engine.Player{Name: p.Name, Email: p.Email})
	}
	return a
}

// Load reads a game and gives its state: kept since an earlier mail (reading only
// the events committed since), or restored from its newest snapshot, or replayed
// from its setup; the recorded state hashes of the events replayed are verified.
func (s *Service) Load(ctx context.Context, gameID string) (*Loaded, error) {
	g, players, err := s.store.Game(ctx, gameID)
	if err != nil {
		return nil, fmt.Errorf("load game %s: %w", gameID, err)
	}
	events, err := s.events(ctx, gameID)
	if err != nil {
		return nil, fmt.Errorf("load game %s: %w", gameID, err)
	}
	consent, err := s.store.Consents(ctx, gameID)
	if err != nil {
		return nil, fmt.Errorf("load game %s: %w", gameID, err)
	}
	l, err := s.replay(ctx, g, players, events)
	if err != nil {
		return nil, err
	}
	if l.Readers, err = s.store.Readers(ctx, gameID); err != nil {
		return nil, fmt.Errorf("load game %s: %w", gameID, err)
	}
	l.Consent = consent
	return l, nil
}

// events returns a game's log: the kept one with the events stored since, or the
// stored one.
func (s *Service) events(ctx context.Context, gameID string) ([]store.Event, error) {
	k := s.kept.get(gameID)
	if k == nil || k.seq() == 0 {
		return s.store.Events(ctx, gameID)
	}
	// From the kept last event on, which tells whether the kept log is the stored one.
	more, err := s.store.EventsAfter(ctx, gameID, k.seq()-1)
	if err != nil {
		return nil, err
	}
	if len(more) == 0 || !sameEvent(more[0], k.events[k.seq()-1]) {
		s.kept.drop(gameID) // not the stored game any more (a database put back from a copy)
		return s.store.Events(ctx, gameID)
	}
	if len(more) == 1 {
		return capped(k.events), nil // nothing new: keep (checks the last event) takes it
	}
	return append(capped(k.events[:k.seq()-1]), more...), nil
}

// replay builds a Loaded from a game's rows: the settings with the changes its log
// records, and the state (see keep).
func (s *Service) replay(ctx context.Context, g store.Game, players []store.Player, events []store.Event) (*Loaded, error) {
	l := &Loaded{Game: g, Players: players, Events: events, Settings: settingsOf(g.Settings)}
	var err error
	if l.Seed, err = l.archiveHead().Seed(); err != nil {
		return nil, err
	}
	if g.Status == store.GameOpen && len(events) == 0 {
		l.Settings = l.Settings.withChanges(events)
		return l, nil // not started: nothing to replay yet
	}
	k, err := s.keep(ctx, l)
	if err != nil {
		return nil, err
	}
	l.State, l.Facts, l.Settings = k.state, k.facts.clone(), k.settings
	l.hist = k.history(ctx, s, g.ID, l.Seed)
	return l, nil
}

// Games returns the store's games, newest first.
func (s *Service) Games(ctx context.Context) ([]store.Game, error) { return s.store.Games(ctx) }
