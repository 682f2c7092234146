package hexgrid

import (
	"fmt"
	"math"
)

// Point is a board position in cell radii; y grows downwards.
type Point struct{ X, Y float64 }

// Outline is the traced geometry of a grid.
type Outline struct {
	// Width and Height are the board rectangle's extent (cell radius 1).
	Width, Height float64
	// Rings lists each region's closed rings, the outer one first and clockwise on
	// screen, holes after it; the last point does not repeat the first.
	Rings [][][]Point
}

// dedge is a directed boundary edge of owner, with other across it; an owner's
// boundary runs clockwise around its cells.
type dedge struct {
	from, to     Vertex
	owner, other int
}

// tracer holds the boundary of a grid while it is traced.
type tracer struct {
	g        *Grid
	w, h     int
	lw       int
	at       [][3]int // owners around each lattice vertex
	atN      []int
	next     map[[2]int]dedge // (owner, tail vertex) → the owner's edge leaving it
	chains   [][]Point
	chainEnd [][2]Vertex    // first and last vertex of each stored chain
	ref      map[[3]int]int // (owner, from, to) of a chain's first edge → chain, negative-1 when reversed
}

func (t *tracer) vid(v Vertex) int { return (v.Y+2)*t.lw + v.X + 1 }

func (t *tracer) clamp(v Vertex) Point {
	x, y := min(max(v.X, 0), t.w), min(max(v.Y, 0), t.h)
	return Point{float64(x) * ScaleX, float64(y) * ScaleY}
}

// junction reports a vertex where three owners meet (the outside counts as one).
func (t *tracer) junction(v Vertex) bool {
	k := t.vid(v)
	list := append([]int(nil), t.at[k][:t.atN[k]]...)
	if len(list) < 3 {
		list = append(list, Outside)
	}
	distinct := 0
	for i, o := range list {
		dup := false
		for _, p := range list[:i] {
			dup = dup || p == o
		}
		if !dup {
			distinct++
		}
	}
	return distinct >= 3
}

// loops returns every closed boundary walk of owner, each split into pieces from
// junction to junction (a loop without a junction is one piece).
func (t *tracer) loops(owner int, edges []dedge) ([][][]dedge, error) {
	seen := map[[2]int]bool{}
	var out [][][]dedge
	for _, e := range edges {
		if e.owner != owner || seen[[2]int{owner, t.vid(e.from)}] {
			continue
		}
		var loop []dedge
		cur := e
		for {
			seen[[2]int{owner, t.vid(cur.from)}] = true
			loop = append(loop, cur)
			nx, ok := t.next[[2]int{owner, t.vid(cur.to)}]
			if !ok {
				return nil, fmt.Errorf("hexgrid: the outline of %d breaks at %v", owner, cur.to)
			}
			if nx == e {
				break
			}
			if len(loop) > len(edges) {
				return nil, fmt.Errorf("hexgrid: the outline of %d does not close", owner)
			}
			cur = nx
		}
		start := -1
		for k, d := range loop {
			if t.junction(d.from) {
				start = k
				break
			}
		}
		if start < 0 {
			out = append(out, [][]dedge{loop})
			continue
		}
		loop = append(loop[start:], loop[:start]...)
		var pieces [][]dedge
		for k, d := range loop {
			if k == 0 || t.junction(d.from) {
				pieces = append(pieces, nil)
			}
			pieces[len(pieces)-1] = append(pieces[len(pieces)-1], d)
		}
		out = append(out, pieces)
	}
	return out, nil
}

// Trace outlines the n regions of g. Borders between two owners are smoothed with
// smooth rounds of Chaikin's corner cutting, their junctions kept in place, with the
// same points on both sides; the board's rim is the rectangle spanned by the
// outermost cells' centres, onto which the corners beyond it are clamped, and stays
// straight. It fails when a region owns no cell.
func Trace(g *Grid, n, smooth int) (*Outline, error) {
	w, h := g.Size()
	t := &tracer{g: g, w: w, h: h, lw: w + 3, next: map[[2]int]dedge{}, ref: map[[3]int]int{}}
	size := (w + 3) * (h + 5)
	t.at = make([][3]int, size)
	t.atN = make([]int, size)
	for i := range g.Cell {
		ctr := g.Center(i)
		for _, c := range corners {
			k := t.vid(Vertex{ctr.X + c.X, ctr.Y + c.Y})
			t.at[k][t.atN[k]] = g.Cell[i]
			t.atN[k]++
		}
	}
	var edges []dedge
	for i := range g.Cell {
		o := g.Cell[i]
		for d := range 6 {
			nb := g.Neighbour(i, d)
			other := g.Owner(nb)
			if other == o {
				continue
			}
			a, b := g.Edge(i, d)
			edges = append(edges, dedge{a, b, o, other})
			if nb < 0 {
				edges = append(edges, dedge{b, a, Outside, o})
			}
		}
	}
	owners := map[int]bool{}
	for _, e := range edges {
		t.next[[2]int{e.owner, t.vid(e.from)}] = e
		owners[e.owner] = true
	}
	// Pass 1: each border is stored once, walked by the owner with the smaller
	// number (the outside, then the void, then regions).
	for o := Outside; o < n; o++ {
		if !owners[o] {
			continue
		}
		loops, err := t.loops(o, edges)
		if err != nil {
			return nil, err
		}
		for _, pieces := range loops {
			for _, p := range pieces {
				if p[0].other < o {
					continue
				}
				closed := len(pieces) == 1 && !t.junction(p[0].from)
				pts := make([]Point, 0, len(p)+1)
				for _, d := range p {
					pts = append(pts, t.clamp(d.from))
				}
				if !closed {
					pts = append(pts, t.clamp(p[len(p)-1].to))
				}
				switch {
				case o == Outside || p[0].other == Outside:
					// The rim stays straight.
				case o == Void:
					// Coasts: rounder than borders between regions.
					pts = chaikin(relax(pts, closed, 6*smooth), closed, smooth)
				default:
					pts = chaikin(relax(pts, closed, 2*smooth), closed, smooth)
				}
				id := len(t.chains)
				t.chains = append(t.chains, pts)
				t.ref[[3]int{o, t.vid(p[0].from), t.vid(p[0].to)}] = id
				last := p[len(p)-1]
				t.ref[[3]int{p[0].other, t.vid(last.to), t.vid(last.from)}] = -id - 1
				if closed { // the other side's walk may start anywhere on the loop
					for _, d := range p {
						t.ref[[3]int{d.other, t.vid(d.to), t.vid(d.from)}] = -id - 1
					}
				}
			}
		}
	}
	// Pass 2: each region's rings, piece by piece.
	out := &Outline{Width: float64(w) * ScaleX, Height: float64(h) * ScaleY, Rings: make([][][]Point, n)}
	for o := range n {
		if !owners[o] {
			return nil, fmt.Errorf("hexgrid: region %d owns no cell", o)
		}
		loops, err := t.loops(o, edges)
		if err != nil {
			return nil, err
		}
		for _, pieces := range loops {
			var ring []Point
			for _, p := range pieces {
				id, ok := t.ref[[3]int{o, t.vid(p[0].from), t.vid(p[0].to)}]
				if !ok {
					return nil, fmt.Errorf("hexgrid: region %d: border at %v not stored", o, p[0].from)
				}
				var pts []Point
				if id >= 0 {
					pts = t.chains[id]
				} else {
					pts = reversed(t.chains[-id-1])
				}
				if len(pieces) == 1 && !t.junction(p[0].from) {
					ring = append(ring, pts...) // a closed loop
				} else {
					ring = append(ring, pts[:len(pts)-1]...)
				}
			}
			out.Rings[o] = append(out.Rings[o], ring)
		}
		best := 0
		for k, ring := range out.Rings[o] {
			if math.Abs(Area(ring)) > math.Abs(Area(out.Rings[o][best])) {
				best = k
			}
		}
		out.Rings[o][0], out.Rings[o][best] = out.Rings[o][best], out.Rings[o][0]
	}
	return out, nil
}

func reversed(pts []Point) []Point {
	rev := make([]Point, len(pts))
	for i, p := range pts {
		rev[len(pts)-1-i] = p
	}
	return rev
}

// relax moves each point halfway towards the middle of its neighbours, rounds
// times: the zigzag of cell edges flattens into the border's course. An open chain
// keeps its ends.
func relax(pts []Point, closed bool, rounds int) []Point {
	n := len(pts)
	if n < 3 {
		return pts
	}
	cur := append([]Point(nil), pts...)
	next := make([]Point, n)
	for range rounds {
		copy(next, cur)
		for i := range n {
			if !closed && (i == 0 || i == n-1) {
				continue
			}
			a, b := cur[(i+n-1)%n], cur[(i+1)%n]
			next[i] = Point{0.5*cur[i].X + 0.25*(a.X+b.X), 0.5*cur[i].Y + 0.25*(a.Y+b.Y)}
		}
		cur, next = next, cur
	}
	return cur
}

// chaikin cuts corners rounds times; an open chain keeps its ends.
func chaikin(pts []Point, closed bool, rounds int) []Point {
	for range rounds {
		n := len(pts)
		if n < 3 {
			return pts // a single segment stays straight
		}
		segs := n - 1
		if closed {
			segs = n
		}
		next := make([]Point, 0, 2*n)
		if !closed {
			next = append(next, pts[0])
		}
		for k := range segs {
			a, b := pts[k], pts[(k+1)%n]
			q := Point{0.75*a.X + 0.25*b.X, 0.75*a.Y + 0.25*b.Y}
			r := Point{0.25*a.X + 0.75*b.X, 0.25*a.Y + 0.75*b.Y}
			switch {
			case !closed && k == 0:
				next = append(next, r)
			case !closed && k == segs-1:
				next = append(next, q)
			default:
				next = append(next, q, r)
			}
		}
		if !closed {
			next = append(next, pts[n-1])
		}
		pts = next
	}
	return pts
}

// Area returns the signed area of a ring: positive when clockwise on screen.
func Area(ring []Point) float64 {
	s := 0.0
	for i, p := range ring {
		q := ring[(i+1)%len(ring)]
		s += p.X*q.Y - q.X*p.Y
	}
	return s / 2
}
