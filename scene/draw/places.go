package draw

import (
	"cmp"
	"iter"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/layout"
)

// place is where a region's number, its holder's marker and its row of symbols and
// pieces stand on a Small World family board: the same all game, whoever holds the
// region, and clear of the other regions' (see placeRegions).
type place struct {
	num scene.Point // the number's centre
	c   scene.Point // the marker's centre
	mr  float64     // the marker's radius
	// The row of symbols: its height and where it starts.
	rowY, rowX float64
	// Where the pieces' badges start (their left end, at their middle's height):
	// after the symbols, or where there is room.
	piece scene.Point
}

// box is an axis-aligned rectangle in CSS pixels.
type box struct{ x0, y0, x1, y1 float64 }

func (b box) overlaps(o box) bool { return b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1 }

func (b box) corners() [4]scene.Point {
	return [4]scene.Point{{X: b.x0, Y: b.y0}, {X: b.x1, Y: b.y0}, {X: b.x0, Y: b.y1}, {X: b.x1, Y: b.y1}}
}

func around(c scene.Point, hw, hh float64) box { return box{c.X - hw, c.Y - hh, c.X + hw, c.Y + hh} }

// markerExtent is how far the widest marker shape reaches from its centre (the
// triangle, 1.3 radii, with its outline).
func markerExtent(mr float64) float64 { return 1.3*mr + 1 }

// numberBox, markerBox and rowBox are what a region's number (with its halo or
// tag), marker and row of n symbols cover.
func numberBox(at scene.Point, id int) box {
	return around(at, scene.EstimateWidth(strconv.Itoa(id), sizeNumber, true)/2+4, sizeNumber/2+2)
}

func markerBox(c scene.Point, mr float64) box {
	e := markerExtent(mr)
	return around(c, e, e)
}

func rowBox(x, y float64, n int) box {
	return box{x, y - 8, x + float64(n)*symbolStep, y + 8}
}

// boxes returns what a place covers, for a region of id with n symbols.
func (p place) boxes(id, n int) []box {
	out := []box{numberBox(p.num, id), markerBox(p.c, p.mr)}
	if n > 0 {
		out = append(out, rowBox(p.rowX, p.rowY, n))
	}
	return out
}

// pieceBox is the room of a piece's badge (a fortress, a relic: the pieces come and
// go, a place keeps room for one where it can).
func (p place) pieceBox() box {
	return box{p.piece.X, p.piece.Y - 10, p.piece.X + badgeWidth("Mm"), p.piece.Y + 10}
}

// placeKey names the places of a board drawn with a fit, for its regions' counts
// of symbols (in the board's order: two maps may share a board's drawing).
type placeKey struct {
	board   *layout.Board
	f       fit
	symbols string
}

// placeCache keeps the places of the latest boards drawn (each computed once: boards
// are shared, as layout.ForMap keeps them). Safe for concurrent use.
var placeCache = struct {
	sync.Mutex
	m map[placeKey]map[int]place
}{m: map[placeKey]map[int]place{}}

// maxPlaces bounds the boards whose places are kept.
const maxPlaces = 32

// placeRegions returns where each region's number, marker and symbols stand on
// board drawn with f (symbols gives a region's count of symbols). Regions are placed
// in order of their room, the most cramped first: each at the first of a few
// arrangements (the number above the marker, at its left, at its right) and
// positions around its label point whose boxes keep inside the region and clear of
// those placed before; where none does, the one that overlaps least. Its row of
// symbols and the room of its pieces then move on their own where that leaves them
// out of the region (placeRow).
func placeRegions(board *layout.Board, f fit, symbols func(id int) int) map[int]place {
	counts := make([]byte, 0, len(board.Regions))
	for _, r := range board.Regions {
		counts = append(counts, byte(min(symbols(r.ID), 255)))
	}
	key := placeKey{board, f, string(counts)}
	placeCache.Lock()
	p, ok := placeCache.m[key]
	placeCache.Unlock()
	if ok {
		return p
	}
	p = computePlaces(board, f, symbols)
	placeCache.Lock()
	defer placeCache.Unlock()
	if len(placeCache.m) >= maxPlaces {
		for k := range placeCache.m { // drop one: any will do
			delete(placeCache.m, k)
			break
		}
	}
	placeCache.m[key] = p
	return p
}

// computePlaces is placeRegions without the cache.
func computePlaces(board *layout.Board, f fit, symbols func(id int) int) map[int]place {
	order := make([]int, len(board.Regions))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(board.Regions[a].Room, board.Regions[b].Room) })
	out := map[int]place{}
	frame := box{f.ox, f.oy, f.ox + board.Width*f.k, f.oy + board.Height*f.k}
	var taken []weighed
	for _, i := range order {
		r := &board.Regions[i]
		rings := make([][]scene.Point, len(r.Rings))
		for k, ring := range r.Rings {
			rings[k] = f.ring(ring)
		}
		label := f.at(r.Label)
		room := r.Room * f.k
		mr := markerRadius(room)
		n := symbols(r.ID)
		field := newEdgeField(frame, rings, 1.5)
		var best place
		bestCost := math.Inf(1)
		for pl := range candidates(label, room, mr, r.ID, n) {
			// What it covers, then room for a piece after its symbols (less
			// important).
			boxes := append(pl.boxes(r.ID, n), pl.pieceBox())
			if overlapCost(boxes, taken) >= bestCost {
				continue // what overlaps alone costs too much
			}
			if cost := placeCost(boxes, 0.1, field, taken, bestCost); cost < bestCost {
				best, bestCost = pl, cost
				if cost == 0 {
					break
				}
			}
		}
		best = placeRow(best, r.ID, n, room, field, taken)
		out[r.ID] = best
		for _, b := range best.boxes(r.ID, n) {
			taken = append(taken, weighed{b, 1})
		}
		taken = append(taken, weighed{best.pieceBox(), 0.1})
	}
	return out
}

// placeCost is what a place's boxes cost (the last one weighs last: a tenth for
// the room of a piece): their corners outside the region or near its edge, the
// farther the worse, much more off the board, and their overlaps with the boxes
// taken. The costs only add up: it stops
// at bound, which a cost reaching it may as well be.
func placeCost(boxes []box, last float64, field *edgeField, taken []weighed, bound float64) float64 {
	cost := 0.0
	for k, b := range boxes {
		weight := 1.0
		if k == len(boxes)-1 {
			weight = last
		}
		for _, c := range b.corners() {
			if d, far := field.distance(c); !far && d < 1.5 {
				cost += weight * (1 + 1.5 - d)
			}
			if c.X < field.frame.x0 || c.X > field.frame.x1 || c.Y < field.frame.y0 || c.Y > field.frame.y1 {
				cost += weight * 100 // off the board: over the legend, or cut off
			}
		}
		cost += weight * boxOverlap(b, taken)
		if cost >= bound {
			return cost
		}
	}
	return cost
}

// placeRow moves the row of symbols of place p (of region id with n symbols), then
// the room of its pieces, each on its own, where the best arrangement of the number
// and marker leaves it out of the region or over another's (moveBox).
func placeRow(p place, id, n int, room float64, field *edgeField, taken []weighed) place {
	// Moved on their own, they keep clear of all the others' boxes alike.
	own := make([]weighed, 0, len(taken)+3)
	for _, t := range taken {
		own = append(own, weighed{t.b, 1})
	}
	own = append(own, weighed{numberBox(p.num, id), 1}, weighed{markerBox(p.c, p.mr), 1})
	if n > 0 {
		at := moveBox(rowBox(p.rowX, p.rowY, n), room, field, own)
		p.piece.X += at.X - p.rowX
		p.piece.Y += at.Y - p.rowY
		p.rowX, p.rowY = at.X, at.Y
		own = append(own, weighed{rowBox(p.rowX, p.rowY, n), 1})
	}
	p.piece = moveBox(p.pieceBox(), room, field, own)
	return p
}

// moveBox returns where box b's left end and middle height should go: where it
// stands when that costs nothing, else the nearest position within room of it that
// costs least, within twice room (a move costs a little: the box keeps near where it
// was).
func moveBox(b box, room float64, field *edgeField, taken []weighed) scene.Point {
	at := scene.Point{X: b.x0, Y: (b.y0 + b.y1) / 2}
	cost := func(b box, bound float64) float64 {
		c := 0.0
		// A box whose middle is out of the region seems another region's.
		if !field.inside(scene.Point{X: (b.x0 + b.x1) / 2, Y: (b.y0 + b.y1) / 2}) {
			c = 100
		}
		if c+boxOverlap(b, taken) >= bound { // what it costs at least
			return bound
		}
		return c + placeCost([]box{b}, 1, field, taken, bound-c)
	}
	bestCost := cost(b, math.Inf(1))
	if bestCost == 0 {
		return at
	}
	best := at
	reach := math.Max(12, 2*room)
	type move struct{ dx, dy, d float64 }
	var moves []move
	for dy := -reach; dy <= reach; dy += 2 {
		for dx := -reach; dx <= reach; dx += 2 {
			if d := math.Hypot(dx, dy); d <= reach && d > 0 {
				moves = append(moves, move{dx, dy, d})
			}
		}
	}
	slices.SortStableFunc(moves, func(a, b move) int { return cmp.Compare(a.d, b.d) })
	for _, m := range moves {
		q := box{b.x0 + m.dx, b.y0 + m.dy, b.x1 + m.dx, b.y1 + m.dy}
		if cost := cost(q, bestCost) + m.d/100; cost < bestCost {
			best, bestCost = scene.Point{X: at.X + m.dx, Y: at.Y + m.dy}, cost
			if cost < 0.5 {
				break
			}
		}
	}
	return best
}

// weighed is a box a placed region covers, weighed by its importance.
type weighed struct {
	b box
	w float64
}

// boxOverlap is what b costs by overlapping the boxes taken (unweighed).
func boxOverlap(b box, taken []weighed) float64 {
	cost := 0.0
	for _, t := range taken {
		if b.overlaps(t.b) {
			cost += t.w * (100 + (min(b.x1, t.b.x1)-max(b.x0, t.b.x0))*(min(b.y1, t.b.y1)-max(b.y0, t.b.y0)))
		}
	}
	return cost
}

// overlapCost is what a candidate's boxes (the last one, the piece's, weighs a
// tenth) cost by overlapping those taken: a lower bound of its cost.
func overlapCost(boxes []box, taken []weighed) float64 {
	cost := 0.0
	for k, b := range boxes {
		weight := 1.0
		if k == len(boxes)-1 {
			weight = 0.1
		}
		cost += weight * boxOverlap(b, taken)
	}
	return cost
}

// candidates lists a region's arrangements, nearest its label point first: the
// number above the marker, at its left or right (the symbols below), or all in a
// line (number, marker, symbols), the group moved by a few pixels at a time.
func candidates(label scene.Point, room, mr float64, id, n int) iter.Seq[place] {
	e := markerExtent(mr)
	numW := scene.EstimateWidth(strconv.Itoa(id), sizeNumber, true)
	rowOff := e + 9
	var below float64 // how far the row reaches below the marker
	if n > 0 {
		below = rowOff + 8
	} else {
		below = e
	}
	arrange := func(kind int, c scene.Point) place {
		p := place{c: c, mr: mr, rowY: c.Y + rowOff, rowX: c.X - float64(n)*symbolStep/2}
		switch kind {
		case 0:
			p.num = scene.Point{X: c.X, Y: c.Y - e - sizeNumber/2 - 1}
		case 1:
			p.num = scene.Point{X: c.X - e - numW/2 - 5, Y: c.Y}
		case 2:
			p.num = scene.Point{X: c.X + e + numW/2 + 5, Y: c.Y}
		default:
			p.num = scene.Point{X: c.X - e - numW/2 - 5, Y: c.Y}
			p.rowY, p.rowX = c.Y, c.X+e+3
		}
		p.piece = scene.Point{X: p.rowX + float64(n)*symbolStep + 2, Y: p.rowY}
		if n == 0 && kind < 3 { // a piece centred under the marker
			p.piece.X = c.X - badgeWidth("Mm")/2
		}
		return p
	}
	type spot struct {
		dist float64
		i    int32 // the order made: ties keep it
		kind int32
		c    scene.Point
	}
	var out []spot
	reach := math.Max(8, room)
	for kind := range 4 {
		// The group's centre on the label point.
		var c scene.Point
		switch kind {
		case 0:
			top := e + sizeNumber + 1
			c = scene.Point{X: label.X, Y: label.Y + (top-below)/2}
		case 1:
			c = scene.Point{X: label.X + (numW+5)/2, Y: label.Y - (below-e)/2}
		case 2:
			c = scene.Point{X: label.X - (numW+5)/2, Y: label.Y - (below-e)/2}
		default:
			c = scene.Point{X: label.X + (numW+5)/2 - float64(n)*symbolStep/2, Y: label.Y}
		}
		for dy := -reach; dy <= reach; dy += 3 {
			for dx := -reach; dx <= reach; dx += 3 {
				d := math.Hypot(dx, dy)
				if d > reach {
					continue
				}
				out = append(out, spot{d + float64(kind)*6, int32(len(out)), int32(kind), scene.Point{X: c.X + dx, Y: c.Y + dy}})
			}
		}
	}
	slices.SortFunc(out, func(a, b spot) int { return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(a.i, b.i)) })
	return func(yield func(place) bool) {
		for _, s := range out {
			if !yield(arrange(int(s.kind), s.c)) {
				return
			}
		}
	}
}

// edgeField answers signedDistance for many points of a region, most of them inside
// it: the region's edges are kept in bands of rows, each with the edges that cross
// its rows or come within near of them, so that a point inside needs only its band's
// edges to tell that it is inside and how near an edge (when nearer than near).
type edgeField struct {
	frame box // the board's
	rings [][]scene.Point
	near  float64
	y0    float64
	bands [][][2]scene.Point
}

// fieldBand is the height of an edgeField's bands in CSS pixels.
const fieldBand = 4.0

func newEdgeField(frame box, rings [][]scene.Point, near float64) *edgeField {
	f := &edgeField{frame: frame, rings: rings, near: near, y0: math.Inf(1)}
	y1 := math.Inf(-1)
	for _, ring := range rings {
		for _, p := range ring {
			f.y0, y1 = math.Min(f.y0, p.Y), math.Max(y1, p.Y)
		}
	}
	if f.y0 > y1 {
		return f
	}
	f.bands = make([][][2]scene.Point, int((y1-f.y0)/fieldBand)+1)
	for _, ring := range rings {
		for i, a := range ring {
			b := ring[(i+1)%len(ring)]
			lo, hi := f.band(math.Min(a.Y, b.Y)-near), f.band(math.Max(a.Y, b.Y)+near)
			for k := max(lo, 0); k <= min(hi, len(f.bands)-1); k++ {
				f.bands[k] = append(f.bands[k], [2]scene.Point{a, b})
			}
		}
	}
	return f
}

func (f *edgeField) band(y float64) int { return int(math.Floor((y - f.y0) / fieldBand)) }

// distance returns scene.SignedDistance(p, f.rings), or far when p lies at least f.near
// inside the region (the distance not computed).
func (f *edgeField) distance(p scene.Point) (d float64, far bool) {
	if len(f.bands) == 0 {
		return scene.SignedDistance(p, f.rings), false
	}
	inside := f.inside(p)
	best := math.Inf(1)
	k := f.band(p.Y)
	if k >= 0 && k < len(f.bands) {
		for _, e := range f.bands[k] {
			best = min(best, scene.SquaredSegmentDistance(p, e[0], e[1]))
		}
		if inside && best >= f.near*f.near {
			return 0, true
		}
	}
	// The nearest edge: the bands outwards from p's, while they may hold a nearer one.
	scan := func(j int) bool {
		if f.gap(p.Y, j) >= best {
			return false
		}
		for _, e := range f.bands[j] {
			best = min(best, scene.SquaredSegmentDistance(p, e[0], e[1]))
		}
		return true
	}
	for j := min(k-1, len(f.bands)-1); j >= 0 && scan(j); j-- {
	}
	for j := max(k+1, 0); j < len(f.bands) && scan(j); j++ {
	}
	if !inside {
		return -math.Sqrt(best), false
	}
	return math.Sqrt(best), false
}

// inside reports whether p lies inside the region: every edge across p's row is in
// its band.
func (f *edgeField) inside(p scene.Point) bool {
	k := f.band(p.Y)
	if k < 0 || k >= len(f.bands) {
		return false
	}
	in := false
	for _, e := range f.bands[k] {
		a, b := e[0], e[1]
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < (b.X-a.X)*(p.Y-a.Y)/(b.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}

// gap is the squared distance from row y to band j.
func (f *edgeField) gap(y float64, j int) float64 {
	g := math.Max(0, math.Max(f.y0+float64(j)*fieldBand-y, y-(f.y0+float64(j+1)*fieldBand)))
	return g * g
}
