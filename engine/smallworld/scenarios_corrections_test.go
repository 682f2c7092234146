package smallworld

import (
	"encoding/json"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// Scenarios of the rules corrections of rulesCorrected (issue 11 item 6). Their
// archives carry "rules": 1; bivouacking.json and halflings_heroic.json, without it,
// keep the original behaviour (TestRulesVersions pins both).
func init() {
	for name, f := range map[string]func(t *testing.T, st []*state){
		// Bivouacking, the rulebook: "Taberele nu sunt pierdute in timpul unui atac
		// asupra regiunii in care sunt ele: ele sunt reamplasate la sfarsitul turului
		// jucatorului activ." (Encampments are not lost in an attack on their region:
		// they are re-placed at the end of the active player's turn.) Alice loses region
		// 5 with its lone token and 3 encampments; she holds 9 and 10, so she chooses
		// where they go before Alice's next turn starts.
		"bivouacking_replace": func(t *testing.T, st []*state) {
			pieces(t, st[6], 5, Pieces{"encampments": 3})
			held(t, st[10], 5, "bob", "Humans", 5)
			toAct(t, st[11], "alice")
			hand(t, st[11], "alice", 0)
			legalHas(t, st[11], "alice", "camp <region>=<encampments> … # the region ends with that many; regions 9,10; 5 encampments in all: 3 free, 2 on the map; 3 lost in the attack to re-place", "done")
			rejects(t, st[11], "bob", "done", "not your turn")
			rejects(t, st[11], "alice", "camp 10=1", "only add encampments")
			pieces(t, st[12], 9, Pieces{"encampments": 1, "mountain": 1})
			pieces(t, st[12], 10, Pieces{"encampments": 4})
			toAct(t, st[12], "alice") // the re-placement done, Alice's turn 2 starts
			if st[12].TurnNo != 2 || st[12].Cur != 0 {
				t.Errorf("turn %d of player %d, want turn 2 of alice", st[12].TurnNo, st[12].Cur)
			}
		},
		// The same, but Alice ends with `done` (or misses the deadline): each encampment
		// goes to her region of least defence — 10 (2 tokens + 2 encampments) against 9
		// (10 tokens, a mountain).
		"bivouacking_done": func(t *testing.T, st []*state) {
			toAct(t, st[11], "alice")
			pieces(t, st[12], 10, Pieces{"encampments": 5})
			pieces(t, st[12], 9, Pieces{"mountain": 1})
			toAct(t, st[12], "alice")
		},
		// With one region left the encampments go there without asking: bivouacking.json
		// under rulesCorrected. Alice's 3 encampments of region 5 join the 2 in region 10
		// at the end of Bob's turn, before Alice's turn starts.
		"bivouacking_one_region": func(t *testing.T, st []*state) {
			held(t, st[9], 5, "bob", "Humans", 6)
			pieces(t, st[9], 5, Pieces{})
			pieces(t, st[9], 10, Pieces{"encampments": 2})
			pieces(t, st[10], 10, Pieces{"encampments": 5})
			toAct(t, st[10], "alice")
			legalHas(t, st[10], "alice", "camp <region>=<encampments> … # the region ends with that many; regions 10; 5 encampments in all: 0 free, 5 on the map")
			pieces(t, st[14], 10, Pieces{})
		},
		// Heroic, the rulebook: "La sfarsitul turului tau, pune fiecare din cei doi eroi
		// in doua regiuni diferite ocupate de tine. Aceste doua regiuni sunt acum imune
		// […] pana cand se muta eroii." (At the end of your turn, put each of the two
		// heroes in two different regions you occupy; they are immune until the heroes
		// move.) Turn 1: Alice does not place them; they go to her regions with the most
		// tokens (13 and 14: 4 each; 19 has 3). Turn 2: she moves them to 19 and 14.
		// Turn 3: she abandons 14; the hero of 19 stays, the other goes to 13.
		"heroic_every_turn": func(t *testing.T, st []*state) {
			legalHas(t, st[4], "alice", "hero <region> <region> # two different regions of 13,14,19")
			pieces(t, st[4], 13, Pieces{"hole": 1})
			pieces(t, st[5], 13, Pieces{"hole": 1, "hero": 1})
			pieces(t, st[5], 14, Pieces{"hole": 1, "hero": 1})
			pieces(t, st[5], 19, Pieces{})
			legalHas(t, st[8], "alice", "hero <region> <region> # two different regions of 13,14,19")
			pieces(t, st[10], 19, Pieces{"hero": 1})
			pieces(t, st[10], 14, Pieces{"hole": 1, "hero": 1})
			pieces(t, st[10], 13, Pieces{"hole": 1})
			rejects(t, st[10], "bob", "conquer 19", "protected by a hero")
			pieces(t, st[13], 19, Pieces{"hero": 1})
			pieces(t, st[13], 13, Pieces{"hole": 1, "hero": 1})
			held(t, st[13], 14, "", "", 0)
		},
	} {
		scenarios[name] = f
	}
}

// TestRulesVersions: new games are stamped with the current rules (a setup that names
// a version keeps it); the version picks the behaviour (the same commands leave the
// encampments off the map under the original rules, bivouacking.json, and re-place
// them under the corrected ones); versions the engine does not know are refused.
func TestRulesVersions(t *testing.T) {
	for _, tc := range []struct {
		setup map[string]json.RawMessage
		want  string
	}{
		{map[string]json.RawMessage{"seed": json.RawMessage("3")}, "2"},
		{map[string]json.RawMessage{"seed": json.RawMessage("3"), "rules": json.RawMessage("1")}, "1"},
		{map[string]json.RawMessage{"seed": json.RawMessage("3"), "rules": json.RawMessage("0")}, "0"},
	} {
		engine.StampSetup(Game{}, tc.setup)
		if got := string(tc.setup["rules"]); got != tc.want {
			t.Errorf("stamped rules %q, want %q", got, tc.want)
		}
	}
	old, fixed := run(t, "bivouacking"), run(t, "bivouacking_one_region")
	pieces(t, old[10], 10, Pieces{"encampments": 2})
	pieces(t, fixed[10], 10, Pieces{"encampments": 5})
	if old[8].Hash() != fixed[8].Hash() {
		t.Errorf("the versions differ before the first correction applies")
	}
	for _, rules := range []string{"3", "-1", "1e9", `"1"`} {
		setup := engine.Setup{Game: "smallworld", Players: []engine.Player{{Name: "a"}, {Name: "b"}},
			Fixed: json.RawMessage(`{"seed": 1, "rules": ` + rules + `}`)}
		if _, _, err := engine.Start(Game{}, setup, nil); err == nil {
			t.Errorf("rules %s accepted", rules)
		}
	}
}
