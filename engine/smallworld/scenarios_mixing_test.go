package smallworld

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// startMixed starts the production Underground engine (no test defaults) for two
// players with options and setup fields.
func startMixed(t *testing.T, opts map[string]string, fixed string, dictated engine.Outcomes) (*state, engine.Outcomes, error) {
	t.Helper()
	setup := engine.Setup{Game: "underground", Seed: 3, Options: map[string]json.RawMessage{}, Fixed: json.RawMessage(fixed),
		Players: []engine.Player{{Name: "alice"}, {Name: "bob"}}}
	for k, v := range opts {
		setup.Options[k] = json.RawMessage(strconv.Quote(v))
	}
	st, out, err := engine.Start(Underground{}, setup, dictated)
	if err != nil {
		return nil, nil, err
	}
	return st.(*state), out, nil
}

// TestUndergroundMixing: the rulebook's compatibility section ("Compatibilità con
// Small World"; en §6, sources §4 "Compatibility"), one case per rule (mixing.go).
func TestUndergroundMixing(t *testing.T) {
	under := func(n string) bool { return !builtinUG().mixed[n] }
	cases := map[string]func(t *testing.T){
		// races= chooses the banners and badges: underground (default), surface, all.
		"races option": func(t *testing.T) {
			for _, tc := range []struct {
				races                string
				wantUnder, wantSurfc bool
			}{{"", true, false}, {racesUnderground, true, false}, {racesSurface, false, true}, {racesAll, true, true}} {
				opts := map[string]string{"map": "underground-3p"}
				if tc.races != "" {
					opts["races"] = tc.races
				}
				s, _, err := startMixed(t, opts, "", nil)
				if err != nil {
					t.Fatalf("races=%s: %v", tc.races, err)
				}
				races, powers := bannersAndBadges(s)
				all := append(races, powers...)
				if gotU, gotS := slices.ContainsFunc(all, under), slices.ContainsFunc(all, func(n string) bool { return !under(n) }); gotU != tc.wantUnder || gotS != tc.wantSurfc {
					t.Errorf("races=%q: underground names %v, surface names %v in %v", tc.races, gotU, gotS, all)
				}
			}
			bad := map[string]json.RawMessage{"races": json.RawMessage(`"caves"`)}
			if err := (Underground{}).CheckOptions(bad); err == nil || !strings.Contains(err.Error(), "races=underground|surface|all") {
				t.Errorf("races=caves: %v", err)
			}
			if _, _, err := startMixed(t, map[string]string{"races": "caves"}, "", nil); err == nil {
				t.Error("New accepts races=caves")
			}
			if err := (Game{}).CheckOptions(map[string]json.RawMessage{"races": json.RawMessage(`"all"`)}); err == nil {
				t.Error("Small World accepts races=")
			}
		},
		// Underground board: no farmland, hills nor caverns, so Humans, Hill, Mounted and
		// Underworld are out; rivers are seas and lakes (Tritons, Seafaring stay), the
		// other terrains have their equivalents (Forest, Swamp, Giants, Dwarves, Wizards).
		"no sense underground": func(t *testing.T) {
			s, _, err := startMixed(t, map[string]string{"races": racesAll}, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			races, powers := bannersAndBadges(s)
			all := append(races, powers...)
			for _, n := range []string{"Humans", "Hill", "Mounted", "Underworld"} {
				if slices.Contains(all, n) {
					t.Errorf("%s in the stacks of an Underground board", n)
				}
			}
			for _, n := range []string{"Tritons", "Seafaring", "Heroic", "Fortified", "Bivouacking", "Forest", "Swamp", "Giants", "Dwarves", "Wizards", "Flames", "Spiderines"} {
				if !slices.Contains(all, n) {
					t.Errorf("%s missing from the stacks of an Underground board", n)
				}
			}
			if _, _, err := startMixed(t, map[string]string{"races": racesAll}, `{"races":["Humans"]}`, nil); err == nil || !strings.Contains(err.Error(), "Humans") {
				t.Errorf("Humans fixed on an Underground board: %v", err)
			}
		},
		// Surface board: no chasm nor volcano, so Spiderines and Flames are out; seas are
		// rivers for the abilities (Kraken, Lizardmen, Fisher stay); places and relics
		// are in play (Adventurous, Magic stay).
		"no sense surface": func(t *testing.T) {
			s, _, err := startMixed(t, map[string]string{"races": racesAll, "map": "smallworld-2p"}, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			races, powers := bannersAndBadges(s)
			all := append(races, powers...)
			for _, n := range []string{"Flames", "Spiderines"} {
				if slices.Contains(all, n) {
					t.Errorf("%s in the stacks of a surface board", n)
				}
			}
			for _, n := range []string{"Kraken", "Lizardmen", "Fisher", "Shrooms", "Mudmen", "Will-o'-Wisps", "Iron Dwarves", "Mining", "Muddy", "Mystic", "Stone", "Shield", "Adventurous", "Magic", "Hill", "Underworld", "Humans"} {
				if !slices.Contains(all, n) {
					t.Errorf("%s missing from the stacks of a surface board", n)
				}
			}
		},
		// Surface board: 2 + 2 × players monster tokens, two on each of players + 1
		// lost-tribe regions never bordering each other (draw "monsters"); the other
		// lost-tribe regions keep their tribe; one place or relic per monster region;
		// the recorded draw replays the same setup.
		"surface monsters": func(t *testing.T) {
			opts := map[string]string{"map": "smallworld-2p"}
			s, out, err := startMixed(t, opts, "", engine.Outcomes{"monsters": json.RawMessage(`["7","12","13","17"]`)})
			if err != nil {
				t.Fatal(err)
			}
			// 7 taken; 12 and 13 border 7; 17 taken; then the shuffle's first that fits.
			var ms []int
			for r, g := range s.Regions {
				switch {
				case g.Owner == ownerMonster:
					ms = append(ms, s.b.id(r))
					if !slices.Contains([]int{4, 7, 11, 12, 13, 14, 15, 17, 19}, s.b.id(r)) || g.Tokens != monstersPerRegion {
						t.Errorf("monsters on region %d (%+v): not a lost-tribe region", s.b.id(r), g)
					}
				case slices.Contains([]int{4, 7, 11, 12, 13, 14, 15, 17, 19}, s.b.id(r)) && (g.Owner != ownerLostTribe || g.Tokens != 1):
					t.Errorf("lost-tribe region %d without monsters holds %+v", s.b.id(r), g)
				}
			}
			if len(ms) != 3 || ms[0] != 7 || !slices.Contains(ms, 17) || slices.Contains(ms, 12) || slices.Contains(ms, 13) || len(s.Pool) != 3 {
				t.Errorf("monster regions %v, pool %v", ms, s.Pool)
			}
			for _, a := range ms {
				for _, b := range ms {
					if s.b.adjSet[s.b.index[a]][s.b.index[b]] {
						t.Errorf("monster regions %d and %d border", a, b)
					}
				}
			}
			again, _, err := startMixed(t, opts, "", out)
			if err != nil || again.Hash() != s.Hash() {
				t.Errorf("replay with the recorded outcomes differs: %v", err)
			}
			// On the board printed for their number, players + 1 monster regions always fit.
			for players := 2; players <= 5; players++ {
				for seed := range int64(10) {
					setup := engine.Setup{Game: "underground", Seed: seed, Options: map[string]json.RawMessage{"map": json.RawMessage(strconv.Quote(fmt.Sprintf("smallworld-%dp", players)))}}
					for i := range players {
						setup.Players = append(setup.Players, engine.Player{Name: fmt.Sprint("p", i)})
					}
					st, _, err := engine.Start(Underground{}, setup, nil)
					if err != nil {
						t.Fatal(err)
					}
					n := 0
					for _, g := range st.(*state).Regions {
						if g.Owner == ownerMonster {
							n++
						}
					}
					if n != players+1 || len(st.(*state).Pool) != n {
						t.Errorf("%d players, seed %d: %d monster regions, pool %v", players, seed, n, st.(*state).Pool)
					}
				}
			}
		},
		// Surface board: a monster region reveals a place or relic; Shrooms score their
		// forests (Mushroom Forest = Forest); a sea stays a sea (not crossed with one
		// token, ★ en §7.21) but Kraken, who keep rivers, enter and keep it.
		"surface play": func(t *testing.T) {
			s, _, err := startMixed(t, map[string]string{"map": "smallworld-2p", "races": racesAll},
				`{"races":["Shrooms","Kraken"],"powers":["Spirit","Stout"],"pool":["Flying Doormat"]}`, engine.Outcomes{"monsters": json.RawMessage(`["4","13","17"]`)})
			if err != nil {
				t.Fatal(err)
			}
			s = apply(t, s, "alice: pick 1")
			rejects(t, s, "alice", "conquer 1", "sea")
			s = apply(t, s, "alice: conquer 3")
			s, _ = step(t, s, "alice", "conquer 4", engine.Outcomes{"reveal": json.RawMessage(`["Flying Doormat"]`)})
			held(t, s, 4, "alice", "Shrooms", 4)
			pieces(t, s, 4, Pieces{"flying_doormat": 1})
			s = apply(t, s, "alice: done")
			coins(t, s, "alice", 8) // 5 + 2 regions + forest 3
			s = apply(t, s, "bob: pick 1", "bob: conquer 1", "bob: done")
			held(t, s, 1, "bob", "Kraken", 9)
		},
		// Reborn on a surface board: a declined Reborn Kraken's sea is not given to an
		// active race that may not hold seas (the soak found one there).
		"Reborn sea": func(t *testing.T) {
			s, _, err := startMixed(t, map[string]string{"map": "smallworld-2p", "races": racesAll},
				`{"races":["Kraken","Ratmen","Liches"],"powers":["Reborn","Stout","Alchemist"]}`, nil)
			if err != nil {
				t.Fatal(err)
			}
			s = apply(t, s, "alice: pick 1", "alice: conquer 1", "alice: conquer 2", "alice: done", "bob: pick 1", "bob: done",
				"alice: decline", "bob: done", "alice: pick 1")
			legalHas(t, s, "alice", "reborn 2")
			rejects(t, s, "alice", "reborn 1", "region 1 is a sea")
		},
		// Fortified, Heroic, Bivouacking on an Underground board: their pieces go only
		// on regions the race keeps when conquests end, never on a river its token is
		// about to leave; Seafaring keeps a river ("Seafaring keeping Rivers").
		"river pieces": func(t *testing.T) {
			for _, tc := range []struct{ power, listed, cmd, refused string }{
				{"Fortified", "fortress 26", "fortress 25", "a river your Liches leave"},
				{"Heroic", "hero 26", "hero 25", "a river your Liches leave"},
				{"Bivouacking", "camp <region>=<encampments> … # the region ends with that many; regions 26; 5 encampments in all: 5 free, 0 on the map", "camp 25=1", "region 25"}, // camp ends the conquests first: 25 is left
			} {
				s, _, err := startMixed(t, map[string]string{"races": racesAll}, `{"races":["Liches","Ogres"],"powers":["`+tc.power+`","Stout"]}`, nil)
				if err != nil {
					t.Fatal(err)
				}
				s = apply(t, s, "alice: pick 1", "alice: conquer 26", "alice: conquer 25")
				legalHas(t, s, "alice", tc.listed)
				legalLacks(t, s, "alice", tc.cmd)
				rejects(t, s, "alice", tc.cmd, tc.refused)
			}
			s, _, err := startMixed(t, map[string]string{"races": racesAll}, `{"races":["Liches","Ogres"],"powers":["Seafaring","Stout"]}`, nil)
			if err != nil {
				t.Fatal(err)
			}
			s = apply(t, s, "alice: pick 1", "alice: conquer 26", "alice: conquer 25", "alice: done")
			if !s.owns(s.b.index[25], 0, slotActive) {
				t.Errorf("Seafaring left river 25: %+v", s.Regions[s.b.index[25]])
			}
		},
	}
	for name, run := range cases {
		t.Run(name, run)
	}
}

// builtinUG is the production Underground catalogue.
func builtinUG() *catalogue { return variantUnderground.catalogue() }
