package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestFold replays the race game from states it reached: from the setup or from a
// mid-game state, with undos that go back before the base (StateAt) or after it.
func TestFold(t *testing.T) {
	undo := engine.Event{Kind: engine.KindUndo, Command: "agreed"}
	admin := engine.Event{Kind: engine.KindAdmin, Command: "pause"}
	events := []engine.Event{
		move("alice", "add 1"), move("bob", "add 2"), admin, move("alice", "add 3"), // 1–4
		undo, undo, move("bob", "add 1"), move("alice", "add 2"), undo, // 5–9
		move("alice", "add 1"), // 10
	}
	a := archive(events...)
	all, err := engine.ReplayAll(reg, a, -1)
	if err != nil {
		t.Fatal(err)
	}
	total := func(s engine.State) int { return s.(raceState).Total }
	tests := []struct {
		name    string
		base    int
		stateAt bool
		wantErr string
	}{
		{"from the setup", 0, false, ""},
		{"after an admin event", 3, true, ""},
		{"undos back past the base", 4, true, ""},
		{"undos back past the base without StateAt", 4, false, "before the replay's start"},
		{"from the last undo", 9, true, ""},
		{"from the end", 10, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := engine.Fold{Seed: 7, Events: a.Events, Base: all[tt.base], BaseSeq: tt.base}
			var asked []int
			if tt.stateAt {
				f.StateAt = func(seq int) (engine.State, error) {
					asked = append(asked, seq)
					return all[seq], nil
				}
			}
			var seen []int
			f.Visit = func(seq int, s engine.State) error {
				if got, want := total(s), total(all[seq]); got != want {
					t.Errorf("after event %d: total %d, want %d", seq, got, want)
				}
				seen = append(seen, seq)
				return nil
			}
			got, err := f.Run(-1)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if total(got) != total(all[len(events)]) {
				t.Errorf("total %d, want %d", total(got), total(all[len(events)]))
			}
			if len(seen) != len(events)-tt.base {
				t.Errorf("visited %v, want the events after %d", seen, tt.base)
			}
			for _, seq := range asked {
				if seq >= tt.base {
					t.Errorf("StateAt(%d) asked, but the base is event %d", seq, tt.base)
				}
			}
		})
	}
}

// TestFold_stopsAtFirstBadEvent checks that a fold names the event it stopped at and
// that a base after the requested event is refused.
func TestFold_stopsAtFirstBadEvent(t *testing.T) {
	a := archive(move("alice", "add 1"), move("alice", "add 1"))
	s0, _, err := engine.Start(race{}, engine.Setup{Players: a.Players, Seed: 7}, a.SetupOutcomes)
	if err != nil {
		t.Fatal(err)
	}
	f := engine.Fold{Seed: 7, Events: a.Events, Base: s0}
	_, err = f.Run(-1)
	var re *engine.ReplayError
	if !errors.As(err, &re) || re.Index != 2 {
		t.Fatalf("err = %v, want a ReplayError at event 2", err)
	}
	f.BaseSeq = 2
	if _, err := f.Run(1); err == nil {
		t.Fatal("a fold asked for event 1 from a base after event 2 did not fail")
	}
}
