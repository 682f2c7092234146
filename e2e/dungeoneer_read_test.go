package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestDungeonRead: the bot reads what it plays by from the English state mail as the
// templates write it (their golden sample): the hero sheets with their scores, life
// and ability, the cards with their kind, a monster's attacks and a trap's test, and
// where its own hero stands with the map cards of its quests.
func TestDungeonRead(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "templates", "testdata", "state-dungeoneer.golden"))
	if err != nil {
		t.Fatal(err)
	}
	board := string(raw)
	m := dgRead(board)
	heroes := []struct {
		name  string
		want  dgHero
		x, y  int
		goals []string
	}{
		{"ann", dgHero{stats: map[string]int{"level": 2, "life": 2, "melee": 2, "magic": 3, "speed": 2}, life: 2, ability: "+1 Movement each turn."},
			-1, -1, []string{"m11", "m12"}},
		{"ben", dgHero{stats: map[string]int{"level": 1, "life": 5, "melee": 2, "magic": 1, "speed": 5}, life: 5, ability: "+1 to every peril test (doors, obstacles, traps)."},
			1, -2, []string{"m04", "m18", "m12"}},
		{"cy", dgHero{stats: map[string]int{"level": 2, "life": 4, "melee": 1, "magic": 5, "speed": 3}, life: 4, ability: "Gains 1 Glory at the start of each of her turns."},
			-4, 0, []string{"m10", "m12"}},
	}
	for _, h := range heroes {
		if got := m.heroes[h.name]; !reflect.DeepEqual(got, h.want) {
			t.Errorf("hero sheet of %s: %+v, want %+v", h.name, got, h.want)
		}
		x, y, goals := dungeonGoals(board, h.name)
		if x != h.x || y != h.y || !reflect.DeepEqual(goals, h.goals) {
			t.Errorf("%s stands at %d,%d with goals %v, want %d,%d and %v", h.name, x, y, goals, h.x, h.y, h.goals)
		}
	}
	cards := map[string]dgCard{
		"a13": {kind: "monster", attacks: map[string]int{"melee": 3}, text: ": A wall of fat and iron."},
		"a21": {kind: "trap", stat: "speed", test: 4, text: ": Speed 4+. Failure: 1 wound."},
	}
	for id, want := range cards {
		if got := m.cards[id]; !reflect.DeepEqual(got, want) {
			t.Errorf("card %s: %+v, want %+v", id, got, want)
		}
	}
	if cells := dungeonDoors(board); len(cells) != 20 {
		t.Errorf("%d map cards read from the drawn map, want 20", len(cells))
	}
}
