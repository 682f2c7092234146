package templates

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/i18n"
)

// dungeonBandWidth is how many map cards wide a band of the drawn dungeon is: four
// boxes of dungeoneer.DrawMap fit in MaxLine, and four table cells in a phone's width.
const dungeonBandWidth = 4

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

// doorLetters are the sides of a card, north, east, south, west: the words of the
// move command, which the reader's language may change ("w" is "o" in Italian).
var doorLetters = [4]string{"n", "e", "s", "w"}

// side is the letter of a side of a card in the reader's command words.
func (w dungeonWords) side(i int) string { return w.tr.Word("dungeoneer", w.lang, doorLetters[i]) }

// short names a card by id with its kind and place, without its text or scores:
// "q11 Kneel at the Antechamber (visit, at m20)".
func (w dungeonWords) short(v any) string {
	id := Str(v)
	c, ok := dungeoneer.Card(id)
	if !ok {
		return id
	}
	parts := []string{w.say(dungeoneer.KindText(c.Kind))}
	switch {
	case c.At != "" && c.To != "":
		parts = append(parts, w.tr.Sprintf(w.lang, "at %s → %s", c.At, c.To))
	case c.At != "":
		parts = append(parts, w.tr.Sprintf(w.lang, "at %s", c.At))
	}
	return fmt.Sprintf("%s %s (%s)", id, w.tr.Term(w.lang, c.Name.En), strings.Join(parts, ", "))
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
