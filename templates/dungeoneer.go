package templates

import (
	"encoding/json"
	"fmt"
	htmltemplate "html/template"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine/dungeoneer"
)

// dungeonBandWidth is how many map cards wide a band of the drawn dungeon is: four
// boxes of dungeoneer.DrawMap fit in MaxLine, and four table cells in a phone's width.
const dungeonBandWidth = 4

// dungeonFuncs are the template functions of the Dungeoneer state mail.
func dungeonFuncs() map[string]any {
	return map[string]any{"dgmap": dungeonMapText, "dgbands": dungeonBands, "dgcard": dungeonCard,
		"dgonmap": dungeonOnMap, "dgready": dungeonReady, "dgtext": dungeonText}
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

// dungeonMapText draws a view's map in plain text (dungeoneer.DrawMap), in bands of
// columns when it is wider than a mail line.
func dungeonMapText(v any) string {
	bands, from := dungeonSplit(dungeonCells(v))
	var b strings.Builder
	for i, band := range bands {
		if len(bands) > 1 {
			fmt.Fprintf(&b, "x from %d to %d:\n", from[i], from[i]+dungeonBandWidth-1)
		}
		b.WriteString(dungeoneer.DrawMap(band))
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

// dungeonBands lays a view's map out as tables of at most dungeonBandWidth columns.
func dungeonBands(v any) []DungeonBand {
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
				row.Cells = append(row.Cells, dungeonCell(band, x, y))
			}
			db.Rows = append(db.Rows, row)
		}
		out = append(out, db)
	}
	return out
}

var doorSides = [4]string{"top", "right", "bottom", "left"}
var doorLetters = [4]string{"n", "e", "s", "w"}

func dungeonCell(band []dungeoneer.MapCell, x, y int) DungeonCell {
	for _, c := range band {
		if c.X != x || c.Y != y {
			continue
		}
		dc := DungeonCell{ID: c.ID, Name: c.Name.En, Obstacle: c.Obstacle, Items: strings.Join(c.Items, " ")}
		if c.Type == "entrance" {
			dc.Obstacle = "tower"
		}
		if c.Monster {
			dc.Obstacle = strings.TrimSpace(dc.Obstacle + " monster")
		}
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
				f := strings.Fields(d) // "locked 3", "trapped 4"
				border = "3px double"
				doors = append(doors, doorLetters[side]+" "+strings.ToUpper(f[0][:1])+f[len(f)-1])
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

// dungeonCard describes a card by id for the mail: "a13 Ogre Jailer (monster, cost 3;
// life 2, attacks Melee 3, defends Magic 0, Speed 0): A wall of fat and iron." An
// unknown id is shown as it is.
func dungeonCard(v any) string {
	id := Str(v)
	c, ok := dungeoneer.Card(id)
	if !ok {
		return id
	}
	kind := c.Kind
	if c.Use != "" {
		kind += ", " + c.Use
	}
	if c.Permanent {
		kind += ", permanent"
	}
	if c.At != "" {
		kind += ", at " + c.At
		if c.To != "" {
			kind += " → " + c.To
		}
	}
	switch c.Kind {
	case "monster", "trap", "bane", "favor", "treasure":
		kind += fmt.Sprintf(", cost %d", c.Cost)
	}
	if m := c.Monster; m != nil {
		kind += "; " + monsterStats(m)
	}
	s := fmt.Sprintf("%s %s (%s)", id, c.Name.En, kind)
	if c.Text.En != "" {
		s += ": " + c.Text.En
	}
	return s
}

// monsterStats says what a monster can do: its life, the forms it attacks with (its
// standard attacks) and those it only defends with (counter-attacks), with their
// scores.
func monsterStats(m *dungeoneer.MonsterInfo) string {
	var attacks, defends []string
	for _, st := range m.Stats {
		v := fmt.Sprintf("%s %d", strings.ToUpper(st.Form[:1])+st.Form[1:], st.V)
		if st.Std {
			attacks = append(attacks, v)
		} else {
			defends = append(defends, v)
		}
	}
	out := fmt.Sprintf("life %d", m.Life)
	if len(attacks) > 0 {
		out += ", attacks " + strings.Join(attacks, ", ")
	}
	if len(defends) > 0 {
		out += ", defends " + strings.Join(defends, ", ")
	}
	return out
}

// dungeonText is the English text of card id (a hero's: its ability), "" for none.
func dungeonText(v any) string {
	c, _ := dungeoneer.Card(Str(v))
	return c.Text.En
}

// dungeonOnMap lists what lies on a view's map besides the heroes: the living
// monsters of map cards (with their wounds) and the escort components, each with its
// place and card.
func dungeonOnMap(v any) []string {
	var out []string
	for _, c := range dungeonCells(v) {
		if c.Monster {
			line := fmt.Sprintf("%d,%d %s", c.X, c.Y, dungeonCard(c.ID))
			if c.Wounds > 0 {
				line += fmt.Sprintf(" (wounded %d)", c.Wounds)
			}
			out = append(out, line)
		}
		for _, q := range c.Items {
			out = append(out, fmt.Sprintf("%d,%d the component of %s", c.X, c.Y, dungeonCard(q)))
		}
	}
	return out
}

// dungeonReady notes the state of a ready card of a player's view: the charges left,
// the integrations played on it, and "used this turn" for a card used once this turn
// ("" when there is nothing to say).
func dungeonReady(view, player, id any) string {
	v, _ := view.(map[string]any)
	p, _ := player.(map[string]any)
	card := Str(id)
	var notes []string
	if ch, ok := p["charges"].(map[string]any); ok {
		if n, ok := ch[card]; ok {
			if left := Str(n); left == "1" {
				notes = append(notes, "1 charge left")
			} else {
				notes = append(notes, left+" charges left")
			}
		}
	}
	if att, ok := p["attached"].(map[string]any); ok {
		var with []string
		for x, host := range att {
			if Str(host) == card {
				c, _ := dungeoneer.Card(x)
				with = append(with, x+" "+c.Name.En)
			}
		}
		slices.Sort(with)
		if len(with) > 0 {
			notes = append(notes, "with "+strings.Join(with, ", "))
		}
	}
	if used, ok := v["used_once"].([]any); ok {
		for _, u := range used {
			if Str(u) == card {
				notes = append(notes, "used this turn")
			}
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return " — " + strings.Join(notes, ", ")
}
