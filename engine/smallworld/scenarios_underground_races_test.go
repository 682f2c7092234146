package smallworld

import "testing"

// Scenario tests of the Underground races, on the 2-player board (rulebook §3,
// shared/rules/smallworld-underground.en.md; region 23 is an edge mud pool with two
// monsters, 25 and 3 the edge rivers, 26 an edge mine, 27 an edge mud pool).
func TestUndergroundRaces(t *testing.T) {
	start := func(t *testing.T, race string) *state {
		t.Helper()
		s, _ := newUnderground(t, 2, nil, `{"races":["`+race+`","Humans"],"powers":["Spirit","Stout"]}`)
		return apply(t, s, "alice: pick 1")
	}
	cases := map[string]func(t *testing.T){
		// Ogres (§3.11): every conquest costs 1 fewer token, at least 1.
		"Ogres": func(t *testing.T) {
			s := start(t, "Ogres") // 5 + 5
			s = apply(t, s, "alice: conquer 23")
			hand(t, s, "alice", 7) // 2 + 2 monsters − 1
			s = apply(t, s, "alice: conquer 27", "alice: conquer 26", "alice: conquer 25")
			hand(t, s, "alice", 4) // 1 + 1 + 1 (the river stays at 1)
		},
		// Mummies (§3.10): every conquest costs 1 more token (an empty river 2).
		"Mummies": func(t *testing.T) {
			s := start(t, "Mummies") // 10 + 5
			s = apply(t, s, "alice: conquer 23")
			hand(t, s, "alice", 10) // 2 + 2 + 1
			s = apply(t, s, "alice: conquer 27", "alice: conquer 26", "alice: conquer 25")
			hand(t, s, "alice", 2) // 3 + 3 + 2
		},
		// Drow (§3.2): +1 per region bordering no region of another race or monsters.
		"Drow": func(t *testing.T) {
			s := start(t, "Drow") // 4 + 5
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done")
			coins(t, s, "alice", 8) // 2 regions + 26 alone (27 borders the monsters of 23)
			s = apply(t, s, "bob: pick 1", "bob: conquer 25", "bob: done")
			// The river bob's token left is empty again: 26 is still alone.
			s = apply(t, s, "alice: done")
			coins(t, s, "alice", 11)
		},
		// Shrooms (§3.13): +1 per Mushroom Forest occupied.
		"Shrooms": func(t *testing.T) {
			s := start(t, "Shrooms") // 5 + 5
			s = apply(t, s, "alice: conquer 5", "alice: conquer 4", "alice: done")
			coins(t, s, "alice", 8) // 2 regions + mushroom 5
		},
		// Kraken (§3.6): they need not leave rivers, hold and score them, in decline
		// too; a Kraken river is conquered at the normal cost (2 + tokens, ★ §7.5).
		"Kraken": func(t *testing.T) {
			s := start(t, "Kraken") // 5 + 5
			s = apply(t, s, "alice: conquer 3", "alice: conquer 21", "alice: done")
			held(t, s, 3, "alice", "Kraken", 5)
			held(t, s, 21, "alice", "Kraken", 5)
			coins(t, s, "alice", 7)
			// Bob's Humans (5 + 4) take river 3 at 2 + 5 Kraken tokens, and leave it.
			s = apply(t, s, "bob: pick 1", "bob: conquer 3")
			held(t, s, 3, "bob", "Humans", 7)
			s = apply(t, s, "bob: done")
			held(t, s, 3, "", "", 0)
			hand(t, s, "alice", 8) // 21 readied: 5 + the 4 left after losing one, but one
			held(t, s, 21, "alice", "Kraken", 1)
			s = apply(t, s, "alice: decline")
			held(t, s, 21, "alice", "Kraken", 1)
			isDeclined(t, s, 21, true)
			coins(t, s, "alice", 8) // the declined Kraken score their river
		},
	}
	for name, f := range cases {
		t.Run(name, f)
	}
}
