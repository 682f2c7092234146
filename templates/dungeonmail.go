package templates

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/templates/doc"
)

// dungeon is Dungeoneer's part of its mails.
type dungeon struct{}

// dgGame is Dungeoneer's engine, whose command words its mails use.
const dgGame = "dungeoneer"

// dw is the Dungeoneer words of a reader.
func dw(w words) dungeonWords { return dungeonWords{tr: w.tr, lang: w.lang} }

// board: the round and what is under way, the dungeon when the reader builds or
// moves in it, the heroes (the reader's own sheet in full), the reader's hand and
// map cards.
func (d dungeon) board(w words, b board) []doc.Block {
	v := b.View
	if len(v) == 0 {
		return nil
	}
	out := d.round(w, v)
	if hasVerb(w, dgGame, b.Legal, "move") || hasVerb(w, dgGame, b.Legal, "build") || hasVerb(w, dgGame, b.Legal, "explore") {
		out = append(out, d.dungeonMap(w, v, b.Pictured)...)
	}
	out = append(out, d.heroes(w, b, false))
	if hasVerb(w, dgGame, b.Legal, "quest") {
		out = append(out, d.global(w, v)...)
	}
	return append(out, d.handOf(w, v, playable(w, append(slices.Clone(b.Legal), b.AnyTime...)))...)
}

// details: the global quest in short, when the board leaves it out.
func (d dungeon) details(w words, b board) []doc.Block {
	v := b.View
	if hasVerb(w, dgGame, b.Legal, "quest") || v["global"] == nil {
		return nil
	}
	x := dw(w)
	return []doc.Block{doc.P(doc.L(w.t("Global quest: %s", x.short(v["global"])+x.wounds(v, v["global"]))))}
}

// full: the round, the dungeon and what lies on it, every hero's sheet in full,
// the global quest and the reader's hand.
func (d dungeon) full(w words, b board) []doc.Block {
	v := b.View
	if len(v) == 0 {
		return nil
	}
	out := d.round(w, v)
	out = append(out, d.dungeonMap(w, v, false)...)
	out = append(out, d.heroes(w, b, true))
	out = append(out, d.global(w, v)...)
	return append(out, d.hand(w, v)...)
}

// help: how to read a choice of rotations.
func (dungeon) help(w words, b board) []doc.Block {
	rot := rotationChoice(b.Legal)
	if rot == "" {
		return nil
	}
	return []doc.Block{&doc.Defs{Title: doc.L(w.t("How to read the patterns above:")), Items: []doc.Def{
		{Term: doc.Line{doc.C(rot)}, Text: doc.L(w.t("one of the rotations listed (degrees clockwise)"))}}}}
}

// pieces: every hero's sheet, what lies on the map, the global quest and the hand.
func (d dungeon) pieces(w words, b board) []doc.Block {
	out := []doc.Block{d.heroes(w, b, true)}
	if on := dw(w).onMap(b.View["map"]); len(on) > 0 {
		out = append(out, linesList(doc.L(w.t("On the map:")), on))
	}
	out = append(out, d.global(w, b.View)...)
	return append(out, d.hand(w, b.View)...)
}

// playable are the cards the commands name as the one to play, discard, keep or use
// (their second word, canonical).
func playable(w words, commands []string) map[string]bool {
	out := map[string]bool{}
	for _, c := range commands {
		canon, _ := w.tr.Canonical(dgGame, c)
		if f := strings.Fields(canon); len(f) >= 2 && (f[0] == "play" || f[0] == "discard" || f[0] == "keep" || f[0] == "use") {
			out[f[1]] = true
		}
	}
	return out
}

// linesList is a list of lines of text under a title.
func linesList(title doc.Line, lines []string) *doc.List {
	l := &doc.List{Title: title}
	for _, s := range lines {
		l.Items = append(l.Items, doc.Item{Line: doc.L(s)})
	}
	return l
}

// round is the round, the phase and whose turn, then what is under way: the layout
// of Map in View, the map card to place, the Encounters declared, the monster
// guarding or to challenge, the spoils and a discard.
func (dungeon) round(w words, v map[string]any) []doc.Block {
	x := dw(w)
	s := w.t("Round %s", Str(v["turn"]))
	if v["phase"] != nil {
		s += " — " + w.text(dungeoneer.PhaseText(Str(v["phase"])))
	}
	if v["current"] != nil {
		s += ", " + w.t("%s's turn", Str(v["current"]))
	}
	s += "."
	if Str(v["phase"]) == "hero" {
		s += " " + w.t("Movement left: %s.", Str(v["movement"]))
	}
	lines := []doc.Line{doc.L(s)}
	decks := w.t("Decks: adventure %d, map %d.", Num(v["deck"]), Num(v["map_deck"]))
	if utf8.RuneCountInString(s+" "+decks) <= doc.MaxLine {
		lines[0] = doc.L(s + " " + decks) // on the round's line when it fits
	} else {
		lines = append(lines, doc.L(decks))
	}
	if l := obj(v["layout"]); l != nil {
		lines = append(lines, doc.L(w.t("Map in View: before the first turn every map card is placed, one at a time, clockwise. %s received the Entrance, placed it at 0,0 and begins the game.", Str(l["first"]))))
	}
	if v["drawn"] != nil {
		lines = append(lines, doc.L(w.t("Map card to place: %s", x.describe(v["drawn"], true))))
	}
	out := []doc.Block{&doc.Para{Lines: lines}}
	name := func(seat any) string {
		players := objs(v["players"])
		if i := Num(seat); i >= 0 && i < len(players) {
			return Str(players[i]["name"])
		}
		return ""
	}
	if pending := objs(v["pending"]); len(pending) > 0 {
		l := &doc.List{Title: doc.L(w.t("Declared against the heroes (resolved in this order):"))}
		for _, p := range pending {
			s := x.card(p["card"]) + " — " + w.t("on %s", name(p["target"]))
			if p["form"] != nil {
				s += ", " + w.t("attacks with %s", dungeoneer.FormText(Str(p["form"])))
			}
			if p["cancelled"] == true {
				s += " — " + w.t("cancelled")
			}
			l.Items = append(l.Items, doc.Item{Line: doc.L(s)})
		}
		out = append(out, l)
	}
	if g := obj(v["guard"]); g != nil {
		head := w.t("%s, to the left, chooses how the monster of this card strikes %s first:", Str(v["guard_by"]), Str(v["current"]))
		if g["then"] != nil {
			head = w.t("%s, to the left, chooses how the monster of this card strikes %s first (then %s attacks with %s):", Str(v["guard_by"]), Str(v["current"]), Str(v["current"]), dungeoneer.FormText(Str(g["then"])))
		}
		out = append(out, &doc.List{Title: doc.L(head), Items: []doc.Item{{Line: doc.L(x.card(g["card"]) + x.wounds(v, g["card"]))}}})
	}
	if f := obj(v["fight"]); f != nil {
		out = append(out, &doc.List{Title: doc.L(w.t("%s may challenge the monster that has just attacked, with the Movement saved:", name(f["target"]))), Items: []doc.Item{{Line: doc.L(x.card(f["card"]))}}})
	}
	if Str(v["phase"]) == "spoils" {
		if n := Num(v["peril_owed"]); n > 0 {
			out = append(out, doc.P(doc.L(w.t("Peril to give, one for each wound the monsters dealt: %d.", n))))
		}
		if u := Strs(v["unhurt"]); len(u) > 0 {
			l := &doc.List{Title: doc.L(w.t("Unhurt monsters, to keep in the hand or the pack:"))}
			for _, c := range u {
				l.Items = append(l.Items, doc.Item{Line: doc.L(x.card(c))})
			}
			out = append(out, l)
		}
	}
	if v["discarded"] == true {
		out = append(out, doc.P(doc.L(w.t("%s has more Treasures ready than the hero can carry: one of them is discarded.", Str(v["current"])))))
	}
	return out
}

// dungeonMap is the dungeon: drawn in characters in the text part, as a grid of map
// cards in HTML (unless the mail's picture shows it), in bands of columns; then what
// lies on it.
func (dungeon) dungeonMap(w words, v map[string]any, pictured bool) []doc.Block {
	x := dw(w)
	f := &doc.Figure{Title: doc.L(w.t("The dungeon (x grows east, y south; @n is the hero of seat n; a gap is an open door, Ln/Tn a locked/trapped door of value n; qNN marks an escort component):")),
		Text: x.mapText(v["map"]), Grids: x.grids(v["map"]),
		Note:     doc.L(w.t("The dungeon: x grows east, y south; @n is the hero of seat n; a thick edge is a wall, a dotted one an open door, a double one a locked (L) or trapped (T) door, listed with its side (n, e, s, w); qNN marks an escort component.")),
		TextOnly: pictured}
	out := []doc.Block{f}
	if on := x.onMap(v["map"]); len(on) > 0 {
		out = append(out, linesList(doc.L(w.t("On the map:")), on))
	}
	return out
}

// heroes is the table of the heroes: level, life, Glory, Peril, scores and place;
// under the reader's (or, with all, under everyone's) their ability, quests and
// cards.
func (dungeon) heroes(w words, b board, all bool) *doc.Table {
	x := dw(w)
	v := b.View
	t := &doc.Table{Title: doc.L(w.t("Heroes:")), Head: []string{w.t("Hero"), w.t("Lvl"), w.t("Life"), w.t("Glory"), w.t("Peril"), w.t("Me/Ma/Sp"), w.t("At")}}
	for _, p := range objs(v["players"]) {
		name := Str(p["name"])
		row := doc.Row{Cells: []doc.Line{append(doc.Line{doc.T(Str(p["seat"]) + ". ")}, playerCell(w, b, name)...),
			doc.L(Str(p["level"])), doc.L(Str(p["life"])), doc.L(Str(p["glory"])), doc.L(Str(p["peril"])),
			doc.L(Str(p["melee"]) + "/" + Str(p["magic"]) + "/" + Str(p["speed"])), doc.L(Str(p["x"]) + "," + Str(p["y"]))}}
		hero := w.term(obj(p["hero_name"])["en"])
		if p["out"] == true {
			hero += ", " + w.t("defeated")
		}
		if p["prone"] == true {
			hero += ", " + w.t("knocked down")
		}
		row.Sub = []doc.Line{doc.L(hero)}
		if all || name == b.Player {
			row.Sub = append(row.Sub, x.sheet(v, p, all)...)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// sheet is what a hero sheet shows below the scores: the ability, the hand and
// map cards, the quests and the cards in play; the cards in play with what they
// do when full, else by name (the whole board tells them).
func (x dungeonWords) sheet(v, p map[string]any, full bool) []doc.Line {
	card := x.short
	if full {
		card = x.card
	}
	ability := x.tr.Sprintf(x.lang, "ability: %s", x.text(p["hero"]))
	if p["ability_used"] == true {
		ability += " — " + x.tr.Sprintf(x.lang, "used until the hero's next turn")
	}
	var counts []string // the hand's size is left out where the hand is shown
	if full {
		counts = append(counts, x.tr.Sprintf(x.lang, "%d cards in hand", Num(p["hand_size"])))
	}
	if n := Num(p["map_cards"]); n > 0 {
		counts = append(counts, x.tr.Sprintf(x.lang, "%d map cards to place", n))
	}
	if n := Num(p["saved"]); n > 0 {
		counts = append(counts, x.tr.Sprintf(x.lang, "%d Movement saved", n))
	}
	if p["struck"] == true {
		counts = append(counts, x.tr.Sprintf(x.lang, "standard attack made this turn"))
	}
	lines := []doc.Line{doc.L(ability)}
	if len(counts) > 0 {
		lines = append(lines, doc.L(strings.Join(counts, "; ")))
	}
	add := func(s string) { lines = append(lines, doc.L(s)) }
	for _, q := range Strs(p["quests"]) {
		add(x.tr.Sprintf(x.lang, "quest: %s", card(q)) + x.wounds(v, q))
	}
	if done := Strs(p["done"]); len(done) > 0 {
		add(x.tr.Sprintf(x.lang, "quests done: %s", strings.Join(done, ", ")))
	}
	if p["carrying"] != nil {
		add(x.tr.Sprintf(x.lang, "carrying the component of %s", Str(p["carrying"])))
	}
	for _, c := range Strs(p["favors"]) {
		add(x.tr.Sprintf(x.lang, "favor: %s", card(c)) + x.ready(v, p, c))
	}
	for _, c := range Strs(p["treasures"]) {
		add(x.tr.Sprintf(x.lang, "treasure: %s", card(c)) + x.ready(v, p, c))
	}
	for _, c := range Strs(p["banes"]) {
		add(x.tr.Sprintf(x.lang, "bane: %s", card(c)))
	}
	for _, c := range objs(p["pack"]) {
		s := x.tr.Sprintf(x.lang, "pack: %s", card(c["id"]))
		if n := Num(c["wounds"]); n > 0 {
			s += " " + x.tr.Sprintf(x.lang, "(wounded %d)", n)
		}
		add(s)
	}
	return lines
}

// global is the global quest, if one is in play.
func (dungeon) global(w words, v map[string]any) []doc.Block {
	if v["global"] == nil {
		return nil
	}
	x := dw(w)
	return []doc.Block{&doc.List{Title: doc.L(w.t("Global quest:")), Items: []doc.Item{{Line: doc.L(x.card(v["global"]) + x.wounds(v, v["global"]))}}}}
}

// hand is the reader's hand with what each card does and, in Map in View, their map
// cards and what they passed and received.
func (d dungeon) hand(w words, v map[string]any) []doc.Block { return d.handOf(w, v, nil) }

// handOf is hand; with play, only the cards in play are told with what they do (the
// cards the reader may play, discard or keep now), the others named in one line
// (their texts are on the whole board).
func (dungeon) handOf(w words, v map[string]any, play map[string]bool) []doc.Block {
	x := dw(w)
	var out []doc.Block
	for _, p := range objs(v["players"]) {
		hand := Strs(p["hand"])
		if len(hand) == 0 {
			continue
		}
		l := &doc.List{Title: doc.L(w.t("Your hand:"))}
		var rest []any
		for _, c := range hand {
			if play == nil || play[c] {
				l.Items = append(l.Items, doc.Item{Line: doc.L(x.card(c))})
			} else {
				rest = append(rest, c)
			}
		}
		switch {
		case len(l.Items) == 0:
			out = append(out, doc.P(doc.L(w.t("Your hand: %s.", x.names(rest)))))
		case len(rest) > 0:
			l.Items = append(l.Items, doc.Item{Line: doc.L(w.t("and %s", x.names(rest)))})
			out = append(out, l)
		default:
			out = append(out, l)
		}
	}
	l := obj(v["layout"])
	if l == nil {
		return out
	}
	if maps := Strs(l["maps"]); len(maps) > 0 {
		list := &doc.List{Title: doc.L(w.t("Your map cards (place one when it is your turn to place):"))}
		for _, c := range maps {
			list.Items = append(list.Items, doc.Item{Line: doc.L(x.describe(c, true))})
		}
		out = append(out, list)
	}
	if l["passed"] != nil {
		out = append(out, doc.P(doc.L(w.t("You passed to %s, as your quests need them: %s.", Str(l["to"]), x.names(l["passed"])))))
	}
	if l["received"] != nil {
		out = append(out, doc.P(doc.L(w.t("You received from %s, as the quests of %s need them: %s.", Str(l["from"]), Str(l["from"]), x.names(l["received"])))))
	}
	return out
}

// grids lays a view's map out as grids of at most dungeonBandWidth columns of map
// cards, each cell with its card, name, obstacle, doors, heroes and components, its
// edges drawn as walls and doors.
func (x dungeonWords) grids(v any) []doc.Grid {
	cells := dungeonCells(v)
	bands, from := dungeonSplit(cells)
	out := make([]doc.Grid, 0, len(bands))
	for i, band := range bands {
		minY, maxY, maxX := band[0].Y, band[0].Y, band[0].X
		for _, c := range band {
			minY, maxY, maxX = min(minY, c.Y), max(maxY, c.Y), max(maxX, c.X)
		}
		g := doc.Grid{Corner: x.tr.Sprintf(x.lang, "y\\x")}
		var xs []int
		for c := from[i]; c <= maxX; c++ {
			xs = append(xs, c)
			g.Cols = append(g.Cols, fmt.Sprint(c))
		}
		for y := minY; y <= maxY; y++ {
			row := doc.GridRow{Head: fmt.Sprint(y)}
			for _, cx := range xs {
				row.Cells = append(row.Cells, x.cell(band, cx, y))
			}
			g.Rows = append(g.Rows, row)
		}
		out = append(out, g)
	}
	return out
}

// cell is the grid cell of the map card at x,y (empty when none lies there).
func (x dungeonWords) cell(band []dungeoneer.MapCell, cx, cy int) doc.Cell {
	for _, c := range band {
		if c.X != cx || c.Y != cy {
			continue
		}
		out := doc.Cell{Lines: []doc.Line{{doc.B(c.ID)}, {doc.S(x.tr.Term(x.lang, c.Name.En))}}}
		var middle []string
		for _, t := range dungeoneer.CellTexts(c) {
			middle = append(middle, x.say(t))
		}
		if len(middle) > 0 {
			out.Lines = append(out.Lines, doc.L(strings.Join(middle, " ")))
		}
		var doors []string
		for side, d := range c.Doors {
			edge := doc.Wall
			switch {
			case d == "open":
				edge = doc.Opening
			case d != "wall" && d != "":
				edge = doc.Door
				if mark, ok := dungeoneer.DoorMark(d); ok {
					doors = append(doors, x.side(side)+" "+x.say(mark))
				}
			}
			if side < 4 {
				out.Edges[side] = edge
			}
		}
		if len(doors) > 0 {
			out.Lines = append(out.Lines, doc.L(strings.Join(doors, ", ")))
		}
		var hs []string
		for _, s := range c.Heroes {
			hs = append(hs, fmt.Sprintf("@%d", s))
		}
		if len(hs) > 0 {
			out.Lines = append(out.Lines, doc.Line{doc.B(strings.Join(hs, " "))})
		}
		if len(c.Items) > 0 {
			out.Lines = append(out.Lines, doc.L(strings.Join(c.Items, " ")))
		}
		return out
	}
	return doc.Cell{}
}
