// Package page writes the web pages of a game (issue 25): the board after any step of
// the game, what that step did in sentences, whose move it is, the players with their
// colours and scores, and the list of every step to jump from. It writes one step as a
// page of the web server (package web), and every step of a game as one
// self-contained HTML file (turnmail replay --html, the end-of-game mail).
//
// A page is written for one reader: an engine viewer (engine.Observer for the public
// page, a player's name for their private page) in a language. Everything it shows is
// drawn from that viewer's views and accounts (engine.State.View, engine.Narrate,
// engine.MaskCommand, and the service's sentences of its own events through
// Record.Tell), so what the viewer may not see cannot reach it.
package page

import (
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/scene/draw"
)

// Record is a game as its pages show it: its seats, its log and the state after every
// event. It is read only once built: one Record serves every reader of the game at once.
type Record struct {
	// ID is the game's id ("sw-7k3p"); it may be empty for an archive.
	ID string
	// Kind is the engine's name ("smallworld").
	Kind string
	// Players are the seats' names in turn order.
	Players []string
	// Events are the log after the setup.
	Events []engine.Event
	// States are the state after every event: States[0] is the setup's, States[i]
	// the state after Events[i-1].
	States []engine.State
	// Deadlines are when each player who must act now must have acted (none: no
	// deadline, or a record without a service).
	Deadlines map[string]time.Time
	// Paused is true while the host has paused the game.
	Paused bool
	// Over and Winners, when Over is set, say that the game ended although its last
	// state goes on (every other player resigned).
	Over    bool
	Winners []string
	// Resigned are the players who resigned: never to act again.
	Resigned map[string]bool
	// Lang and Zone are the game's language and time zone: the public page's.
	Lang i18n.Lang
	Zone *time.Location
	// Langs and Zones are those a seat chose for itself, by name.
	Langs map[string]i18n.Lang
	Zones map[string]*time.Location
	// Tell says an event of the log that is not a move, in lang, as viewer may read
	// it and as the service's mails tell it: an undo (takenBack is the page's sentence
	// of the move it takes back) or an administrative event (a message, a pause, a
	// resignation, a deadline that passed). "" leaves the event out: what viewer may
	// not read, or what the pages do not tell. nil: an undo says what it took back in
	// the pages' own words, and administrative events are left out.
	Tell func(lang i18n.Lang, viewer string, e engine.Event, takenBack string) string
	// PictureWords gives a picture its words in lang (nil: English without
	// catalogues).
	PictureWords func(lang i18n.Lang) draw.Words
}

// Last returns the latest state.
func (r *Record) Last() engine.State { return r.States[len(r.States)-1] }

// finished reports whether the game is over, and its winners.
func (r *Record) finished() (bool, []string) {
	if last := r.Last(); last.Finished() {
		return true, last.Winners()
	}
	return r.Over, r.Winners
}

// seat returns the seat index of a player (-1 for none).
func (r *Record) seat(name string) int {
	for i, p := range r.Players {
		if p == name {
			return i
		}
	}
	return -1
}

// Reader is who reads a page.
type Reader struct {
	// Viewer is the engine viewer: engine.Observer for the public page, a player's
	// name for theirs, "" for the complete record (the host's).
	Viewer string
	// Lang is the language the page is written in.
	Lang i18n.Lang
	// Zone is where the page's times are given (nil: UTC).
	Zone *time.Location
}

// ReaderOf returns the reader of the page of viewer, whose seat (if any) is named
// name: in the seat's language and time zone, else the game's.
func (r *Record) ReaderOf(viewer, name string) Reader {
	rd := Reader{Viewer: viewer, Lang: r.Lang, Zone: r.Zone}
	if l, ok := r.Langs[name]; ok && l != "" {
		rd.Lang = l
	}
	if z, ok := r.Zones[name]; ok && z != nil {
		rd.Zone = z
	}
	return rd
}

// you reports whether the reader is the player named.
func (rd Reader) you(name string) bool {
	return rd.Viewer != "" && rd.Viewer != engine.Observer && rd.Viewer == name
}

// FromArchive replays a complete archive into a Record (a redacted copy cannot be
// replayed: engine.ErrRedacted). Set Tell and PictureWords for the service's words.
func FromArchive(reg engine.Registry, a *engine.Archive) (*Record, error) {
	states, err := engine.ReplayAll(reg, a, -1)
	if err != nil {
		return nil, err
	}
	rec := &Record{Kind: a.Game, Events: a.Events, States: states}
	for _, p := range a.Players {
		rec.Players = append(rec.Players, p.Name)
	}
	return rec, nil
}

// Head is what a game's pages need to know before replaying it: whether it has a
// public page, who holds each seat, and its version. Reading it is cheap.
type Head struct {
	// Version changes whenever the game's pages would change: an event appended, the
	// game paused, a seat handed to another address.
	Version string
	// Private games have no public page.
	Private bool
	// Started is false while the game waits for players: it has no page yet.
	Started bool
	// Seats are the players and observers by seat number.
	Seats []Seat
}

// Seat is one seat of a game.
type Seat struct {
	// Seat is the seat's number; Epoch how many times it was handed to another
	// address (a private link names both).
	Seat, Epoch int
	// Name is the player's name.
	Name string
	// Observer is true for an observer's seat: its page shows the public view.
	Observer bool
}

// Summary is a game as the index of games lists it.
type Summary struct {
	ID, Kind string
	Players  []string
	Finished bool
}
