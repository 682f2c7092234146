package smallworld

import (
	"strings"
	"testing"
)

// Scenario tests of the Underground races, on the 2-player board (rulebook §3,
// shared/rules/smallworld-underground.en.md; region 23 is an edge mud pool with two
// monsters, 25 and 3 the edge rivers, 26 an edge mine, 27 an edge mud pool).
func TestUndergroundRaces(t *testing.T) {
	// Bob plays active Liches (no ability while active), or Ratmen against Liches.
	start := func(t *testing.T, race string) *state {
		t.Helper()
		other := "Liches"
		if race == other {
			other = "Ratmen"
		}
		s, _ := newUnderground(t, 2, nil, `{"races":["`+race+`","`+other+`"],"powers":["Spirit","Stout"]}`)
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
			// Bob's Liches (5 + 4) take river 3 at 2 + 5 Kraken tokens, and leave it.
			s = apply(t, s, "bob: pick 1", "bob: conquer 3")
			held(t, s, 3, "bob", "Liches", 7)
			s = apply(t, s, "bob: done")
			held(t, s, 3, "", "", 0)
			hand(t, s, "alice", 8) // 21 readied: 5 + the 4 left after losing one, but one
			held(t, s, 21, "alice", "Kraken", 1)
			s = apply(t, s, "alice: decline")
			held(t, s, 21, "alice", "Kraken", 1)
			isDeclined(t, s, 21, true)
			coins(t, s, "alice", 8) // the declined Kraken score their river
		},
		// Liches (§3.7; sources §4, ★ §7.12): once in decline, an opponent conquering a
		// Lich region pays its owner 1 coin; one with no coins cannot conquer it.
		"Liches": func(t *testing.T) {
			s := start(t, "Liches") // 5 + 5
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done")
			coins(t, s, "alice", 7)
			s = apply(t, s, "bob: pick 1", "bob: done", "alice: decline")
			coins(t, s, "alice", 9)
			coins(t, s, "bob", 5)
			s = apply(t, s, "bob: conquer 26")
			coins(t, s, "bob", 4)
			coins(t, s, "alice", 10)
			// Active Liches take nothing; the player's own new race pays nothing.
			s = apply(t, s, "bob: done", "alice: pick 1", "alice: conquer 27")
			coins(t, s, "alice", 10)
			// A player with no coins is kept out.
			s = start(t, "Liches")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done", "bob: pick 1", "bob: done", "alice: decline")
			s.Players[1].Coins = 0
			rejects(t, s, "bob", "conquer 26", "declined Liches", "no")
			s.Players[1].Coins = 1
			s = apply(t, s, "bob: conquer 26")
			coins(t, s, "bob", 0)
		},
		// Lizardmen (§3.8, ★ §7.8): a region across a chain of rivers is adjacent; the
		// rivers are crossed, not conquered. Choice: the first conquest may cross an
		// edge river.
		"Lizardmen": func(t *testing.T) {
			s := start(t, "Lizardmen") // 7 + 5
			rejects(t, s, "alice", "conquer 12", "not a border region")
			s = apply(t, s, "alice: conquer 9") // inland, across the edge river 3
			hand(t, s, "alice", 10)
			s = apply(t, s, "alice: conquer 22") // across 3 and 21
			hand(t, s, "alice", 8)
			held(t, s, 3, "", "", 0)
			held(t, s, 21, "", "", 0)
			rejects(t, s, "alice", "conquer 5", "not adjacent")
			legalHas(t, s, "alice", "conquer 20", "conquer 26", "conquer 13")
		},
		// Mudmen (§3.9): one more Mudman per Mud Pool held when conquests end, up to
		// the box's 12.
		"Mudmen": func(t *testing.T) {
			s := start(t, "Mudmen") // 5 + 5
			mudmen := func(want int) {
				t.Helper()
				if n := view(s).Players[0].Tokens; n != want {
					t.Errorf("alice has %d Mudmen on the map, want %d", n, want)
				}
			}
			s = apply(t, s, "alice: conquer 27", "alice: conquer 26", "alice: done")
			mudmen(11) // 10 + 1 mud pool
			s = apply(t, s, "bob: pick 1", "bob: done", "alice: done")
			mudmen(12)
			s = apply(t, s, "bob: done", "alice: done")
			mudmen(12) // the box is empty
		},
		// Spiderines (§3.14, sources §4): a region bordering a chasm counts as adjacent
		// to their regions; the first conquest may be any region bordering a chasm.
		"Spiderines": func(t *testing.T) {
			s := start(t, "Spiderines")          // 7 + 5
			s = apply(t, s, "alice: conquer 10") // inland, borders chasm 15
			s = apply(t, s, "alice: conquer 18") // borders chasm 24, far from 10
			hand(t, s, "alice", 8)
			rejects(t, s, "alice", "conquer 5", "not adjacent")
			legalHas(t, s, "alice", "conquer 27", "conquer 2", "conquer 11")
		},
		// Shadow Mimes (§3.12, ★ §7.19): right after taking them, swap their power with
		// another visible combo's; its coins stay there; 7 + the new badge's tokens.
		"Shadow Mimes": func(t *testing.T) {
			s, _ := newUnderground(t, 2, nil, `{"races":["Liches","Shadow Mimes"],"powers":["Stout","Spirit"]}`)
			s = apply(t, s, "alice: pick 2") // 7 + Spirit 5; a coin on combo 1
			hand(t, s, "alice", 12)
			legalHas(t, s, "alice", "swap 1", "swap 5")
			rejects(t, s, "bob", "swap 1")
			rejects(t, s, "alice", "swap 6", "positions 1–5")
			s = apply(t, s, "alice: swap 1")
			hand(t, s, "alice", 11) // 7 + Stout 4
			if a := s.Players[0].Armies[slotActive]; a.Power != "Stout" || s.Offer[0].Power != "Spirit" || s.Offer[0].Coins != 1 {
				t.Errorf("after the swap: alice %s, combo 1 %+v", a.Power, s.Offer[0])
			}
			rejects(t, s, "alice", "swap 2", "right after")
			s = apply(t, s, "alice: conquer 26", "alice: decline") // Stout: decline ends the turn
			s = apply(t, s, "bob: pick 1")
			coins(t, s, "bob", 6)
			if a := s.Players[1].Armies[slotActive]; a.Race != "Liches" || a.Power != "Spirit" {
				t.Errorf("bob took %s %s", a.Power, a.Race)
			}
			// A swap is refused after a conquest.
			s, _ = newUnderground(t, 2, nil, `{"races":["Shadow Mimes","Liches"],"powers":["Stout","Spirit"]}`)
			s = apply(t, s, "alice: pick 1", "alice: conquer 26")
			rejects(t, s, "alice", "swap 1", "before conquering")
		},
		// Will-o'-Wisps (§3.15, ★ §7.9): before conquering a Crystal Grove or a region
		// next to one they hold, name it and roll: it takes the cost minus the roll
		// (at least 1), conquered at once; a shortfall ends the conquests.
		"Will-o'-Wisps": func(t *testing.T) {
			s := start(t, "Will-o'-Wisps") // 6 + 5
			s = apply(t, s, "alice: conquer 26")
			rejects(t, s, "alice", "wisp 27", "Crystal Grove")
			s = stepDie(t, s, "alice", "wisp 22", 3) // a crystal: 2 − 3, at least 1
			held(t, s, 22, "alice", "Will-o'-Wisps", 1)
			s = apply(t, s, "alice: conquer 27", "alice: conquer 21") // 5 in hand
			legalHas(t, s, "alice", "wisp 14", "wisp 16", "wisp 23")
			won := stepDie(t, s, "alice", "wisp 14", 1) // next to crystal 22: 2 + 2 monsters + 1, − 1
			held(t, won, 14, "alice", "Will-o'-Wisps", 4)
			hand(t, won, "alice", 1)
			s = apply(t, s, "alice: conquer 16") // 2 in hand
			lost := stepDie(t, s, "alice", "wisp 14", 0)
			held(t, lost, 14, "monsters", "", 2)
			rejects(t, lost, "alice", "conquer 15", "over")
		},
		// Cultists (§3.1, ★ §7.11): the Great Ancient goes in their first region, which
		// it makes immune; conquests next to it cost 1 fewer; it moves at the start of
		// a later turn; it leaves the map when they decline.
		"Cultists": func(t *testing.T) {
			s := start(t, "Cultists") // 5 + 5
			s = apply(t, s, "alice: conquer 26")
			pieces(t, s, 26, Pieces{"great_ancient": 1})
			s = apply(t, s, "alice: conquer 27", "alice: conquer 22") // 1 each, next to it
			hand(t, s, "alice", 6)
			s = apply(t, s, "alice: conquer 23") // 2 + 2 monsters: not next to it
			hand(t, s, "alice", 2)
			pieces(t, s, 27, Pieces{})
			legalLacks(t, s, "alice", "ancient 27") // not in the turn of the first conquest
			s = apply(t, s, "alice: done", "bob: pick 1")
			rejects(t, s, "bob", "conquer 26", "Great Ancient")
			s = apply(t, s, "bob: conquer 25", "bob: done")
			rejects(t, s, "alice", "ancient 26", "already")
			rejects(t, s, "alice", "ancient 20", "not held")
			s = apply(t, s, "alice: ancient 22")
			pieces(t, s, 26, Pieces{})
			pieces(t, s, 22, Pieces{"great_ancient": 1})
			rejects(t, s, "alice", "ancient 27", "start of your turn")
			s = apply(t, s, "alice: done", "bob: done", "alice: decline")
			pieces(t, s, 22, Pieces{})
		},
		// Iron Dwarves (§3.5, ★ §7.11): a silver hammer per Mine held at the end of the
		// redeployment; from the next turn the hammers conquer like tokens, then come
		// off the map at the end of the redeployment (they never defend).
		"Iron Dwarves": func(t *testing.T) {
			s := start(t, "Iron Dwarves") // 7 + 5
			dwarves := func(hammersHeld, onMap, inPlay int) {
				t.Helper()
				if a := s.army(0, slotActive); a.get(hammers) != hammersHeld || view(s).Players[0].Tokens != onMap || s.inPlay("Iron Dwarves") != inPlay {
					t.Errorf("hammers %d, on the map %d, in play %d; want %d, %d, %d", a.get(hammers), view(s).Players[0].Tokens, s.inPlay("Iron Dwarves"), hammersHeld, onMap, inPlay)
				}
			}
			s = apply(t, s, "alice: conquer 26", "alice: conquer 22", "alice: done")
			dwarves(1, 12, 12) // mine 26
			s = apply(t, s, "bob: pick 1", "bob: done")
			hand(t, s, "alice", 11) // 10 readied + the hammer
			dwarves(1, 2, 12)
			s = apply(t, s, "alice: conquer 25", "alice: conquer 19") // 1 + 4 (monsters)
			hand(t, s, "alice", 6)
			s = apply(t, s, "alice: done")
			dwarves(3, 12, 12) // the hammer is back, and one more per mine (26, 19)
			s = apply(t, s, "bob: done")
			hand(t, s, "alice", 12) // 9 readied (3 regions) + 3 hammers
			s = apply(t, s, "alice: decline")
			dwarves(0, 3, 3)
		},
		// Flames (§3.3; sources §4; ★ §7.4, §7.11): the Volcano on a volcano chasm when
		// taken; they enter next to it; regions next to it, or to Flames regions joined
		// to it, are conquered as if empty (pieces and Black Mountains still count).
		"Flames": func(t *testing.T) {
			s := start(t, "Flames") // 4 + 5
			pieces(t, s, 1, Pieces{"volcano": 1})
			rejects(t, s, "alice", "conquer 26", "not a border region")
			rejects(t, s, "alice", "volcano 17", "volcano symbol")
			s = apply(t, s, "alice: volcano 15")
			pieces(t, s, 1, Pieces{})
			pieces(t, s, 15, Pieces{"volcano": 1})
			s = apply(t, s, "alice: conquer 14") // 2 monsters ignored; + the Black Mountain
			hand(t, s, "alice", 6)
			rejects(t, s, "alice", "volcano 1", "before they conquer")
			s = apply(t, s, "alice: conquer 22", "alice: conquer 23") // 23 next to 22, joined to the Volcano
			hand(t, s, "alice", 2)
			s = apply(t, s, "alice: done", "bob: pick 1", "bob: done", "alice: decline")
			pieces(t, s, 15, Pieces{})
		},
		// Gnomes (§3.4, sources §4, ★ §7.10): an opponent's abilities do not help him
		// conquer a Gnome region: no cost cut, no extra adjacency; increases apply.
		"Gnomes": func(t *testing.T) {
			for _, tc := range []struct{ race, moves, target string }{
				{"Ogres", "bob: conquer 25", "26"},      // −1 ignored
				{"Mummies", "bob: conquer 25", "26"},    // +1 kept
				{"Spiderines", "bob: conquer 10", "27"}, // 27 borders chasm 28
			} {
				s, _ := newUnderground(t, 2, nil, `{"races":["Gnomes","`+tc.race+`"],"powers":["Spirit","Stout"]}`)
				s = apply(t, s, "alice: pick 1", "alice: conquer 26", "alice: conquer 27", "alice: done", "bob: pick 1", tc.moves)
				r := s.b.index[atoi(tc.target)]
				want := 2 + int(s.Regions[r].Tokens)
				switch tc.race {
				case "Mummies":
					want++
				case "Spiderines":
					rejects(t, s, "bob", "conquer 27", "not adjacent")
					legalHas(t, s, "bob", "conquer 2") // an empty region beside a chasm
				}
				if got := s.cost(1, slotActive, r); got != want {
					t.Errorf("%s attack Gnome region %s for %d, want %d", tc.race, tc.target, got, want)
				}
			}
			// Declined Gnomes are not shielded (★ §7.10: active only).
			s, _ := newUnderground(t, 2, nil, `{"races":["Gnomes","Ogres"],"powers":["Spirit","Stout"]}`)
			s = apply(t, s, "alice: pick 1", "alice: conquer 26", "alice: done", "bob: pick 1", "bob: done", "alice: decline", "bob: conquer 25")
			if got := s.cost(1, slotActive, s.b.index[26]); got != 2 {
				t.Errorf("Ogres attack a declined Gnome for %d, want 2 + 1 − 1", got)
			}
		},
	}
	for name, f := range cases {
		t.Run(name, f)
	}
}

// TestUndergroundRiverOnlyRedeploy: an army that holds only a river holds nothing
// once conquests end (the token leaves it), so Legal offers no redeploy it could not
// carry out.
func TestUndergroundRiverOnlyRedeploy(t *testing.T) {
	s, _ := newUnderground(t, 2, nil, `{"races":["Ogres","Liches"],"powers":["Spirit","Stout"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 25")
	for _, c := range s.Legal("alice") {
		if strings.HasPrefix(c, "redeploy") {
			t.Errorf("Legal lists %q", c)
		}
	}
	rejects(t, s, "alice", "redeploy 25=1")
}

// TestIronDwarvesHammerOnlyRegions: when the hammers come off the map and the Dwarves
// hold more regions than Dwarves, the regions only a hammer holds are abandoned,
// highest id first (a choice: the rule keeps a Dwarf in every region).
func TestIronDwarvesHammerOnlyRegions(t *testing.T) {
	s, _ := newUnderground(t, 2, nil, `{"races":["Iron Dwarves","Liches"],"powers":["Commando","Stout"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 26", "alice: conquer 27", "alice: conquer 22", "alice: done") // 7 + 4
	s.army(0, slotActive).set(hammers, hammerBox)                                                                  // as if they had taken all seven
	s = apply(t, s, "bob: pick 1", "bob: done")
	hand(t, s, "alice", 15) // 8 readied + 7 hammers
	for _, id := range []string{"21", "20", "13", "3", "2", "4", "9", "10", "5", "11", "6", "16", "25"} {
		s = apply(t, s, "alice: conquer "+id) // 1 each with Commando, 2 on Black Mountains
	}
	s = apply(t, s, "alice: done")
	held(t, s, 27, "", "", 0)
	held(t, s, 26, "", "", 0)
	if n, k := view(s).Players[0].Tokens, s.count(0, slotActive); n != 11 || k != 11 || s.inPlay("Iron Dwarves") != 11 {
		t.Errorf("%d Dwarves on the map in %d regions (%d in play), want 11 in 11", n, k, s.inPlay("Iron Dwarves"))
	}
	if got := s.army(0, slotActive).get(hammers); got != hammerBox {
		t.Errorf("%d hammers, want the box's %d", got, hammerBox)
	}
}
