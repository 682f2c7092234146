package hexgrid

import (
	"fmt"
	"math"

	"github.com/turnmail/turnmail/scene"
)

// Point is a board position in cell radii; y grows downwards (a scene.Point, in
// other units).
type Point = scene.Point

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
	from, to     int // lattice vertex ids
	owner, other int
}

// tracer holds the boundary of a grid while it is traced.
type tracer struct {
	g     *Grid
	w, h  int
	lw    int
	atN   []uint8  // cells around each lattice vertex
	at    [][3]int // their owners
	edges []dedge
	outs  [][3]int32 // per vertex: the edges leaving it (one per owner), -1 for none
	ref   []int32    // per edge that starts a stored piece: its chain, -id-1 when reversed, 0 unset (ids from 1)
}

func (t *tracer) vid(v Vertex) int { return (v.Y+2)*t.lw + v.X + 1 }

func (t *tracer) clamp(id int) Point {
	x, y := id%t.lw-1, id/t.lw-2
	x, y = min(max(x, 0), t.w), min(max(y, 0), t.h)
	return Point{X: float64(x) * ScaleX, Y: float64(y) * ScaleY}
}

// junction reports a vertex where three owners meet (the outside counts as one).
func (t *tracer) junction(v int) bool {
	n := int(t.atN[v])
	var list [4]int
	copy(list[:], t.at[v][:n])
	if n < 3 {
		list[n] = Outside
		n++
	}
	distinct := 0
	for i := range n {
		dup := false
		for _, p := range list[:i] {
			dup = dup || p == list[i]
		}
		if !dup {
			distinct++
		}
	}
	return distinct >= 3
}

// next returns the edge of owner leaving vertex v, or -1.
func (t *tracer) next(owner, v int) int {
	for _, e := range t.outs[v] {
		if e >= 0 && t.edges[e].owner == owner {
			return int(e)
		}
	}
	return -1
}

// loops returns every closed boundary walk of owner (given its edges), each split
// into pieces from junction to junction (a loop without a junction is one piece).
func (t *tracer) loops(owned []int, seen []bool) ([][][]int, error) {
	var out [][][]int
	for _, first := range owned {
		if seen[first] {
			continue
		}
		owner := t.edges[first].owner
		var loop []int
		cur := first
		for {
			seen[cur] = true
			loop = append(loop, cur)
			nx := t.next(owner, t.edges[cur].to)
			if nx < 0 {
				return nil, fmt.Errorf("hexgrid: the outline of %d breaks", owner)
			}
			if nx == first {
				break
			}
			if len(loop) > len(owned) {
				return nil, fmt.Errorf("hexgrid: the outline of %d does not close", owner)
			}
			cur = nx
		}
		start := -1
		for k, e := range loop {
			if t.junction(t.edges[e].from) {
				start = k
				break
			}
		}
		if start < 0 {
			out = append(out, [][]int{loop})
			continue
		}
		loop = append(loop[start:], loop[:start]...)
		var pieces [][]int
		for k, e := range loop {
			if k == 0 || t.junction(t.edges[e].from) {
				pieces = append(pieces, nil)
			}
			pieces[len(pieces)-1] = append(pieces[len(pieces)-1], e)
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
	t := &tracer{g: g, w: w, h: h, lw: w + 3}
	size := (w + 3) * (h + 5)
	t.at = make([][3]int, size)
	t.atN = make([]uint8, size)
	t.outs = make([][3]int32, size)
	for i := range t.outs {
		t.outs[i] = [3]int32{-1, -1, -1}
	}
	for i := range g.Cell {
		ctr := g.Center(i)
		for _, c := range corners {
			k := t.vid(Vertex{ctr.X + c.X, ctr.Y + c.Y})
			t.at[k][t.atN[k]] = g.Cell[i]
			t.atN[k]++
		}
	}
	owned := make([][]int, n+2) // by owner+2
	add := func(e dedge) {
		k := int32(len(t.edges))
		t.edges = append(t.edges, e)
		for s := range t.outs[e.from] {
			if t.outs[e.from][s] < 0 {
				t.outs[e.from][s] = k
				break
			}
		}
		if e.owner < n {
			owned[e.owner+2] = append(owned[e.owner+2], int(k))
		}
	}
	for i := range g.Cell {
		o := g.Cell[i]
		for d := range 6 {
			nb := g.Neighbour(i, d)
			other := g.Owner(nb)
			if other == o {
				continue
			}
			a, b := g.Edge(i, d)
			add(dedge{t.vid(a), t.vid(b), o, other})
			if nb < 0 {
				add(dedge{t.vid(b), t.vid(a), Outside, o})
			}
		}
	}
	t.ref = make([]int32, len(t.edges))
	seen := make([]bool, len(t.edges))
	var chains [][]Point
	// setOther records that the other side's edge from b to a walks chain id reversed.
	setOther := func(other, a, b int, id int32) {
		if e := t.next(other, b); e >= 0 && t.edges[e].to == a {
			t.ref[e] = -id
		}
	}
	// Pass 1: each border is stored once, walked by the owner with the smaller
	// number (the outside, then the void, then regions).
	for o := Outside; o < n; o++ {
		loops, err := t.loops(owned[o+2], seen)
		if err != nil {
			return nil, err
		}
		for _, pieces := range loops {
			for _, p := range pieces {
				e0 := t.edges[p[0]]
				if e0.other < o {
					continue
				}
				closed := len(pieces) == 1 && !t.junction(e0.from)
				pts := make([]Point, 0, len(p)+1)
				for _, e := range p {
					pts = append(pts, t.clamp(t.edges[e].from))
				}
				if !closed {
					pts = append(pts, t.clamp(t.edges[p[len(p)-1]].to))
				}
				switch {
				case o == Outside || e0.other == Outside:
					// The rim stays straight.
				case o == Void:
					// Coasts: rounder than borders between regions.
					pts = chaikin(relax(pts, closed, 6*smooth), closed, smooth)
				default:
					pts = chaikin(relax(pts, closed, 2*smooth), closed, smooth)
				}
				pts = simplify(pts, closed, tolerance)
				chains = append(chains, pts)
				id := int32(len(chains))
				t.ref[p[0]] = id
				last := t.edges[p[len(p)-1]]
				setOther(e0.other, last.from, last.to, id)
				if closed { // the other side's walk may start anywhere on the loop
					for _, e := range p {
						setOther(e0.other, t.edges[e].from, t.edges[e].to, id)
					}
				}
			}
		}
	}
	// Pass 2: each region's rings, piece by piece.
	out := &Outline{Width: float64(w) * ScaleX, Height: float64(h) * ScaleY, Rings: make([][][]Point, n)}
	clear(seen)
	for o := range n {
		if len(owned[o+2]) == 0 {
			return nil, fmt.Errorf("hexgrid: region %d owns no cell", o)
		}
		loops, err := t.loops(owned[o+2], seen)
		if err != nil {
			return nil, err
		}
		for _, pieces := range loops {
			var ring []Point
			for _, p := range pieces {
				id := t.ref[p[0]]
				var pts []Point
				switch {
				case id > 0:
					pts = chains[id-1]
				case id < 0:
					pts = reversed(chains[-id-1])
				default:
					return nil, fmt.Errorf("hexgrid: region %d: a border was not stored", o)
				}
				if len(pieces) == 1 && !t.junction(t.edges[p[0]].from) {
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

// tolerance is how far, in cell radii, a simplified outline may stray from the
// smoothed one: invisible at any picture size a mail uses.
const tolerance = 0.02

// simplify drops the points of a chain that lie within tol of the line through their
// neighbours kept (Douglas–Peucker); the ends stay. A closed chain keeps its first
// point and the point farthest from it.
func simplify(pts []Point, closed bool, tol float64) []Point {
	if len(pts) < 3 {
		return pts
	}
	if closed {
		far, best := 0, -1.0
		for i, p := range pts {
			if d := (p.X-pts[0].X)*(p.X-pts[0].X) + (p.Y-pts[0].Y)*(p.Y-pts[0].Y); d > best {
				far, best = i, d
			}
		}
		a := simplify(pts[:far+1], false, tol)
		b := simplify(append(append([]Point(nil), pts[far:]...), pts[0]), false, tol)
		return append(a[:len(a)-1], b[:len(b)-1]...)
	}
	keep := make([]bool, len(pts))
	keep[0], keep[len(pts)-1] = true, true
	var rec func(i, j int)
	rec = func(i, j int) {
		if j-i < 2 {
			return
		}
		a, b := pts[i], pts[j]
		far, best := -1, tol*tol
		for k := i + 1; k < j; k++ {
			if d := scene.SquaredSegmentDistance(pts[k], a, b); d > best {
				far, best = k, d
			}
		}
		if far < 0 {
			return
		}
		keep[far] = true
		rec(i, far)
		rec(far, j)
	}
	rec(0, len(pts)-1)
	out := make([]Point, 0, len(pts))
	for k, p := range pts {
		if keep[k] {
			out = append(out, p)
		}
	}
	return out
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
			next[i] = Point{X: 0.5*cur[i].X + 0.25*(a.X+b.X), Y: 0.5*cur[i].Y + 0.25*(a.Y+b.Y)}
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
			q := Point{X: 0.75*a.X + 0.25*b.X, Y: 0.75*a.Y + 0.25*b.Y}
			r := Point{X: 0.25*a.X + 0.75*b.X, Y: 0.25*a.Y + 0.75*b.Y}
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
