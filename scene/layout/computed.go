package layout

import (
	"math"
	"slices"
	"strconv"
)

// SourceComputed is the Source of a layout computed from a map's graph.
const SourceComputed = "computed"

// computeMap draws m without a printed layout: every region a box in a grid, in the
// ids' reading order, edge regions on the rim as far as they go; the boxes keep
// apart and every border is a Link of kind LinkBorder.
func computeMap(m Map) (*Board, error) {
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
	const cell, gap = 100.0, 12.0
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
	b := &Board{Name: m.Name, Width: cell * float64(cols), Height: cell * float64(rows), Source: SourceComputed}
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
	return b, nil
}
