package draw

import (
	"slices"
	"testing"

	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/scene"
)

// TestDungeon_doorsAndNames: on a map drawn from a view made for the test, a side
// with a door on each of its cards shows both doors' values, apart and over every
// wall; a side that the card beyond walls up shows no door; a card's name that a
// line cannot hold takes two lines, whole.
func TestDungeon_doorsAndNames(t *testing.T) {
	cell := func(x, y int, name string, doors [4]string) dungeoneer.MapCell {
		return dungeoneer.MapCell{X: x, Y: y, ID: "m1", Name: dungeoneer.Names{En: name, It: name}, Type: "room", Doors: doors}
	}
	v := &dungeoneer.View{Turn: 1, Map: []dungeoneer.MapCell{
		cell(0, 0, "Hall", [4]string{"wall", "trapped 3", "open", "wall"}),
		cell(1, 0, "Hall", [4]string{"wall", "wall", "open", "locked 2"}),
		cell(0, 1, "Gallery of the Mossy Stones", [4]string{"open", "locked 5", "wall", "wall"}),
		cell(1, 1, "Hall", [4]string{"open", "wall", "wall", "wall"}),
	}}
	sc, err := Scene(Input{View: v})
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]int{} // a text → its first item's index (the map's, before the legend)
	var all []string
	for i, it := range sc.Items {
		if txt, ok := it.(*scene.Text); ok {
			if _, ok := texts[txt.Text]; !ok {
				texts[txt.Text] = i
			}
			all = append(all, txt.Text)
		}
	}
	box := func(i int) box {
		lo, hi := sc.Items[i].Bounds()
		return around(scene.Point{X: (lo.X + hi.X) / 2, Y: (lo.Y + hi.Y) / 2}, (hi.X-lo.X)/2, (hi.Y-lo.Y)/2)
	}
	for _, v := range []string{"!3", "2"} {
		i, ok := texts[v]
		if !ok {
			t.Fatalf("no door value %q among %q", v, all)
		}
		for _, it := range sc.Items[i+1:] {
			if l, ok := it.(*scene.Line); ok {
				lo, hi := l.Bounds()
				if box(i).overlaps(around(scene.Point{X: (lo.X + hi.X) / 2, Y: (lo.Y + hi.Y) / 2}, (hi.X-lo.X)/2, (hi.Y-lo.Y)/2)) {
					t.Errorf("door value %q is drawn over by a line %v–%v", v, lo, hi)
				}
			}
		}
	}
	if box(texts["!3"]).overlaps(box(texts["2"])) {
		t.Errorf("the two doors of one side overlap: %s, %s", fmtBox(box(texts["!3"])), fmtBox(box(texts["2"])))
	}
	if _, ok := texts["5"]; ok {
		t.Errorf("a locked door that the card beyond walls up is shown")
	}
	if !slices.Contains(all, "Gallery of the") || !slices.Contains(all, "Mossy Stones") {
		t.Errorf("the long name is not on two whole lines: %q", all)
	}
}
