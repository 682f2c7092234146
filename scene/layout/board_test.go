package layout

import (
	"strings"
	"testing"
)

// file is a layout file of a 4×3 board with the given cells (rows separated by |)
// and extra header lines.
func file(cells string, header ...string) []byte {
	var b strings.Builder
	b.WriteString("turnmail-layout 1\nboard test\nsource a test\ngrid 4 3\n")
	for _, h := range header {
		b.WriteString(h + "\n")
	}
	b.WriteString("cells\n" + strings.ReplaceAll(cells, "|", "\n") + "\n")
	return []byte(b.String())
}

func TestLoadMapLayout(t *testing.T) {
	b, err := loadMapLayout(file("1 1 2 2|1 1 2 2|3 3 3 3"))
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Borders(); len(got) != 3 {
		t.Errorf("borders %v, want 1-2, 1-3, 2-3", got)
	}
	for name, raw := range map[string][]byte{
		"a key not an id":    file("1 1 a a|1 1 a a|3 3 3 3"),
		"an id with a zero":  file("1 1 02 02|1 1 02 02|3 3 3 3"),
		"a region in pieces": file("1 2 1 2|1 2 2 2|3 3 3 3"),
		"a link to nowhere":  file("1 1 2 2|1 1 2 2|3 3 3 3", "link border 1 9"),
		"a link of no kind":  file("1 1 2 2|1 1 2 2|3 3 3 3", "link river 1 3"),
		"a link to itself":   file("1 1 2 2|1 1 2 2|3 3 3 3", "link border 1 1"),
		"not a layout":       []byte("hello"),
	} {
		if _, err := loadMapLayout(raw); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestLoadFace(t *testing.T) {
	ok := file(". . . .|. a b .|. . . .", "island I a b", "exit n a")
	b, err := loadFace(ok)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Regions) != 2 || b.Regions[0].Key != "a" || b.Regions[1].ID != 2 || len(b.Exits) != 1 {
		t.Errorf("regions %+v exits %+v", b.Regions, b.Exits)
	}
	for name, raw := range map[string][]byte{
		"no islands":             file(". . . .|. a b .|. . . ."),
		"a cell of no island":    file(". . . .|. a b c|. . . .", "island I a b"),
		"a region without cells": file(". . . .|. a b .|. . . .", "island I a b c"),
		"a region twice":         file(". . . .|. a b .|. . . .", "island I a b", "island J a"),
		"an exit sideways":       file(". . . .|. a b .|. . . .", "island I a b", "exit up a"),
		"an exit from nowhere":   file(". . . .|. a b .|. . . .", "island I a b", "exit n z"),
	} {
		if _, err := loadFace(raw); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
