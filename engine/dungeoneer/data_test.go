package dungeoneer

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestCardSet checks the composition of the embedded set: the box's counts by kind.
func TestCardSet(t *testing.T) {
	count := map[string]int{}
	for _, a := range cards.Adventures {
		count[a.Kind]++
		if a.Kind == kFavor {
			count["favor "+a.Use]++
		}
	}
	for _, m := range cards.Maps {
		count["map "+m.Type]++
		for _, d := range m.Doors {
			count["door "+d.Kind]++
		}
		if m.Obstacle != nil {
			count["obstacle "+m.Obstacle.Kind]++
		}
	}
	for _, q := range cards.Quests {
		count["quest "+q.Kind]++
	}
	for _, k := range []string{kMonster, kTrap, kBane, kFavor, kTreasure, "favor response", "favor always", "favor hero",
		"map entrance", "map passage", "map room", "door open", "door locked", "door trapped", "door wall",
		"obstacle pit", "obstacle spikes", "obstacle risk", "obstacle sewer", "obstacle terrain", "obstacle portal",
		"quest kill", "quest fetch", "quest visit", "quest escort"} {
		if count[k] == 0 {
			t.Errorf("the card set has no %s", k)
		}
	}
	if count["map entrance"] != 1 {
		t.Errorf("%d entrances", count["map entrance"])
	}
}

// TestValidate corrupts the embedded set one way at a time; each is rejected with a
// message naming the fault.
func TestValidate(t *testing.T) {
	tests := []struct {
		name, want string
		edit       func(cs map[string]any)
	}{
		{"provenance", "provenance", func(cs map[string]any) { cs["provenance"] = "printed" }},
		{"one adventure less", "composition", func(cs map[string]any) {
			a := cs["adventures"].([]any)
			cs["adventures"] = a[1:]
		}},
		{"repeated id", "repeated", func(cs map[string]any) { card(cs, "adventures", 1)["id"] = "a01" }},
		{"unknown effect", "unknown effect", func(cs map[string]any) {
			card(cs, "adventures", 0)["hit"] = map[string]any{"melee": []any{map[string]any{"op": "explode", "n": 1}}}
		}},
		{"free text effect", "unknown effect", func(cs map[string]any) {
			card(cs, "adventures", 40)["effects"] = []any{map[string]any{"op": "do whatever the text says", "n": 1}}
		}},
		{"effect size", "out of 1..3", func(cs map[string]any) {
			card(cs, "adventures", 40)["effects"] = []any{map[string]any{"op": "heal", "n": 9}}
		}},
		{"missing italian", "Italian", func(cs map[string]any) { card(cs, "maps", 3)["name"] = map[string]any{"en": "x"} }},
		{"bad door", "unknown door", func(cs map[string]any) {
			card(cs, "maps", 3)["doors"].([]any)[0] = map[string]any{"kind": "curtain"}
		}},
		{"entrance wall", "entrance", func(cs map[string]any) {
			card(cs, "maps", 0)["doors"].([]any)[0] = map[string]any{"kind": "wall"}
		}},
		{"bad obstacle", "unknown obstacle", func(cs map[string]any) { card(cs, "maps", 5)["obstacle"] = map[string]any{"kind": "lava"} }},
		{"lonely sewer", "ends", func(cs map[string]any) { card(cs, "maps", 11)["obstacle"] = map[string]any{"kind": "portal"} }},
		{"quest elsewhere", "unknown map card", func(cs map[string]any) { card(cs, "quests", 0)["at"] = "m99" }},
		{"monster without standard attack", "no standard attack", func(cs map[string]any) {
			c := card(cs, "adventures", 0)
			c["melee"] = map[string]any{"v": 1, "std": false}
		}},
		{"favor use", "favor use", func(cs map[string]any) { card(cs, "adventures", 40)["use"] = "sometimes" }},
		{"hero levels", "levels", func(cs map[string]any) { card(cs, "heroes", 0)["levels"] = []any{} }},
		// Ready cards, carrying items, integrations, always Banes (a43 Sprint, a44
		// Blessed Blade, a45 Battle Trance, a50 Warding Sigil, a35 Lost in the Dark).
		{"activation on an instant card", "only a permanent", func(cs map[string]any) {
			card(cs, "adventures", 42)["activate"] = card(cs, "adventures", 49)["activate"]
		}},
		{"activation without cost", "costs 1..3 Glory", func(cs map[string]any) {
			card(cs, "adventures", 49)["activate"].(map[string]any)["glory"] = 0
		}},
		{"activation without limit", "once per turn or has charges", func(cs map[string]any) {
			card(cs, "adventures", 49)["activate"].(map[string]any)["once"] = false
		}},
		{"activation effect", "unknown effect", func(cs map[string]any) {
			card(cs, "adventures", 49)["activate"].(map[string]any)["effects"] = []any{map[string]any{"op": "wound", "n": 1}}
		}},
		{"permanent card with an instant effect", "last", func(cs map[string]any) {
			card(cs, "adventures", 53)["effects"] = []any{map[string]any{"op": "heal", "n": 1}}
		}},
		{"carrying Favor", "carries", func(cs map[string]any) { card(cs, "adventures", 44)["carry"] = 2 }},
		{"integration of nothing", "to integrate", func(cs map[string]any) { card(cs, "adventures", 43)["attach"] = "lute" }},
		{"permanent integration", "an integration is", func(cs map[string]any) { card(cs, "adventures", 43)["permanent"] = true }},
		{"bane use", "only a Bane may have a use", func(cs map[string]any) { card(cs, "adventures", 34)["use"] = "response" }},
		// Map monsters, chance and search quests (m09, m10, q07, q02).
		{"map monster without reward", "reward", func(cs map[string]any) { delete(card(cs, "maps", 8), "reward") }},
		{"entry effect without text", "says it", func(cs map[string]any) { delete(card(cs, "maps", 13), "text") }},
		{"reward without monster", "without a monster", func(cs map[string]any) {
			card(cs, "maps", 9)["reward"] = []any{map[string]any{"op": "glory", "n": 1}}
		}},
		{"chance value", "chance quest", func(cs map[string]any) {
			card(cs, "quests", 6)["chance"] = map[string]any{"v": 9}
		}},
		{"search test", "bad test", func(cs map[string]any) {
			card(cs, "quests", 1)["search"] = map[string]any{"stat": "charm", "v": 4}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cs map[string]any
			if err := json.Unmarshal(cardsJSON, &cs); err != nil {
				t.Fatal(err)
			}
			tt.edit(cs)
			b, _ := json.Marshal(cs)
			_, err := loadCards(b)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error about %q", err, tt.want)
			}
		})
	}
	if _, err := loadCards(cardsJSON); err != nil {
		t.Fatalf("embedded set: %v", err)
	}
}

func card(cs map[string]any, kind string, i int) map[string]any {
	return cs[kind].([]any)[i].(map[string]any)
}

// TestMonsterTextsTellTheirHits: a card's hit effect replaces the usual wound ("Questo
// è l'effetto totale del colpo"), so a monster's text must tell all of it — the wounds
// too — or a player cannot know what a hit does. Every hit effect of every monster
// (Encounters, quests, map cards) is named in its English and Italian text.
func TestMonsterTextsTellTheirHits(t *testing.T) {
	words := map[string][2]string{ // op → what the English and Italian texts say
		opWound:     {"wound", "ferit"},
		opProne:     {"knocked down", "sdraiato"},
		opDiscard:   {"discard", "scart"},
		opLoseGlory: {"Glory", "Gloria"},
		opDropItem:  {"drops", "cadere"},
	}
	check := func(id string, m *Monster, text Names) {
		for form, effs := range m.Hit {
			for _, e := range effs {
				w, ok := words[e.Op]
				if !ok {
					t.Errorf("%s: hit effect %q has no words in this test", id, e.Op)
					continue
				}
				if e.Op == opWound {
					w = [2]string{fmt.Sprintf("%d %s", e.N, w[0]), fmt.Sprintf("%d %s", e.N, w[1])}
				}
				if !strings.Contains(text.En, w[0]) || !strings.Contains(text.It, w[1]) {
					t.Errorf("%s: its %s hit does %s %d, but its text says %q / %q", id, form, e.Op, e.N, text.En, text.It)
				}
			}
		}
	}
	for _, a := range cards.Adventures {
		if a.Kind == kMonster {
			check(a.ID, &a.Monster, a.Text)
		}
	}
	for _, q := range cards.Quests {
		if q.Monster != nil {
			check(q.ID, q.Monster, q.Text)
		}
	}
	for _, m := range cards.Maps {
		if m.Monster != nil {
			check(m.ID, m.Monster, m.Text)
		}
	}
}
