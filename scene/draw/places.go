package draw

import (
	"cmp"
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
	// The row of symbols and pieces: its height, where its symbols start and end
	// (the pieces follow them).
	rowY, rowX, symbolEnd float64
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

// pieceBox is the room of a piece's badge after the row of symbols (a fortress, a
// relic: the pieces come and go, a place keeps room for one where it can).
func (p place) pieceBox() box {
	return box{p.symbolEnd + 2, p.rowY - 10, p.symbolEnd + 2 + badgeWidth("Mm"), p.rowY + 10}
}

// placeKey names the places of a board drawn with a fit.
type placeKey struct {
	board *layout.Board
	f     fit
}

// placeCache keeps the places of the boards drawn (a few boards, each computed once:
// boards are shared, as layout.ForMap keeps them).
var placeCache sync.Map // placeKey → map[int]place

// placeRegions returns where each region's number, marker and symbols stand on
// board drawn with f (symbols gives a region's count of symbols). Regions are placed
// in order of their room, the most cramped first: each at the first of a few
// arrangements (the number above the marker, at its left, at its right) and
// positions around its label point whose boxes keep inside the region and clear of
// those placed before; where none does, the one that overlaps least.
func placeRegions(board *layout.Board, f fit, symbols func(id int) int) map[int]place {
	key := placeKey{board, f}
	if p, ok := placeCache.Load(key); ok {
		return p.(map[int]place)
	}
	order := make([]int, len(board.Regions))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(board.Regions[a].Room, board.Regions[b].Room) })
	out := map[int]place{}
	type weighed struct {
		b box
		w float64
	}
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
		var best place
		bestCost := math.Inf(1)
		for _, pl := range candidates(label, room, mr, r.ID, n) {
			cost := 0.0
			// What it covers, then room for a piece after its symbols (less important).
			for k, b := range append(pl.boxes(r.ID, n), pl.pieceBox()) {
				weight := 1.0
				if k == len(pl.boxes(r.ID, n)) {
					weight = 0.1
				}
				for _, c := range b.corners() {
					if d := signedDistance(c, rings); d < 1.5 {
						cost += weight * (1 + 1.5 - d) // outside its region, the farther the worse
					}
				}
				for _, t := range taken {
					if b.overlaps(t.b) {
						cost += weight * t.w * (100 + (min(b.x1, t.b.x1)-max(b.x0, t.b.x0))*(min(b.y1, t.b.y1)-max(b.y0, t.b.y0)))
					}
				}
			}
			if cost < bestCost {
				best, bestCost = pl, cost
			}
			if cost == 0 {
				break
			}
		}
		out[r.ID] = best
		for _, b := range best.boxes(r.ID, n) {
			taken = append(taken, weighed{b, 1})
		}
		taken = append(taken, weighed{best.pieceBox(), 0.1})
	}
	placeCache.Store(key, out)
	return out
}

// candidates lists a region's arrangements, nearest its label point first: the
// number above the marker, at its left or right (the symbols below), or all in a
// line (number, marker, symbols), the group moved by a few pixels at a time.
func candidates(label scene.Point, room, mr float64, id, n int) []place {
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
		p.symbolEnd = p.rowX + float64(n)*symbolStep
		return p
	}
	type cand struct {
		p    place
		dist float64
	}
	var out []cand
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
				out = append(out, cand{arrange(kind, scene.Point{X: c.X + dx, Y: c.Y + dy}), d + float64(kind)*6})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b cand) int { return cmp.Compare(a.dist, b.dist) })
	places := make([]place, len(out))
	for i, c := range out {
		places[i] = c.p
	}
	return places
}

// signedDistance returns the distance from p to the nearest edge of rings, negative
// when p lies outside the region (outside its outer ring or inside a hole).
func signedDistance(p scene.Point, rings [][]scene.Point) float64 {
	inside := false
	best := math.Inf(1)
	for _, ring := range rings {
		for i, a := range ring {
			b := ring[(i+1)%len(ring)]
			if (a.Y > p.Y) != (b.Y > p.Y) && p.X < (b.X-a.X)*(p.Y-a.Y)/(b.Y-a.Y)+a.X {
				inside = !inside
			}
			best = math.Min(best, segmentDistance(p, a, b))
		}
	}
	if !inside {
		return -best
	}
	return best
}

// segmentDistance returns the distance from p to the segment a–b.
func segmentDistance(p, a, b scene.Point) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l))
	}
	return math.Hypot(p.X-a.X-t*dx, p.Y-a.Y-t*dy)
}
