package layout

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// readAnchors reads a board's anchors file: region id → centre (x, y) in board
// widths.
func readAnchors(t *testing.T, board string) map[int][2]float64 {
	t.Helper()
	f, err := os.Open("internal/gen/anchors/" + board + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int][2]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 7 {
			continue
		}
		id, err := strconv.Atoi(fields[0])
		if err != nil {
			continue
		}
		x, _ := strconv.ParseFloat(fields[1], 64)
		y, _ := strconv.ParseFloat(fields[2], 64)
		out[id] = [2]float64{x, y}
	}
	return out
}

// centroid returns the centre of mass of a region's outer ring.
func centroid(r Region) Point {
	ring := r.Rings[0]
	var a, cx, cy float64
	for i, p := range ring {
		q := ring[(i+1)%len(ring)]
		f := p.X*q.Y - q.X*p.Y
		a += f
		cx += (p.X + q.X) * f
		cy += (p.Y + q.Y) * f
	}
	return Point{cx / (3 * a), cy / (3 * a)}
}

// TestForMap_regionsWhereTheSourcePutsThem checks every printed board against its
// anchors: each region's centre lies near where the public source puts it.
func TestForMap_regionsWhereTheSourcePutsThem(t *testing.T) {
	// How far a region's centre may be from the source's, in board widths: the
	// boards drawn from rough rectangles are allowed more.
	far := map[string]float64{
		"smallworld-2p": 0.03, "smallworld-3p": 0.03, "smallworld-4p": 0.03, "smallworld-5p": 0.03,
		"underground-2p": 0.03, "underground-3p": 0.05, "underground-4p": 0.05, "underground-5p": 0.05,
	}
	for _, path := range engineMaps {
		m := readMap(t, path)
		t.Run(m.Name, func(t *testing.T) {
			b, err := ForMap(m)
			if err != nil {
				t.Fatal(err)
			}
			anchors := readAnchors(t, m.Name)
			worst, worstID, sum := 0.0, 0, 0.0
			for _, r := range b.Regions {
				a, ok := anchors[r.ID]
				if !ok {
					t.Fatalf("no anchor for region %d", r.ID)
				}
				c := centroid(r)
				d := math.Hypot(c.X/b.Width-a[0], c.Y/b.Width-a[1])
				sum += d
				if d > worst {
					worst, worstID = d, r.ID
				}
			}
			t.Logf("mean distance %.3f, worst %.3f (region %d) board widths", sum/float64(len(b.Regions)), worst, worstID)
			if worst > far[m.Name] {
				t.Errorf("region %d lies %.3f board widths from where the source puts it, want at most %g", worstID, worst, far[m.Name])
			}
		})
	}
}
