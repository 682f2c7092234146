package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// ArchiveFormat is the format tag of the archive documents this package reads and writes.
const ArchiveFormat = "turnmail-archive/1"

// Archive is a complete game record: setup plus every event, the document used for
// export, import, replay and rules tests.
type Archive struct {
	Format  string                     `json:"format"`
	Game    string                     `json:"game"`
	Options map[string]json.RawMessage `json:"options,omitempty"`
	Players []Player                   `json:"players"`
	// Setup holds "seed" and any game-specific fixed setup (stack orders …).
	Setup json.RawMessage `json:"setup,omitempty"`
	// SetupOutcomes are the random outcomes of the setup (event 0); dictated on replay.
	SetupOutcomes Outcomes `json:"setup_outcomes,omitempty"`
	Events        []Event  `json:"events"`
	// Redacted lists what a player's copy leaves out (Redact): "setup.seed",
	// "outcome.deck" … Empty in a complete archive.
	Redacted []string `json:"redacted,omitempty"`
}

// Event kinds. A plain move has the empty kind.
const (
	// KindMove is a player's command applied through the engine.
	KindMove = ""
	// KindUndo takes back the last move still standing (agreed by the players or
	// forced by the host); its Command says why.
	KindUndo = "undo"
	// KindAdmin is an administrative act (deadline set, seat replaced …) that does not
	// change the game state.
	KindAdmin = "admin"
)

// Event is one accepted act after the setup.
type Event struct {
	Kind     string   `json:"kind,omitempty"`
	Player   string   `json:"player"`
	Command  string   `json:"command"`
	Outcomes Outcomes `json:"outcomes,omitempty"`
	// Hash is the digest of the state after this event; replay verifies it when set.
	Hash      string     `json:"hash,omitempty"`
	At        *time.Time `json:"at,omitempty"`
	MessageID string     `json:"message_id,omitempty"`
}

// ReadArchive decodes and checks an archive document.
func ReadArchive(r io.Reader) (*Archive, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var a Archive
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("read archive: %w", err)
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return &a, nil
}

// Validate checks the parts of an archive every game shares.
func (a *Archive) Validate() error {
	if a.Format != ArchiveFormat {
		return fmt.Errorf("archive: format %q, want %q", a.Format, ArchiveFormat)
	}
	if a.Game == "" {
		return errors.New("archive: no game")
	}
	if len(a.Players) == 0 {
		return errors.New("archive: no players")
	}
	seen := map[string]bool{}
	for i, p := range a.Players {
		if p.Name == "" {
			return fmt.Errorf("archive: player %d has no name", i+1)
		}
		if seen[Normalize(p.Name)] {
			return fmt.Errorf("archive: player %q named twice", p.Name)
		}
		seen[Normalize(p.Name)] = true
	}
	for i, e := range a.Events {
		switch e.Kind {
		case KindMove, KindUndo, KindAdmin:
		default:
			return fmt.Errorf("archive: event %d: unknown kind %q", i+1, e.Kind)
		}
	}
	return nil
}

// Seed returns the "seed" field of the setup (0 when absent).
func (a *Archive) Seed() (int64, error) {
	if len(a.Setup) == 0 {
		return 0, nil
	}
	var s struct {
		Seed int64 `json:"seed"`
	}
	if err := json.Unmarshal(a.Setup, &s); err != nil {
		return 0, fmt.Errorf("archive setup: %w", err)
	}
	return s.Seed, nil
}

// SetupOf returns the engine setup the archive describes.
func (a *Archive) SetupOf() (Setup, error) {
	seed, err := a.Seed()
	if err != nil {
		return Setup{}, err
	}
	return Setup{Game: a.Game, Options: a.Options, Players: a.Players, Seed: seed, Fixed: a.Setup}, nil
}

// Marshal encodes the archive as indented JSON.
func (a *Archive) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a); err != nil {
		return nil, fmt.Errorf("encode archive: %w", err)
	}
	return buf.Bytes(), nil
}
