package testgame

import "github.com/turnmail/turnmail/engine"

// Faulty is Tally with defects on purpose, for the tests of failure isolation: the
// command "add 7" panics in Apply; after "add 8" the state's view cannot be encoded
// as JSON (its mails cannot be rendered); the option "explode" panics in New. Its
// engine name is "tally", so it replaces Tally in a registry.
type Faulty struct{ Tally }

// New implements engine.Game.
func (g Faulty) New(setup engine.Setup, rng *engine.Rand) (engine.State, error) {
	if _, ok := setup.Options["explode"]; ok {
		panic("testgame.Faulty: explode")
	}
	st, err := g.Tally.New(setup, rng)
	if err != nil {
		return nil, err
	}
	return faultyState{State: st}, nil
}

type faultyState struct {
	engine.State
	broken bool
}

// Apply implements engine.State, with the defects of Faulty.
func (s faultyState) Apply(player, cmd string, rng *engine.Rand) (engine.State, error) {
	if engine.Normalize(cmd) == "add 7" {
		panic("testgame.Faulty: add 7")
	}
	next, err := s.State.Apply(player, cmd, rng)
	if err != nil {
		return nil, err
	}
	return faultyState{State: next, broken: s.broken || engine.Normalize(cmd) == "add 8"}, nil
}

// View implements engine.State; after "add 8" it cannot be encoded.
func (s faultyState) View(viewer string) any {
	if s.broken {
		return map[string]any{"unencodable": make(chan int)}
	}
	return s.State.View(viewer)
}
