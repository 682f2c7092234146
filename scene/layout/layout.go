package layout

import (
	"fmt"
	"slices"
)

// Point is a position in layout units; (0,0) is the top left, y grows downwards.
type Point struct{ X, Y float64 }

// Board is the drawing of one board: a Small World / Underground map, or one Empire
// face.
type Board struct {
	// Name is the board's name: "smallworld-2p", "underground-3p", "empire-1a" …
	Name string
	// Width and Height are the board's extent in layout units.
	Width, Height float64
	// Regions are in the map's region order.
	Regions []Region
	// Links are connections drawn as lines, not as shared borders (sea routes,
	// crossings, borders a planar drawing cannot show).
	Links []Link
	// Exits are the sea routes leaving an Empire face by one of its sides (none on
	// other boards).
	Exits []Exit
	// Source says where the positions come from (a public source, or "computed").
	Source string

	islands [][]int
}

// Region is one region's outline and where its label goes.
type Region struct {
	// ID is the map's region id (Empire: the region's number on its face, from 1 in
	// the face's island order).
	ID int
	// Key is the id as printed ("12"; Empire's face letter "a").
	Key string
	// Rings are closed outlines, the outer ring first (clockwise on screen); holes
	// follow. The last point does not repeat the first. Neighbours share exact points
	// along their common border.
	Rings [][]Point
	// Label is a point well inside the region, the centre of its number and token
	// count.
	Label Point
	// Room is the radius of the largest circle around Label that stays inside.
	Room float64
}

// Link kinds.
const (
	LinkSea      = "sea"      // an Empire sea route
	LinkCrossing = "crossing" // an Empire crossing between separate islands
	LinkBorder   = "border"   // a border the drawing cannot show as a shared outline
)

// Link is a connection drawn as a line between two regions (an Empire sea route, or
// a border that a planar drawing cannot show as a shared edge).
type Link struct {
	A, B int
	// Kind is LinkSea, LinkCrossing or LinkBorder.
	Kind string
	// Path runs from A's label towards B's (a polyline of at least two points).
	Path []Point
}

// Exit is a sea route that leaves an Empire face by a side, where it joins the exit
// of the neighbouring face.
type Exit struct {
	// Side is "n", "e", "s" or "w" (as the face lies unturned).
	Side string
	// Region is the id of the region the route starts from.
	Region int
	// Path runs from the region's label to the side (its last point lies on it).
	Path []Point
}

// Region returns the region with id, or nil.
func (b *Board) Region(id int) *Region {
	for i := range b.Regions {
		if b.Regions[i].ID == id {
			return &b.Regions[i]
		}
	}
	return nil
}

// Borders returns the unordered pairs of region ids that the drawing shows as
// touching: those whose rings share a segment, plus the Links. Each pair is
// {low, high}, the list sorted and without duplicates. It is derived from the
// geometry, never from the map.
func (b *Board) Borders() [][2]int {
	seen := map[[2]int]bool{}
	for _, p := range sharedSegments(b.Regions) {
		seen[p] = true
	}
	for _, l := range b.Links {
		seen[pair(l.A, l.B)] = true
	}
	out := make([][2]int, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.SortFunc(out, comparePairs)
	return out
}

func pair(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

func comparePairs(x, y [2]int) int {
	if x[0] != y[0] {
		return x[0] - y[0]
	}
	return x[1] - y[1]
}

// segKey is a segment with its end points in a canonical order.
type segKey struct{ a, b Point }

func newSegKey(p, q Point) segKey {
	if q.X < p.X || (q.X == p.X && q.Y < p.Y) {
		p, q = q, p
	}
	return segKey{p, q}
}

// sharedSegments lists the pairs of regions whose rings run along a common segment
// (the same two end points, in either direction). Neighbours share exact points, so
// an exact comparison is the right one.
func sharedSegments(regions []Region) [][2]int {
	owner := map[segKey]int{}
	var out [][2]int
	seen := map[[2]int]bool{}
	for _, r := range regions {
		for _, ring := range r.Rings {
			for i := range ring {
				k := newSegKey(ring[i], ring[(i+1)%len(ring)])
				o, ok := owner[k]
				switch {
				case !ok:
					owner[k] = r.ID
				case o != r.ID:
					p := pair(o, r.ID)
					if !seen[p] {
						seen[p] = true
						out = append(out, p)
					}
				}
			}
		}
	}
	return out
}

// Map is the graph of a Small World family map, as the engine loads it.
type Map struct {
	Name    string
	Regions []MapRegion
	// Adjacent lists the bordering pairs of region ids.
	Adjacent [][2]int
}

// MapRegion is one region of a Map.
type MapRegion struct {
	ID      int
	Terrain string
	// Edge reports a region that touches the board's outer edge.
	Edge bool
}

// Limits on a map this package draws: an inline map comes from an archive and may be
// hostile.
const (
	maxRegions   = 200
	maxAdjacency = 1000
	maxName      = 200
)

// check validates m: ids positive and unique, pairs of known distinct regions.
func (m Map) check() error {
	if len(m.Regions) == 0 {
		return fmt.Errorf("layout: map %q has no regions", m.Name)
	}
	if len(m.Name) > maxName {
		return fmt.Errorf("layout: a map name of %d bytes, at most %d", len(m.Name), maxName)
	}
	if len(m.Regions) > maxRegions || len(m.Adjacent) > maxAdjacency {
		return fmt.Errorf("layout: map %q has %d regions and %d borders, at most %d and %d", m.Name, len(m.Regions), len(m.Adjacent), maxRegions, maxAdjacency)
	}
	ids := map[int]bool{}
	for _, r := range m.Regions {
		if r.ID < 1 || ids[r.ID] {
			return fmt.Errorf("layout: map %q: region id %d not positive or given twice", m.Name, r.ID)
		}
		ids[r.ID] = true
	}
	for _, p := range m.Adjacent {
		if !ids[p[0]] || !ids[p[1]] || p[0] == p[1] {
			return fmt.Errorf("layout: map %q: border %v joins unknown or equal regions", m.Name, p)
		}
	}
	return nil
}

// adjacency returns m's borders as sorted unique {low, high} pairs.
func (m Map) adjacency() [][2]int {
	seen := map[[2]int]bool{}
	var out [][2]int
	for _, p := range m.Adjacent {
		k := pair(p[0], p[1])
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	slices.SortFunc(out, comparePairs)
	return out
}
