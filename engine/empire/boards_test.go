package empire

import (
	"strings"
	"testing"
)

// TestEmbeddedBoards checks the rulebook's constraints on the embedded set: four
// double-sided boards, the start-icon face, the face of three separately scored islands
// joined by crossings, and every choice of sides in the T (each face in the centre) and
// ring layouts connected, with a start region that has a sea route to another board.
func TestEmbeddedBoards(t *testing.T) {
	d, err := embedded()
	if err != nil {
		t.Fatal(err)
	}
	bs := d.boards
	if err := bs.officialCheck(); err != nil {
		t.Fatal(err)
	}
	for _, f := range bs.Faces {
		if f.SeparateIslands {
			if len(f.Islands) != 3 || len(f.Sea) > 0 {
				t.Errorf("face %s: separate islands face has %d islands and %d sea routes", f.ID, len(f.Islands), len(f.Sea))
			}
			lay, err := bs.build(layoutT, []string{f.ID})
			if err != nil {
				t.Fatal(err)
			}
			for r, es := range lay.Adj {
				for _, e := range es {
					if lay.Regions[r].Island != lay.Regions[e.To].Island && e.Kind == edgeSea {
						t.Errorf("face %s: islands joined by sea", f.ID)
					}
				}
			}
		}
	}
	// Every combination of one face per board, in every order, in both layouts.
	byBoard := map[int][]string{}
	for _, f := range bs.Faces {
		byBoard[f.Board] = append(byBoard[f.Board], f.ID)
	}
	layoutsBuilt := 0
	for mask := range 16 {
		var chosen []string
		for b := 1; b <= 4; b++ {
			chosen = append(chosen, byBoard[b][(mask>>(b-1))&1])
		}
		for _, perm := range permutations(chosen) {
			start := false
			for i, id := range perm {
				if f, _ := bs.find(id); f.StartIcon && i != 0 {
					start = true
				}
			}
			for _, kind := range []string{layoutT, layoutRing} {
				lay, err := bs.build(kind, perm)
				if start {
					if err == nil || !strings.Contains(err.Error(), "start icon") {
						t.Errorf("%s %v: start-icon face off the centre accepted (%v)", kind, perm, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s %v: %v", kind, perm, err)
					continue
				}
				layoutsBuilt++
				if !lay.connected() {
					t.Errorf("%s %v: not connected", kind, perm)
				}
				if len(lay.startCandidates()) == 0 {
					t.Errorf("%s %v: no start region", kind, perm)
				}
				if n := len(lay.Regions); n < 24 || n > 30 {
					t.Errorf("%s %v: %d regions", kind, perm, n)
				}
				// Each face joins its neighbours: T centre three, ring every face two.
				joins := make([]map[int]bool, 4)
				for r, es := range lay.Adj {
					for _, e := range es {
						a, b := lay.Regions[r].Face, lay.Regions[e.To].Face
						if a != b {
							if joins[a] == nil {
								joins[a] = map[int]bool{}
							}
							joins[a][b] = true
						}
					}
				}
				want := map[string][]int{layoutT: {3, 1, 1, 1}, layoutRing: {2, 2, 2, 2}}[kind]
				for i, w := range want {
					if len(joins[i]) != w {
						t.Errorf("%s %v: face %d joins %d faces, want %d", kind, perm, i, len(joins[i]), w)
					}
				}
			}
		}
	}
	if layoutsBuilt < 16*6*2 {
		t.Errorf("only %d layouts built", layoutsBuilt)
	}
}

func permutations(xs []string) [][]string {
	if len(xs) <= 1 {
		return [][]string{append([]string{}, xs...)}
	}
	var out [][]string
	for i := range xs {
		rest := append(append([]string{}, xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{xs[i]}, p...))
		}
	}
	return out
}

// TestBoardValidation checks that broken inline boards are refused with a reason.
func TestBoardValidation(t *testing.T) {
	cases := map[string]string{
		`{"faces":[]}`: "no faces",
		`{"faces":[{"id":"x","islands":[{"name":"A","regions":["a","b"]}]}]}`:                                              "not connected by land",
		`{"faces":[{"id":"x","islands":[{"name":"A","regions":["a"]},{"name":"B","regions":["b"]}],"land":["a-b"]}]}`:      "land borders join regions of one island",
		`{"faces":[{"id":"x","islands":[{"name":"A","regions":["a"]},{"name":"B","regions":["b"]}],"crossings":["a-b"]}]}`: "without the separate-islands icon",
		`{"faces":[{"id":"x","islands":[{"name":"A","regions":["a"]},{"name":"B","regions":["b"]}]}]}`:                     "face is not connected",
		`{"faces":[{"id":"x","islands":[{"name":"A","regions":["a"]}],"exits":{"up":"a"}}]}`:                               "exit side",
		`{"faces":[{"id":"x","islands":[{"name":"A","regions":["a"]}],"exits":{"n":"z"}}]}`:                                "unknown region",
		`{"faces":[{"id":"x","islands":[{"name":"A","regions":["a","a"]}]}]}`:                                              "named twice",
		`{"faces":[{"id":"x","islands":[{"name":"A","regions":["a"]}],"hills":[]}]}`:                                       "unknown field",
	}
	for doc, want := range cases {
		if _, err := loadBoards([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", doc, err, want)
		}
	}
	bs, err := loadBoards([]byte(`{"faces":[
		{"id":"a","board":1,"islands":[{"name":"A","regions":["a"]}],"exits":{"n":"a"}},
		{"id":"b","board":1,"islands":[{"name":"B","regions":["a"]}],"exits":{"s":"a"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bs.build(layoutT, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "both faces of board 1") {
		t.Errorf("two faces of one board: %v", err)
	}
}
