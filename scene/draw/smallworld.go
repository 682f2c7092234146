package draw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/turnmail/turnmail/engine/smallworld"
	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/layout"
)

// terrainStyle is how a terrain is filled: a colour and a pattern of its own, so that
// terrains read without colour too.
type terrainStyle struct {
	color, ink uint32
	pattern    scene.Pattern
}

// terrains are the fills of the Small World family's terrains (data/terrains.json).
// Base terrains and Underground's have a pattern each within their game; a terrain
// that plays as another is still drawn as itself.
var terrains = map[string]terrainStyle{
	smallworld.Farmland: {0xf2e3a0, 0xc4ad52, scene.Vertical},
	smallworld.Forest:   {0x8cc47a, 0x4f8a3c, scene.Hatch},
	smallworld.Hill:     {0xd3df9a, 0x97a65a, scene.BackHatch},
	smallworld.Mountain: {0xbdb6ac, 0x7d766c, scene.Grid},
	smallworld.Swamp:    {0xa9c2a0, 0x56774f, scene.Dots},
	smallworld.Sea:      {0x9cc9ea, 0x5f9fd0, scene.Horizontal},
	smallworld.Lake:     {0xc4e3f7, 0x7fb8e0, scene.Horizontal},
	"mine":              {0xdcc394, 0x9b7f45, scene.Vertical},
	"mudpool":           {0xa9957a, 0x6a5638, scene.Dots},
	"mushroom":          {0xcdb0de, 0x86609e, scene.Hatch},
	"crystal":           {0xaee3e0, 0x4e9f9a, scene.BackHatch},
	"blackmountain":     {0x98928b, 0x55504a, scene.Grid},
	"river":             {0x8cc4ea, 0x4f94cc, scene.Horizontal},
	"chasm":             {0x4a4a4a, 0x4a4a4a, scene.NoPattern},
}

func terrainFill(t string) scene.Fill {
	st, ok := terrains[t]
	if !ok {
		return scene.Solid(scene.RGB(0xeeeeee))
	}
	if st.pattern == scene.NoPattern {
		return scene.Solid(scene.RGB(st.color))
	}
	return scene.Patterned(scene.RGB(st.color), st.pattern, scene.RGB(st.ink))
}

// Highlight marks the regions changed since the reader's last mail.
var highlight = scene.RGB(0xffd84d)

// pieceSkipped are pieces the picture shows otherwise: a mountain is its terrain.
var pieceSkipped = map[string]bool{"mountain": true}

// symbolIcon draws a region symbol's icon centred on c.
func symbolIcon(sym string, c scene.Point) []scene.Item {
	const r = 6.5
	st := scene.Stroke{Color: scene.Ink, Width: 1.2}
	switch sym {
	case smallworld.SymMine: // a gem
		return []scene.Item{&scene.Polygon{Rings: [][]scene.Point{scene.ShapePoints(scene.ShapeDiamond, c, r)}, Fill: scene.Solid(scene.RGB(0xb07d2b)), Stroke: st}}
	case smallworld.SymCavern: // an arch
		var pts []scene.Point
		for i := 0; i <= 8; i++ {
			a := float64(i) / 8
			pts = append(pts, scene.Point{X: c.X - r + 2*r*a, Y: c.Y + r*0.6 - r*1.4*sinHalf(a)})
		}
		return []scene.Item{&scene.Polygon{Rings: [][]scene.Point{pts}, Fill: scene.Solid(scene.Ink), Stroke: st}}
	case smallworld.SymMagic: // a star
		return []scene.Item{&scene.Polygon{Rings: [][]scene.Point{scene.ShapePoints(scene.ShapeStar, c, r*0.85)}, Fill: scene.Solid(scene.RGB(0x9b59b6)), Stroke: st}}
	case smallworld.SymLostTribe: // a small grey disc
		return []scene.Item{&scene.Circle{Center: c, R: r * 0.8, Fill: scene.Solid(scene.LostTribe.Color), Stroke: st}}
	case "monster": // a black square
		return []scene.Item{&scene.Rect{Min: scene.Point{X: c.X - r*0.8, Y: c.Y - r*0.8}, Max: scene.Point{X: c.X + r*0.8, Y: c.Y + r*0.8}, Fill: scene.Solid(scene.Monster.Color), Stroke: st}}
	case "volcano": // a red triangle
		return []scene.Item{&scene.Polygon{Rings: [][]scene.Point{scene.ShapePoints(scene.ShapeTriangle, c, r*0.8)}, Fill: scene.Solid(scene.RGB(0xc0392b)), Stroke: st}}
	}
	return badge(c, "?")
}

// sinHalf is sin(πa) for a in [0, 1], the arch's profile.
func sinHalf(a float64) float64 {
	// A parabola close enough to the sine for an icon.
	return 4 * a * (1 - a)
}

// pieceCodes gives each piece kind present a short code from its printed name in
// the reader's language (shortCodes).
func pieceCodes(keys []string, w Words) map[string]string {
	return shortCodes(keys, w.Name)
}

// shortCodes gives each key a short code from its name, unique among the keys: the
// name's first letter, else the initials of its first two capitalised words ("MS"
// Magic Spring, "ST" Stinky Troll's Socks: a badge has room for two letters), else
// those of its first and last word ("FG" Fonte della giovinezza),
// else its first two letters, else its first letter and a number.
func shortCodes(keys []string, name func(string) string) map[string]string {
	letters := func(k string) []rune {
		var out []rune
		for _, r := range name(k) {
			if unicode.IsLetter(r) {
				out = append(out, r)
			}
		}
		return out
	}
	initials := func(k string) string {
		var out []rune
		for _, f := range strings.FieldsFunc(name(k), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if r := []rune(f)[0]; unicode.IsUpper(r) || len(out) == 0 {
				out = append(out, unicode.ToUpper(r))
			}
		}
		return string(out[:min(len(out), 2)])
	}
	ends := func(k string) string { // the first letters of the first and the last word
		words := strings.FieldsFunc(name(k), func(r rune) bool { return !unicode.IsLetter(r) })
		if len(words) < 2 {
			return ""
		}
		return strings.ToUpper(string([]rune(words[0])[:1]) + string([]rune(words[len(words)-1])[:1]))
	}
	rules := []func(k string) string{
		func(k string) string { l := letters(k); return strings.ToUpper(string(l[:min(1, len(l))])) },
		initials,
		ends,
		func(k string) string {
			l := letters(k)
			if len(l) < 2 {
				return strings.ToUpper(string(l))
			}
			return strings.ToUpper(string(l[:1])) + string(l[1:2])
		},
	}
	codes := map[string]string{}
	for _, k := range keys {
		codes[k] = ""
		for _, rule := range rules {
			c := rule(k)
			unique := c != ""
			for _, o := range keys {
				if o != k && rule(o) == c {
					unique = false
				}
			}
			if unique {
				codes[k] = c
				break
			}
		}
	}
	// Numbered where no rule told them apart.
	n := 0
	for _, k := range keys {
		if codes[k] == "" {
			n++
			codes[k] = rules[0](k) + strconv.Itoa(n)
		}
	}
	return codes
}

// symbolStep is the width a region symbol takes in its row.
const symbolStep = 15.0

// boardTop is where a board starts below the picture's title.
const boardTop = 30.0

// boardFit places a Small World family board in the picture, below its title.
func boardFit(b *layout.Board) fit { return fitBox(b.Width, b.Height, 8, boardTop, Width-16, 900) }

// markerRadius is the radius of a holder's marker in a region with room px around
// its label point.
func markerRadius(room float64) float64 { return clamp(room*0.34, 9, 13) }

// smallWorld draws a Small World family board.
func smallWorld(v *smallworld.View, in Input) (*scene.Scene, error) {
	w := in.Words
	m := layout.Map{Name: v.Map}
	for _, r := range v.Regions {
		m.Regions = append(m.Regions, layout.MapRegion{ID: r.ID, Terrain: r.Terrain, Edge: r.Border})
		for _, a := range r.Adjacent {
			if r.ID < a {
				m.Adjacent = append(m.Adjacent, [2]int{r.ID, a})
			}
		}
	}
	board, err := layout.ForMap(m)
	if err != nil {
		return nil, fmt.Errorf("layout of %s: %w", v.Map, err)
	}
	seats := seatOf{}
	for i, p := range v.Players {
		seats[p.Name] = i
	}
	changed := map[int]bool{}
	for _, c := range in.Changed {
		if id, err := strconv.Atoi(c); err == nil {
			changed[id] = true
		}
	}

	s := scene.New(Width, 0)
	const top = boardTop
	title := w.Say("Turn %d of %d", v.Turn, v.Turns)
	if v.Finished {
		title = w.Say("Game over")
	}
	f := boardFit(board)
	byID := map[int]*smallworld.RegionView{}
	for i := range v.Regions {
		byID[v.Regions[i].ID] = &v.Regions[i]
	}

	// Terrain areas, then the borders drawn as links, then what stands on them.
	for _, r := range board.Regions {
		rv := byID[r.ID]
		if rv == nil {
			return nil, fmt.Errorf("layout region %d is not on the map", r.ID)
		}
		rings := make([][]scene.Point, len(r.Rings))
		for i, ring := range r.Rings {
			rings[i] = f.ring(ring)
		}
		s.Add(&scene.Polygon{Rings: rings, Fill: terrainFill(rv.Terrain), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}})
	}
	for _, l := range board.Links {
		pts := f.ring(l.Path)
		s.Add(&scene.Line{Points: pts, Stroke: scene.Stroke{Color: scene.White, Width: 4.5}},
			&scene.Line{Points: pts, Stroke: scene.Stroke{Color: scene.Ink, Width: 2, Dash: []float64{5, 3}}})
	}
	// Each region's number and symbols, where they stay all game (placeRegions).
	symbolsOf := func(id int) []string {
		var syms []string
		for _, sym := range byID[id].Symbols {
			if sym != "" {
				syms = append(syms, sym)
			}
		}
		return syms
	}
	places := placeRegions(board, f, func(id int) int { return len(symbolsOf(id)) })
	symbolsSeen := map[string]bool{}
	for _, r := range board.Regions {
		pl := places[r.ID]
		s.Add(label(pl.num, strconv.Itoa(r.ID), sizeNumber, true, scene.Middle))
		syms := symbolsOf(r.ID)
		x := pl.rowX
		for _, sym := range syms {
			s.Add(symbolIcon(sym, scene.Point{X: x + symbolStep/2, Y: pl.rowY})...)
			symbolsSeen[sym] = true
			x += symbolStep
		}
	}
	// All so far is the board alone: the static layer a writer may keep.
	s.Static = len(s.Items)
	s.Add(&scene.Text{At: scene.Point{X: 10, Y: top / 2}, Text: title, Size: sizeTitle, Bold: true, Anchor: scene.Start, Color: scene.Ink})

	var pieceKeys []string
	for _, rv := range v.Regions {
		for k, n := range rv.Pieces {
			if n > 0 && !pieceSkipped[k] && !slices.Contains(pieceKeys, k) {
				pieceKeys = append(pieceKeys, k)
			}
		}
	}
	slices.Sort(pieceKeys)
	codes := pieceCodes(pieceKeys, w)
	owners := map[string]bool{}
	for _, r := range board.Regions {
		rv := byID[r.ID]
		pl := places[r.ID]
		c, mr := pl.c, pl.mr
		// A changed region's number on a yellow tag.
		if changed[r.ID] {
			tw := scene.EstimateWidth(strconv.Itoa(r.ID), sizeNumber, true) + 8
			s.Add(&scene.Rect{Min: scene.Point{X: pl.num.X - tw/2, Y: pl.num.Y - 10}, Max: scene.Point{X: pl.num.X + tw/2, Y: pl.num.Y + 10}, Radius: 4,
				Fill: scene.Solid(highlight), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}},
				&scene.Text{At: pl.num, Text: strconv.Itoa(r.ID), Size: sizeNumber, Bold: true, Color: scene.Ink})
		}
		// The holder.
		if rv.Owner != nil {
			owner := *rv.Owner
			var sw scene.Swatch
			switch owner {
			case "lost-tribe":
				sw = scene.LostTribe
			case "monsters":
				sw = scene.Monster
			default:
				var ok bool
				if sw, ok = seats.swatch(owner); !ok {
					return nil, fmt.Errorf("region %d: unknown holder %q", r.ID, owner)
				}
			}
			owners[owner] = true
			s.Add(markerWithCount(sw, c, mr, rv.Declined, rv.Tokens)...)
			if rv.Tokens == 0 { // a holder with no token (the Necromancer's empty Island)
				s.Add(&scene.Text{At: c, Text: "0", Size: sizeCount, Bold: true, Color: sw.TextOn(rv.Declined)})
			}
		}
		// The pieces after the symbols (centred where there are none).
		var texts []string
		total := 0.0
		for _, k := range pieceKeys {
			if n := rv.Pieces[k]; n > 0 {
				text := codes[k]
				if n > 1 {
					text += strconv.Itoa(n)
				}
				texts = append(texts, text)
				total += badgeWidth(text) + 3
			}
		}
		x := pl.piece.X
		for _, text := range texts {
			wd := badgeWidth(text) + 3
			s.Add(badge(scene.Point{X: x + wd/2, Y: pl.piece.Y}, text)...)
			x += wd
		}
	}
	y := f.oy + board.Height*f.k + 8

	// The legend: the players (the races in decline after the active one), then what
	// the map shows, in rows as long as they fit.
	var entries []legendEntry
	for i, p := range v.Players {
		sw := scene.Seat(i)
		text := clip(p.Name, 24)
		if p.Active != nil {
			text += " — " + combo(w, p.Active.Race, p.Active.Power)
		}
		entries = append(entries, legendEntry{sample: func(c scene.Point) []scene.Item { return []scene.Item{scene.Marker(sw, c, 9, false)} }, text: text, newRow: i == 0})
		for _, d := range p.Declined {
			entries = append(entries, legendEntry{sample: func(c scene.Point) []scene.Item { return []scene.Item{scene.Marker(sw, c, 9, true)} },
				text: w.Say("in decline: %s", w.Term(d.Race))})
		}
	}
	first := true // the first entry of what the map shows starts a row
	add := func(e legendEntry) {
		for _, o := range entries { // a symbol named as a holder is (the Lost Tribe, the Monsters)
			if strings.EqualFold(o.text, e.text) {
				return
			}
		}
		e.newRow, first = first, false
		entries = append(entries, e)
	}
	if owners["lost-tribe"] {
		add(legendEntry{sample: func(c scene.Point) []scene.Item { return []scene.Item{scene.Marker(scene.LostTribe, c, 9, false)} }, text: w.Term("Lost Tribe")})
	}
	if owners["monsters"] {
		add(legendEntry{sample: func(c scene.Point) []scene.Item { return []scene.Item{scene.Marker(scene.Monster, c, 9, false)} }, text: w.Term("Monsters")})
	}
	if len(changed) > 0 {
		add(legendEntry{sample: func(c scene.Point) []scene.Item {
			return []scene.Item{&scene.Rect{Min: scene.Point{X: c.X - 10, Y: c.Y - 9}, Max: scene.Point{X: c.X + 10, Y: c.Y + 9}, Radius: 4,
				Fill: scene.Solid(highlight), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.5}}}
		}, text: upperFirst(w.Say("changed since your last mail"))})
	}
	first = true
	var terrainsSeen []string
	for _, rv := range v.Regions {
		if !slices.Contains(terrainsSeen, rv.Terrain) {
			terrainsSeen = append(terrainsSeen, rv.Terrain)
		}
	}
	for _, t := range terrainsSeen {
		add(legendEntry{sample: swatchSample(terrainFill(t)), text: caption(w, w.Name(t))})
	}
	for _, sym := range []string{smallworld.SymMine, smallworld.SymCavern, smallworld.SymMagic, smallworld.SymLostTribe, "monster", "volcano"} {
		if symbolsSeen[sym] {
			add(legendEntry{sample: func(c scene.Point) []scene.Item { return symbolIcon(sym, c) }, text: caption(w, w.Name("symbol:"+sym))})
		}
	}
	for _, k := range pieceKeys {
		code := codes[k]
		e := legendEntry{sample: func(c scene.Point) []scene.Item { return badge(c, code) }, text: caption(w, w.Name(k))}
		// A piece named as a symbol (Underground's Volcano): one entry shows both.
		if i := slices.IndexFunc(entries, func(o legendEntry) bool { return strings.EqualFold(o.text, e.text) }); i >= 0 {
			symbol := entries[i].sample
			entries[i].sample = func(c scene.Point) []scene.Item {
				return append(symbol(scene.Point{X: c.X - 10, Y: c.Y}), badge(scene.Point{X: c.X + 6, Y: c.Y}, code)...)
			}
			continue
		}
		add(e)
	}
	if len(board.Links) > 0 {
		add(legendEntry{sample: func(c scene.Point) []scene.Item {
			return []scene.Item{&scene.Line{Points: []scene.Point{{X: c.X - 11, Y: c.Y}, {X: c.X + 11, Y: c.Y}}, Stroke: scene.Stroke{Color: scene.Ink, Width: 2, Dash: []float64{5, 3}}}}
		}, text: upperFirst(w.Say("borders"))})
	}
	items, bottom := legend(entries, y)
	s.Add(items...)
	if n := v.Necromancer; n != nil {
		for _, line := range []string{
			w.Say("Necromancer: Ghosts on the Island: %d, in reserve: %d", n.OnIsland, n.Reserve),
			w.Say("Soul Well: %d Ghosts, %d other tokens", n.WellGhosts, n.WellSouls),
		} {
			s.Add(&scene.Text{At: scene.Point{X: 10, Y: bottom + 12}, Text: line, Size: sizeLegend, Anchor: scene.Start, Color: scene.Ink})
			bottom += legendRow
		}
	}
	s.Height = bottom + 8
	s.Alt = smallWorldAlt(v, w)
	return s, nil
}

// combo names a race with its power.
func combo(w Words, race, power string) string {
	if power == "" {
		return w.Term(race)
	}
	return w.Say("%[1]s %[2]s", w.Term(power), w.Term(race))
}

// smallWorldAlt says in words what the picture shows: the turn and who holds how many
// regions.
func smallWorldAlt(v *smallworld.View, w Words) string {
	var parts []string
	for i, p := range v.Players {
		parts = append(parts, w.Say("%s (%s), regions held: %d", clip(p.Name, 24), SwatchName(w, scene.Seat(i)), p.Regions))
	}
	return w.Say("Map %s, turn %d of %d: %s.", v.Map, v.Turn, v.Turns, strings.Join(parts, "; "))
}
