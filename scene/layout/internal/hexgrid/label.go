package hexgrid

import (
	"container/heap"
	"math"

	"github.com/turnmail/turnmail/scene"
)

// Label returns the pole of inaccessibility of a region given by its rings (outer
// first, holes after): the inside point farthest from the outline, and that
// distance. It is found to within precision by subdividing the bounding box and
// discarding cells that cannot hold a better point.
func Label(rings [][]Point, precision float64) (Point, float64) {
	outer := rings[0]
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range outer {
		minX, minY = min(minX, p.X), min(minY, p.Y)
		maxX, maxY = max(maxX, p.X), max(maxY, p.Y)
	}
	size := min(maxX-minX, maxY-minY)
	if size == 0 {
		return outer[0], 0
	}
	h := size / 2
	q := &cellQueue{}
	for x := minX; x < maxX; x += size {
		for y := minY; y < maxY; y += size {
			heap.Push(q, newCell(x+h, y+h, h, rings))
		}
	}
	best := centroidCell(rings)
	if c := newCell(minX+(maxX-minX)/2, minY+(maxY-minY)/2, 0, rings); c.d > best.d {
		best = c
	}
	for q.Len() > 0 {
		c := heap.Pop(q).(cell)
		if c.d > best.d {
			best = c
		}
		if c.max-best.d <= precision {
			continue
		}
		h := c.h / 2
		for _, o := range [4][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
			heap.Push(q, newCell(c.x+o[0]*h, c.y+o[1]*h, h, rings))
		}
	}
	return Point{X: best.x, Y: best.y}, best.d
}

// cell is a square of the search: its centre, half size, signed distance from the
// centre to the outline (negative outside) and the best distance it may hold.
type cell struct {
	x, y, h, d, max float64
}

func newCell(x, y, h float64, rings [][]Point) cell {
	d := scene.SignedDistance(Point{X: x, Y: y}, rings)
	return cell{x, y, h, d, d + h*math.Sqrt2}
}

func centroidCell(rings [][]Point) cell {
	ring := rings[0]
	var a, cx, cy float64
	for i, p := range ring {
		q := ring[(i+1)%len(ring)]
		f := p.X*q.Y - q.X*p.Y
		cx += (p.X + q.X) * f
		cy += (p.Y + q.Y) * f
		a += 3 * f
	}
	if a == 0 {
		return newCell(ring[0].X, ring[0].Y, 0, rings)
	}
	return newCell(cx/a, cy/a, 0, rings)
}

type cellQueue []cell

func (q cellQueue) Len() int           { return len(q) }
func (q cellQueue) Less(i, j int) bool { return q[i].max > q[j].max }
func (q cellQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *cellQueue) Push(x any)        { *q = append(*q, x.(cell)) }
func (q *cellQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}
