package engine

import (
	"encoding/json"
	"fmt"
)

// OptionChecker is implemented by games that can check their options before the
// players are known, as when a game is opened by mail and its players join later.
// CheckOptions (the function) uses it when a game has it.
type OptionChecker interface {
	// PlayerRange returns the least and the most players of a game.
	PlayerRange() (min, max int)
	// CheckOptions reports the first unknown option or bad value of options, with an
	// error that names the option and says what it accepts.
	CheckOptions(options map[string]json.RawMessage) error
}

// CheckOptions checks the options of a game of g before it is set up; players is the
// number of seats, 0 when not yet known. A game that is an OptionChecker checks its
// options and the number of players first. Then a game is set up (Game.New) with
// placeholder players — players of them, else the least g allows, else two — which
// finds what only a setup finds (faces that cannot be laid out, an option another
// one excludes). The error says what is wrong, naming the option.
func CheckOptions(g Game, options map[string]json.RawMessage, players int) error {
	n := players
	if oc, ok := g.(OptionChecker); ok {
		if err := oc.CheckOptions(options); err != nil {
			return err
		}
		lo, hi := oc.PlayerRange()
		if players != 0 && (players < lo || players > hi) {
			return fmt.Errorf("%s is for %d to %d players, not %d", g.Name(), lo, hi, players)
		}
		if n == 0 {
			n = lo
		}
	}
	if n == 0 {
		n = 2
	}
	setup := Setup{Game: g.Name(), Options: options, Players: placeholders(n)}
	if _, err := g.New(setup, NewRand(0, 0, nil)); err != nil {
		return err
	}
	return nil
}

// placeholders returns n players named player1 … playerN.
func placeholders(n int) []Player {
	out := make([]Player, n)
	for i := range out {
		out[i] = Player{Name: fmt.Sprintf("player%d", i+1)}
	}
	return out
}

// Sampler is implemented by games whose options change what a game holds (variants,
// boards): tests that play every registered game (internal/selfplay) play these option
// sets besides the defaults. Each set must suit every number of players the game allows.
type Sampler interface {
	SampleOptions() []map[string]json.RawMessage
}
