// Package testgame provides Tally, a tiny game for testing the mail loop: every
// player may always send "add N" (1 ≤ N ≤ 9), so moves commute and a burst of mail
// has one right final state whatever order it is processed in.
//
// Two options change that for the tests of running games: "target": N ends the game
// when a player's sum reaches N (they win), and "turns": true makes the players move
// one after the other, each turn one "add N" or "pass"; "pass" is also what a player
// who misses a deadline does (engine.Skipper).
package testgame

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Tally is the game; its engine name is "tally".
type Tally struct{}

// Name implements engine.Game.
func (Tally) Name() string { return "tally" }

// Words implements engine.Worder.
func (Tally) Words() []string { return []string{"add", "pass"} }

// New implements engine.Game.
func (Tally) New(setup engine.Setup, _ *engine.Rand) (engine.State, error) {
	s := State{Scores: map[string]int{}}
	for k, v := range setup.Options {
		switch k {
		case "target":
			var n int
			if err := json.Unmarshal(v, &n); err != nil {
				var str string
				if json.Unmarshal(v, &str) != nil || func() error { _, err := fmt.Sscan(str, &n); return err }() != nil {
					return nil, fmt.Errorf("tally: target %s is not a number", v)
				}
			}
			s.Target = n
		case "turns":
			var b bool
			if err := json.Unmarshal(v, &b); err != nil {
				var str string
				_ = json.Unmarshal(v, &str)
				b = str == "true" || str == "yes" || str == "1"
			}
			s.Turns = b
		default:
			return nil, fmt.Errorf("tally: unknown option %q (known: target, turns)", k)
		}
	}
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
	// Target ends the game when a sum reaches it (0: never).
	Target int `json:",omitempty"`
	// Turns makes the players move in turn order.
	Turns bool `json:",omitempty"`
}

// current is the player to move in turns mode.
func (s State) current() string { return s.Names[s.Moves%len(s.Names)] }

// Apply implements engine.State.
func (s State) Apply(player, cmd string, _ *engine.Rand) (engine.State, error) {
	if s.Finished() {
		return nil, engine.Illegal("the game is over")
	}
	if _, ok := s.Scores[player]; !ok {
		return nil, engine.Illegal("%s does not play", player)
	}
	if s.Turns && player != s.current() {
		return nil, engine.Illegal("it is %s's turn", s.current())
	}
	f := strings.Fields(cmd)
	n := 0
	switch {
	case s.Turns && len(f) == 1 && f[0] == "pass":
	case len(f) == 2 && f[0] == "add":
		var err error
		n, err = strconv.Atoi(f[1])
		if err != nil || n < 1 || n > 9 {
			return nil, engine.Illegal("add takes a number from 1 to 9, not %q", f[1])
		}
	default:
		return nil, &engine.RuleError{Reason: fmt.Sprintf("unknown command %q", cmd), Instead: s.Legal(player)}
	}
	next := State{Names: s.Names, Scores: make(map[string]int, len(s.Scores)), Moves: s.Moves + 1, Target: s.Target, Turns: s.Turns}
	for k, v := range s.Scores {
		next.Scores[k] = v
	}
	next.Scores[player] += n
	return next, nil
}

// Legal implements engine.State.
func (s State) Legal(player string) []string {
	switch {
	case s.Finished():
		return nil
	case s.Turns && player != s.current():
		return nil
	case s.Turns:
		return []string{"add <1-9>", "pass"}
	}
	return []string{"add <1-9>"}
}

// ToAct implements engine.State: everyone may always move (in turns mode, the
// player whose turn it is).
func (s State) ToAct() []string {
	switch {
	case s.Finished():
		return nil
	case s.Turns:
		return []string{s.current()}
	}
	return s.Names
}

// SkipCommands implements engine.Skipper: in turns mode a late player passes.
func (s State) SkipCommands(player string) []string {
	if s.Turns && !s.Finished() && player == s.current() {
		return []string{"pass"}
	}
	return nil
}

// Turn implements engine.State.
func (s State) Turn() int { return s.Moves + 1 }

// Finished implements engine.State: a tally ends only when a sum reaches the target.
func (s State) Finished() bool { return len(s.Winners()) > 0 }

// Winners implements engine.State: the players whose sum reached the target.
func (s State) Winners() []string {
	if s.Target <= 0 {
		return nil
	}
	var w []string
	for _, n := range s.Names {
		if s.Scores[n] >= s.Target {
			w = append(w, n)
		}
	}
	return w
}

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

var _ engine.Snapshotter = State{}

// Snapshot implements engine.Snapshotter.
func (s State) Snapshot() ([]byte, error) { return json.Marshal(s) }

// Restore implements engine.Snapshotter.
func (s State) Restore(data []byte) (engine.State, error) {
	var n State
	if err := engine.DecodeStrict(data, &n); err != nil {
		return nil, fmt.Errorf("tally: %w", err)
	}
	return n, nil
}
