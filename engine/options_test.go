package engine_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// picky is a game for three players exactly, with one option "size" (a number) that
// only its setup checks beyond the checker: a size above 9 fails in New.
type picky struct{ players *int }

func (picky) Name() string { return "picky" }

func (g picky) New(setup engine.Setup, _ *engine.Rand) (engine.State, error) {
	*g.players = len(setup.Players)
	var size int
	if raw, ok := setup.Options["size"]; ok {
		_ = json.Unmarshal(raw, &size)
	}
	if size > 9 {
		return nil, errors.New("picky: size=10 is too big for the table")
	}
	return nil, nil
}

func (picky) PlayerRange() (int, int) { return 3, 3 }

func (picky) CheckOptions(opts map[string]json.RawMessage) error {
	for k, v := range opts {
		var n int
		if k != "size" || json.Unmarshal(v, &n) != nil {
			return fmt.Errorf("picky: %s=%s: use size=N", k, v)
		}
	}
	return nil
}

// plain is a game without an OptionChecker: only its setup can refuse options.
type plain struct{ players *int }

func (plain) Name() string { return "plain" }

func (g plain) New(setup engine.Setup, _ *engine.Rand) (engine.State, error) {
	*g.players = len(setup.Players)
	if _, ok := setup.Options["bad"]; ok {
		return nil, errors.New("plain: no option bad")
	}
	return nil, nil
}

func TestCheckOptions(t *testing.T) {
	tests := []struct {
		name    string
		game    func(n *int) engine.Game
		opts    string
		players int
		// wantErr is a substring of the error ("" for none); wantSetup the number of
		// placeholder players the trial setup got (0: not reached).
		wantErr   string
		wantSetup int
	}{
		{"checker accepts, setup with the least players", func(n *int) engine.Game { return picky{n} }, `{"size":3}`, 0, "", 3},
		{"checker refuses an unknown option", func(n *int) engine.Game { return picky{n} }, `{"colour":"red"}`, 0, "colour", 0},
		{"checker refuses a bad value", func(n *int) engine.Game { return picky{n} }, `{"size":"big"}`, 0, "use size=N", 0},
		{"too many players", func(n *int) engine.Game { return picky{n} }, `{}`, 5, "picky is for 3 to 3 players, not 5", 0},
		{"too few players", func(n *int) engine.Game { return picky{n} }, `{}`, 2, "not 2", 0},
		{"setup finds what the checker cannot", func(n *int) engine.Game { return picky{n} }, `{"size":10}`, 0, "too big", 3},
		{"no checker: setup with two players", func(n *int) engine.Game { return plain{n} }, `{}`, 0, "", 2},
		{"no checker: setup with the seats given", func(n *int) engine.Game { return plain{n} }, `{}`, 4, "", 4},
		{"no checker: setup refuses", func(n *int) engine.Game { return plain{n} }, `{"bad":1}`, 0, "no option bad", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tt.opts), &opts); err != nil {
				t.Fatal(err)
			}
			setup := 0
			err := engine.CheckOptions(tt.game(&setup), opts, tt.players)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			if setup != tt.wantSetup {
				t.Errorf("trial setup with %d players, want %d", setup, tt.wantSetup)
			}
		})
	}
}
