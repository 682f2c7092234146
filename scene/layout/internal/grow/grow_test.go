package grow

import (
	"testing"

	"github.com/turnmail/turnmail/scene/layout/internal/hexgrid"
)

// connected reports whether every region of g owns cells, all connected.
func connected(g *hexgrid.Grid, n int) bool {
	for r := range n {
		start, count := -1, 0
		for i, o := range g.Cell {
			if o == r {
				count++
				start = i
			}
		}
		if start < 0 {
			return false
		}
		seen := map[int]bool{start: true}
		stack := []int{start}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for d := range 6 {
				if j := g.Neighbour(c, d); j >= 0 && !seen[j] && g.Cell[j] == r {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		if len(seen) != count {
			return false
		}
	}
	return true
}

func TestSolve(t *testing.T) {
	w := float64(2*20-1) * hexgrid.ScaleX
	h := 1.5 * float64(16-1)
	for _, tc := range []struct {
		name string
		p    Problem
	}{
		{"a row of three, all on the rim", Problem{
			Regions:  []Region{{X: w / 6, Y: h / 2, Edge: true}, {X: w / 2, Y: h / 2, Edge: true}, {X: 5 * w / 6, Y: h / 2, Edge: true}},
			Adjacent: [][2]int{{0, 1}, {1, 2}},
		}},
		{"a lake inside a ring", Problem{
			Regions: []Region{
				{X: w / 4, Y: h / 4, Edge: true}, {X: 3 * w / 4, Y: h / 4, Edge: true},
				{X: 3 * w / 4, Y: 3 * h / 4, Edge: true}, {X: w / 4, Y: 3 * h / 4, Edge: true},
				{X: w / 2, Y: h / 2},
			},
			Adjacent: [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 4}, {1, 4}, {2, 4}, {3, 4}},
		}},
		{"islands in the void", Problem{
			Void:     true,
			Regions:  []Region{{X: w / 4, Y: h / 2, Area: 40}, {X: w / 2, Y: h / 2, Area: 40}, {X: 3 * w / 4, Y: h / 2, Area: 40}},
			Adjacent: [][2]int{{0, 1}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			p.Cols, p.Rows, p.MinContact, p.Steps, p.Seed = 20, 16, 3, 200000, 1
			for i := range p.Regions {
				if p.Regions[i].Area == 0 {
					p.Regions[i].Area = float64(p.Cols*p.Rows) / float64(len(p.Regions))
				}
			}
			res := Solve(p)
			if !res.Exact() {
				t.Errorf("missing %v, extra %v, rim %v", res.Missing, res.Extra, res.Rim)
			}
			if !connected(res.Grid, len(p.Regions)) {
				t.Error("a region is in pieces")
			}
			if p.Void {
				for i, o := range res.Grid.Cell {
					if res.Grid.OnRim(i) && o != hexgrid.Void {
						t.Fatalf("cell %d on the rim belongs to %d", i, o)
					}
				}
			}
		})
	}
}

func TestSolve_reportsWhatItCannotDraw(t *testing.T) {
	// Five regions all bordering each other (K5) cannot be drawn.
	p := Problem{Cols: 16, Rows: 14, MinContact: 1, Steps: 100000, Seed: 1}
	for i := range 5 {
		p.Regions = append(p.Regions, Region{X: float64(4 + 5*i), Y: 10, Area: 40, Edge: true})
		for j := i + 1; j < 5; j++ {
			p.Adjacent = append(p.Adjacent, [2]int{i, j})
		}
	}
	res := Solve(p)
	if res.Exact() || len(res.Missing)+len(res.Extra)+len(res.Rim) == 0 {
		t.Errorf("K5 drawn exactly")
	}
}
