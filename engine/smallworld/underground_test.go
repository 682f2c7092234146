package smallworld

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// ugTest is Small World Underground with races=all unless a test's options say
// otherwise: the Underground races and powers and the base game's (the rulebook's
// compatibility section lets them play underground), so that a scenario may name any.
var ugTest = ugAll{}

// ugAll is Underground whose "races" option defaults to "all".
type ugAll struct{ Underground }

// New implements engine.Game.
func (g ugAll) New(setup engine.Setup, rng *engine.Rand) (engine.State, error) {
	if _, ok := setup.Options["races"]; !ok {
		opts := maps.Clone(setup.Options)
		if opts == nil {
			opts = map[string]json.RawMessage{}
		}
		opts["races"] = json.RawMessage(`"all"`)
		setup.Options = opts
	}
	return g.Underground.New(setup, rng)
}

var ugRegistry = engine.Registry{"underground": ugTest}

// newUnderground starts a test game of Underground for players with setup fields
// fixed, on the board for their number unless options say otherwise.
func newUnderground(t *testing.T, players int, options map[string]json.RawMessage, fixed string) (*state, engine.Outcomes) {
	t.Helper()
	setup := engine.Setup{Game: "underground", Options: options, Seed: 3, Fixed: json.RawMessage(fixed)}
	for _, n := range []string{"alice", "bob", "carol", "dave", "erin"}[:players] {
		setup.Players = append(setup.Players, engine.Player{Name: n})
	}
	s, out, err := engine.Start(ugTest, setup, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*state), out
}

// step applies one command with dictated outcomes and returns the state and the
// outcomes it recorded.
func step(t *testing.T, s *state, who, cmd string, dictated engine.Outcomes) (*state, engine.Outcomes) {
	t.Helper()
	next, out, err := engine.Step(s, 3, 50, who, cmd, dictated)
	if err != nil {
		t.Fatalf("%s %q: %v", who, cmd, err)
	}
	return next.(*state), out
}

// TestUndergroundData: every race and power of the Underground pack has its line in
// data/underground/races-powers.json with the shared data's numbers.
func TestUndergroundData(t *testing.T) {
	raw, err := undergroundFS.ReadFile("data/underground/races-powers.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct{ Races, Powers []raceData }
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	// The shared data's numbers, [Δ] settled (Flames 4, Shrooms 5: sources §2).
	want := map[string][2]int{"Cultists": {5, 10}, "Drow": {4, 9}, "Flames": {4, 9}, "Gnomes": {6, 11}, "Iron Dwarves": {7, 12},
		"Kraken": {5, 10}, "Liches": {5, 10}, "Lizardmen": {7, 12}, "Mudmen": {5, 12}, "Mummies": {10, 15}, "Ogres": {5, 10},
		"Shadow Mimes": {7, 12}, "Shrooms": {5, 10}, "Spiderines": {7, 12}, "Will-o'-Wisps": {6, 11}}
	lines := map[string]bool{}
	for _, r := range d.Races {
		lines[r.Name] = true
		if w, ok := want[r.Name]; !ok || w != [2]int{r.Banner, r.Box} {
			t.Errorf("race %s: %d/%d, want %v", r.Name, r.Banner, r.Box, w)
		}
	}
	// Powers: the shared data's badges; Martyr 4 ([Δ] 4/5, sources §1: medium).
	wantPower := map[string]int{"Adventurous": 5, "Fisher": 4, "Flocking": 5, "Frightened": 4, "Immortal": 4, "Magic": 5,
		"Martyr": 4, "Mining": 4, "Muddy": 3, "Mystic": 4, "Quarreling": 3, "Reborn": 5, "Royal": 5, "Shield": 3, "Stone": 4,
		"Thieving": 4, "Tomb": 5, "Vampire": 5, "Vanishing": 5, "Vengeful": 4, "Wise": 4}
	var pw struct {
		Powers []powerData `json:"powers"`
	}
	if err := json.Unmarshal(raw, &pw); err != nil {
		t.Fatal(err)
	}
	for _, p := range pw.Powers {
		lines[p.Name] = true
		if w, ok := wantPower[p.Name]; !ok || w != p.Badge {
			t.Errorf("power %s: badge %d, want %d", p.Name, p.Badge, w)
		}
	}
	for name, ab := range reg.abilities {
		if ab.packName() == packUnderground && (ab.kind == kindRace || ab.kind == kindPower) && !lines[name] {
			t.Errorf("%s %s has rules but no data line", ab.kind, name)
		}
	}
	// The production data loads now that powers exist; the game stays unregistered
	// (engine/games) until every race, power, place and relic does.
	if _, err := variantUnderground.load(); err != nil {
		t.Errorf("the production variant does not load: %v", err)
	}
}

// TestUndergroundSetup: monsters stand two to a monster region (rulebook, setup 3),
// the face-down pool holds one place or relic per monster region (setup 4) and only
// its size is shown, every player has 5 coins and six combos are offered (setup 2,
// 6); the game lasts the board's turns.
func TestUndergroundSetup(t *testing.T) {
	for players, monsters := range map[int]int{2: 4, 3: 5, 4: 6, 5: 7} {
		s, out := newUnderground(t, players, nil, "")
		n := 0
		for r, g := range s.Regions {
			if g.Owner == ownerMonster {
				n++
				if g.Tokens != 2 || s.defense(r) < 2 {
					t.Errorf("%dp region %s: %d monsters", players, s.b.ids[r], g.Tokens)
				}
			}
		}
		v := view(s)
		if n != monsters || len(s.Pool) != monsters || v.Pool == nil || *v.Pool != monsters || len(v.Offer) != 6 {
			t.Errorf("%dp: %d monster regions, pool %d (view %v), offer %d; want %d", players, n, len(s.Pool), v.Pool, len(v.Offer), monsters)
		}
		if _, ok := out["pool"]; !ok {
			t.Errorf("%dp: the pool draw is not recorded: %v", players, out)
		}
		for _, p := range v.Players {
			if *p.Score != 5 {
				t.Errorf("%dp: %s has %d coins", players, p.Name, *p.Score)
			}
		}
		if v.Game != "underground" || v.Turns != map[int]int{2: 10, 3: 10, 4: 9, 5: 8}[players] {
			t.Errorf("%dp: game %s, %d turns", players, v.Game, v.Turns)
		}
	}
	s, _ := newUnderground(t, 2, nil, `{"pool":["Stonehedge","Shiny Orb"]}`)
	if !slices.Contains(s.Pool, "Stonehedge") || !slices.Contains(s.Pool, "Shiny Orb") {
		t.Errorf("fixed pool %v", s.Pool)
	}
	setup := engine.Setup{Game: "underground", Seed: 1, Players: []engine.Player{{Name: "a"}, {Name: "b"}}, Fixed: json.RawMessage(`{"pool":["Excalibur"]}`)}
	if _, _, err := engine.Start(ugTest, setup, nil); err == nil || !strings.Contains(err.Error(), "Excalibur") {
		t.Errorf("unknown pool item: %v", err)
	}
	setup.Game, setup.Fixed = "smallworld", json.RawMessage(`{"pool":["Shiny Orb"]}`)
	if _, _, err := engine.Start(Game{}, setup, nil); err == nil {
		t.Error("Small World accepts a place in its setup")
	}
}

// TestUndergroundPlacement: on the 4- and 5-player boards, which print no monsters
// or volcanoes, setup places players + 2 monster regions, never bordering each other,
// one per land terrain before any second one, and 2 volcano chasms; the draws are
// recorded and replay; an inline map that marks its monsters is used as it is.
func TestUndergroundPlacement(t *testing.T) {
	monster, volcano := undergroundSymbols()
	for _, players := range []int{4, 5} {
		for seed := range int64(20) {
			setup := engine.Setup{Game: "underground", Seed: seed}
			for i := range players {
				setup.Players = append(setup.Players, engine.Player{Name: fmt.Sprint("p", i)})
			}
			st, out, err := engine.Start(ugTest, setup, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*state)
			var ms []int
			vs, terrains := 0, map[string]int{}
			for r := range s.Regions {
				if s.b.has(r, monster) {
					ms = append(ms, r)
					terrains[s.b.terrain[r]]++
				}
				if s.b.has(r, volcano) {
					vs++
				}
			}
			if len(ms) != players+2 || vs != 2 || len(terrains) != 5 {
				t.Fatalf("%dp seed %d: %d monster regions on %v, %d volcanoes", players, seed, len(ms), terrains, vs)
			}
			for _, a := range ms {
				for _, b := range ms {
					if s.b.adjSet[a][b] {
						t.Fatalf("%dp seed %d: monster regions %s and %s border", players, seed, s.b.ids[a], s.b.ids[b])
					}
				}
			}
			again, _, err := engine.Start(ugTest, engine.Setup{Game: "underground", Seed: seed + 1000, Players: setup.Players}, out)
			if err != nil || again.Hash() != s.Hash() {
				t.Fatalf("%dp seed %d: replay with the recorded outcomes differs (%v)", players, seed, err)
			}
		}
	}
	raw, _ := undergroundFS.ReadFile("data/underground/maps/underground-2p.json")
	var m MapData
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m.Map = "inline"
	inline, _ := json.Marshal(m)
	s, out := newUnderground(t, 4, map[string]json.RawMessage{"map": inline}, "")
	if _, drew := out["monsters"]; drew || len(s.Pool) != 4 || s.Regions[s.b.index[23]].Owner != ownerMonster {
		t.Errorf("inline map with monsters: drew %v, pool %v", out, s.Pool)
	}
}

// TestUndergroundCore (rulebook, "Differences"): a chasm is never entered; an empty
// river costs one token and the token leaves it when conquests end; a monster region
// costs 2 + 2 monsters and reveals a place or relic from the pool, recorded as the
// draw "reveal" and dictatable; a Black Mountain adds one to the defence; rivers
// score for nobody.
func TestUndergroundCore(t *testing.T) {
	s, _ := newUnderground(t, 2, nil, `{"races":["Liches","Ogres"],"powers":["Spirit","Stout"],"pool":["Shiny Orb"]}`)
	if g := regionView(t, s, 23); g.Owner == nil || *g.Owner != "monsters" || g.Tokens != 2 {
		t.Errorf("region 23: %+v", g)
	}
	s = apply(t, s, "alice: pick 1")
	hand(t, s, "alice", 10)
	rejects(t, s, "alice", "conquer 1", "region 1 is a chasm", "nobody ever enters")
	s, out := step(t, s, "alice", "conquer 23", engine.Outcomes{"reveal": json.RawMessage(`["Shiny Orb"]`)})
	held(t, s, 23, "alice", "Liches", 4)
	if !strings.HasPrefix(string(out["reveal"]), `["Shiny Orb"`) {
		t.Errorf("reveal outcome %s", out["reveal"])
	}
	pieces(t, s, 23, Pieces{"shiny_orb": 1})
	if len(s.Pool) != 3 || slices.Contains(s.Pool, "Shiny Orb") || *view(s).Pool != 3 {
		t.Errorf("pool after reveal %v", s.Pool)
	}
	if f := view(s).Found; len(f) != 1 || f[0].Name != "Shiny Orb" || f[0].Kind != "relic" || f[0].Region != 23 || f[0].Holder == nil || *f[0].Holder != "alice" || f[0].Race != "Liches" {
		t.Errorf("found after reveal: %+v; want the Shiny Orb, a relic in 23 held by alice's Liches", f)
	}
	s = apply(t, s, "alice: conquer 27", "alice: conquer 26", "alice: conquer 25")
	held(t, s, 25, "alice", "Liches", 1) // an empty river: one token
	hand(t, s, "alice", 1)
	// Black Mountain 16: 2 + 1 marker = 3 tokens; with 1 in hand only the die may do it.
	legalLacks(t, s, "alice", "conquer 16")
	legalHas(t, s, "alice", "conquer 16 roll")
	if s.defense(s.b.index[16]) != 1 || regionView(t, s, 16).Pieces["mountain"] != 1 {
		t.Errorf("Black Mountain 16 defends %d", s.defense(s.b.index[16]))
	}
	s = apply(t, s, "alice: done")
	held(t, s, 25, "", "", 0) // the river token left at redeployment
	coins(t, s, "alice", 8)   // 23, 26, 27: rivers score for nobody
	if view(s).Players[0].Tokens != 10 {
		t.Errorf("alice has %d tokens on the map, want all 10", view(s).Players[0].Tokens)
	}
	// Abandoned, the region keeps its relic.
	s = apply(t, s, "bob: pick 1", "bob: done", "alice: abandon 23")
	held(t, s, 23, "", "", 0)
	pieces(t, s, 23, Pieces{"shiny_orb": 1})
}

// TestUndergroundSelfPlay plays seeded games of every board with random legal
// commands (the provisional pool), checking Legal/Apply agreement both ways, the
// invariants (box limits, monsters, the pool) and replay determinism.
func TestUndergroundSelfPlay(t *testing.T) {
	t.Parallel()
	games := 16
	switch {
	case *soak:
		games = 400
	case testing.Short(): // make race
		games = 8
	}
	for i := range games {
		players := 2 + i%4
		board := fmt.Sprintf("underground-%dp", 2+(i/4)%4)
		seed := int64(5000 + i)
		t.Run(fmt.Sprintf("%dp-%s-%d", players, board, seed), func(t *testing.T) {
			// The Underground races on top of the stack, a different one first each
			// game, so that every one of them is played.
			ug := slices.Clone(ugTest.variant().catalogue().raceNames)
			ug = slices.DeleteFunc(ug, func(n string) bool { return abilityOf(n).pack != packUnderground })
			k := i % len(ug)
			stack, err := json.Marshal(append(ug[k:], ug[:k]...))
			if err != nil {
				t.Fatal(err)
			}
			a := selfPlayFixed(t, ugTest, json.RawMessage(fmt.Sprintf(`{"seed": %d, "rules": %d, "races": %s}`, seed, currentRules, stack)), seed, players, mapOption(board), true)
			s, err := engine.Replay(ugRegistry, a, -1)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			if got, want := s.Hash(), a.Events[len(a.Events)-1].Hash; !s.Finished() || got != want {
				t.Fatalf("replay hash %s, recorded %s (finished %v)", got, want, s.Finished())
			}
		})
	}
}

// TestUndergroundMixedSelfPlay plays seeded games of the production engine on the
// Underground and the surface boards with each races= pool (mixing.go), checking
// Legal/Apply agreement both ways, the invariants (box limits, monsters, the pool, no
// ability in play that makes no sense on the board) and replay determinism.
func TestUndergroundMixedSelfPlay(t *testing.T) {
	t.Parallel()
	games := 12
	switch {
	case *soak:
		games = 300
	case testing.Short(): // make race
		games = 6
	}
	reg := engine.Registry{"underground": Underground{}}
	pools := []string{racesUnderground, racesSurface, racesAll}
	for i := range games {
		players := 2 + i%4
		kind := []string{"underground", "smallworld"}[(i/4)%2]
		board := fmt.Sprintf("%s-%dp", kind, 2+(i/8)%4)
		pool := pools[i%3]
		seed := int64(7000 + i)
		t.Run(fmt.Sprintf("%dp-%s-%s-%d", players, board, pool, seed), func(t *testing.T) {
			opts := mapOption(board)
			opts["races"] = json.RawMessage(strconv.Quote(pool))
			a := selfPlayFixed(t, Underground{}, json.RawMessage(fmt.Sprintf(`{"seed": %d, "rules": %d}`, seed, currentRules)), seed, players, opts, true)
			s, err := engine.Replay(reg, a, -1)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			if got, want := s.Hash(), a.Events[len(a.Events)-1].Hash; !s.Finished() || got != want {
				t.Fatalf("replay hash %s, recorded %s (finished %v)", got, want, s.Finished())
			}
		})
	}
}
