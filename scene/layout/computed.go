package layout

import (
	"math"
	"slices"
	"strconv"

	"github.com/turnmail/turnmail/scene/layout/internal/grow"
	"github.com/turnmail/turnmail/scene/layout/internal/hexgrid"
	"github.com/turnmail/turnmail/scene/layout/internal/layoutfile"
)

// SourceComputed is the Source of a layout computed from a map's graph.
const SourceComputed = "computed from the map's graph"

// Limits of the computed drawing: a larger map, or one the annealing cannot draw
// exactly, gets boxes.
const (
	maxGrown      = 80
	grownCells    = 70   // cells per region
	grownMinCells = 1000 // cells of the smallest board
	grownSteps    = 400  // annealing moves per cell
	grownSeeds    = 2
	grownAspect   = 1.5 // width / height
)

// computeMap draws m without a printed layout: regions grown on a cell grid from
// positions that keep the ids' reading order, the edge regions around the rim in the
// order they border each other, the others where their neighbours pull them. When
// that fails it draws boxes.
func computeMap(m Map) *Board {
	if len(m.Regions) <= maxGrown {
		if b := growMap(m); b != nil {
			return b
		}
	}
	return boxes(m)
}

// growMap anneals m on a grid; nil when no seed gives a drawing without false borders
// and with the right edge. Borders it cannot draw become links.
func growMap(m Map) *Board {
	n := len(m.Regions)
	cells := max(grownMinCells, grownCells*n)
	cols := int(math.Round(math.Sqrt(float64(cells) * grownAspect / 1.1547)))
	rows := int(math.Round(float64(cols) * 1.1547 / grownAspect))
	w := float64(2*cols-1) * hexgrid.ScaleX
	h := float64(3*(rows-1)) * hexgrid.ScaleY
	index := make(map[int]int, n)
	for i, r := range m.Regions {
		index[r.ID] = i
	}
	adj := make([][]int, n)
	var pairs [][2]int
	for _, p := range m.adjacency() {
		a, b := index[p[0]], index[p[1]]
		adj[a] = append(adj[a], b)
		adj[b] = append(adj[b], a)
		pairs = append(pairs, [2]int{a, b})
	}
	pos := anchorsFor(m, adj)
	prob := grow.Problem{Cols: cols, Rows: rows, Adjacent: pairs, MinContact: 2, Steps: grownSteps * cols * rows}
	for i, r := range m.Regions {
		prob.Regions = append(prob.Regions, grow.Region{X: pos[i][0] * w, Y: pos[i][1] * h, Area: float64(cols*rows) / float64(n), Edge: r.Edge})
	}
	var best *grow.Result
	for seed := range uint64(grownSeeds) {
		prob.Seed = seed + 1
		res := grow.Solve(prob)
		if len(res.Extra) == 0 && len(res.Rim) == 0 && (best == nil || len(res.Missing) < len(best.Missing)) {
			best = &res
		}
		if res.Exact() {
			break
		}
	}
	if best == nil {
		return nil
	}
	f := &layoutfile.File{Board: m.Name, Source: SourceComputed, Cols: cols, Rows: rows}
	keys := make([]string, n)
	ids := make([]int, n)
	for i, r := range m.Regions {
		keys[i], ids[i] = strconv.Itoa(r.ID), r.ID
	}
	for _, o := range best.Grid.Cell {
		f.Cells = append(f.Cells, keys[o])
	}
	for _, p := range best.Missing {
		f.Links = append(f.Links, layoutfile.Link{Kind: LinkBorder, A: keys[p[0]], B: keys[p[1]]})
	}
	b, err := build(f, keys, ids)
	if err != nil {
		return nil
	}
	return b
}

// anchorsFor places m's regions in the unit square: edge regions around the rim,
// clockwise from the top left in the order they border each other (the lowest id
// first, so that ids run left to right along the top), the others at the mean of
// their neighbours (Tutte's barycentric drawing), which keeps a planar map planar.
func anchorsFor(m Map, adj [][]int) [][2]float64 {
	n := len(m.Regions)
	pos := make([][2]float64, n)
	fixed := make([]bool, n)
	var edge []int
	for i, r := range m.Regions {
		pos[i] = [2]float64{0.5, 0.5}
		if r.Edge {
			edge = append(edge, i)
		}
	}
	ring := rimOrder(m, edge, adj)
	for k, i := range ring {
		pos[i] = rimPoint(float64(k) / float64(len(ring)))
		fixed[i] = true
	}
	for range 200 {
		for i := range n {
			if fixed[i] || len(adj[i]) == 0 {
				continue
			}
			var x, y float64
			for _, j := range adj[i] {
				x += pos[j][0]
				y += pos[j][1]
			}
			pos[i] = [2]float64{x / float64(len(adj[i])), y / float64(len(adj[i]))}
		}
	}
	// Keep anchors off the rim and apart from each other a little.
	for i := range pos {
		pos[i][0] = 0.04 + 0.92*pos[i][0]
		pos[i][1] = 0.04 + 0.92*pos[i][1]
	}
	return pos
}

// rimPoint returns the point at fraction t of the unit square's perimeter, clockwise
// from the top left corner.
func rimPoint(t float64) [2]float64 {
	d := math.Mod(t, 1) * 4
	switch {
	case d < 1:
		return [2]float64{d, 0}
	case d < 2:
		return [2]float64{1, d - 1}
	case d < 3:
		return [2]float64{3 - d, 1}
	default:
		return [2]float64{0, 4 - d}
	}
}

// rimOrder orders the edge regions around the rim: a cycle through all of them in
// which each borders the next, found by a bounded search, starting with the lowest id
// and going towards its lower-numbered neighbour; without such a cycle, the ids'
// order.
func rimOrder(m Map, edge []int, adj [][]int) []int {
	slices.SortFunc(edge, func(a, b int) int { return m.Regions[a].ID - m.Regions[b].ID })
	if len(edge) < 3 {
		return edge
	}
	in := map[int]bool{}
	for _, i := range edge {
		in[i] = true
	}
	nb := func(i int) []int {
		var out []int
		for _, j := range adj[i] {
			if in[j] {
				out = append(out, j)
			}
		}
		slices.SortFunc(out, func(a, b int) int { return m.Regions[a].ID - m.Regions[b].ID })
		return out
	}
	start := edge[0]
	path := []int{start}
	used := map[int]bool{start: true}
	budget := 200000
	var search func() bool
	search = func() bool {
		budget--
		if budget < 0 {
			return false
		}
		last := path[len(path)-1]
		if len(path) == len(edge) {
			return slices.Contains(nb(last), start)
		}
		for _, j := range nb(last) {
			if used[j] {
				continue
			}
			used[j] = true
			path = append(path, j)
			if search() {
				return true
			}
			path = path[:len(path)-1]
			used[j] = false
		}
		return false
	}
	if !search() {
		return edge
	}
	return path
}

// boxes draws m as a grid of boxes in the ids' reading order, edge regions on the
// rim as far as they go; the boxes keep apart and every border is a Link of kind
// LinkBorder.
func boxes(m Map) *Board {
	ids := make([]int, len(m.Regions))
	edge := map[int]bool{}
	for i, r := range m.Regions {
		ids[i] = r.ID
		edge[r.ID] = r.Edge
	}
	slices.Sort(ids)
	n := len(ids)
	cols := int(math.Ceil(math.Sqrt(float64(n) * 1.6)))
	rows := (n + cols - 1) / cols
	cell := BoardWidth / float64(cols)
	gap := cell / 8
	var rim, inner []int // cell numbers in reading order
	for k := range rows * cols {
		r, c := k/cols, k%cols
		if r == 0 || r == rows-1 || c == 0 || c == cols-1 {
			rim = append(rim, k)
		} else {
			inner = append(inner, k)
		}
	}
	place := map[int]int{} // id → cell
	var rest []int
	for _, id := range ids {
		list := &inner
		if edge[id] {
			list = &rim
		}
		if len(*list) == 0 {
			rest = append(rest, id)
			continue
		}
		place[id] = (*list)[0]
		*list = (*list)[1:]
	}
	free := append(rim, inner...)
	slices.Sort(free)
	for i, id := range rest {
		place[id] = free[i]
	}
	b := &Board{Name: m.Name, Width: BoardWidth, Height: cell * float64(rows), Source: SourceComputed}
	for _, r := range m.Regions {
		k := place[r.ID]
		x0, y0 := float64(k%cols)*cell+gap/2, float64(k/cols)*cell+gap/2
		x1, y1 := x0+cell-gap, y0+cell-gap
		b.Regions = append(b.Regions, Region{
			ID: r.ID, Key: strconv.Itoa(r.ID),
			Rings: [][]Point{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}},
			Label: Point{(x0 + x1) / 2, (y0 + y1) / 2},
			Room:  (cell - gap) / 2,
		})
	}
	for _, p := range m.adjacency() {
		a, c := b.Region(p[0]).Label, b.Region(p[1]).Label
		b.Links = append(b.Links, Link{A: p[0], B: p[1], Kind: LinkBorder, Path: []Point{a, c}})
	}
	return b
}
