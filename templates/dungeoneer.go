package templates

import (
	"encoding/json"
	"fmt"
	htmltemplate "html/template"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/i18n"
)

// dungeonBandWidth is how many map cards wide a band of the drawn dungeon is: four
// boxes of dungeoneer.DrawMap fit in MaxLine, and four table cells in a phone's width.
const dungeonBandWidth = 4

// dungeonFuncs are the template functions of the Dungeoneer state mail. Those that
// build text take the reader's language first and word everything through the
// bundle: the engine's words (phases, kinds of card, obstacles, door marks) from its
// catalogue, the mail's own formats from the templates catalogue, names as terms and
// card texts from the card data.
func dungeonFuncs(tr *i18n.Bundle) map[string]any {
	in := func(lang string) dungeonWords { return dungeonWords{tr: tr, lang: readerLang(lang)} }
	return map[string]any{
		"dgmap":    func(lang string, v any) string { return in(lang).mapText(v) },
		"dgbands":  func(lang string, v any) []DungeonBand { return in(lang).bands(v) },
		"dgcard":   func(lang string, v any) string { return in(lang).card(v) },
		"dgdrawn":  func(lang string, v any) string { return in(lang).describe(v, true) },
		"dgonmap":  func(lang string, v any) []string { return in(lang).onMap(v) },
		"dgready":  func(lang string, view, player, id any) string { return in(lang).ready(view, player, id) },
		"dgtext":   func(lang string, v any) string { return in(lang).text(v) },
		"dgnames":  func(lang string, v any) string { return in(lang).names(v) },
		"dgrot":    rotationChoice,
		"dgwounds": func(lang string, view, id any) string { return in(lang).wounds(view, id) },
		"dgphase":  func(lang string, v any) string { return tr.Text(readerLang(lang), dungeoneer.PhaseText(Str(v))) },
		// dgform is a form of attack as a text argument of t; dgterm a name.
		"dgform": func(v any) engine.Text { return dungeoneer.FormText(Str(v)) },
		"dgterm": func(v any) engine.Term { return engine.Term(Str(v)) },
		// dgname is the name of the player of a seat of the view (0-based, as the
		// engine counts seats in its pending Encounters).
		"dgname": func(view map[string]any, seat any) string {
			players, _ := view["players"].([]any)
			if i := Num(seat); i >= 0 && i < len(players) {
				if p, ok := players[i].(map[string]any); ok {
					return Str(p["name"])
				}
			}
			return ""
		},
	}
}

// dungeonWords words the Dungeoneer state mail for a reader of lang.
type dungeonWords struct {
	tr   *i18n.Bundle
	lang i18n.Lang
}

// say renders an engine text in the reader's language.
func (w dungeonWords) say(t engine.Text) string { return w.tr.Text(w.lang, t) }

// pick is the reader's version of a card's name or text (the English one when the
// data has no other).
func (w dungeonWords) pick(n dungeoneer.Names) string {
	if w.lang == i18n.Italian && n.It != "" {
		return n.It
	}
	return n.En
}

// dungeonCells decodes a view's "map" (as the service decodes views: JSON values).
func dungeonCells(v any) []dungeoneer.MapCell {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var cells []dungeoneer.MapCell
	if json.Unmarshal(b, &cells) != nil {
		return nil
	}
	return cells
}

// dungeonSplit splits the map into bands of at most dungeonBandWidth columns, west
// to east; each band is returned with its first and last x.
func dungeonSplit(cells []dungeoneer.MapCell) (bands [][]dungeoneer.MapCell, from []int) {
	if len(cells) == 0 {
		return nil, nil
	}
	minX, maxX := cells[0].X, cells[0].X
	for _, c := range cells {
		minX, maxX = min(minX, c.X), max(maxX, c.X)
	}
	for x := minX; x <= maxX; x += dungeonBandWidth {
		var band []dungeoneer.MapCell
		for _, c := range cells {
			if c.X >= x && c.X < x+dungeonBandWidth {
				band = append(band, c)
			}
		}
		if len(band) > 0 {
			bands, from = append(bands, band), append(from, x)
		}
	}
	return bands, from
}

// mapText draws a view's map in plain text (dungeoneer.DrawMap, in the reader's
// words), in bands of columns when it is wider than a mail line.
func (w dungeonWords) mapText(v any) string {
	bands, from := dungeonSplit(dungeonCells(v))
	var b strings.Builder
	for i, band := range bands {
		if len(bands) > 1 {
			b.WriteString(w.tr.Sprintf(w.lang, "x from %d to %d:", from[i], from[i]+dungeonBandWidth-1) + "\n")
		}
		b.WriteString(dungeoneer.DrawMap(band, w.say))
	}
	return b.String()
}

// DungeonBand is one band of the map's HTML table: its columns' x and its rows.
type DungeonBand struct {
	Xs   []int
	Rows []DungeonRow
}

// DungeonRow is one row (y) of a band.
type DungeonRow struct {
	Y     int
	Cells []DungeonCell
}

// DungeonCell is one cell of the map's HTML table; ID is empty where no card lies.
// Items are the markers of the escort components lying there.
type DungeonCell struct {
	ID, Name, Obstacle, Heroes, Items string
	// Doors lists the locked and trapped doors ("n L3"); Style draws walls as thick
	// borders and open doors as dotted ones.
	Doors string
	Style htmltemplate.CSS
}

// bands lays a view's map out as tables of at most dungeonBandWidth columns.
func (w dungeonWords) bands(v any) []DungeonBand {
	cells := dungeonCells(v)
	bands, from := dungeonSplit(cells)
	out := make([]DungeonBand, 0, len(bands))
	for i, band := range bands {
		minY, maxY, maxX := band[0].Y, band[0].Y, band[0].X
		for _, c := range band {
			minY, maxY, maxX = min(minY, c.Y), max(maxY, c.Y), max(maxX, c.X)
		}
		db := DungeonBand{}
		for x := from[i]; x <= maxX; x++ {
			db.Xs = append(db.Xs, x)
		}
		for y := minY; y <= maxY; y++ {
			row := DungeonRow{Y: y}
			for _, x := range db.Xs {
				row.Cells = append(row.Cells, w.cell(band, x, y))
			}
			db.Rows = append(db.Rows, row)
		}
		out = append(out, db)
	}
	return out
}

var doorSides = [4]string{"top", "right", "bottom", "left"}

// doorLetters are the sides of a card, north, east, south, west: the words of the
// move command, which the reader's language may change ("w" is "o" in Italian).
var doorLetters = [4]string{"n", "e", "s", "w"}

// side is the letter of a side of a card in the reader's command words.
func (w dungeonWords) side(i int) string { return w.tr.Word("dungeoneer", w.lang, doorLetters[i]) }

func (w dungeonWords) cell(band []dungeoneer.MapCell, x, y int) DungeonCell {
	for _, c := range band {
		if c.X != x || c.Y != y {
			continue
		}
		dc := DungeonCell{ID: c.ID, Name: w.tr.Term(w.lang, c.Name.En), Items: strings.Join(c.Items, " ")}
		var middle []string
		for _, t := range dungeoneer.CellTexts(c) {
			middle = append(middle, w.say(t))
		}
		dc.Obstacle = strings.Join(middle, " ")
		var hs, doors, style []string
		for _, s := range c.Heroes {
			hs = append(hs, fmt.Sprintf("@%d", s))
		}
		for side, d := range c.Doors {
			border := "3px solid"
			switch {
			case d == "open":
				border = "1px dotted"
			case d != "wall" && d != "":
				border = "3px double"
				if mark, ok := dungeoneer.DoorMark(d); ok {
					doors = append(doors, w.side(side)+" "+w.say(mark))
				}
			}
			style = append(style, "border-"+doorSides[side]+":"+border)
		}
		dc.Heroes, dc.Doors = strings.Join(hs, " "), strings.Join(doors, ", ")
		// Built from the fixed words above and door values the engine vouches for.
		dc.Style = htmltemplate.CSS(strings.Join(style, ";"))
		return dc
	}
	return DungeonCell{}
}

// card describes a card by id for the mail: "a13 Ogre Jailer (monster, cost 3; life
// 2, attacks Melee 3, defends Magic 0, Speed 0): A wall of fat and iron." — its name,
// kind, category, use, whether it stays in play, a quest's place, its cost, a map
// card's obstacle, a monster's scores and its text, in the reader's words. An unknown
// id is shown as it is.
func (w dungeonWords) card(v any) string { return w.describe(v, false) }

// describe is card; a map card to place (drawn) also shows the Glory and Peril it
// gives and its doors as they lie before a rotation, which its placement turns.
func (w dungeonWords) describe(v any, drawn bool) string {
	id := Str(v)
	c, ok := dungeoneer.Card(id)
	if !ok {
		return id
	}
	parts := []string{w.say(dungeoneer.KindText(c.Kind))}
	if c.Category != "" {
		parts = append(parts, w.say(dungeoneer.CategoryText(c.Category)))
	}
	if c.Use != "" {
		parts = append(parts, w.say(dungeoneer.UseText(c.Use)))
	}
	if c.Permanent {
		parts = append(parts, w.tr.Sprintf(w.lang, "permanent"))
	}
	switch {
	case c.At != "" && c.To != "":
		parts = append(parts, w.tr.Sprintf(w.lang, "at %s → %s", c.At, c.To))
	case c.At != "":
		parts = append(parts, w.tr.Sprintf(w.lang, "at %s", c.At))
	}
	switch c.Kind {
	case "monster", "trap", "bane", "favor", "treasure":
		parts = append(parts, w.tr.Sprintf(w.lang, "cost %d", c.Cost))
	case "entrance", "passage", "room":
		for _, t := range dungeoneer.CellTexts(dungeoneer.MapCell{ID: id, Type: c.Kind}) {
			parts = append(parts, w.say(t))
		}
		if drawn {
			parts = append(parts, w.tr.Sprintf(w.lang, "Glory %d, Peril %d", c.Glory, c.Peril))
		}
	}
	kind := strings.Join(parts, ", ")
	if drawn && len(c.Doors) == 4 {
		var doors []string
		for side, d := range c.Doors {
			doors = append(doors, w.side(side)+" "+w.say(dungeoneer.DoorText(d)))
		}
		kind += "; " + w.tr.Sprintf(w.lang, "doors at rot 0: %s", strings.Join(doors, ", "))
	}
	if m := c.Monster; m != nil {
		kind += "; " + w.monsterStats(m)
	}
	s := fmt.Sprintf("%s %s (%s)", id, w.tr.Term(w.lang, c.Name.En), kind)
	if t := w.pick(c.Text); t != "" {
		s += ": " + t
	}
	return s
}

// monsterStats says what a monster can do: its life, the forms it attacks with (its
// standard attacks) and those it only defends with (counter-attacks), with their
// scores.
func (w dungeonWords) monsterStats(m *dungeoneer.MonsterInfo) string {
	var attacks, defends []string
	for _, st := range m.Stats {
		v := w.score(st.Form, st.V)
		if st.Std {
			attacks = append(attacks, v)
		} else {
			defends = append(defends, v)
		}
	}
	out := w.tr.Sprintf(w.lang, "life %d", m.Life)
	if len(attacks) > 0 {
		out += ", " + w.tr.Sprintf(w.lang, "attacks %s", strings.Join(attacks, ", "))
	}
	if len(defends) > 0 {
		out += ", " + w.tr.Sprintf(w.lang, "defends %s", strings.Join(defends, ", "))
	}
	return out
}

// score is a score in a form of attack, as the hero sheets show it: "Melee 3".
func (w dungeonWords) score(form string, v int) string {
	switch form {
	case "melee":
		return w.tr.Sprintf(w.lang, "Melee %d", v)
	case "magic":
		return w.tr.Sprintf(w.lang, "Magic %d", v)
	case "speed":
		return w.tr.Sprintf(w.lang, "Speed %d", v)
	}
	return fmt.Sprintf("%s %d", form, v)
}

// names lists cards by id and name ("m03 Crooked Stair, m13 Idol Chamber"), names in
// the reader's language.
func (w dungeonWords) names(v any) string {
	var out []string
	for _, id := range Strs(v) {
		if c, ok := dungeoneer.Card(id); ok {
			id += " " + w.tr.Term(w.lang, c.Name.En)
		}
		out = append(out, id)
	}
	return strings.Join(out, ", ")
}

// text is the text of card id in the reader's language (a hero's: its ability), ""
// for none.
func (w dungeonWords) text(v any) string {
	c, _ := dungeoneer.Card(Str(v))
	return w.pick(c.Text)
}

// onMap lists what lies on a view's map besides the heroes: the living monsters of
// map cards (with their wounds), the rooms that do something to a hero who enters
// and the escort components, each with its place and card.
func (w dungeonWords) onMap(v any) []string {
	var out []string
	for _, c := range dungeonCells(v) {
		if info, ok := dungeoneer.Card(c.ID); ok && info.Monster == nil && w.pick(info.Text) != "" {
			out = append(out, fmt.Sprintf("%d,%d %s", c.X, c.Y, w.card(c.ID)))
		}
		if c.Monster {
			line := fmt.Sprintf("%d,%d %s", c.X, c.Y, w.card(c.ID))
			if c.Wounds > 0 {
				line += " " + w.tr.Sprintf(w.lang, "(wounded %d)", c.Wounds)
			}
			out = append(out, line)
		}
		for _, q := range c.Items {
			out = append(out, fmt.Sprintf("%d,%d %s", c.X, c.Y, w.tr.Sprintf(w.lang, "the component of %s", w.card(q))))
		}
	}
	return out
}

// ready notes the state of a ready card of a player's view: the charges left, the
// integrations played on it, and "used this turn" for a card used once this turn
// ("" when there is nothing to say).
func (w dungeonWords) ready(view, player, id any) string {
	v, _ := view.(map[string]any)
	p, _ := player.(map[string]any)
	card := Str(id)
	var notes []string
	if ch, ok := p["charges"].(map[string]any); ok {
		if n, ok := ch[card]; ok {
			notes = append(notes, w.tr.Sprintf(w.lang, "%d charges left", Num(n)))
		}
	}
	if att, ok := p["attached"].(map[string]any); ok {
		var with []string
		for x, host := range att {
			if Str(host) == card {
				c, _ := dungeoneer.Card(x)
				with = append(with, x+" "+w.tr.Term(w.lang, c.Name.En))
			}
		}
		slices.Sort(with)
		if len(with) > 0 {
			notes = append(notes, w.tr.Sprintf(w.lang, "with %s", strings.Join(with, ", ")))
		}
	}
	if used, ok := v["used_once"].([]any); ok {
		for _, u := range used {
			if Str(u) == card {
				notes = append(notes, w.tr.Sprintf(w.lang, "used this turn"))
			}
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return " — " + strings.Join(notes, ", ")
}

// rotationChoice is the end of the first legal entry that offers a choice of
// rotations ("rot <0,180>" of "build m02 at 0,-1 rot <0,180>", in the reader's
// words), for the note that explains it; "" when no entry does.
func rotationChoice(legal []string) string {
	for _, e := range legal {
		f := strings.Fields(e)
		if n := len(f); n >= 2 && strings.HasPrefix(f[n-1], "<") && strings.HasSuffix(f[n-1], ">") && strings.Contains(f[n-1], ",") {
			return f[n-2] + " " + f[n-1]
		}
	}
	return ""
}

// wounds notes the wounds on the monster of a quest or map card of the view, as the
// tokens on the card show them: " (wounded 2)", or "" for none.
func (w dungeonWords) wounds(view, id any) string {
	v, _ := view.(map[string]any)
	ws, _ := v["wounds"].(map[string]any)
	if n := Num(ws[Str(id)]); n > 0 {
		return " " + w.tr.Sprintf(w.lang, "(wounded %d)", n)
	}
	return ""
}
