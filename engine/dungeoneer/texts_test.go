package dungeoneer

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestCellTexts: the middle of a drawn map card says its obstacle with its value, pair
// or terrain, the Entrance's tower, and "monster" where a map monster lives; a card
// the set does not know shows the view's obstacle as it is.
func TestCellTexts(t *testing.T) {
	tests := []struct {
		cell MapCell
		want string
	}{
		{MapCell{ID: "m01", Type: "entrance"}, "tower"},
		{MapCell{ID: "m07", Type: "passage"}, "pit 3"},
		{MapCell{ID: "m11", Type: "room"}, "spikes 4"},
		{MapCell{ID: "m13", Type: "room"}, "risk +1"},
		{MapCell{ID: "m05", Type: "passage"}, "sewer A"},
		{MapCell{ID: "m08", Type: "passage"}, "terrain cave"},
		{MapCell{ID: "m15", Type: "room"}, "portal"},
		{MapCell{ID: "m09", Type: "passage", Monster: true}, "monster"},
		{MapCell{ID: "m02", Type: "passage"}, ""},
		{MapCell{ID: "x99", Obstacle: "bog 2"}, "bog 2"},
	}
	for _, tt := range tests {
		var got []string
		for _, tx := range CellTexts(tt.cell) {
			got = append(got, tx.String())
		}
		if s := strings.Join(got, " "); s != tt.want {
			t.Errorf("CellTexts(%s) = %q, want %q", tt.cell.ID, s, tt.want)
		}
	}
}

// TestDoorTexts: a locked or trapped door has a mark of its letter and value, which
// the reader's language may change; an open door and a wall have none, and a map
// card's description names them.
func TestDoorTexts(t *testing.T) {
	tests := []struct {
		door, mark, text string
	}{
		{"locked 3", "L3", "L3"},
		{"trapped 4", "T4", "T4"},
		{"open", "", "open"},
		{"wall", "", "wall"},
	}
	for _, tt := range tests {
		m, ok := DoorMark(tt.door)
		if got := m.String(); ok != (tt.mark != "") || got != tt.mark {
			t.Errorf("DoorMark(%q) = %q, %v; want %q", tt.door, got, ok, tt.mark)
		}
		if got := DoorText(tt.door).String(); got != tt.text {
			t.Errorf("DoorText(%q) = %q, want %q", tt.door, got, tt.text)
		}
	}
}

// TestDrawMapSays: DrawMap writes its words and door marks through the renderer it is
// given, cut to the room a box has: a reader's language changes them, the box stays.
func TestDrawMapSays(t *testing.T) {
	words := map[string]string{"L%d": "C%d", "tower": "torre", "pit %d": "pozzo %d", "monster": "mostro"}
	say := func(tx engine.Text) string {
		if f, ok := words[tx.Key]; ok {
			return fmt.Sprintf(f, tx.Args...)
		}
		return tx.String()
	}
	cells := []MapCell{
		{X: 0, Y: 0, ID: "m01", Type: "entrance", Doors: [4]string{"open", "locked 3", "open", "wall"}},
		{X: 1, Y: 0, ID: "m07", Type: "passage", Doors: [4]string{"wall", "wall", "trapped 4", "open"}},
		{X: 0, Y: 1, ID: "m09", Type: "passage", Monster: true, Doors: [4]string{"open", "wall", "wall", "wall"}},
	}
	got := DrawMap(cells, say)
	for _, want := range []string{"│ m01 0,0      C  m07 1,0      │", "│ torre        3  pozzo 3      │", "└──────T4──────┘", "│ mostro       │"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	if en := DrawMap(cells, nil); !strings.Contains(en, "│ m01 0,0      L") || !strings.Contains(en, "│ tower        3  pit 3") {
		t.Errorf("nil draws English:\n%s", en)
	}
}

// TestFormArg: a form of attack in an error is a text of the catalogues; any other
// word the player wrote stays a command word, which no catalogue key sharing its
// spelling (pack, a Treasure's category) may translate.
func TestFormArg(t *testing.T) {
	tests := []struct {
		word string
		want any
	}{
		{"melee", engine.Text{Key: "melee"}},
		{"speed", engine.Text{Key: "speed"}},
		{"pack", engine.Command("pack")},
		{"x", engine.Command("x")},
	}
	for _, tt := range tests {
		if got := formArg(tt.word); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("formArg(%q) = %#v, want %#v", tt.word, got, tt.want)
		}
	}
}
