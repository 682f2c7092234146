package smallworld

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

func newGame(t *testing.T, players int, options map[string]json.RawMessage, fixed string) *state {
	t.Helper()
	names := []string{"alice", "bob", "carol", "dave", "erin", "frank"}[:players]
	setup := engine.Setup{Game: "smallworld", Options: options, Seed: 3, Fixed: json.RawMessage(fixed)}
	for _, n := range names {
		setup.Players = append(setup.Players, engine.Player{Name: n})
	}
	s, _, err := engine.Start(Game{}, setup, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*state)
}

// apply applies commands in order, failing the test on the first error.
func apply(t *testing.T, s *state, moves ...string) *state {
	t.Helper()
	for i, m := range moves {
		who, cmd, _ := strings.Cut(m, ": ")
		next, _, err := engine.Step(s, 3, 100+i, who, cmd, nil)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if legal := s.Legal(who); !covered(legal, s.Notes(who), cmd) {
			t.Errorf("%s applies but Legal lists neither it nor a pattern of its verb: %q", m, legal)
		}
		s = next.(*state)
	}
	return s
}

// covered reports whether Legal lists command c: as it is, as one a pair pattern
// stands for, or (for the other patterns, whose values the test does not enumerate)
// by a pattern of its verb.
func covered(legal []string, notes map[string]engine.Text, c string) bool {
	verb, _, _ := strings.Cut(engine.Normalize(c), " ")
	return listed(legal, notes, c) || slices.ContainsFunc(legal, func(l string) bool {
		return engine.IsPattern(l) && pairsOf(l, notes[l]) == nil && strings.HasPrefix(l, verb+" ")
	})
}

func TestBoards(t *testing.T) {
	for players, name := range map[int]string{2: "smallworld-2p", 3: "smallworld-3p", 4: "smallworld-4p", 5: "smallworld-5p"} {
		s := newGame(t, players, nil, "")
		if s.b.name != name {
			t.Errorf("%d players: board %s, want %s", players, s.b.name, name)
		}
		if want := map[int]int{2: 10, 3: 10, 4: 9, 5: 8}[players]; s.b.turns != want {
			t.Errorf("%s: %d turns", name, s.b.turns)
		}
		lost, mountains := 0, 0
		for r := range s.Regions {
			if s.Regions[r].Owner == ownerLostTribe {
				lost++
			}
			if s.b.terrain[r] == Mountain {
				mountains++
			}
		}
		if lost == 0 || lost > 18 || mountains == 0 || mountains > 9 {
			t.Errorf("%s: %d lost tribes, %d mountains (box: 18, 9)", name, lost, mountains)
		}
	}
	// Derived entry regions: 22 only borders the edge sea 23; 7 is interior.
	b := builtin().boards["smallworld-2p"]
	if !b.entry[b.index[22]] || b.regions[b.index[22]].Edge || b.entry[b.index[7]] || !b.entry[b.index[5]] {
		t.Errorf("entry regions wrong")
	}
	if !b.coastal[b.index[3]] || b.coastal[b.index[5]] {
		t.Errorf("coastal regions wrong")
	}
}

func TestMapValidation(t *testing.T) {
	for name, doc := range map[string]string{
		"duplicate id":     `{"map":"x","turns":5,"regions":[{"id":1,"terrain":"hill"},{"id":1,"terrain":"hill"}],"adjacent":[]}`,
		"unknown terrain":  `{"map":"x","turns":5,"regions":[{"id":1,"terrain":"desert"}],"adjacent":[]}`,
		"unknown symbol":   `{"map":"x","turns":5,"regions":[{"id":1,"terrain":"hill","symbols":["gold"]}],"adjacent":[]}`,
		"unknown neighbor": `{"map":"x","turns":5,"regions":[{"id":1,"terrain":"hill"}],"adjacent":[[1,2]]}`,
		"self loop":        `{"map":"x","turns":5,"regions":[{"id":1,"terrain":"hill"}],"adjacent":[[1,1]]}`,
		"repeated pair":    `{"map":"x","turns":5,"regions":[{"id":1,"terrain":"hill"},{"id":2,"terrain":"hill"}],"adjacent":[[1,2],[2,1]]}`,
		"not a pair":       `{"map":"x","turns":5,"regions":[{"id":1,"terrain":"hill"},{"id":2,"terrain":"hill"}],"adjacent":[[1,2,1]]}`,
		"no turns":         `{"map":"x","regions":[{"id":1,"terrain":"hill"}],"adjacent":[]}`,
		"unknown field":    `{"map":"x","turns":5,"regions":[{"id":1,"terrain":"hill","colour":"red"}],"adjacent":[]}`,
		"lost tribe sea":   `{"map":"x","turns":5,"regions":[{"id":1,"terrain":"sea","symbols":["lost-tribe"]}],"adjacent":[]}`,
	} {
		if _, err := parseBoard([]byte(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// The same problems are reported by New for an inline map.
	setup := engine.Setup{Players: []engine.Player{{Name: "a"}, {Name: "b"}},
		Options: map[string]json.RawMessage{"map": json.RawMessage(`{"map":"x","turns":5,"regions":[{"id":1,"terrain":"desert"}],"adjacent":[]}`)}}
	if _, _, err := engine.Start(Game{}, setup, nil); err == nil || !strings.Contains(err.Error(), "desert") {
		t.Errorf("inline map error %v", err)
	}
}

func TestSetupErrors(t *testing.T) {
	two := []engine.Player{{Name: "a"}, {Name: "b"}}
	for name, setup := range map[string]engine.Setup{
		"one player":   {Players: two[:1]},
		"six players":  {Players: []engine.Player{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}, {Name: "f"}}},
		"unknown map":  {Players: two, Options: map[string]json.RawMessage{"map": json.RawMessage(`"smallworld-9p"`)}},
		"unknown race": {Players: two, Fixed: json.RawMessage(`{"races":["Dragons"]}`)},
		"race twice":   {Players: two, Fixed: json.RawMessage(`{"races":["Elves","Elves"]}`)},
		"typo":         {Players: two, Fixed: json.RawMessage(`{"race":["Elves"]}`)},
	} {
		if _, _, err := engine.Start(Game{}, setup, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// A 2-player game on the 5-player board, with fixed stacks.
	s := newGame(t, 2, map[string]json.RawMessage{"map": json.RawMessage(`"smallworld-5p"`)}, `{"races":["Trolls","Elves"],"powers":["Spirit"]}`)
	if s.b.name != "smallworld-5p" || s.Offer[0] != (combo{Race: "Trolls", Power: "Spirit"}) || s.Offer[1].Race != "Elves" {
		t.Errorf("board %s offer %+v", s.b.name, s.Offer)
	}
	if len(s.Races)+len(s.Offer) != 14 || len(s.Powers)+len(s.Offer) != 20 {
		t.Errorf("stacks %d+%d races, %d+%d powers", len(s.Races), len(s.Offer), len(s.Powers), len(s.Offer))
	}
}

// TestImmutable checks that Apply leaves its receiver alone and that the hash is a
// function of the state.
func TestImmutable(t *testing.T) {
	s := newGame(t, 3, nil, `{"races":["Skeletons"],"powers":["Flying"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 4")
	h := s.Hash()
	v, _ := json.Marshal(s.View(""))
	for _, c := range []string{"conquer 5", "redeploy 4=3", "done", "abandon 4", "conquer 99"} {
		s.Apply("alice", c, engine.NewRand(3, 50, nil))
	}
	if s.Hash() != h {
		t.Errorf("Apply changed its receiver")
	}
	if v2, _ := json.Marshal(s.View("")); string(v) != string(v2) {
		t.Errorf("view changed")
	}
	again := apply(t, newGame(t, 3, nil, `{"races":["Skeletons"],"powers":["Flying"]}`), "alice: pick 1", "alice: conquer 4")
	if again.Hash() != h {
		t.Errorf("hash not stable")
	}
	if next := apply(t, s, "alice: conquer 5"); next.Hash() == h {
		t.Errorf("hash did not change")
	}
}

func TestViewHidesCoins(t *testing.T) {
	s := newGame(t, 2, nil, "")
	for viewer, want := range map[string][2]bool{"": {true, true}, "alice": {true, false}, "bob": {false, true}, engine.Observer: {false, false}} {
		v := s.View(viewer).(*View)
		for i, p := range v.Players {
			if (p.Score != nil) != want[i] {
				t.Errorf("viewer %q sees %s's score: %v", viewer, p.Name, p.Score != nil)
			}
		}
		if v.Game != "smallworld" || *v.Current != "alice" || len(v.Legal) == 0 || len(v.Regions) != 23 {
			t.Errorf("view %+v", v)
		}
	}
	raw, _ := json.Marshal(s.View(engine.Observer))
	for _, key := range []string{`"game"`, `"turn"`, `"current"`, `"finished"`, `"winners"`, `"legal"`, `"players"`, `"offer"`, `"regions"`, `"pieces"`, `"score":null`} {
		if !strings.Contains(string(raw), key) {
			t.Errorf("state JSON lacks %s", key)
		}
	}
}

// TestBoxLimits: Skeletons and Sorcerers never take more tokens than the box holds.
func TestBoxLimits(t *testing.T) {
	s := newGame(t, 2, nil, `{"races":["Skeletons","Sorcerers"],"powers":["Flying","Hill"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 4", "alice: conquer 7")
	// Pretend 19 of the 20 Skeletons are out: the two conquests would earn one,
	// and one is left.
	s.army(0, slotActive).Hand += 20 - 1 - s.inPlay("Skeletons")
	n := apply(t, s, "alice: done")
	if got := n.inPlay("Skeletons"); got != 20 {
		t.Errorf("%d Skeletons in play, want 20", got)
	}
	s.army(0, slotActive).Hand++ // all 20 out: no reinforcement
	n = apply(t, s, "alice: done")
	if got := n.inPlay("Skeletons"); got != 20 {
		t.Errorf("%d Skeletons in play, want 20 (box)", got)
	}
	// Sorcerers with every token in play cannot convert.
	s = newGame(t, 2, nil, `{"races":["Ratmen","Sorcerers"],"powers":["Hill","Flying"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 5", "alice: conquer 10", "alice: redeploy 5=1 10=11", "alice: done",
		"bob: pick 1", "bob: conquer 11")
	if !slices.Contains(s.Legal("bob"), "enchant 5") {
		t.Fatalf("legal %q", s.Legal("bob"))
	}
	s.army(1, slotActive).Hand += 18 - s.inPlay("Sorcerers")
	if _, err := s.Apply("bob", "enchant 5", engine.NewRand(3, 1, nil)); err == nil || !strings.Contains(err.Error(), "box") {
		t.Errorf("enchant with an empty box: %v", err)
	}
	if slices.Contains(s.Legal("bob"), "enchant 5") {
		t.Errorf("Legal offers enchant with an empty box")
	}
}

// TestPowerReshuffle: when the badge stack runs out, the used badges are reshuffled.
func TestPowerReshuffle(t *testing.T) {
	s := newGame(t, 2, nil, "").clone()
	s.Discard = append(slices.Clip(s.Discard), s.Powers[:len(s.Powers)-1]...)
	s.Powers = s.Powers[len(s.Powers)-1:]
	s.Offer = s.Offer[:4]
	rng := engine.NewRand(3, 9, nil)
	if err := s.refill(rng); err != nil {
		t.Fatal(err)
	}
	if len(s.Offer) != 6 || len(s.Discard) != 0 || len(s.Powers) != 12 {
		t.Errorf("offer %d, discard %d, powers %d", len(s.Offer), len(s.Discard), len(s.Powers))
	}
	if _, ok := rng.Recorded()["powers"]; !ok {
		t.Errorf("reshuffle not recorded: %v", rng.Recorded())
	}
}

// TestDeclinedLosses: a declined race loses its token when conquered, even Elves
// (race powers end with the decline), and disappears with its last region.
func TestDeclinedLosses(t *testing.T) {
	s := newGame(t, 2, nil, `{"races":["Elves","Ratmen","Humans"],"powers":["Hill","Flying","Commando"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 5", "alice: done",
		"bob: pick 1", "bob: done",
		"alice: decline",
		"bob: conquer 5")
	if s.army(0, slotDeclined).exists() || s.army(0, slotDeclined).Hand != 0 {
		t.Errorf("declined Elves %+v", s.army(0, slotDeclined))
	}
	if s.Races[len(s.Races)-1] != "Elves" {
		t.Errorf("Elves banner not back in the stack: %q", s.Races)
	}
	s = apply(t, s, "bob: done")
	if got := s.Legal("alice"); !slices.Equal(got[:1], []string{"pick 1"}) {
		t.Errorf("alice legal %q", got)
	}
}

// TestManyDefenders: several defenders redeploy, in any order, after the attacker.
func TestManyDefenders(t *testing.T) {
	twoP := map[string]json.RawMessage{"map": json.RawMessage(`"smallworld-2p"`)}
	s := newGame(t, 3, twoP, `{"races":["Ratmen","Humans","Elves"],"powers":["Hill","Alchemist","Flying"]}`)
	s = apply(t, s,
		"alice: pick 1", "alice: conquer 12", "alice: conquer 17", "alice: redeploy 12=5 17=7", "alice: done",
		"bob: pick 1", "bob: conquer 19", "bob: conquer 18", "bob: conquer 20", "bob: redeploy 18=3", "bob: done",
		"carol: pick 1", "carol: conquer 13", "carol: conquer 14", "carol: conquer 15", "carol: redeploy 13=2 14=6", "carol: done",
		"alice: conquer 18", "alice: conquer 13", "alice: done")
	if got := s.ToAct(); !slices.Equal(got, []string{"bob", "carol"}) {
		t.Fatalf("to act %q", got)
	}
	if s.army(1, slotActive).Hand != 2 || s.army(2, slotActive).Hand != 2 {
		t.Errorf("hands: bob %d, carol (Elves keep all) %d", s.army(1, slotActive).Hand, s.army(2, slotActive).Hand)
	}
	if _, err := s.Apply("alice", "done", engine.NewRand(3, 1, nil)); !errors.Is(err, engine.ErrIllegal) {
		t.Errorf("alice acts while defenders redeploy: %v", err)
	}
	s = apply(t, s, "carol: redeploy 14=8")
	if got := s.ToAct(); !slices.Equal(got, []string{"bob"}) {
		t.Fatalf("to act %q", got)
	}
	s = apply(t, s, "bob: done")
	if s.Cur != 1 || len(s.Pending) != 0 || s.TurnNo != 2 {
		t.Errorf("cur %d pending %v turn %d", s.Cur, s.Pending, s.TurnNo)
	}
	if s.Regions[s.b.index[14]].Tokens != 8 {
		t.Errorf("carol's redeployment lost")
	}
}

// stepDie applies one command with a dictated die.
func stepDie(t *testing.T, s *state, who, cmd string, die int) *state {
	t.Helper()
	next, _, err := engine.Step(s, 3, 500, who, cmd, engine.Outcomes{"die": json.RawMessage(strconv.Itoa(die))})
	if err != nil {
		t.Fatalf("%s %s: %v", who, cmd, err)
	}
	return next.(*state)
}

// TestAmazonsSetAsideFromMap: with fewer than 4 tokens in hand at the end of the
// turn, the attack-only tokens are taken back from the map (never a region's last).
func TestAmazonsSetAsideFromMap(t *testing.T) {
	s := newGame(t, 2, nil, `{"races":["Amazons"],"powers":["Hill"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 5", "alice: conquer 10", "alice: conquer 4", "alice: conquer 9", "alice: conquer 3", "alice: done")
	if a := s.army(0, slotActive); a.Aside != 4 || a.Hand != 0 {
		t.Errorf("aside %d hand %d", a.Aside, a.Hand)
	}
	for _, id := range []int{3, 4, 5, 9, 10} {
		if n := s.Regions[s.b.index[id]].Tokens; n != 2 {
			t.Errorf("region %d has %d tokens", id, n)
		}
	}
}

// TestBerserkLastAttempt: a Berserk roll that leaves no region affordable ends the
// conquests.
func TestBerserkLastAttempt(t *testing.T) {
	s := newGame(t, 2, nil, `{"races":["Dwarves"],"powers":["Berserk"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 4", "alice: conquer 9")
	if n := stepDie(t, s, "alice", "berserk roll", 1); n.T.Closed || !slices.Contains(n.Legal("alice"), "conquer 3") {
		t.Errorf("a 1 leaves region 3 affordable: closed %v legal %q", n.T.Closed, n.Legal("alice"))
	}
	n := stepDie(t, s, "alice", "berserk roll", 0)
	if !n.T.Closed {
		t.Fatalf("conquests still open")
	}
	if _, err := n.Apply("alice", "conquer 3 roll", engine.NewRand(3, 1, nil)); err == nil || !strings.Contains(err.Error(), "conquests are over") {
		t.Errorf("roll after the last attempt: %v", err)
	}
}
