package hexgrid

import (
	"math"
	"testing"

	"github.com/turnmail/turnmail/scene"
)

// stripes returns a grid of cols×rows cells split into k vertical stripes.
func stripes(cols, rows, k int) *Grid {
	g := New(cols, rows)
	for i := range g.Cell {
		g.Cell[i] = (i % cols) * k / cols
	}
	return g
}

func TestTrace_partitionsTheBoard(t *testing.T) {
	for _, tc := range []struct {
		name   string
		g      *Grid
		n      int
		smooth int
	}{
		{"one region", stripes(6, 5, 1), 1, 2},
		{"three stripes", stripes(12, 9, 3), 3, 2},
		{"three stripes unsmoothed", stripes(12, 9, 3), 3, 0},
		{"island in the void", island(9, 9), 1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := Trace(tc.g, tc.n, tc.smooth)
			if err != nil {
				t.Fatal(err)
			}
			total := 0.0
			for r, rings := range o.Rings {
				if len(rings) != 1 {
					t.Errorf("region %d: %d rings", r, len(rings))
				}
				a := Area(rings[0])
				if a <= 0 {
					t.Errorf("region %d: area %g, want clockwise", r, a)
				}
				total += a
			}
			if tc.name == "island in the void" {
				if total <= 0 || total >= o.Width*o.Height/2 {
					t.Errorf("island area %g of %g", total, o.Width*o.Height)
				}
				return
			}
			if want := o.Width * o.Height; math.Abs(total-want) > 1e-9*want {
				t.Errorf("areas add up to %g, board is %g", total, want)
			}
		})
	}
}

// island returns a grid whose only region is a blob in the middle of the void.
func island(cols, rows int) *Grid {
	g := New(cols, rows)
	for i := range g.Cell {
		if g.Dist(i, (rows/2)*cols+cols/2) < 3.5 {
			g.Cell[i] = 0
		}
	}
	return g
}

func TestTrace_sharedBordersHaveTheSamePoints(t *testing.T) {
	o, err := Trace(stripes(12, 9, 3), 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	seg := func(r int) map[[2]Point]bool {
		m := map[[2]Point]bool{}
		ring := o.Rings[r][0]
		for i, p := range ring {
			q := ring[(i+1)%len(ring)]
			m[[2]Point{p, q}] = true
		}
		return m
	}
	shared := func(a, b int) int {
		sa, n := seg(a), 0
		for s := range seg(b) {
			if sa[[2]Point{s[1], s[0]}] {
				n++
			}
		}
		return n
	}
	if shared(0, 1) == 0 || shared(1, 2) == 0 {
		t.Errorf("neighbouring stripes share %d and %d segments", shared(0, 1), shared(1, 2))
	}
	if n := shared(0, 2); n != 0 {
		t.Errorf("the outer stripes share %d segments", n)
	}
}

func TestLabel_insideWithRoom(t *testing.T) {
	sq := [][]Point{{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 4}, {X: 0, Y: 4}}}
	p, d := Label(sq, 0.01)
	if math.Abs(d-2) > 0.02 || p.Y < 1.9 || p.Y > 2.1 {
		t.Errorf("label %v room %g, want y≈2 room≈2", p, d)
	}
	if d := scene.SignedDistance(Point{X: -1, Y: 1}, sq); d >= 0 {
		t.Errorf("outside point at distance %g", d)
	}
}
