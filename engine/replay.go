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

// StepInto is Step building the new state over spare (see Reuser) when s can, and
// spare is not nil; spare must not be used again.
func StepInto(spare, s State, seed int64, seq int, player, command string, dictated Outcomes) (State, Outcomes, error) {
	rng := NewRand(seed, seq, dictated)
	next, err := stepWith(rng, spare, s, player, command)
	if err != nil {
		return nil, nil, err
	}
	return next, rng.Recorded(), nil
}

// stepWith is StepInto with rng, the event's random source.
func stepWith(rng *Rand, spare, s State, player, command string) (State, error) {
	var next State
	var err error
	if r, ok := s.(Reuser); ok && spare != nil {
		next, err = r.ApplyInto(spare, player, Normalize(command), rng)
	} else {
		next, err = s.Apply(player, Normalize(command), rng)
	}
	if err != nil {
		return nil, err
	}
	if unused := rng.Unused(); len(unused) > 0 {
		return nil, fmt.Errorf("dictated outcomes not used: %v", unused)
	}
	return next, nil
}

// Replay folds the archive's first upTo events (all of them when upTo < 0) through the
// game and returns the resulting state. Each move is validated by Apply; recorded hashes
// are verified. The first failing event stops the replay with a *ReplayError. Only the
// last state is kept, and only the last command keeps its journal (see Journaler).
func Replay(reg Registry, a *Archive, upTo int) (State, error) {
	f, err := foldOf(reg, a)
	if err != nil {
		return nil, err
	}
	return f.Run(upTo)
}

// ReplayAll is Replay returning the state after every event (index 0 is the setup),
// each with its journal.
func ReplayAll(reg Registry, a *Archive, upTo int) ([]State, error) {
	f, err := foldOf(reg, a)
	if err != nil {
		return nil, err
	}
	states := []State{f.Base}
	f.Journal, f.Keep = true, true
	f.Visit = func(_ int, s State) error {
		states = append(states, s)
		return nil
	}
	if _, err := f.Run(upTo); err != nil {
		return nil, err
	}
	return states, nil
}

// foldOf starts the replay of a complete archive: its setup is the base.
func foldOf(reg Registry, a *Archive) (*Fold, error) {
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
	return &Fold{Seed: setup.Seed, Events: a.Events, Base: s}, nil
}
