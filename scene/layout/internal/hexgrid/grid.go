// Package hexgrid is the cell model of the board layouts: a rectangle of pointy-top
// hexagonal cells (odd rows shifted right by half a cell), each owned by a region or
// by nobody, and the geometry derived from it: outlines traced along the cell edges,
// smoothed identically on both sides of every border, clamped to the board's
// rectangle. Hexagons meet three at a corner, so two regions touch along an edge or
// not at all: adjacency read from a grid is never ambiguous.
package hexgrid

import "math"

// Owners other than a region's index.
const (
	Void    = -1 // a cell of nobody (an Empire face's sea)
	Outside = -2 // beyond the grid
)

// Grid is a rectangle of Cols×Rows cells, row by row from the top.
type Grid struct {
	Cols, Rows int
	// Cell holds each cell's owner: a region index from 0, or Void.
	Cell []int
}

// New returns a grid of cols×rows void cells.
func New(cols, rows int) *Grid {
	g := &Grid{Cols: cols, Rows: rows, Cell: make([]int, cols*rows)}
	for i := range g.Cell {
		g.Cell[i] = Void
	}
	return g
}

// Clone returns a copy of g.
func (g *Grid) Clone() *Grid {
	return &Grid{Cols: g.Cols, Rows: g.Rows, Cell: append([]int(nil), g.Cell...)}
}

// Directions of the six neighbours, clockwise on screen from east.
const (
	East = iota
	SouthEast
	SouthWest
	West
	NorthWest
	NorthEast
)

var (
	evenRow = [6][2]int{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}}
	oddRow  = [6][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 0}, {0, -1}, {1, -1}}
)

// Neighbour returns the index of cell i's neighbour in direction d, or -1 beyond the
// grid.
func (g *Grid) Neighbour(i, d int) int {
	c, r := i%g.Cols, i/g.Cols
	off := evenRow[d]
	if r&1 == 1 {
		off = oddRow[d]
	}
	c, r = c+off[0], r+off[1]
	if c < 0 || r < 0 || c >= g.Cols || r >= g.Rows {
		return -1
	}
	return r*g.Cols + c
}

// Owner returns the owner of cell i, Outside for -1.
func (g *Grid) Owner(i int) int {
	if i < 0 {
		return Outside
	}
	return g.Cell[i]
}

// OnRim reports a cell of the outermost ring.
func (g *Grid) OnRim(i int) bool {
	c, r := i%g.Cols, i/g.Cols
	return c == 0 || r == 0 || c == g.Cols-1 || r == g.Rows-1
}

// Vertex is a cell corner on the integer lattice: X in half cell widths, Y in half
// cell radii.
type Vertex struct{ X, Y int }

// Center returns cell i's centre on the vertex lattice.
func (g *Grid) Center(i int) Vertex {
	c, r := i%g.Cols, i/g.Cols
	return Vertex{2*c + r&1, 3 * r}
}

// corner offsets clockwise from the top.
var corners = [6]Vertex{{0, -2}, {1, -1}, {1, 1}, {0, 2}, {-1, 1}, {-1, -1}}

// Edge returns the ends of cell i's edge towards direction d, clockwise around the
// cell (so clockwise around the region owning it).
func (g *Grid) Edge(i, d int) (Vertex, Vertex) {
	ctr := g.Center(i)
	a, b := corners[(d+1)%6], corners[(d+2)%6]
	return Vertex{ctr.X + a.X, ctr.Y + a.Y}, Vertex{ctr.X + b.X, ctr.Y + b.Y}
}

// Scale converts lattice units to board units for a cell radius of 1: x in half
// cell widths (√3/2), y in half radii (1/2).
const (
	ScaleX = 0.8660254037844386 // √3/2
	ScaleY = 0.5
)

// Size returns the board rectangle's extent in lattice units: its corners are the
// centres of the first and last cells of the even and odd rows.
func (g *Grid) Size() (w, h int) { return 2*g.Cols - 1, 3 * (g.Rows - 1) }

// Point returns the board position (cell radius 1) of cell i's centre.
func (g *Grid) Point(i int) (x, y float64) {
	v := g.Center(i)
	return float64(v.X) * ScaleX, float64(v.Y) * ScaleY
}

// Dist returns the distance between the centres of cells i and j in cell radii.
func (g *Grid) Dist(i, j int) float64 {
	x1, y1 := g.Point(i)
	x2, y2 := g.Point(j)
	return math.Hypot(x1-x2, y1-y2)
}
