package dungeoneer

import (
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/narratecheck"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// TestEveryVerbNarrates plays self-played games with every option set the game
// samples: every command word the game names (Words) must be played (drop, rare, is
// played by TestMapInViewEndsWhenNothingFits), and every
// command told to every reader in sentences, in English and Italian (narratecheck).
func TestEveryVerbNarrates(t *testing.T) { narratecheck.EveryVerb(t, Game{}, 6, "drop") }

// TestAsked: every player asked out of turn in self-played games (a response window,
// the guard's choice) is told why and what is done if they do not answer, in both
// languages.
func TestAsked(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	asked := map[string]int{}
	for _, cfg := range selfplay.Configs(Game{}, 3, 4) {
		_, err := selfplay.Play(Game{}, cfg, func(st selfplay.Step) error {
			s := st.State.(*state)
			for _, p := range s.ToAct() {
				why, otherwise := engine.Asked(s, p)
				if !s.Responding(p) {
					if why.Key != "" {
						t.Errorf("%s is not asked but told %q", p, why.String())
					}
					continue
				}
				asked[s.Phase]++
				for _, tx := range []engine.Text{why, otherwise} {
					if tx.Key == "" || !tr.HasAny(i18n.Italian, tx.Key) {
						t.Fatalf("%s asked in the %s phase: %q has no Italian", p, s.Phase, tx.Key)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if asked[phRespond] == 0 || asked[phGuard] == 0 {
		t.Errorf("asked %v: want responses and guards", asked)
	}
}

// TestAndList: the cards played against a hero are listed as a sentence lists them,
// in both languages ("Ghoul, Ogre Jailer and Wisp"; "Ghoul, Orco Carceriere e …").
func TestAndList(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	names := []engine.Text{engine.Textf("%s", "a"), engine.Textf("%s", "b"), engine.Textf("%s", "c")}
	for _, tt := range []struct {
		n      int
		en, it string
	}{
		{1, "a", "a"},
		{2, "a and b", "a e b"},
		{3, "a, b and c", "a, b e c"},
	} {
		l := andList(names[:tt.n])
		if en, it := tr.GameText("dungeoneer", i18n.English, l), tr.GameText("dungeoneer", i18n.Italian, l); en != tt.en || it != tt.it {
			t.Errorf("%d names: %q / %q, want %q / %q", tt.n, en, it, tt.en, tt.it)
		}
	}
}
