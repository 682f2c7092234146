package empire

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// bundle is the message catalogues, loaded once for the tests that read texts as a
// mail renders them.
var bundle = sync.OnceValues(i18n.Load)

// english renders a Text as the English mail does (with the catalogue's plurals).
func english(t testing.TB, tx engine.Text) string {
	t.Helper()
	b, err := bundle()
	if err != nil {
		t.Fatal(err)
	}
	return b.Text(i18n.English, tx)
}

// checkNotes checks a player's Legal entries against their notes: no entry carries an
// explanation of its own ("#"), every note explains a listed entry, and the entries a
// reader cannot use without one — the cards to take, the patterns of any region, skip —
// have theirs.
func checkNotes(t testing.TB, where string, legal []string, notes map[string]engine.Text) {
	t.Helper()
	for _, e := range legal {
		if strings.Contains(e, "#") {
			t.Fatalf("%s: the entry %q explains itself; explanations are notes", where, e)
		}
		needs := strings.HasPrefix(e, "take ") || generic(e) || e == "skip"
		if n, ok := notes[e]; needs && (!ok || n.Key == "") {
			t.Fatalf("%s: %q has no note (notes %v)", where, e, notes)
		}
	}
	for e := range notes {
		if !slices.Contains(legal, e) {
			t.Fatalf("%s: a note on %q, which is not listed (%q)", where, e, legal)
		}
	}
}

// TestTakeNotes checks that each "take" entry has a note saying what the card gives
// the player, and the Fairy Queen's bonus card that its action is not taken.
func TestTakeNotes(t *testing.T) {
	tests := []struct {
		scenario string
		at       int
		player   string
		want     map[string]string
	}{
		// «L'abilità si attiva appena prendi la carta, quindi potrebbe anche
		// applicarsi all'azione della carta stessa»: the Forest Elf's +1 army
		// counts for its own placement, 3 printed.
		{"actions", 5, "alice", map[string]string{
			"take 1": "Forest Elf (cost 0): +1 army; with your bonuses: 4 armies to place or 2 movement points",
		}},
		{"fairy-queen", 62, "alice", map[string]string{
			"take 1": "Night Village (cost 0): +1 army; Fairy Queen: one more card, without its action",
			"take 2": "Night Wizard (cost 1): +1 VP per Night card; Fairy Queen: one more card, without its action",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			a, _ := loadScenario(t, filepath.Join("testdata", "scenarios", tt.scenario+".json"))
			states, err := engine.ReplayAll(registry, a, -1)
			if err != nil {
				t.Fatal(err)
			}
			st := states[tt.at]
			notes := engine.NotesOf(st, st.ToAct()[0])
			for entry, want := range tt.want {
				if got := english(t, notes[entry]); got != want {
					t.Errorf("note on %q = %q, want %q (legal %q)", entry, got, want, st.Legal(st.ToAct()[0]))
				}
			}
		})
	}
}

// TestLegalGrouped plays games and checks that a player's list stays short: moves
// and placements to several regions are one entry per source and cost, with the
// regions as a choice.
func TestLegalGrouped(t *testing.T) {
	most := 0
	for _, cfg := range selfplay.Configs(Game{}, 1, 8) {
		_, err := selfplay.Play(Game{}, cfg, func(st selfplay.Step) error {
			for _, p := range st.State.ToAct() {
				most = max(most, len(st.State.Legal(p)))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if most > 30 {
		t.Errorf("a player was offered %d entries, want at most 30", most)
	}
	t.Logf("longest list: %d entries", most)
}
