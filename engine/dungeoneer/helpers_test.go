package dungeoneer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// fresh returns a game of n players (Alice, Bob, …) in Alice's Dungeon Lord phase, on
// a map of the Entrance alone, every hero Tamsin (h6: Speed 2, +1 Movement) with empty
// hands, and no quests.
func fresh(t *testing.T, n int) *state {
	t.Helper()
	setup := engine.Setup{Game: "dungeoneer", Seed: 1}
	for i := range n {
		setup.Players = append(setup.Players, engine.Player{Name: names[i]})
	}
	st, err := Game{}.New(setup, engine.NewRand(1, 0, nil))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	for i := range s.Seats {
		h := &s.Seats[i]
		h.Name, h.Hero, h.Hand, h.Quests = names[i], "h6", nil, nil
	}
	s.Grid = s.Grid[:1]
	s.MapDeck = nil
	s.Global = ""
	s.startTurn(0)
	return s
}

// place puts map card id on the grid.
func place(s *state, id string, x, y, rot int) {
	s.Grid = append(s.Grid, Placed{ID: id, X: x, Y: y, Rot: rot})
	s.MapDeck = slices.DeleteFunc(s.MapDeck, func(m string) bool { return m == id })
}

// dice dictates the die rolls of one command, in order.
func dice(rolls ...int) *engine.Rand {
	out := engine.Outcomes{}
	for i, r := range rolls {
		key := "die"
		if i > 0 {
			key = fmt.Sprintf("die.%d", i+1)
		}
		out[key] = json.RawMessage(fmt.Sprint(r))
	}
	return engine.NewRand(1, 1, out)
}

// do applies cmd for player and fails the test on an error. When cmd opens a
// response window (the Dungeon Lord's declarations closed, an always Bane played),
// the heroes struck who hold no response (pass is all they may send) pass, as a
// standing order "respond never" does, with the same rng: the resolution, and its
// dice, follow at once. Scenarios of responses give heroes something to respond with.
func do(t *testing.T, s *state, player, cmd string, rng *engine.Rand) *state {
	t.Helper()
	if rng == nil {
		rng = engine.NewRand(1, 1, nil)
	}
	next, err := s.Apply(player, cmd, rng)
	if err != nil {
		t.Fatalf("%s %q: %v", player, cmd, err)
	}
	ns := next.(*state)
	for s.Phase != phRespond && ns.Phase == phRespond {
		passed := false
		for _, p := range ns.ToAct() {
			if legal := ns.Legal(p); slices.Equal(legal, []string{"pass"}) {
				next, err := ns.Apply(p, "pass", rng)
				if err != nil {
					t.Fatalf("%s pass: %v", p, err)
				}
				ns, passed = next.(*state), true
				break
			}
		}
		if !passed {
			break
		}
	}
	return ns
}

// illegal checks that cmd is refused and not listed.
func illegal(t *testing.T, s *state, player, cmd string) {
	t.Helper()
	if _, err := s.Apply(player, cmd, engine.NewRand(1, 1, nil)); err == nil {
		t.Fatalf("%s %q is accepted", player, cmd)
	}
	if slices.Contains(expanded(s.Legal(player)), cmd) {
		t.Fatalf("%s %q is listed", player, cmd)
	}
}

// toHero ends Alice's Dungeon Lord phase (no map card to build) so she is in her hero
// phase.
func toHero(t *testing.T, s *state) *state {
	t.Helper()
	s = do(t, s, "Alice", "done", nil)
	if s.Phase != phHero {
		t.Fatalf("phase %s, want hero", s.Phase)
	}
	return s
}

// expanded turns a Legal list into the commands it stands for: an entry with a choice
// of rotations ("build m02 at 0,-1 rot <0,180>") becomes one command per rotation.
func expanded(legal []string) []string {
	var out []string
	for _, e := range legal {
		prefix, choice, ok := strings.Cut(e, "<")
		if !ok {
			out = append(out, e)
			continue
		}
		for _, r := range strings.Split(strings.TrimSuffix(choice, ">"), ",") {
			out = append(out, prefix+r)
		}
	}
	return out
}
