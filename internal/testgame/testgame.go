// Package testgame provides Tally, a tiny game for testing the mail loop: every
// player may always send "add N" (1 ≤ N ≤ 9), so moves commute and a burst of mail
// has one right final state whatever order it is processed in.
package testgame

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Tally is the game; its engine name is "tally".
type Tally struct{}

// Name implements engine.Game.
func (Tally) Name() string { return "tally" }

// New implements engine.Game.
func (Tally) New(setup engine.Setup, _ *engine.Rand) (engine.State, error) {
	s := State{Scores: map[string]int{}}
	for _, p := range setup.Players {
		s.Names = append(s.Names, p.Name)
		s.Scores[p.Name] = 0
	}
	return s, nil
}

// State is a tally: each player's sum and the number of moves.
type State struct {
	Names  []string
	Scores map[string]int
	Moves  int
}

// Apply implements engine.State.
func (s State) Apply(player, cmd string, _ *engine.Rand) (engine.State, error) {
	f := strings.Fields(cmd)
	if len(f) != 2 || f[0] != "add" {
		return nil, &engine.RuleError{Reason: fmt.Sprintf("unknown command %q", cmd), Instead: []string{"add <1-9>"}}
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > 9 {
		return nil, engine.Illegal("add takes a number from 1 to 9, not %q", f[1])
	}
	if _, ok := s.Scores[player]; !ok {
		return nil, engine.Illegal("%s does not play", player)
	}
	next := State{Names: s.Names, Scores: make(map[string]int, len(s.Scores)), Moves: s.Moves + 1}
	for k, v := range s.Scores {
		next.Scores[k] = v
	}
	next.Scores[player] += n
	return next, nil
}

// Legal implements engine.State.
func (s State) Legal(string) []string { return []string{"add <1-9>"} }

// ToAct implements engine.State: everyone may always move.
func (s State) ToAct() []string { return s.Names }

// Turn implements engine.State.
func (s State) Turn() int { return s.Moves + 1 }

// Finished implements engine.State: a tally never ends.
func (s State) Finished() bool { return false }

// Winners implements engine.State.
func (s State) Winners() []string { return nil }

// Hash implements engine.State.
func (s State) Hash() string { return engine.HashJSON(s) }

// View implements engine.State; there is no hidden information.
func (s State) View(string) any {
	type player struct {
		Name  string `json:"name"`
		Score int    `json:"score"`
	}
	v := struct {
		Game    string   `json:"game"`
		Turn    int      `json:"turn"`
		Players []player `json:"players"`
	}{Game: "tally", Turn: s.Moves + 1}
	for _, n := range s.Names {
		v.Players = append(v.Players, player{n, s.Scores[n]})
	}
	return v
}

// Summary is how a state mail shows the tally: "Turn N" and "name: score" lines.
func (s State) Summary() []string {
	out := []string{fmt.Sprintf("Turn %d", s.Moves+1)}
	for _, n := range s.Names {
		out = append(out, fmt.Sprintf("%s: %d", n, s.Scores[n]))
	}
	return out
}
