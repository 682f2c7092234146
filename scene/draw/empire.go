package draw

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine/empire"
	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/layout"
)

// Colours of an Empire board.
var (
	empireSea   = scene.RGB(0xcfe6f5)
	empireLand  = scene.RGB(0xe8dcb0)
	empireRoute = scene.RGB(0x1f5f99)
	empireCoin  = scene.RGB(0xf2c94c)
)

// slotCells places the faces of a layout kind on a grid of cells (column, row).
var slotCells = map[string]map[string][2]int{
	"t":    {"west": {0, 0}, "centre": {1, 0}, "east": {2, 0}, "south": {1, 1}},
	"ring": {"north-west": {0, 0}, "north-east": {1, 0}, "south-east": {1, 1}, "south-west": {0, 1}},
}

// turn rotates p by r quarter turns clockwise within a square of side size.
func turn(p layout.Point, r int, size float64) layout.Point {
	for range ((r % 4) + 4) % 4 {
		p = layout.Point{X: size - p.Y, Y: p.X}
	}
	return p
}

// eightMinute draws an Eight-Minute Empire board: the four faces as the game lays
// them, each region with its number, the armies and cities on it by player, sea
// routes and crossings, the start region; then the row of cards with their costs.
func eightMinute(v *empire.View, in Input) (*scene.Scene, error) {
	w := in.Words
	seats := seatOf{}
	for i, p := range v.Players {
		seats[p.Name] = i
	}
	cells := slotCells[v.Layout.Kind]
	if cells == nil {
		return nil, fmt.Errorf("empire layout %q unknown", v.Layout.Kind)
	}
	cols, rows := 0, 0
	for _, c := range cells {
		cols, rows = max(cols, c[0]+1), max(rows, c[1]+1)
	}
	type placed struct {
		board *layout.Board
		rot   int
		cell  [2]int
	}
	faces := map[string]placed{}
	var order []string // the faces in the view's order: the picture's items in a fixed order
	size := 0.0
	for _, pf := range v.Layout.Faces {
		b, err := layout.EmpireFace(pf.ID)
		if err != nil {
			return nil, fmt.Errorf("face %s: %w", pf.ID, err)
		}
		cell, ok := cells[pf.Position]
		if !ok {
			return nil, fmt.Errorf("face %s: position %q unknown", pf.ID, pf.Position)
		}
		faces[pf.ID] = placed{b, pf.Rotation, cell}
		order = append(order, pf.ID)
		size = math.Max(size, math.Max(b.Width, b.Height))
	}
	if len(faces) == 0 {
		return nil, fmt.Errorf("no faces")
	}

	s := scene.New(Width, 0)
	const top = 30.0
	title := w.Say("Turn %d", v.Turn)
	if v.Finished {
		title = w.Say("Game over")
	}
	cellPx := (Width - 16) / float64(cols)
	k := cellPx / size
	origin := func(cell [2]int) (float64, float64) {
		return 8 + float64(cell[0])*cellPx, top + float64(cell[1])*cellPx
	}
	// at places a point of a face's layout on the picture.
	at := func(pf placed, p layout.Point) scene.Point {
		q := turn(p, pf.rot, size)
		x, y := origin(pf.cell)
		return scene.Point{X: x + q.X*k, Y: y + q.Y*k}
	}
	s.Add(&scene.Rect{Min: scene.Point{X: 8, Y: top}, Max: scene.Point{X: 8 + float64(cols)*cellPx, Y: top + float64(rows)*cellPx}, Fill: scene.Solid(scene.Paper)})
	for _, id := range order {
		pf := faces[id]
		x, y := origin(pf.cell)
		s.Add(&scene.Rect{Min: scene.Point{X: x, Y: y}, Max: scene.Point{X: x + cellPx, Y: y + cellPx},
			Fill: scene.Patterned(empireSea, scene.Horizontal, empireSea.Mix(empireRoute, 0.25)), Stroke: scene.Stroke{Color: scene.Ink, Width: 1}})
	}

	// The regions of the view by face and letter ("1a-c").
	type regionAt struct {
		face placed
		reg  *layout.Region
	}
	where := map[int]regionAt{}
	for i := range v.Regions {
		rv := &v.Regions[i]
		faceID, letter, ok := strings.Cut(rv.Label, "-")
		pf, found := faces[faceID]
		if !ok || !found {
			return nil, fmt.Errorf("region %d: label %q names no face of the layout", rv.ID, rv.Label)
		}
		var reg *layout.Region
		for j := range pf.board.Regions {
			if pf.board.Regions[j].Key == letter {
				reg = &pf.board.Regions[j]
			}
		}
		if reg == nil {
			return nil, fmt.Errorf("region %d: face %s has no region %q", rv.ID, faceID, letter)
		}
		where[rv.ID] = regionAt{pf, reg}
	}
	// Routes first (under the land): sea routes and crossings within a face, and the
	// exits that join faces.
	route := func(pts []scene.Point, kind string) {
		st := scene.Stroke{Color: empireRoute, Width: 2.5, Dash: []float64{6, 4}}
		switch kind {
		case layout.LinkCrossing:
			st = scene.Stroke{Color: scene.Ink, Width: 3, Dash: []float64{2, 3}}
		case layout.LinkBorder:
			st = scene.Stroke{Color: scene.Ink, Width: 2}
		}
		s.Add(&scene.Line{Points: pts, Stroke: st})
	}
	kinds := map[string]bool{}
	for _, id := range order {
		pf := faces[id]
		for _, l := range pf.board.Links {
			pts := make([]scene.Point, len(l.Path))
			for i, p := range l.Path {
				pts[i] = at(pf, p)
			}
			route(pts, l.Kind)
			kinds[l.Kind] = true
		}
		for _, e := range pf.board.Exits {
			pts := make([]scene.Point, len(e.Path))
			for i, p := range e.Path {
				pts[i] = at(pf, p)
			}
			route(pts, layout.LinkSea)
			kinds[layout.LinkSea] = true
		}
	}
	var land []box // the regions' extents
	for _, rv := range v.Regions {
		ra := where[rv.ID]
		rings := make([][]scene.Point, len(ra.reg.Rings))
		for i, ring := range ra.reg.Rings {
			rings[i] = make([]scene.Point, len(ring))
			for j, p := range ring {
				rings[i][j] = at(ra.face, p)
			}
		}
		s.Add(&scene.Polygon{Rings: rings, Fill: scene.Solid(empireLand), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}})
		lo, hi := s.Items[len(s.Items)-1].Bounds()
		land = append(land, box{lo.X, lo.Y, hi.X, hi.Y})
	}
	// The regions' numbers and the start region: the same all game.
	labelAt := map[int]scene.Point{}
	var taken []box // the numbers, then the pieces in their regions, then the panels
	for _, rv := range v.Regions {
		ra := where[rv.ID]
		c := at(ra.face, ra.reg.Label)
		labelAt[rv.ID] = c
		taken = append(taken, around(scene.Point{X: c.X, Y: c.Y - 18}, 12, 12))
		if rv.ID == v.Start {
			s.Add(&scene.Circle{Center: scene.Point{X: c.X, Y: c.Y - 18}, R: 11, Fill: scene.Solid(scene.White), Stroke: scene.Stroke{Color: scene.Ink, Width: 2.5}})
		}
		s.Add(label(scene.Point{X: c.X, Y: c.Y - 18}, strconv.Itoa(rv.ID), sizeNumber, true, scene.Middle))
	}
	// All so far is the board alone: the static layer a writer may keep.
	s.Static = len(s.Items)
	s.Add(&scene.Text{At: scene.Point{X: 10, Y: top / 2}, Text: title, Size: sizeTitle, Bold: true, Anchor: scene.Start, Color: scene.Ink})
	// What stands in each region: the variant tokens by their codes, armies and
	// cities by owner, in rows within the region, or on a panel beside it where they
	// do not fit (the start region).
	tokenCodes := empireTokenCodes(v.Tokens, w)
	tokensAt := map[int][]string{}
	for _, t := range v.Tokens {
		if t.Region != nil {
			tokensAt[*t.Region] = append(tokensAt[*t.Region], tokenCodes[tokenKind(t.Kind)])
		}
	}
	var names []string
	for _, p := range v.Players {
		names = append(names, p.Name)
	}
	names = append(names, empire.Neutral)
	type panel struct {
		id     int
		c      scene.Point
		pieces []empirePiece
	}
	var panels []panel
	for _, rv := range v.Regions {
		ra := where[rv.ID]
		c := labelAt[rv.ID]
		var pieces []empirePiece
		for _, code := range tokensAt[rv.ID] {
			pieces = append(pieces, empirePiece{code: code})
		}
		for _, n := range names {
			sw, ok := seats.swatch(n)
			if n == empire.Neutral {
				sw, ok = scene.LostTribe, true
			}
			if !ok {
				continue
			}
			if a := rv.Armies[n]; a > 0 {
				pieces = append(pieces, empirePiece{sw: sw, n: a})
			}
			if ct := rv.Cities[n]; ct > 0 {
				pieces = append(pieces, empirePiece{sw: sw, n: ct, city: true})
			}
		}
		if len(pieces) == 0 {
			continue
		}
		room := ra.reg.Room * k
		perRow := max(2, int((2*room+8)/(2*pieceR+2)))
		if rowsOf := (len(pieces) + perRow - 1) / perRow; float64(rowsOf)*(2*pieceR+3) <= room+pieceR+2 {
			top := scene.Point{X: c.X, Y: c.Y + 6}
			s.Add(empirePieces(pieces, top, perRow)...)
			rw := float64(min(perRow, len(pieces))) * (2*pieceR + 2)
			taken = append(taken, box{top.X - rw/2, top.Y - pieceR - 2, top.X + rw/2, top.Y + float64(rowsOf-1)*(2*pieceR+3) + pieceR + 2})
			continue
		}
		panels = append(panels, panel{rv.ID, c, pieces})
	}
	// Pieces that do not fit their region (the start region's) stand on a panel that
	// names the region: at the nearest place on the sea clear of the numbers, the
	// pieces and the other panels, joined to the region by a line where the line
	// crosses none of them.
	var panelItems []scene.Item
	board := box{8, top, Width - 8, top + float64(rows)*cellPx}
	for _, pn := range panels {
		const perPanel = 3
		rowsOf := (len(pn.pieces) + perPanel - 1) / perPanel
		id := strconv.Itoa(pn.id)
		numW := scene.EstimateWidth(id, sizeNumber, true) + 8
		piecesW := float64(min(len(pn.pieces), perPanel)) * (2*pieceR + 2)
		pw, ph := numW+piecesW+8, float64(rowsOf)*(2*pieceR+3)+6
		b, clear := panelBox(pn.c, pw, ph, board, land, taken)
		taken = append(taken, b)
		mid := scene.Point{X: (b.x0 + b.x1) / 2, Y: (b.y0 + b.y1) / 2}
		if clear {
			panelItems = append(panelItems, &scene.Line{Points: []scene.Point{pn.c, mid}, Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}})
		}
		row := b.y0 + 3 + pieceR + 1
		panelItems = append(panelItems,
			&scene.Rect{Min: scene.Point{X: b.x0, Y: b.y0}, Max: scene.Point{X: b.x1, Y: b.y1}, Radius: 5, Fill: scene.Solid(scene.White), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}},
			label(scene.Point{X: b.x0 + 4 + numW/2, Y: row}, id, sizeNumber, true, scene.Middle))
		panelItems = append(panelItems, empirePieces(pn.pieces, scene.Point{X: b.x0 + numW + 4 + piecesW/2, Y: row}, perPanel)...)
	}
	s.Add(panelItems...)
	y := top + float64(rows)*cellPx + 10

	// The row of cards on offer.
	if len(v.Row) > 0 {
		s.Add(&scene.Text{At: scene.Point{X: 10, Y: y + 8}, Text: w.Say("Cards on offer (take N):"), Size: sizeLegend, Bold: true, Anchor: scene.Start, Color: scene.Ink})
		y += 20
		// Two cards a row: a phone shows the picture at about 60 %, and three a row
		// left the actions cut and too small to read.
		const perRow, gap = 2, 6.0
		cw := (Width - 16 - gap*(perRow-1)) / perRow
		const ch = 66.0
		for i, c := range v.Row {
			x0 := 8 + float64(i%perRow)*(cw+gap)
			y0 := y + float64(i/perRow)*(ch+gap)
			s.Add(&scene.Rect{Min: scene.Point{X: x0, Y: y0}, Max: scene.Point{X: x0 + cw, Y: y0 + ch}, Radius: 5,
				Fill: scene.Solid(scene.White), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}})
			s.Add(&scene.Text{At: scene.Point{X: x0 + 8, Y: y0 + 13}, Text: strconv.Itoa(c.Position), Size: sizeNumber, Bold: true, Anchor: scene.Start, Color: scene.Ink})
			s.Add(&scene.Circle{Center: scene.Point{X: x0 + cw - 14, Y: y0 + 13}, R: 10, Fill: scene.Solid(empireCoin), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.2}},
				&scene.Text{At: scene.Point{X: x0 + cw - 14, Y: y0 + 13}, Text: strconv.Itoa(c.Cost), Size: sizeBadge, Bold: true, Color: scene.Ink})
			s.Add(fitted(scene.Point{X: x0 + 26, Y: y0 + 13}, w.Term(c.Name), cw-54, true, scene.Ink)) // between the number and the cost
			ability, action := c.Ability, c.Action
			if ab, ac, ok := empire.CardTexts(c.ID); ok {
				ability, action = w.Text(ab), w.Text(ac)
			}
			s.Add(fitted(scene.Point{X: x0 + 8, Y: y0 + 35}, action, cw-12, false, scene.Ink),
				fitted(scene.Point{X: x0 + 8, Y: y0 + 54}, ability, cw-12, false, scene.RGB(0x555555)))
		}
		y += float64((len(v.Row)+perRow-1)/perRow)*(ch+gap) + 4
	}

	// The legend.
	var entries []legendEntry
	for i, p := range v.Players {
		sw := scene.Seat(i)
		text := w.Say("%s: armies %d, cities %d, coins %d", clip(p.Name, 24), p.Armies, p.Cities, p.Coins)
		var held []string
		for _, t := range v.Tokens {
			if t.Holder != nil && *t.Holder == p.Name {
				held = append(held, empireTokenName(w, t.Kind))
			}
		}
		if len(held) > 0 {
			text += "; " + strings.Join(held, ", ")
		}
		entries = append(entries, legendEntry{sample: func(c scene.Point) []scene.Item { return []scene.Item{scene.Marker(sw, c, 9, false)} },
			text: text, wide: true})
	}
	entries = append(entries,
		legendEntry{sample: func(c scene.Point) []scene.Item { return []scene.Item{scene.Marker(scene.LostTribe, c, 9, false)} }, text: upperFirst(w.Term(empire.Neutral))},
		legendEntry{sample: func(c scene.Point) []scene.Item { return []scene.Item{city(scene.LostTribe, c, 9)} }, text: upperFirst(w.Say("city"))},
		legendEntry{sample: func(c scene.Point) []scene.Item {
			return []scene.Item{&scene.Circle{Center: c, R: 8, Fill: scene.Solid(scene.White), Stroke: scene.Stroke{Color: scene.Ink, Width: 2.5}}}
		}, text: upperFirst(w.Say("start region"))})
	// The tokens on the board, by their codes.
	var onBoard []string
	for _, t := range v.Tokens {
		if k := tokenKind(t.Kind); t.Region != nil && !slices.Contains(onBoard, k) {
			onBoard = append(onBoard, k)
		}
	}
	for _, kind := range onBoard {
		code := tokenCodes[kind]
		entries = append(entries, legendEntry{sample: func(c scene.Point) []scene.Item { return badge(c, code) }, text: empireTokenName(w, kind)})
	}
	if kinds[layout.LinkSea] {
		entries = append(entries, legendEntry{sample: lineSample(scene.Stroke{Color: empireRoute, Width: 2.5, Dash: []float64{6, 4}}), text: upperFirst(w.Say("sea route"))})
	}
	if kinds[layout.LinkCrossing] {
		entries = append(entries, legendEntry{sample: lineSample(scene.Stroke{Color: scene.Ink, Width: 3, Dash: []float64{2, 3}}), text: upperFirst(w.Say("crossing"))})
	}
	if kinds[layout.LinkBorder] {
		entries = append(entries, legendEntry{sample: lineSample(scene.Stroke{Color: scene.Ink, Width: 2}), text: upperFirst(w.Say("land border"))})
	}
	items, bottom := legend(entries, y)
	s.Add(items...)
	s.Height = bottom + 8
	s.Alt = empireAlt(v, w)
	return s, nil
}

// empirePiece is what a player has in a region (armies or cities, and how many), or
// a variant token (its code).
type empirePiece struct {
	sw   scene.Swatch
	n    int
	city bool
	code string
}

// pieceR is the radius of an Empire piece's marker.
const pieceR = 10.0

// empirePieces draws pieces in rows of perRow from top, centred on top.X.
func empirePieces(pieces []empirePiece, top scene.Point, perRow int) []scene.Item {
	var items []scene.Item
	for i, p := range pieces {
		row, col := i/perRow, i%perRow
		inRow := min(perRow, len(pieces)-row*perRow)
		pc := scene.Point{X: top.X - float64(inRow-1)*(pieceR+1) + float64(col)*(2*pieceR+2), Y: top.Y + float64(row)*(2*pieceR+3)}
		if p.code != "" {
			items = append(items, badge(pc, p.code)...)
		} else if p.city {
			items = append(items, city(p.sw, pc, pieceR),
				&scene.Text{At: scene.Point{X: pc.X, Y: pc.Y + 2}, Text: strconv.Itoa(p.n), Size: sizeBadge, Bold: true, Color: p.sw.TextOn(false)})
		} else {
			items = append(items, markerWithCount(p.sw, pc, pieceR, false, p.n)...)
		}
	}
	return items
}

// fitted is a card's line of text from at, in room: up to two sizes smaller where it needs,
// clipped where that is not enough (a name in bold, a size larger).
func fitted(at scene.Point, text string, room float64, bold bool, col scene.Color) *scene.Text {
	size := sizeCount
	if bold {
		size++
	}
	for range 2 { // at most 4 points smaller, then cut
		if textWidth(text, size, bold) > room {
			size -= 2
		}
	}
	return &scene.Text{At: at, Text: clipTo(text, room, size, bold), Size: size, Bold: bold, Anchor: scene.Start, Color: col}
}

// panelBox returns where a panel of w × h for the pieces of the region labelled at
// c goes: within the board, the nearest place that overlaps none of the boxes taken
// and least of the land, and whose line to c crosses none of them (but the region's
// own number), or else the one that does so least; and whether its line to c crosses
// nothing.
func panelBox(c scene.Point, w, h float64, board box, land, taken []box) (box, bool) {
	best, bestCost, bestClear := box{}, math.Inf(1), false
	own := around(scene.Point{X: c.X, Y: c.Y - 18}, 11, 11) // the region's number
	for r := 30.0; r <= 240; r += 10 {
		for a := 0; a < 16; a++ {
			ang := math.Pi/2 + 2*math.Pi*float64(a)/16 // below first
			x := clamp(c.X+r*math.Cos(ang)-w/2, board.x0+2, board.x1-2-w)
			y := clamp(c.Y+r*math.Sin(ang)-h/2, board.y0+2, board.y1-2-h)
			b := box{x - 3, y - 3, x + w + 3, y + h + 3} // with a margin
			// The costs only add up: a place is dropped as soon as it costs as much
			// as the best so far.
			cost := r / 10
			for _, t := range taken {
				if b.overlaps(t) {
					cost += 1000
				}
			}
			for _, l := range land {
				if b.overlaps(l) {
					cost += (min(b.x1, l.x1) - max(b.x0, l.x0)) * (min(b.y1, l.y1) - max(b.y0, l.y0)) / 20
				}
			}
			if cost >= bestCost {
				continue
			}
			clear := !crosses(c, scene.Point{X: x + w/2, Y: y + h/2}, own, taken)
			if !clear {
				cost += 50
			}
			if cost < bestCost {
				best, bestCost, bestClear = box{x, y, x + w, y + h}, cost, clear
			}
		}
		if bestCost <= (r+10)/10 { // nothing farther can do better
			break
		}
	}
	return best, bestClear
}

// crosses reports whether the line from a to b passes through one of the boxes
// (but own).
func crosses(a, b scene.Point, own box, boxes []box) bool {
	n := math.Ceil(math.Hypot(b.X-a.X, b.Y-a.Y) / 4)
	span := box{min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X), max(a.Y, b.Y)}
	for _, t := range boxes {
		if t.overlaps(own) || !(t.x0 <= span.x1 && span.x0 <= t.x1 && t.y0 <= span.y1 && span.y0 <= t.y1) {
			continue
		}
		for i := 1.0; i < n; i++ {
			p := scene.Point{X: a.X + (b.X-a.X)*i/n, Y: a.Y + (b.Y-a.Y)*i/n}
			if p.X > t.x0 && p.X < t.x1 && p.Y > t.y0 && p.Y < t.y1 {
				return true
			}
		}
	}
	return false
}

// empireTokens are the printed names of the variant tokens, by the view's kind (its
// number left out: the fortresses and portals are alike), terms of the catalogue.
var empireTokens = map[string]string{
	"magic-spring": "Magic Spring", "cottage": "Cottage", "hidden-treasure": "Hidden Treasure",
	"spellbook": "Spellbook", "stable": "Stable", "swamp": "Mephitic Swamp", "fortress": "fortress",
	"dragon": "Raging Dragon", "portal": "Magic Portal", "bandits": "Bandits", "hidden": "face-down token",
}

// tokenKind is a token's kind without its number ("fortress-2" is a fortress).
func tokenKind(kind string) string {
	if k, n, ok := strings.Cut(kind, "-"); ok {
		if _, err := strconv.Atoi(n); err == nil {
			return k
		}
	}
	return kind
}

// empireTokenName names a token kind in the reader's language.
func empireTokenName(w Words, kind string) string {
	kind = tokenKind(kind)
	if n, ok := empireTokens[kind]; ok {
		if kind == "hidden" {
			return upperFirst(w.Say("face-down token"))
		}
		return caption(w, w.Term(n))
	}
	return kind
}

// empireTokenCodes gives each token kind of the view a short code from its name in
// the reader's language (a face-down token "?").
func empireTokenCodes(tokens []empire.TokenView, w Words) map[string]string {
	var kinds []string
	for _, t := range tokens {
		if k := tokenKind(t.Kind); k != "hidden" && !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	names := map[string]string{}
	for _, k := range kinds {
		names[k] = empireTokenName(w, k)
	}
	codes := shortCodes(kinds, func(k string) string { return names[k] })
	codes["hidden"] = "?"
	return codes
}

// lineSample draws a short line for a legend entry.
func lineSample(st scene.Stroke) func(scene.Point) []scene.Item {
	return func(c scene.Point) []scene.Item {
		return []scene.Item{&scene.Line{Points: []scene.Point{{X: c.X - 11, Y: c.Y}, {X: c.X + 11, Y: c.Y}}, Stroke: st}}
	}
}

// city is a house in a seat's colour: a square with a roof.
func city(sw scene.Swatch, c scene.Point, r float64) scene.Item {
	pts := []scene.Point{{X: c.X - r, Y: c.Y + r}, {X: c.X - r, Y: c.Y - r*0.2}, {X: c.X, Y: c.Y - r*1.1}, {X: c.X + r, Y: c.Y - r*0.2}, {X: c.X + r, Y: c.Y + r}}
	return &scene.Polygon{Rings: [][]scene.Point{pts}, Fill: scene.Solid(sw.Color), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}}
}

// empireAlt says what the picture shows: the round, and each player's armies and
// cities.
func empireAlt(v *empire.View, w Words) string {
	var parts []string
	for i, p := range v.Players {
		parts = append(parts, w.Say("%s (%s): armies %d, cities %d", clip(p.Name, 24), SwatchName(w, scene.Seat(i)), p.Armies, p.Cities))
	}
	row := make([]string, 0, len(v.Row))
	for _, c := range v.Row {
		row = append(row, w.Say("%d: %s (cost %d)", c.Position, w.Term(c.Name), c.Cost))
	}
	return w.Say("Board, round %d: %s. Cards on offer: %s.", v.Turn, strings.Join(parts, "; "), strings.Join(row, ", "))
}
