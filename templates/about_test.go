package templates

import (
	"html"
	"strings"
	"testing"
)

// TestRender_aboutCombos: a Small World state mail gives, in the reader's language,
// the texts of the reader's own active and declined race and power and of the offer,
// and not those of another player's combos; an observer gets the offer's only.
func TestRender_aboutCombos(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	view := map[string]any{
		"turn": 3.0,
		"players": []any{
			map[string]any{"name": "ann", "score": 5.0, "hand": 0.0,
				"active":   map[string]any{"race": "Amazons", "power": "Forest"},
				"declined": []any{map[string]any{"race": "Ghouls"}}},
			map[string]any{"name": "ben", "score": 7.0, "hand": 0.0,
				"active": map[string]any{"race": "Trolls", "power": "Wealthy"}},
		},
		"offer": []any{map[string]any{"race": "Ratmen", "power": "Dragon Master", "tokens": 13.0}},
	}
	tests := []struct {
		name, player, lang string
		want, not          []string
	}{
		{"player", "ann", "en",
			[]string{"What your combos and those on offer do:", "Amazons (race): +4 tokens", "Forest (special power):", "Ghouls (race): In decline",
				"Ratmen (race):", "Dragon Master (special power): Once per turn"},
			[]string{"Trolls (race)", "Wealthy (special power)"}},
		{"italian", "ann", "it",
			[]string{"Cosa fanno le tue combinazioni e quelle in offerta:", "(razza): +4 segnalini", "(potere speciale):", "In Declino tengono"},
			[]string{"+7 monete", "(race)"}},
		{"observer", "", "en",
			[]string{"Ratmen (race):", "Dragon Master (special power):"},
			[]string{"Amazons (race)", "Trolls (race)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, h, err := set.Render("state", State{Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: GameTitle("smallworld"), Players: []string{"ann", "ben"}},
				Player: tt.player, Observer: tt.player == "", Lang: tt.lang, View: view})
			if err != nil {
				t.Fatal(err)
			}
			for part, body := range map[string]string{"text": text, "html": h} {
				flat := strings.Join(strings.Fields(html.UnescapeString(body)), " ")
				for _, w := range tt.want {
					if !strings.Contains(flat, w) {
						t.Errorf("%s part lacks %q:\n%s", part, w, body)
					}
				}
				for _, w := range tt.not {
					if strings.Contains(flat, w) {
						t.Errorf("%s part has %q", part, w)
					}
				}
			}
			for _, l := range strings.Split(text, "\n") {
				if len([]rune(l)) > MaxLine {
					t.Errorf("line over %d columns: %q", MaxLine, l)
				}
			}
		})
	}
}
