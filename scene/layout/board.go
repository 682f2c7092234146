package layout

import (
	"fmt"
	"math"
	"slices"

	"github.com/turnmail/turnmail/scene/layout/internal/hexgrid"
	"github.com/turnmail/turnmail/scene/layout/internal/layoutfile"
)

// Geometry of every drawn board.
const (
	// BoardWidth is the width of every board in layout units; the height follows
	// the board's proportions.
	BoardWidth = 1000.0
	// smoothing is the number of corner-cutting rounds that turn cell edges into
	// curves.
	smoothing = 2
	// labelPrecision is how close, in layout units, a label point comes to the best.
	labelPrecision = 1.0
)

// build draws a layout file: keys are the region keys in the board's region order,
// ids their ids. It checks that every cell names a region of keys (or none), that
// every region owns cells, all connected, and that links and exits name regions.
func build(f *layoutfile.File, keys []string, ids []int) (*Board, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("layout %s: %s", f.Board, fmt.Sprintf(format, args...))
	}
	index := make(map[string]int, len(keys))
	for i, k := range keys {
		if _, dup := index[k]; dup || k == layoutfile.Empty {
			return nil, fail("region key %q given twice or reserved", k)
		}
		index[k] = i
	}
	g := hexgrid.New(f.Cols, f.Rows)
	for i, k := range f.Cells {
		if k == layoutfile.Empty {
			continue
		}
		r, ok := index[k]
		if !ok {
			return nil, fail("cell %d names unknown region %q", i, k)
		}
		g.Cell[i] = r
	}
	if err := contiguous(g, len(keys)); err != nil {
		return nil, fail("%v", keyed(err, keys))
	}
	o, err := hexgrid.Trace(g, len(keys), smoothing)
	if err != nil {
		return nil, fail("%v", err)
	}
	scale := BoardWidth / o.Width
	b := &Board{Name: f.Board, Width: BoardWidth, Height: o.Height * scale, Source: f.Source}
	for r, rings := range o.Rings {
		reg := Region{ID: ids[r], Key: keys[r]}
		for _, ring := range rings {
			pts := make([]Point, len(ring))
			for k, p := range ring {
				pts[k] = Point{p.X * scale, p.Y * scale}
			}
			reg.Rings = append(reg.Rings, pts)
		}
		at, room := hexgrid.Label(rings, labelPrecision/scale)
		reg.Label, reg.Room = Point{at.X * scale, at.Y * scale}, room*scale
		if reg.Room <= 0 {
			return nil, fail("region %s has no room for a label", keys[r])
		}
		b.Regions = append(b.Regions, reg)
	}
	for _, l := range f.Links {
		a, okA := index[l.A]
		c, okC := index[l.B]
		if !okA || !okC || a == c || !slices.Contains([]string{LinkSea, LinkCrossing, LinkBorder}, l.Kind) {
			return nil, fail("link %s %s %s: want a kind (sea, crossing, border) and two regions", l.Kind, l.A, l.B)
		}
		path := []Point{b.Regions[a].Label, b.Regions[c].Label}
		if l.Kind == LinkBorder {
			path = borderPath(b.Regions[a], b.Regions[c])
		}
		b.Links = append(b.Links, Link{A: ids[a], B: ids[c], Kind: l.Kind, Path: path})
	}
	for _, e := range f.Exits {
		r, ok := index[e.Region]
		if !ok {
			return nil, fail("exit %s: unknown region %q", e.Side, e.Region)
		}
		from := b.Regions[r].Label
		var to Point
		switch e.Side {
		case "n":
			to = Point{from.X, 0}
		case "e":
			to = Point{b.Width, from.Y}
		case "s":
			to = Point{from.X, b.Height}
		case "w":
			to = Point{0, from.Y}
		default:
			return nil, fail("exit side %q, want n, e, s or w", e.Side)
		}
		b.Exits = append(b.Exits, Exit{Side: e.Side, Region: ids[r], Path: []Point{from, to}})
	}
	return b, nil
}

// regionError names a region by its index.
type regionError struct {
	region int
	what   string
}

func (e regionError) Error() string { return fmt.Sprintf("region %d %s", e.region, e.what) }

// keyed rewrites a regionError with the region's key.
func keyed(err error, keys []string) error {
	if re, ok := err.(regionError); ok {
		return fmt.Errorf("region %s %s", keys[re.region], re.what)
	}
	return err
}

// contiguous checks that each of the n regions owns at least one cell and that its
// cells are connected.
func contiguous(g *hexgrid.Grid, n int) error {
	first := make([]int, n)
	count := make([]int, n)
	for i := range first {
		first[i] = -1
	}
	for i, o := range g.Cell {
		if o >= 0 {
			if first[o] < 0 {
				first[o] = i
			}
			count[o]++
		}
	}
	seen := make([]bool, len(g.Cell))
	for r := range n {
		if first[r] < 0 {
			return regionError{r, "owns no cell"}
		}
		stack := []int{first[r]}
		seen[first[r]] = true
		reached := 1
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for d := range 6 {
				j := g.Neighbour(c, d)
				if j >= 0 && !seen[j] && g.Cell[j] == r {
					seen[j] = true
					reached++
					stack = append(stack, j)
				}
			}
		}
		if reached != count[r] {
			return regionError{r, fmt.Sprintf("is in pieces (%d of %d cells connected)", reached, count[r])}
		}
	}
	return nil
}

// borderPath runs from a's label to b's through the places where their outlines
// come closest: where the border a planar drawing cannot show would be.
func borderPath(a, b Region) []Point {
	pa, pb := a.Rings[0][0], b.Rings[0][0]
	best := math.Inf(1)
	for _, p := range a.Rings[0] {
		for _, q := range b.Rings[0] {
			if d := dist(p, q); d < best {
				best, pa, pb = d, p, q
			}
		}
	}
	if pa == pb {
		return []Point{a.Label, pa, b.Label}
	}
	return []Point{a.Label, pa, pb, b.Label}
}

// dist returns the distance between two points.
func dist(a, b Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }
