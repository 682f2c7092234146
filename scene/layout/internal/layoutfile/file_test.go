package layoutfile

import (
	"slices"
	"strings"
	"testing"
)

func TestFormat_parsesBack(t *testing.T) {
	f := &File{
		Board: "empire-9x", Source: "a test", Cols: 3, Rows: 2,
		Islands: []Island{{"Big", []string{"a", "b"}}},
		Links:   []Link{{"sea", "a", "b"}},
		Exits:   []Exit{{"n", "a"}},
		Cells:   []string{"a", ".", "b", "a", "b", "b"},
	}
	g, err := Parse(f.Format("a comment"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Board != f.Board || g.Source != f.Source || g.Cols != 3 || g.Rows != 2 ||
		!slices.Equal(g.Cells, f.Cells) || !slices.Equal(g.Links, f.Links) || !slices.Equal(g.Exits, f.Exits) ||
		len(g.Islands) != 1 || g.Islands[0].Name != "Big" || !slices.Equal(g.Islands[0].Regions, []string{"a", "b"}) {
		t.Errorf("parsed back %+v, want %+v", g, f)
	}
}

func TestParse_refusesBadFiles(t *testing.T) {
	ok := Magic + "\nboard b\ngrid 2 2\ncells\n1 1\n1 2\n"
	if _, err := Parse([]byte(ok)); err != nil {
		t.Fatalf("a good file: %v", err)
	}
	for name, text := range map[string]string{
		"no magic":          "board b\ngrid 2 2\ncells\n1 1\n1 2\n",
		"short row":         Magic + "\nboard b\ngrid 2 2\ncells\n1 1\n1\n",
		"too many rows":     Magic + "\nboard b\ngrid 2 2\ncells\n1 1\n1 2\n2 2\n",
		"too few rows":      Magic + "\nboard b\ngrid 2 2\ncells\n1 1\n",
		"huge grid":         Magic + "\nboard b\ngrid 100000 2\ncells\n",
		"grid not numbers":  Magic + "\nboard b\ngrid x 2\ncells\n",
		"cells before grid": Magic + "\nboard b\ncells\n1 1\n",
		"no board":          Magic + "\ngrid 2 2\ncells\n1 1\n1 2\n",
		"unknown line":      Magic + "\nboard b\ncolour red\ngrid 2 2\ncells\n1 1\n1 2\n",
		"long key":          Magic + "\nboard b\ngrid 2 2\ncells\n1 123456789\n1 2\n",
		"bad link":          Magic + "\nboard b\nlink sea a\ngrid 2 2\ncells\n1 1\n1 2\n",
		"bad exit":          Magic + "\nboard b\nexit n\ngrid 2 2\ncells\n1 1\n1 2\n",
		"island alone":      Magic + "\nboard b\nisland X\ngrid 2 2\ncells\n1 1\n1 2\n",
		"long line":         Magic + "\nboard b\ngrid 2 2\ncells\n1 " + strings.Repeat("x", 2<<20) + "\n",
	} {
		if _, err := Parse([]byte(text)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
