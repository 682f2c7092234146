package draw

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/scene"
)

// Colours of a Dungeoneer map.
var (
	dungeonFloor    = scene.RGB(0xe9e2d0)
	dungeonPassage  = scene.RGB(0xd6cdb6)
	dungeonEntrance = scene.RGB(0xbfd9b0)
	dungeonWall     = scene.RGB(0x3b3127)
	dungeonLocked   = scene.RGB(0xa0522d)
	dungeonTrapped  = scene.RGB(0xc0392b)
	dungeonMonster  = scene.RGB(0x8e1b1b)
)

// dungeon draws a Dungeoneer map: the placed map cards on their grid (north up), each
// with its coordinates, walls and doors (open, locked, trapped with their values),
// obstacle, monster with its wounds, quest markers and the heroes standing there; the
// empty cells a door faces (where a card may be built) dashed; then the reader's own
// map cards while the map in view is laid out.
func dungeon(v *dungeoneer.View, in Input) (*scene.Scene, error) {
	w := in.Words
	s := scene.New(Width, 0)
	const top = 30.0
	title := w.Say("Round %d", v.Turn)
	if v.Finished {
		title = w.Say("Game over")
	}
	s.Add(&scene.Text{At: scene.Point{X: 10, Y: top / 2}, Text: title, Size: sizeTitle, Bold: true, Anchor: scene.Start, Color: scene.Ink})
	// The compass: moves are by side.
	s.Add(&scene.Polygon{Rings: [][]scene.Point{{{X: Width - 20, Y: 4}, {X: Width - 26, Y: 18}, {X: Width - 14, Y: 18}}}, Fill: scene.Solid(scene.Ink)},
		label(scene.Point{X: Width - 38, Y: 12}, w.Say("N"), sizeBadge, true, scene.Middle))

	type cell struct{ x, y int }
	placed := map[cell]*dungeoneer.MapCell{}
	frontier := map[cell]bool{}
	minX, maxX, minY, maxY := 0, 0, 0, 0
	for i := range v.Map {
		c := &v.Map[i]
		placed[cell{c.X, c.Y}] = c
	}
	dx, dy := []int{0, 1, 0, -1}, []int{-1, 0, 1, 0}
	for _, c := range v.Map {
		for side, d := range c.Doors {
			n := cell{c.X + dx[side], c.Y + dy[side]}
			if _, ok := placed[n]; !ok && d != "wall" {
				frontier[n] = true
			}
		}
	}
	first := true
	for c := range placed {
		if first {
			minX, maxX, minY, maxY, first = c.x, c.x, c.y, c.y, false
		}
		minX, maxX, minY, maxY = min(minX, c.x), max(maxX, c.x), min(minY, c.y), max(maxY, c.y)
	}
	for c := range frontier {
		minX, maxX, minY, maxY = min(minX, c.x), max(maxX, c.x), min(minY, c.y), max(maxY, c.y)
	}
	cols, rows := maxX-minX+1, maxY-minY+1
	size := clamp((Width-16)/float64(cols), 40, 130)
	if float64(rows)*size > 900 {
		size = clamp(900/float64(rows), 40, size)
	}
	ox := 8 + ((Width-16)-float64(cols)*size)/2
	corner := func(c cell) scene.Point {
		return scene.Point{X: ox + float64(c.x-minX)*size, Y: top + float64(c.y-minY)*size}
	}
	small := size < 80

	// In reading order, so that a board is always the same picture.
	var empty []cell
	for c := range frontier {
		empty = append(empty, c)
	}
	slices.SortFunc(empty, func(a, b cell) int { return cmp.Or(a.y-b.y, a.x-b.x) })
	for _, c := range empty {
		p := corner(c)
		s.Add(&scene.Rect{Min: scene.Point{X: p.X + 4, Y: p.Y + 4}, Max: scene.Point{X: p.X + size - 4, Y: p.Y + size - 4}, Radius: 4,
			Stroke: scene.Stroke{Color: scene.RGB(0x888888), Width: 1.2, Dash: []float64{4, 3}}},
			&scene.Text{At: scene.Point{X: p.X + size/2, Y: p.Y + size/2}, Text: fmt.Sprintf("%d,%d", c.x, c.y), Size: sizeBadge, Color: scene.RGB(0x666666)})
	}
	seats := map[int]int{} // view seat (from 1) → palette seat
	for i, p := range v.Players {
		seats[p.Seat] = i
	}
	// Floors first, then walls and doors over them, then what is in the rooms: a
	// card's side is drawn over its neighbour's floor.
	var floors, walls, bars, values []scene.Item
	floorAt := len(s.Items)
	for _, mc := range v.Map {
		p := corner(cell{mc.X, mc.Y})
		floor := dungeonFloor
		switch mc.Type {
		case "passage":
			floor = dungeonPassage
		case "entrance":
			floor = dungeonEntrance
		}
		floors = append(floors, &scene.Rect{Min: p, Max: scene.Point{X: p.X + size, Y: p.Y + size}, Fill: scene.Solid(floor)})
		var facing [4]bool
		for side := range mc.Doors {
			if n, ok := placed[cell{mc.X + dx[side], mc.Y + dy[side]}]; ok {
				facing[side] = strings.HasPrefix(n.Doors[(side+2)%4], "wall")
			}
		}
		lines, bs, vs := doorItems(mc.Doors, p, size, facing)
		walls, bars, values = append(walls, lines...), append(bars, bs...), append(values, vs...)
		s.Add(label(scene.Point{X: p.X + 9, Y: p.Y + 15}, fmt.Sprintf("%d,%d", mc.X, mc.Y), sizeBadge, true, scene.Start))
		name := pick(w, mc.Name)
		nameLines := 1
		if small { // the card's number, as the mail's map lists it: a name would not read
			s.Add(label(scene.Point{X: p.X + size/2, Y: p.Y + size - 12}, mc.ID, sizeBadge, true, scene.Middle))
		} else { // on two lines where it needs them
			lines := wrap(name, size-10, sizeBadge-1, 2)
			for i, line := range lines {
				s.Add(label(scene.Point{X: p.X + size/2, Y: p.Y + size - 17 - float64(len(lines)-1-i)*12}, line, sizeBadge-1, false, scene.Middle))
			}
			nameLines = len(lines)
		}
		// Obstacle and monster texts, the monster as a dark red shield with its wounds.
		var notes []string
		for _, t := range dungeoneer.CellTexts(mc) {
			notes = append(notes, w.Text(t))
		}
		// The notes above the name; the heroes between them and the coordinates.
		notesY := p.Y + size - 21 - 12*float64(nameLines)
		mid := scene.Point{X: p.X + size/2, Y: (p.Y + 15 + notesY) / 2}
		mr, step := 10.0, 24.0
		if small { // between the coordinates and the number
			mid.Y, mr, step = p.Y+(24+size-20)/2, 8, 19
		}
		if mc.Monster && !small {
			m := scene.Point{X: p.X + size - 18, Y: p.Y + 18}
			s.Add(&scene.Polygon{Rings: [][]scene.Point{scene.ShapePoints(scene.ShapePentagon, m, 11)}, Fill: scene.Solid(dungeonMonster), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}},
				&scene.Text{At: m, Text: "M", Size: sizeBadge, Bold: true, Color: scene.White})
			if mc.Wounds > 0 {
				s.Add(badge(scene.Point{X: m.X, Y: m.Y + 19}, fmt.Sprintf("×%d", mc.Wounds))...)
			}
		}
		if len(notes) > 0 && !small {
			s.Add(label(scene.Point{X: mid.X, Y: notesY}, clip(strings.Join(notes, ", "), int(size/7)), sizeBadge-1, false, scene.Middle))
		}
		// Heroes and quest markers in the middle (the monster first in a small cell).
		var row []scene.Item
		n := len(mc.Heroes) + len(mc.Items)
		if mc.Monster && small {
			n++
		}
		x := mid.X - float64(n-1)*step/2
		if mc.Monster && small {
			row = append(row, &scene.Polygon{Rings: [][]scene.Point{scene.ShapePoints(scene.ShapePentagon, scene.Point{X: x, Y: mid.Y}, mr)}, Fill: scene.Solid(dungeonMonster), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}},
				&scene.Text{At: scene.Point{X: x, Y: mid.Y}, Text: monsterText(mc), Size: sizeBadge - 2, Bold: true, Color: scene.White})
			x += step
		}
		for _, seat := range mc.Heroes {
			sw := scene.Seat(seats[seat])
			row = append(row, scene.Marker(sw, scene.Point{X: x, Y: mid.Y}, mr, false),
				&scene.Text{At: scene.Point{X: x, Y: mid.Y}, Text: heroInitial(v, seat), Size: sizeBadge - 10 + mr, Bold: true, Color: sw.Text})
			x += step
		}
		for _, q := range mc.Items {
			row = append(row, badge(scene.Point{X: x, Y: mid.Y}, clip(q, 4))...)
			x += step
		}
		s.Add(row...)
	}
	under := slices.Concat(floors, walls, bars, values)
	s.Items = append(s.Items[:floorAt], append(under, s.Items[floorAt:]...)...)
	y := top + float64(rows)*size + 10

	var entries []legendEntry
	for i, p := range v.Players {
		sw := scene.Seat(i)
		status := w.Say("%s — %s, Life %d, Glory %d, Peril %d", clip(p.Name, 20), w.Term(pick(w, p.HeroName)), p.Life, p.Glory, p.Peril)
		if p.Out {
			status = w.Say("%s — %s, out of the game", clip(p.Name, 20), w.Term(pick(w, p.HeroName)))
		}
		init := heroInitial(v, p.Seat)
		entries = append(entries, legendEntry{sample: func(c scene.Point) []scene.Item {
			return []scene.Item{scene.Marker(sw, c, 9, false), &scene.Text{At: c, Text: init, Size: sizeBadge - 1, Bold: true, Color: sw.Text}}
		}, text: status, wide: true})
	}
	entries = append(entries,
		legendEntry{sample: doorSample("wall"), text: upperFirst(w.Say("wall"))},
		legendEntry{sample: doorSample("open"), text: upperFirst(w.Say("open door"))},
		legendEntry{sample: doorSample("locked 3"), text: upperFirst(w.Say("locked door"))},
		legendEntry{sample: doorSample("trapped 3"), text: upperFirst(w.Say("trapped door"))},
		legendEntry{sample: func(c scene.Point) []scene.Item {
			return []scene.Item{&scene.Polygon{Rings: [][]scene.Point{scene.ShapePoints(scene.ShapePentagon, c, 9)}, Fill: scene.Solid(dungeonMonster), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}}}
		}, text: upperFirst(w.Say("monster (×wounds)"))},
	)
	for _, mc := range v.Map {
		if len(mc.Items) > 0 {
			entries = append(entries, legendEntry{sample: func(c scene.Point) []scene.Item { return badge(c, "q") },
				text: upperFirst(w.Say("a quest's component to escort"))})
			break
		}
	}
	if small && len(v.Map) > 0 {
		id := v.Map[0].ID
		entries = append(entries, legendEntry{sample: func(c scene.Point) []scene.Item {
			return []scene.Item{&scene.Text{At: c, Text: id, Size: sizeBadge, Bold: true, Color: scene.Ink}}
		}, text: upperFirst(w.Say("the card's number, as the mail's map lists it (%s: %s)", id, name(w, v.Map[0]))), wide: true})
	}
	if len(frontier) > 0 {
		entries = append(entries, legendEntry{sample: func(c scene.Point) []scene.Item {
			return []scene.Item{&scene.Rect{Min: scene.Point{X: c.X - 9, Y: c.Y - 9}, Max: scene.Point{X: c.X + 9, Y: c.Y + 9}, Stroke: scene.Stroke{Color: scene.RGB(0x888888), Width: 1.2, Dash: []float64{4, 3}}}}
		}, text: upperFirst(w.Say("room to build"))})
	}
	if l := v.Layout; l != nil && len(l.Maps) > 0 {
		entries = append(entries, legendEntry{sample: func(scene.Point) []scene.Item { return nil },
			text: w.Say("Your map cards: %s", strings.Join(l.Maps, ", ")), wide: true})
	}
	items, bottom := legend(entries, y)
	s.Add(items...)
	s.Height = bottom + 8
	s.Alt = dungeonAlt(v, w)
	return s, nil
}

// wrap cuts text into at most n lines of at most width at size (textWidth), at
// spaces; the last line is clipped when the text is longer.
func wrap(text string, width, size float64, n int) []string {
	var lines []string
	line := ""
	words := strings.Fields(text)
	for i, word := range words {
		switch {
		case line == "":
			line = word
		case textWidth(line+" "+word, size, false) <= width:
			line += " " + word
		case len(lines) < n-1:
			lines, line = append(lines, line), word
		default:
			return append(lines, clipTo(strings.Join(append([]string{line}, words[i:]...), " "), width, size, false))
		}
	}
	return append(lines, clipTo(line, width, size, false))
}

// monsterText is what a small cell's monster marker says: M, and its wounds.
func monsterText(mc dungeoneer.MapCell) string {
	if mc.Wounds > 0 {
		return fmt.Sprintf("M%d", mc.Wounds)
	}
	return "M"
}

// name is a map card's name in the reader's language.
func name(w Words, mc dungeoneer.MapCell) string { return pick(w, mc.Name) }

// pick returns the name in the reader's language.
func pick(w Words, n dungeoneer.Names) string {
	if w.Lang() == "it" && n.It != "" {
		return n.It
	}
	return n.En
}

// heroInitial is the letter on a hero's marker: its player's initial.
func heroInitial(v *dungeoneer.View, seat int) string {
	for _, p := range v.Players {
		if p.Seat == seat {
			for _, r := range p.Name {
				return strings.ToUpper(string(r))
			}
		}
	}
	return strconv.Itoa(seat)
}

// doorItems draws a card's four sides (north, east, south, west): the walls and
// gaps, and apart the bars and the values of its locked and trapped doors (drawn over
// every card's walls, the values over every bar); facing[side] tells whether the card
// beyond that side has a wall there, which closes the side both ways.
func doorItems(doors [4]string, p scene.Point, size float64, facing [4]bool) (lines, bars, values []scene.Item) {
	corners := []scene.Point{p, {X: p.X + size, Y: p.Y}, {X: p.X + size, Y: p.Y + size}, {X: p.X, Y: p.Y + size}}
	for side, d := range doors {
		l, b, v := sideItems(d, corners[side], corners[(side+1)%4])
		lines = append(lines, l...)
		if !facing[side] {
			bars, values = append(bars, b...), append(values, v...)
		}
	}
	return lines, bars, values
}

// sideItems draws one side from a to b, the card on its right going from a to b
// (inside, clockwise): a wall is a thick line, an open door a gap in it; a locked door
// is marked by a brown bar with its value, a trapped one by a red bar with "!" and its
// value, the bar along the card's own half of the side and the value before its
// middle (the card beyond may have another door there, its value after the middle: a
// hero meets the door of the card they leave).
func sideItems(door string, a, b scene.Point) (lines, bars, values []scene.Item) {
	const wall, gap = 5.0, 0.32
	along := func(t float64) scene.Point { return scene.Point{X: a.X + (b.X-a.X)*t, Y: a.Y + (b.Y-a.Y)*t} }
	t0, t1 := 0.5-gap/2, 0.5+gap/2
	kind, value, _ := strings.Cut(door, " ")
	st := scene.Stroke{Color: dungeonWall, Width: wall}
	if kind == "wall" {
		return []scene.Item{&scene.Line{Points: []scene.Point{a, b}, Stroke: st}}, nil, nil
	}
	lines = []scene.Item{&scene.Line{Points: []scene.Point{a, along(t0)}, Stroke: st}, &scene.Line{Points: []scene.Point{along(t1), b}, Stroke: st}}
	if kind != "locked" && kind != "trapped" {
		return lines, nil, nil
	}
	col, txt := dungeonLocked, value
	if kind == "trapped" {
		col, txt = dungeonTrapped, "!"+value
	}
	// Inwards: the side's direction turned a quarter clockwise on the screen.
	l := math.Hypot(b.X-a.X, b.Y-a.Y)
	in := func(p scene.Point, d float64) scene.Point {
		return scene.Point{X: p.X - (b.Y-a.Y)/l*d, Y: p.Y + (b.X-a.X)/l*d}
	}
	bars = []scene.Item{&scene.Line{Points: []scene.Point{in(along(t0), 3.5), in(along(t1), 3.5)}, Stroke: scene.Stroke{Color: col, Width: 7}}}
	if value != "" {
		c := in(along(0.5-gap/4), 3.5)
		hw := scene.EstimateWidth(txt, sizeBadge-2, true)/2 + 3
		values = []scene.Item{&scene.Rect{Min: scene.Point{X: c.X - hw, Y: c.Y - 7}, Max: scene.Point{X: c.X + hw, Y: c.Y + 7}, Radius: 4, Fill: scene.Solid(col), Stroke: scene.Stroke{Color: scene.White, Width: 1}},
			&scene.Text{At: c, Text: txt, Size: sizeBadge - 2, Bold: true, Color: scene.White}}
	}
	return lines, bars, values
}

// doorSample draws a door kind for the legend: one side with the door in its middle.
func doorSample(door string) func(scene.Point) []scene.Item {
	return func(c scene.Point) []scene.Item {
		lines, bars, values := sideItems(door, scene.Point{X: c.X - 12, Y: c.Y - 3}, scene.Point{X: c.X + 12, Y: c.Y - 3})
		return append(append(lines, bars...), values...)
	}
}

// dungeonAlt says what the picture shows: where each hero stands.
func dungeonAlt(v *dungeoneer.View, w Words) string {
	var parts []string
	for i, p := range v.Players {
		parts = append(parts, w.Say("%s (%s) at %d,%d", clip(p.Name, 20), SwatchName(w, scene.Seat(i)), p.X, p.Y))
	}
	return w.Say("Dungeon map of %d cards: %s.", len(v.Map), strings.Join(parts, "; "))
}
