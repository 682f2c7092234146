package layout

import (
	"math"
	"os"
	"testing"
)

func TestStats(t *testing.T) {
	if os.Getenv("LAYOUT_STATS") == "" {
		t.Skip()
	}
	for _, path := range engineMaps {
		m := readMap(t, path)
		b, _ := ForMap(m)
		px := 700 / b.Width
		minRoom, minRatio, minID, minRID := math.Inf(1), math.Inf(1), 0, 0
		pts := 0
		for _, r := range b.Regions {
			a := 0.0
			for _, ring := range r.Rings {
				pts += len(ring)
				a += ringArea(ring)
			}
			ratio := r.Room / math.Sqrt(a/math.Pi)
			if r.Room*px < minRoom {
				minRoom, minID = r.Room*px, r.ID
			}
			if ratio < minRatio {
				minRatio, minRID = ratio, r.ID
			}
		}
		t.Logf("%s: %s min room %.1f px (region %d), min thinness %.2f (region %d), %d points, %d links", m.Name, b.Source[:10], minRoom, minID, minRatio, minRID, pts, len(b.Links))
	}
}

func ringArea(ring []Point) float64 {
	s := 0.0
	for i, p := range ring {
		q := ring[(i+1)%len(ring)]
		s += p.X*q.Y - q.X*p.Y
	}
	return s / 2
}
