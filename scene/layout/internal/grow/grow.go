// Package grow draws a map's regions on a hexagonal cell grid: regions grow from
// anchor positions, then simulated annealing moves single cells between neighbouring
// regions until the regions that touch are exactly the map's bordering pairs, the
// edge regions and only they reach the rim, and the regions are compact, near their
// anchors and of their target sizes. Every region stays contiguous throughout.
package grow

import (
	"container/heap"
	"math"
	"math/rand/v2"

	"github.com/turnmail/turnmail/scene/layout/internal/hexgrid"
)

// Region is one region to place.
type Region struct {
	// X, Y is where the region's centre should be, in cell radii on the grid's board.
	X, Y float64
	// Sxx, Sxy, Syy are the region's second moments (its spread, in cell radii²);
	// zero means round, from Area.
	Sxx, Sxy, Syy float64
	// Area is the target number of cells.
	Area float64
	// Edge marks a region that must reach the rim; the others must not.
	Edge bool
}

// Problem is a map to draw.
type Problem struct {
	Cols, Rows int
	Regions    []Region
	// Adjacent lists the bordering pairs of region indexes.
	Adjacent [][2]int
	// Void lets cells belong to nobody (an Empire face's sea): the rim is all void and
	// regions grow only as large as their areas.
	Void bool
	// Lakes are discs (x, y, radius in cell radii) whose cells stay void.
	Lakes [][3]float64
	// MinContact is the number of cell edges a border should have (at least 1).
	MinContact int
	// Coast weighs the cell edges between a region and the void against the other
	// costs (1 when zero): higher makes rounder islands.
	Coast float64
	// Steps is the number of annealing moves; Seed makes the run repeatable.
	Steps int
	Seed  uint64
}

// Result is a drawing and what it fails to show.
type Result struct {
	Grid *hexgrid.Grid
	// Missing lists the bordering pairs that do not touch; Extra the pairs that touch
	// without bordering; Rim the regions whose rim contact is wrong.
	Missing, Extra [][2]int
	Rim            []int
}

// Exact reports a drawing that shows the map exactly.
func (r Result) Exact() bool { return len(r.Missing) == 0 && len(r.Extra) == 0 && len(r.Rim) == 0 }

// Weights of the annealing cost.
const (
	wMissing = 30.0 // per missing unit of contact of a bordering pair
	wExtra   = 40.0 // per cell edge between regions that do not border
	wRim     = 30.0 // per missing or forbidden rim cell
	wArea    = 2.0  // per squared relative size error × target
	wLength  = 1.0  // per cell edge between different owners
	wPlace   = 0.25 // per unit of squared normalised distance from the anchor
	minRim   = 2    // rim cells an edge region should have
)

type state struct {
	p       Problem
	g       *hexgrid.Grid
	n       int
	nb      [][6]int    // neighbours per cell, -1 outside
	rim     []bool      // cell on the rim
	fixed   []bool      // cell never changes (void mode: the rim)
	place   [][]float32 // place[r][cell]: cost of r owning cell
	need    []bool      // need[a*n+b]: a and b border
	contact []int32     // contact[a*n+b]: cell edges between a and b
	size    []int
	rimN    []int
	target  []float64
	minC    float64
	rng     *rand.Rand
}

// Solve draws p.
func Solve(p Problem) Result {
	s := newState(p)
	s.seed()
	s.anneal()
	return s.result()
}

func newState(p Problem) *state {
	n := len(p.Regions)
	g := hexgrid.New(p.Cols, p.Rows)
	s := &state{p: p, g: g, n: n, rng: rand.New(rand.NewPCG(p.Seed, 0x6c61796f7574)),
		nb: make([][6]int, len(g.Cell)), rim: make([]bool, len(g.Cell)), fixed: make([]bool, len(g.Cell)),
		need: make([]bool, n*n), contact: make([]int32, n*n), size: make([]int, n), rimN: make([]int, n),
		target: make([]float64, n), minC: float64(max(p.MinContact, 1))}
	for i := range g.Cell {
		for d := range 6 {
			s.nb[i][d] = g.Neighbour(i, d)
		}
		s.rim[i] = g.OnRim(i)
		s.fixed[i] = p.Void && s.rim[i]
		x, y := g.Point(i)
		for _, l := range p.Lakes {
			if math.Hypot(x-l[0], y-l[1]) <= l[2] {
				s.fixed[i] = true
			}
		}
	}
	for _, a := range p.Adjacent {
		s.need[a[0]*n+a[1]], s.need[a[1]*n+a[0]] = true, true
	}
	s.place = make([][]float32, n)
	for r, reg := range p.Regions {
		s.target[r] = max(reg.Area, 1)
		sxx, sxy, syy := reg.Sxx, reg.Sxy, reg.Syy
		// A floor on the spread keeps thin regions from pinning every cell.
		round := s.target[r] * cellArea / (4 * math.Pi) // a disc's variance
		if sxx == 0 && syy == 0 {
			sxx, syy = round, round
		}
		floor := 2.25
		sxx, syy = max(sxx, floor), max(syy, floor)
		det := sxx*syy - sxy*sxy
		if det < floor*floor/4 {
			sxy = 0
			det = sxx * syy
		}
		ixx, ixy, iyy := syy/det, -sxy/det, sxx/det
		s.place[r] = make([]float32, len(g.Cell))
		for i := range g.Cell {
			x, y := g.Point(i)
			dx, dy := x-reg.X, y-reg.Y
			s.place[r][i] = float32(dx*dx*ixx + 2*dx*dy*ixy + dy*dy*iyy)
		}
	}
	return s
}

// seed grows every region from the cell nearest its anchor, cheapest cells first,
// so that each region starts contiguous.
func (s *state) seed() {
	g := s.g
	q := &growQueue{}
	for r, reg := range s.p.Regions {
		best, bd := -1, math.Inf(1)
		for i := range g.Cell {
			if s.fixed[i] || g.Cell[i] != hexgrid.Void {
				continue
			}
			x, y := g.Point(i)
			if d := math.Hypot(x-reg.X, y-reg.Y); d < bd {
				best, bd = i, d
			}
		}
		if best < 0 {
			continue // more regions than cells: Result reports them
		}
		s.assign(best, r)
		s.pushAround(q, best, r)
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(growItem)
		if s.g.Cell[it.cell] != hexgrid.Void || s.fixed[it.cell] {
			continue
		}
		if s.p.Void && float64(s.size[it.r]) >= s.target[it.r] {
			continue
		}
		s.assign(it.cell, it.r)
		s.pushAround(q, it.cell, it.r)
	}
}

func (s *state) pushAround(q *growQueue, i, r int) {
	for _, j := range s.nb[i] {
		if j >= 0 && s.g.Cell[j] == hexgrid.Void && !s.fixed[j] {
			// Larger regions reach further: divide by the target size.
			heap.Push(q, growItem{cell: j, r: r, cost: float64(s.place[r][j])})
		}
	}
}

// assign gives the void cell i to r, keeping the counters.
func (s *state) assign(i, r int) {
	s.g.Cell[i] = r
	s.size[r]++
	if s.rim[i] {
		s.rimN[r]++
	}
	for _, j := range s.nb[i] {
		if j < 0 {
			continue
		}
		if o := s.g.Cell[j]; o >= 0 && o != r {
			s.contact[r*s.n+o]++
			s.contact[o*s.n+r]++
		}
	}
}

type growItem struct {
	cell, r int
	cost    float64
}

type growQueue []growItem

func (q growQueue) Len() int           { return len(q) }
func (q growQueue) Less(i, j int) bool { return q[i].cost < q[j].cost }
func (q growQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *growQueue) Push(x any)        { *q = append(*q, x.(growItem)) }
func (q *growQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// pairCost is the cost of the contact c between regions a and b.
func (s *state) pairCost(a, b int, c int32) float64 {
	if s.need[a*s.n+b] {
		return wMissing * max(0, s.minC-float64(c))
	}
	return wExtra * float64(c)
}

func (s *state) rimCost(r, k int) float64 {
	if s.p.Regions[r].Edge {
		return wRim * float64(max(0, minRim-k))
	}
	return wRim * float64(k)
}

func (s *state) areaCost(r, k int) float64 {
	d := float64(k) - s.target[r]
	return wArea * d * d / s.target[r]
}

// anneal moves boundary cells between owners under a falling temperature, then
// finishes with a greedy pass.
func (s *state) anneal() {
	steps := s.p.Steps
	t0, t1 := 2.0, 0.02
	cells := len(s.g.Cell)
	temp, cool := t0, math.Pow(t1/t0, 1/float64(max(steps, 1)))
	for range steps {
		s.step(s.rng.IntN(cells), temp)
		temp *= cool
	}
	for range 3 {
		for i := range cells {
			s.step(i, 0)
		}
	}
}

// step proposes to give cell i to the owner of one of its neighbours, and takes it
// when the cost falls, or rises by little enough at this temperature.
func (s *state) step(i int, temp float64) {
	if s.fixed[i] {
		return
	}
	from := s.g.Cell[i]
	j := s.nb[i][s.rng.IntN(6)]
	if j < 0 {
		return
	}
	to := s.g.Cell[j]
	if to == from || (to == hexgrid.Void && !s.p.Void) {
		return
	}
	if from >= 0 && (s.size[from] <= 1 || !s.staysConnected(i, from)) {
		return
	}
	if from == hexgrid.Void && !s.staysConnected(i, hexgrid.Void) {
		return
	}
	delta := s.delta(i, from, to)
	if delta > 0 && (temp == 0 || s.rng.Float64() >= math.Exp(-delta/temp)) {
		return
	}
	s.move(i, from, to)
}

// delta is the change of cost if cell i passes from one owner to another.
func (s *state) delta(i, from, to int) float64 {
	n := s.n
	d := 0.0
	// Contacts change with each neighbour's owner; gather the changes per pair.
	var pairs [12][3]int // a, b, change
	np := 0
	add := func(a, b, ch int) {
		if a < 0 || b < 0 || a == b {
			return
		}
		if a > b {
			a, b = b, a
		}
		for k := range np {
			if pairs[k][0] == a && pairs[k][1] == b {
				pairs[k][2] += ch
				return
			}
		}
		pairs[np] = [3]int{a, b, ch}
		np++
	}
	for _, j := range s.nb[i] {
		if j < 0 {
			continue
		}
		o := s.g.Cell[j]
		if o != from {
			d -= s.length(o, from)
		}
		if o != to {
			d += s.length(o, to)
		}
		add(from, o, -1)
		add(to, o, 1)
	}
	for k := range np {
		a, b, ch := pairs[k][0], pairs[k][1], pairs[k][2]
		if ch == 0 {
			continue
		}
		c := s.contact[a*n+b]
		d += s.pairCost(a, b, c+int32(ch)) - s.pairCost(a, b, c)
	}
	if from >= 0 {
		d += s.areaCost(from, s.size[from]-1) - s.areaCost(from, s.size[from])
		d -= wPlace * float64(s.place[from][i])
		if s.rim[i] {
			d += s.rimCost(from, s.rimN[from]-1) - s.rimCost(from, s.rimN[from])
		}
	}
	if to >= 0 {
		d += s.areaCost(to, s.size[to]+1) - s.areaCost(to, s.size[to])
		d += wPlace * float64(s.place[to][i])
		if s.rim[i] {
			d += s.rimCost(to, s.rimN[to]+1) - s.rimCost(to, s.rimN[to])
		}
	}
	return d
}

// length is the cost of a cell edge between owners a and b (different).
func (s *state) length(a, b int) float64 {
	if (a == hexgrid.Void || b == hexgrid.Void) && s.p.Coast > 0 {
		return wLength * s.p.Coast
	}
	return wLength
}

// move gives cell i to another owner, keeping the counters.
func (s *state) move(i, from, to int) {
	n := s.n
	for _, j := range s.nb[i] {
		if j < 0 {
			continue
		}
		o := s.g.Cell[j]
		if from >= 0 && o >= 0 && o != from {
			s.contact[from*n+o]--
			s.contact[o*n+from]--
		}
		if to >= 0 && o >= 0 && o != to {
			s.contact[to*n+o]++
			s.contact[o*n+to]++
		}
	}
	if from >= 0 {
		s.size[from]--
		if s.rim[i] {
			s.rimN[from]--
		}
	}
	s.g.Cell[i] = to
	if to >= 0 {
		s.size[to]++
		if s.rim[i] {
			s.rimN[to]++
		}
	}
}

// staysConnected reports whether owner o's cells stay connected without cell i.
// Around a hex cell, the owner's neighbours forming one run are connected through
// each other; otherwise a search decides.
func (s *state) staysConnected(i, o int) bool {
	runs := 0
	for d := range 6 {
		a, b := s.nb[i][d], s.nb[i][(d+1)%6]
		in := a >= 0 && s.g.Cell[a] == o
		next := b >= 0 && s.g.Cell[b] == o
		if in && !next {
			runs++
		}
	}
	if runs <= 1 {
		return true
	}
	// Search from one neighbour for all the others, avoiding i.
	var starts []int
	for _, j := range s.nb[i] {
		if j >= 0 && s.g.Cell[j] == o {
			starts = append(starts, j)
		}
	}
	seen := map[int]bool{i: true, starts[0]: true}
	stack := []int{starts[0]}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range s.nb[c] {
			if j >= 0 && !seen[j] && s.g.Cell[j] == o {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	for _, j := range starts {
		if !seen[j] {
			return false
		}
	}
	return true
}

func (s *state) result() Result {
	res := Result{Grid: s.g}
	for a := range s.n {
		for b := a + 1; b < s.n; b++ {
			c := s.contact[a*s.n+b]
			switch {
			case s.need[a*s.n+b] && c == 0:
				res.Missing = append(res.Missing, [2]int{a, b})
			case !s.need[a*s.n+b] && c > 0:
				res.Extra = append(res.Extra, [2]int{a, b})
			}
		}
		if (s.rimN[a] > 0) != s.p.Regions[a].Edge || s.size[a] == 0 {
			res.Rim = append(res.Rim, a)
		}
	}
	return res
}

// cellArea is a hex cell's area in cell radii² (3√3/2).
const cellArea = 2.598076211353316
