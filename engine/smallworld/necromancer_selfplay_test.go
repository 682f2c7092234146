package smallworld

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// ghostsOf counts the Necromancer's Ghosts: on the map and the Island, in hand, in
// reserve and in the Well.
func ghostsOf(s *state, n *necroState) int {
	return s.boardTokens(int(n.P), slotActive) + s.army(int(n.P), slotActive).Hand + n.Reserve + n.WellGhosts
}

// checkGhosts: no Ghost is made or lost, the Well and the reserve never go negative,
// the Island stays the Necromancer's, and a Necromancer without Ghosts in reserve or
// in the Well has won.
func checkGhosts(before, after *state, n *necroState, fail func(string, ...any)) {
	b := before.Scn.(*necroState)
	if got, was := ghostsOf(after, n), ghostsOf(before, b); got != was || got < ghostsInReserve+1-maxDifficulty || got > ghostsInReserve+1 {
		fail("%d Ghosts, %d before", got, was)
	}
	if n.Reserve < 0 || n.WellGhosts < 0 || n.WellSouls < 0 || n.WellGhosts+n.WellSouls >= soulsPerGhost && len(after.Pending) == 0 && !after.T.Acted && !after.Over {
		fail("reserve %d, Well %d Ghosts + %d souls between turns", n.Reserve, n.WellGhosts, n.WellSouls)
	}
	if g := after.Regions[n.Lake]; int(g.Owner) != int(n.P) || g.Slot != slotActive || after.pieces(int(n.Lake), island) != 1 {
		fail("the Island is %+v", g)
	}
	if n.Reserve == 0 && n.WellGhosts == 0 && !(after.Over && len(after.Win) == 1 && after.Win[0] == after.names[n.P]) {
		fail("no Ghost left in reserve or Well but the Necromancer has not won")
	}
	if after.Over && after.TurnNo <= after.b.turns && len(after.Win) > 0 && after.Win[0] == after.names[n.P] && (n.Reserve > 0 || n.WellGhosts > 0) {
		fail("the Necromancer won with Ghosts left")
	}
}

// TestNecromancerSelfPlay plays seeded games of 3 to 6 players with random legal
// commands to the end: every listed command applies, unlisted ones are refused, the
// invariants (checkInvariants, checkGhosts) hold after every command, and the
// archive replays to the same hash.
func TestNecromancerSelfPlay(t *testing.T) {
	t.Parallel()
	games := 24
	switch {
	case *soak || os.Getenv("TURNMAIL_SOAK") == "1":
		games = 600
	case testing.Short(): // make race
		games = 8
	}
	necroWins := 0
	for i := range games {
		players := 3 + i%4
		opts := map[string]json.RawMessage{}
		if d := (i / 4) % 3; d > 0 {
			opts["difficulty"] = json.RawMessage(fmt.Sprint(d))
		}
		seed := int64(5000 + i)
		t.Run(fmt.Sprintf("%dp-%d", players, seed), func(t *testing.T) {
			a := selfPlayGame(t, Necromancer{}, seed, players, opts, currentRules, true)
			s, err := engine.Replay(registry, a, -1)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			if !s.Finished() {
				t.Fatalf("replayed game is not finished")
			}
			if got, want := s.Hash(), a.Events[len(a.Events)-1].Hash; got != want {
				t.Fatalf("replay hash %s, recorded %s", got, want)
			}
			if st := s.(*state); st.Win[0] == st.names[players-1] {
				necroWins++
			}
		})
	}
	t.Logf("the Necromancer won %d of %d games", necroWins, games)
}
