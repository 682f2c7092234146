package service

import (
	"slices"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// windowState is a state in which some players are asked for a response, each with
// the commands in legal.
type windowState struct {
	engine.State // unused methods panic
	asked        []string
	legal        map[string][]string
}

func (s windowState) ToAct() []string          { return s.asked }
func (s windowState) Legal(p string) []string  { return s.legal[p] }
func (s windowState) Responding(p string) bool { return slices.Contains(s.asked, p) }
func (s windowState) withAsked(ps ...string) windowState {
	s.asked = ps
	return s
}

// TestAskedAlready: a player still asked for the same response after another's
// answer is not mailed again; one whose choices changed, or who was not asked before,
// or who is to act without being asked for a response, is.
func TestAskedAlready(t *testing.T) {
	both := windowState{asked: []string{"ann", "ben"}, legal: map[string][]string{"ann": {"play a39 a21", "pass"}, "ben": {"pass"}}}
	benLeft := both.withAsked("ben")
	changed := windowState{asked: []string{"ben"}, legal: map[string][]string{"ben": {"play a40", "pass"}}}
	for _, c := range []struct {
		name          string
		before, after engine.State
		player        string
		want          bool
	}{
		{"still asked the same", both, benLeft, "ben", true},
		{"the one who answered", both, benLeft, "ann", false},
		{"choices changed", both, changed, "ben", false},
		{"newly asked", benLeft.withAsked(), benLeft, "ben", false},
		{"no state before", nil, benLeft, "ben", false},
	} {
		if got := askedAlready(c.before, c.after, c.player); got != c.want {
			t.Errorf("%s: askedAlready = %v, want %v", c.name, got, c.want)
		}
	}
}
