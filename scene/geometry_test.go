package scene

import (
	"math"
	"testing"
)

func TestSignedDistance(t *testing.T) {
	square := []Point{{0, 0}, {10, 0}, {10, 10}, {0, 10}}
	hole := []Point{{4, 4}, {6, 4}, {6, 6}, {4, 6}}
	for _, tt := range []struct {
		name  string
		p     Point
		rings [][]Point
		want  float64
	}{
		{"centre", Point{5, 5}, [][]Point{square}, 5},
		{"near an edge", Point{1, 5}, [][]Point{square}, 1},
		{"outside, beside an edge", Point{-2, 5}, [][]Point{square}, -2},
		{"outside, by a corner", Point{-3, -4}, [][]Point{square}, -5},
		{"in the hole", Point{5, 5}, [][]Point{square, hole}, -1},
		{"between the hole and the edge", Point{2, 5}, [][]Point{square, hole}, 2},
		{"a ring of one point", Point{3, 4}, [][]Point{{{0, 0}}}, -5},
	} {
		if got := SignedDistance(tt.p, tt.rings); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: %g, want %g", tt.name, got, tt.want)
		}
	}
}
