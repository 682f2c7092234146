package smallworld

import (
	"encoding/json"
	"strings"
	"testing"
)

// A piece kind and a turn variable that no base-game ability uses, registered for
// every test of the package: TestScenarioHashes and TestRecorded5p then prove that
// adding kinds and variables leaves base-game hashes unchanged.
var (
	testMarker  = &pieceKind{name: "test_marker", order: 1000}
	testCounter = &varKind{name: "test counter", turn: true}
	// testShrine is a place of a pack no variant plays: the active race holding its
	// region scores 5 more.
	testShrine = &pieceKind{name: "test_shrine", order: 1001, flag: true, stays: onConquest | onAbandon | onDecline | onRemoval,
		grants: &ability{name: "Test Shrine", kind: "place", pack: "test", bonus: func(*state, int, int) int { return 5 }}}
)

func init() {
	registerPieces(testMarker, testShrine)
	registerVar(testCounter)
	register(testShrine.grants)
}

// TestNewKindsHashAndView: a piece or variable without a legacy place changes the
// hash only while present, and the view lists the piece by its name.
func TestNewKindsHashAndView(t *testing.T) {
	st := run(t, "abandon")
	s := st[len(st)-1]
	base := s.Hash()

	n := s.clone()
	n.setPieces(3, testMarker, 2)
	if n.Hash() == base {
		t.Fatal("a new piece does not change the hash")
	}
	raw, err := json.Marshal(view(n).Regions[3].Pieces)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"test_marker":2`) {
		t.Errorf("pieces %s lack the new kind", raw)
	}
	n.setPieces(3, testMarker, 0)
	if n.Hash() != base {
		t.Error("hash differs once the piece is gone")
	}

	n.T.set(testCounter, 1)
	if n.Hash() == base {
		t.Fatal("a new turn variable does not change the hash")
	}
	n.T.set(testCounter, 0)
	if n.Hash() != base {
		t.Error("hash differs once the variable is back to zero")
	}
}

// TestPiecesJSON: the view's pieces object keeps the base game's keys, order and
// types (flags as true, encampments as a number) that the mail templates read.
func TestPiecesJSON(t *testing.T) {
	raw, err := json.Marshal(Pieces{"hole": 1, "encampments": 3, "mountain": 1, "fortress": 1, "troll_lair": 1, "hero": 1, "dragon": 1})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"mountain":true,"fortress":true,"troll_lair":true,"encampments":3,"hero":true,"dragon":true,"hole":true}`
	if string(raw) != want {
		t.Errorf("pieces %s, want %s", raw, want)
	}
	if raw, _ := json.Marshal(Pieces{}); string(raw) != "{}" {
		t.Errorf("empty pieces %s", raw)
	}
}

// TestRegistry: every registered race and power has its data line, the verbs keep
// the order Legal has always listed them in, and the base game's legacy hash places
// are each used once.
func TestRegistry(t *testing.T) {
	c := builtin()
	for name, ab := range reg.abilities {
		if ab.packName() != packBase {
			continue // other packs: their variant's data (TestUndergroundData)
		}
		_, race := c.races[name]
		_, power := c.powers[name]
		if (ab.kind == kindRace) != race || (ab.kind == kindPower) != power {
			t.Errorf("%s %s: data race %v power %v", ab.kind, name, race, power)
		}
	}
	var order []string
	for _, v := range reg.verbs {
		if v.owner == nil || v.owner.packName() == packBase { // the base game's verbs
			order = append(order, v.name)
		}
	}
	want := "pick keep buy decline berserk conquer dragon enchant hole abandon redeploy camp fortress hero ally done"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("verbs %q, want %q", got, want)
	}
	bits := map[int]string{}
	for _, k := range reg.legacyPieces {
		if k.hash > 0 {
			if o, dup := bits[k.hash]; dup {
				t.Errorf("%s and %s share hash flag %d", k.name, o, k.hash-1)
			}
			bits[k.hash] = k.name
		}
	}
	for key, vs := range reg.legacyVars {
		for i, v := range vs {
			if v.legacy != i+1 {
				t.Errorf("legacy variables %d: %s at place %d, want %d", key, v.name, v.legacy, i+1)
			}
		}
	}
}

// TestDeclinedRaceWord: the word after `conquer R` names the declined race that plays
// in decline; without one it is refused with that race's name, and other words are a
// usage error.
func TestDeclinedRaceWord(t *testing.T) {
	s := newGame(t, 2, nil, `{"races":["Ratmen"]}`)
	s = apply(t, s, "alice: pick 1")
	rejects(t, s, "alice", "conquer 5 ghouls", "you have no declined Ghouls")
	rejects(t, s, "alice", "conquer 5 ratmen", "usage: conquer R")
}

// TestGrantedAbility: a piece that grants an ability (a place) gives its hooks to the
// active race holding its region, not to a declined one, and moves with the region.
func TestGrantedAbility(t *testing.T) {
	s := newGame(t, 2, nil, `{"races":["Ratmen","Elves"],"powers":["Hill","Flying"]}`)
	if len(s.cat.granting) != 0 {
		t.Fatalf("Small World has granting pieces %v", s.cat.granting)
	}
	// A catalogue of a variant that plays the test pack.
	c := *s.cat
	c.granting = []*pieceKind{testShrine}
	s.cat = &c
	s = apply(t, s, "alice: pick 1", "alice: conquer 5", "alice: done", "bob: pick 1", "bob: done")
	r := s.b.index[5]
	without := apply(t, s, "alice: done")
	with := s.clone()
	with.setPieces(r, testShrine, 1)
	if !with.has(0, "Test Shrine") || with.has(1, "Test Shrine") {
		t.Fatalf("the shrine acts for alice %v, bob %v", with.has(0, "Test Shrine"), with.has(1, "Test Shrine"))
	}
	with = apply(t, with, "alice: done")
	if got, want := with.Players[0].Coins-without.Players[0].Coins, 5; got != want {
		t.Errorf("the shrine gave %d coins, want %d", got, want)
	}
	// Declined, the race no longer gets the place's bonus.
	declined := s.clone()
	declined.setPieces(r, testShrine, 1)
	declined = apply(t, declined, "alice: decline")
	base := apply(t, s, "alice: decline")
	if declined.Players[0].Coins != base.Players[0].Coins {
		t.Errorf("a declined race scored the shrine: %d vs %d coins", declined.Players[0].Coins, base.Players[0].Coins)
	}
}
