package engine

import (
	"errors"
	"fmt"
	"strings"
)

// ReplayError names the event a replay stopped at.
type ReplayError struct {
	// Index is the 1-based index of the event in the archive.
	Index   int
	Player  string
	Command string
	Err     error
}

// Error implements error.
func (e *ReplayError) Error() string {
	return fmt.Sprintf("event %d (%s: %q): %v", e.Index, e.Player, e.Command, e.Err)
}

// Unwrap returns the underlying error.
func (e *ReplayError) Unwrap() error { return e.Err }

// ErrRedacted reports an archive that is a player's copy with hidden information left
// out (Redact): it cannot be replayed.
var ErrRedacted = errors.New("archive is a redacted copy")

// ErrHashMismatch reports a replayed state that differs from the recorded one.
var ErrHashMismatch = errors.New("state hash differs from the recorded one")

// Start builds the initial state of setup, dictating outcomes where given, and returns
// it with the outcomes the setup drew.
func Start(g Game, setup Setup, dictated Outcomes) (State, Outcomes, error) {
	rng := NewRand(setup.Seed, 0, dictated)
	s, err := g.New(setup, rng)
	if err != nil {
		return nil, nil, fmt.Errorf("setup: %w", err)
	}
	if unused := rng.Unused(); len(unused) > 0 {
		return nil, nil, fmt.Errorf("setup: dictated outcomes not used: %v", unused)
	}
	return s, rng.Recorded(), nil
}

// Step applies one move event (sequence number seq, counted from 1) to s, returning the
// new state and the outcomes it consumed. It checks that dictated outcomes were all used.
func Step(s State, seed int64, seq int, player, command string, dictated Outcomes) (State, Outcomes, error) {
	rng := NewRand(seed, seq, dictated)
	next, err := s.Apply(player, Normalize(command), rng)
	if err != nil {
		return nil, nil, err
	}
	if unused := rng.Unused(); len(unused) > 0 {
		return nil, nil, fmt.Errorf("dictated outcomes not used: %v", unused)
	}
	return next, rng.Recorded(), nil
}

// Replay folds the archive's first upTo events (all of them when upTo < 0) through the
// game and returns the resulting state. Each move is validated by Apply; recorded hashes
// are verified. The first failing event stops the replay with a *ReplayError.
func Replay(reg Registry, a *Archive, upTo int) (State, error) {
	states, err := ReplayAll(reg, a, upTo)
	if err != nil {
		return nil, err
	}
	return states[len(states)-1], nil
}

// ReplayAll is Replay returning the state after every event (index 0 is the setup).
func ReplayAll(reg Registry, a *Archive, upTo int) ([]State, error) {
	if len(a.Redacted) > 0 {
		return nil, fmt.Errorf("%w: this copy leaves out %s; replay the host's complete export", ErrRedacted, strings.Join(a.Redacted, ", "))
	}
	g, err := reg.Lookup(a.Game)
	if err != nil {
		return nil, err
	}
	setup, err := a.SetupOf()
	if err != nil {
		return nil, err
	}
	s, _, err := Start(g, setup, a.SetupOutcomes)
	if err != nil {
		return nil, err
	}
	if upTo < 0 || upTo > len(a.Events) {
		upTo = len(a.Events)
	}
	states := make([]State, 1, upTo+1)
	states[0] = s
	// standing holds the indexes (into states) of the moves that are not undone.
	standing := []int{0}
	for i := 0; i < upTo; i++ {
		e := a.Events[i]
		cur := states[len(states)-1]
		switch e.Kind {
		case KindAdmin:
			states = append(states, cur)
			continue
		case KindUndo:
			if len(standing) < 2 {
				return nil, &ReplayError{Index: i + 1, Player: e.Player, Command: e.Command, Err: errors.New("nothing to undo")}
			}
			standing = standing[:len(standing)-1]
			states = append(states, states[standing[len(standing)-1]])
			continue
		}
		next, _, err := Step(cur, setup.Seed, i+1, e.Player, e.Command, e.Outcomes)
		if err != nil {
			return nil, &ReplayError{Index: i + 1, Player: e.Player, Command: e.Command, Err: err}
		}
		if e.Hash != "" && e.Hash != next.Hash() {
			return nil, &ReplayError{Index: i + 1, Player: e.Player, Command: e.Command, Err: ErrHashMismatch}
		}
		states = append(states, next)
		standing = append(standing, len(states)-1)
	}
	return states, nil
}
