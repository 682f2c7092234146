package templates

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// dungeonGame is the game of the Dungeoneer sample.
var dungeonGame = Game{ID: "du-4m8x", Kind: "dungeoneer", Title: GameTitle("dungeoneer"), Players: []string{"ann", "ben", "cy"}}

func init() {
	// A real Dungeoneer view (3 players, self-play seed 5, ben's hero phase, seen by ann): the whole
	// map of 20 cards (two bands of columns), her hand with the card texts, the
	// heroes' quests, cards in play and packs.
	v := loadView("dungeoneer.view.json")
	samples = append(samples, struct {
		name, kind string
		data       any
	}{"state-dungeoneer", "state", State{
		Game: dungeonGame, Player: "ann", ToAct: Strs(v["to_act"]), YourTurn: Str(v["current"]) == "ann",
		Moves: []Move{{Seq: 183, Player: "ben", Command: "move e"}},
		Legal: legalOf(v), View: v, ReplyTo: "turnmail+du-4m8x.0.xxxx@example.org",
	}})
	htmlGolden["state-dungeoneer"] = true
}

// TestDungeonCard: a monster card — in a hand, a pack or a kill quest — shows its life
// and its scores, what it attacks with and what it only defends with, so that a
// player can weigh it; other cards show none; an unknown id is shown as it is.
func TestDungeonCard(t *testing.T) {
	tests := []struct{ id, want string }{
		{"a13", "a13 Ogre Jailer (monster, cost 3; life 2, attacks Melee 3, defends Magic 0, Speed 0): A wall of fat and iron."},
		{"a16", "a16 Cultist Adept (monster, cost 3; life 2, attacks Melee 1, Magic 3, defends Speed 1): Hit (Magic): discard 1 random card."},
		{"q01", "q01 Slay the Drowned Knight (kill, at m12; life 2, attacks Melee 3, defends Magic 0, Speed 1): Defeat the Drowned Knight in the Flooded Crypt."},
		{"a21", "a21 Swinging Blade (trap, cost 1): Speed 4+. Failure: 1 wound."},
		{"zz9", "zz9"},
	}
	for _, tt := range tests {
		if got := dungeonCard(tt.id); got != tt.want {
			t.Errorf("dungeonCard(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}

// TestDungeonGlobalQuestWraps: the global quest is a card line like those of the hand,
// indented, and its continuation stays under the indentation within MaxLine.
func TestDungeonGlobalQuestWraps(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples {
		if s.name != "state-dungeoneer" {
			continue
		}
		text, _, err := set.Render(s.kind, s.data)
		if err != nil {
			t.Fatal(err)
		}
		_, block, ok := strings.Cut(text, "\nGlobal quest:\n")
		if !ok {
			t.Fatalf("no global quest block in:\n%s", text)
		}
		block, _, _ = strings.Cut(block, "\n\n")
		lines := strings.Split(block, "\n")
		if len(lines) < 2 {
			t.Fatalf("the sample's global quest fits one line: %q", block)
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "   ") || utf8.RuneCountInString(l) > MaxLine {
				t.Errorf("global quest line %q: want two spaces of indentation and at most %d characters", l, MaxLine)
			}
		}
		return
	}
	t.Fatal("no state-dungeoneer sample")
}
