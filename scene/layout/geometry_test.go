package layout

import (
	"fmt"
	"math"
	"slices"

	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/layout/internal/hexgrid"
)

// Readability at the picture's size: a board is drawn about pictureWidth CSS pixels
// wide (an Empire face a third of it: the T layout puts three faces side by side);
// a label needs a circle of minRoomPx around it for a region number and
// a token count, a border minBorderPx of shared outline to be seen.
const (
	pictureWidth = 700.0
	faceWidth    = pictureWidth / 3
	minRoomPx    = 14.0
	minBorderPx  = 10.0
	// minThinness bounds how thin a region may be: its label room against the
	// radius of a disc of the same area.
	minThinness = 0.3
)

// segment is one edge of a region's ring.
type segment struct {
	a, b   Point
	region int // index in Board.Regions
}

func segmentsOf(b *Board) []segment {
	var out []segment
	for r, reg := range b.Regions {
		for _, ring := range reg.Rings {
			for i, p := range ring {
				out = append(out, segment{p, ring[(i+1)%len(ring)], r})
			}
		}
	}
	return out
}

// crossings returns the pairs of segments that cross or overlap, other than shared
// border segments and segments meeting at an end.
func crossings(b *Board) []string {
	segs := segmentsOf(b)
	const cell = 20.0
	grid := map[[2]int][]int{}
	for k, s := range segs {
		x0, x1 := math.Min(s.a.X, s.b.X), math.Max(s.a.X, s.b.X)
		y0, y1 := math.Min(s.a.Y, s.b.Y), math.Max(s.a.Y, s.b.Y)
		for gx := int(x0 / cell); gx <= int(x1/cell); gx++ {
			for gy := int(y0 / cell); gy <= int(y1/cell); gy++ {
				grid[[2]int{gx, gy}] = append(grid[[2]int{gx, gy}], k)
			}
		}
	}
	var out []string
	seen := map[[2]int]bool{}
	for _, list := range grid {
		for i, k := range list {
			for _, l := range list[i+1:] {
				if seen[[2]int{k, l}] {
					continue
				}
				seen[[2]int{k, l}] = true
				s, t := segs[k], segs[l]
				if (s.a == t.b && s.b == t.a) || (s.a == t.a && s.b == t.b) {
					continue // a shared border (or the same edge)
				}
				if s.a == t.a || s.a == t.b || s.b == t.a || s.b == t.b {
					if collinearOverlap(s, t) {
						out = append(out, fmt.Sprintf("regions %d and %d overlap at %v", b.Regions[s.region].ID, b.Regions[t.region].ID, s.a))
					}
					continue
				}
				if intersect(s.a, s.b, t.a, t.b) {
					out = append(out, fmt.Sprintf("regions %d and %d cross near %v", b.Regions[s.region].ID, b.Regions[t.region].ID, s.a))
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func cross(o, a, b Point) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }

// intersect reports segments pq and rs that touch or cross.
func intersect(p, q, r, s Point) bool {
	d1, d2 := cross(r, s, p), cross(r, s, q)
	d3, d4 := cross(p, q, r), cross(p, q, s)
	if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
		return true
	}
	on := func(a, b, c Point, d float64) bool {
		return d == 0 && math.Min(a.X, b.X) <= c.X && c.X <= math.Max(a.X, b.X) && math.Min(a.Y, b.Y) <= c.Y && c.Y <= math.Max(a.Y, b.Y)
	}
	return on(r, s, p, d1) || on(r, s, q, d2) || on(p, q, r, d3) || on(p, q, s, d4)
}

// collinearOverlap reports two segments sharing an end that run along each other.
func collinearOverlap(s, t segment) bool {
	if math.Abs(cross(s.a, s.b, t.a)) > 1e-9 || math.Abs(cross(s.a, s.b, t.b)) > 1e-9 {
		return false
	}
	// Collinear and sharing an end: they overlap when they leave it the same way.
	shared, u, v := s.a, s.b, t.b
	switch {
	case s.a == t.b:
		v = t.a
	case s.b == t.a:
		shared, u, v = s.b, s.a, t.b
	case s.b == t.b:
		shared, u, v = s.b, s.a, t.a
	}
	return (u.X-shared.X)*(v.X-shared.X)+(u.Y-shared.Y)*(v.Y-shared.Y) > 0
}

func toHex(rings [][]Point) [][]hexgrid.Point {
	out := make([][]hexgrid.Point, len(rings))
	for i, ring := range rings {
		for _, p := range ring {
			out[i] = append(out[i], hexgrid.Point{X: p.X, Y: p.Y})
		}
	}
	return out
}

// regionArea is the region's area: the outer ring less its holes.
func regionArea(r Region) float64 {
	a := 0.0
	for _, ring := range r.Rings {
		a += hexgrid.Area(toHex([][]Point{ring})[0])
	}
	return a
}

// sharedLength returns the length of outline each pair of regions shares.
func sharedLength(b *Board) map[[2]int]float64 {
	owner := map[segKey]int{}
	out := map[[2]int]float64{}
	for _, r := range b.Regions {
		for _, ring := range r.Rings {
			for i, p := range ring {
				q := ring[(i+1)%len(ring)]
				k := newSegKey(p, q)
				if o, ok := owner[k]; ok && o != r.ID {
					out[pair(o, r.ID)] += dist(p, q)
				} else {
					owner[k] = r.ID
				}
			}
		}
	}
	return out
}

// onRim reports a region whose outline runs along the board's rectangle.
func onRim(b *Board, r Region) bool {
	const eps = 1e-6
	side := func(p Point) int {
		m := 0
		if math.Abs(p.X) < eps {
			m |= 1
		}
		if math.Abs(p.X-b.Width) < eps {
			m |= 2
		}
		if math.Abs(p.Y) < eps {
			m |= 4
		}
		if math.Abs(p.Y-b.Height) < eps {
			m |= 8
		}
		return m
	}
	for _, ring := range r.Rings {
		for i, p := range ring {
			q := ring[(i+1)%len(ring)]
			if side(p)&side(q) != 0 && p != q {
				return true
			}
		}
	}
	return false
}

// geometryProblems checks what every drawn board must satisfy: rings closed and
// clockwise, no crossing or overlap, labels inside with room at the picture's size,
// no absurdly thin region, links starting and ending at their regions' labels.
func geometryProblems(b *Board, widthPx float64) []string {
	var out []string
	px := widthPx / b.Width
	for _, r := range b.Regions {
		if len(r.Rings) == 0 || len(r.Rings[0]) < 3 {
			out = append(out, fmt.Sprintf("region %d: no outline", r.ID))
			continue
		}
		if a := hexgrid.Area(toHex(r.Rings[:1])[0]); a <= 0 {
			out = append(out, fmt.Sprintf("region %d: outer ring not clockwise (area %g)", r.ID, a))
		}
		d := scene.SignedDistance(hexgrid.Point{X: r.Label.X, Y: r.Label.Y}, toHex(r.Rings))
		if d <= 0 || math.Abs(d-r.Room) > 1e-6*b.Width {
			out = append(out, fmt.Sprintf("region %d: label %v at distance %g from the outline, room %g", r.ID, r.Label, d, r.Room))
		}
		if r.Room*px < minRoomPx {
			out = append(out, fmt.Sprintf("region %d: room %.1f px at %g px wide, want %g", r.ID, r.Room*px, widthPx, minRoomPx))
		}
		if t := r.Room / math.Sqrt(regionArea(r)/math.Pi); t < minThinness {
			out = append(out, fmt.Sprintf("region %d: thinness %.2f, want %g", r.ID, t, minThinness))
		}
	}
	out = append(out, crossings(b)...)
	for _, l := range b.Links {
		ra, rb := b.Region(l.A), b.Region(l.B)
		if ra == nil || rb == nil || len(l.Path) < 2 || l.Path[0] != ra.Label || l.Path[len(l.Path)-1] != rb.Label {
			out = append(out, fmt.Sprintf("link %d-%d: path %v does not run from label to label", l.A, l.B, l.Path))
		}
	}
	for pr, l := range sharedLength(b) {
		if l*px < minBorderPx {
			out = append(out, fmt.Sprintf("border %d-%d: %.1f px long, want %g", pr[0], pr[1], l*px, minBorderPx))
		}
	}
	slices.Sort(out)
	return out
}

// landCrossed returns the regions other than except whose inside the polyline path
// passes through.
func landCrossed(b *Board, path []Point, except ...int) []int {
	var out []int
	for _, r := range b.Regions {
		if slices.Contains(except, r.ID) {
			continue
		}
		rings := toHex(r.Rings)
		for i := 1; i < len(path); i++ {
			a, c := path[i-1], path[i]
			steps := int(dist(a, c)/2) + 1
			hit := false
			for k := 0; k <= steps && !hit; k++ {
				t := float64(k) / float64(steps)
				p := hexgrid.Point{X: a.X + t*(c.X-a.X), Y: a.Y + t*(c.Y-a.Y)}
				hit = scene.SignedDistance(p, rings) > 0
			}
			if hit {
				out = append(out, r.ID)
				break
			}
		}
	}
	return out
}
