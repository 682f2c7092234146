package smallworld

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
)

// marksOf is what the view shows of player p's active race's counters and choices.
func marksOf(s *state, p int) map[string]int {
	a := view(s).Players[p].Active
	if a == nil {
		return nil
	}
	return a.Marks
}

// TestUndergroundViewMarks: the view shows what a player needs to act on beside the
// map: the Shadow Mimes' swap window while it is open, the Flames' volcano window,
// the Iron Dwarves' silver hammers (those joining the hand next turn, and those in
// play this turn), and nothing for a race without such counters.
func TestUndergroundViewMarks(t *testing.T) {
	tests := []struct {
		name  string
		race  string
		cmds  []string
		want  map[string]int
		other string // the JSON of alice's marks must not hold this key
	}{
		{"mimes window open", "Shadow Mimes", nil, map[string]int{"may_swap": 5}, ""},
		{"mimes window closed by the swap", "Shadow Mimes", []string{"alice: swap 1"}, nil, "may_swap"},
		{"mimes window closed by a conquest", "Shadow Mimes", []string{"alice: conquer 26"}, nil, "may_swap"},
		{"flames window open", "Flames", nil, map[string]int{"may_move_volcano": 1}, ""},
		{"flames window open after a move", "Flames", []string{"alice: volcano 15"}, map[string]int{"may_move_volcano": 1}, ""},
		{"flames window closed by a conquest", "Flames", []string{"alice: conquer 2"}, nil, "may_move_volcano"},
		{"dwarves: no hammer yet", "Iron Dwarves", nil, nil, "hammers"},
		{"dwarves: a hammer for next turn", "Iron Dwarves", []string{"alice: conquer 26", "alice: done"}, map[string]int{"hammers": 1}, "hammers_in_play"},
		{"dwarves: the hammer in play", "Iron Dwarves", []string{"alice: conquer 26", "alice: done", "bob: pick 1", "bob: done"}, map[string]int{"hammers": 1, "hammers_in_play": 1}, ""},
		{"no counters", "Ratmen", nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			other := "Ratmen"
			if tt.race == "Ratmen" {
				other = "Liches"
			}
			s, _ := newUnderground(t, 2, nil, `{"races":["`+tt.race+`","`+other+`"],"powers":["Spirit","Stout"]}`)
			s = apply(t, s, append([]string{"alice: pick 1"}, tt.cmds...)...)
			got := marksOf(s, 0)
			if !maps.Equal(got, tt.want) {
				t.Errorf("marks %v, want %v", got, tt.want)
			}
			b, err := json.Marshal(view(s).Players[0])
			if err != nil {
				t.Fatal(err)
			}
			if tt.other != "" && strings.Contains(string(b), `"`+tt.other+`"`) {
				t.Errorf("the view shows %q: %s", tt.other, b)
			}
		})
	}
}

// TestUndergroundViewStonehedge: the view names the power Stonehedge gives in its
// entry of the places found, with the holder, and keeps the catalogue number the
// state stores out of the region's pieces.
func TestUndergroundViewStonehedge(t *testing.T) {
	s, _ := newUnderground(t, 2, nil, `{"races":["Liches","Ratmen"],"powers":["Spirit","Stout","Alchemist","Berserk","Commando","Flying","Forest","Mining"],"pool":["Stonehedge"]}`)
	s = apply(t, s, "alice: pick 1")
	s = reveal(t, s, "alice", "conquer 23", "Stonehedge")
	v := view(s)
	for _, r := range v.Regions {
		if r.ID == 23 && (r.Pieces["stonehedge_power"] != 0 || r.Pieces["stonehedge"] != 1) {
			t.Errorf("region 23 pieces %v; want stonehedge alone", r.Pieces)
		}
	}
	if len(v.Found) != 1 || v.Found[0].Name != "Stonehedge" || v.Found[0].Kind != "place" || v.Found[0].Power != "Mining" ||
		v.Found[0].Holder == nil || *v.Found[0].Holder != "alice" || v.Pool == nil || *v.Pool != 3 {
		t.Errorf("found %+v, pool %v; want Stonehedge (Mining) held by alice, 3 face down", v.Found, v.Pool)
	}
	// Abandoned, it stays there and nobody holds it.
	s = apply(t, s, "alice: conquer 27", "alice: abandon 23")
	if f := view(s).Found; len(f) != 1 || f[0].Holder != nil || f[0].Race != "" {
		t.Errorf("found after abandon %+v; want no holder", f)
	}
}

// TestViewNoFound: a game without places and relics has neither pool nor found in
// its view.
func TestViewNoFound(t *testing.T) {
	s := newGame(t, 2, nil, "")
	b, err := json.Marshal(view(s))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"pool"`, `"found"`, `"marks"`} {
		if strings.Contains(string(b), k) {
			t.Errorf("the base game's view has %s", k)
		}
	}
}
