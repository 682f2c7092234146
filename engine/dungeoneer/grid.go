package dungeoneer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Sides of a map card, clockwise from north; y grows to the south.
const (
	north = iota
	east
	south
	west
)

var sideNames = []string{"n", "e", "s", "w"}
var dx = []int{0, 1, 0, -1}
var dy = []int{-1, 0, 1, 0}

// Placed is a map card on the grid.
type Placed struct {
	ID  string `json:"id"`
	X   int    `json:"x"`
	Y   int    `json:"y"`
	Rot int    `json:"rot"` // 0, 90, 180 or 270, clockwise
}

// door returns the door of p on side (after rotation).
func (p Placed) door(side int) Door {
	return cards.mapc[p.ID].Doors[(side-p.Rot/90+8)%4]
}

// placement is one legal spot for a map card.
type placement struct {
	X, Y, Rot int
}

func (pl placement) command(id string) string {
	return fmt.Sprintf("build %s at %d,%d rot %d", id, pl.X, pl.Y, pl.Rot)
}

// cellAt returns the index of the card at x,y in grid, or -1.
func cellAt(grid []Placed, x, y int) int {
	return slices.IndexFunc(grid, func(p Placed) bool { return p.X == x && p.Y == y })
}

// passable reports whether a hero may ever cross between a and its neighbour on side:
// a wall on either side blocks both ways.
func passable(grid []Placed, i, side int) (int, bool) {
	a := grid[i]
	j := cellAt(grid, a.X+dx[side], a.Y+dy[side])
	if j < 0 {
		return -1, false
	}
	return j, a.door(side).Kind != doorWall && grid[j].door((side+2)%4).Kind != doorWall
}

// mapIndex is what the placement rules read of a grid: the occupied cells, the empty
// cells next to the map and the frontier (the empty cells a door of the map faces).
type mapIndex struct {
	grid     []Placed
	occupied map[[2]int]int
	frontier map[[2]int]bool
	empty    [][2]int
}

func indexGrid(grid []Placed) mapIndex {
	m := mapIndex{grid: grid, occupied: map[[2]int]int{}, frontier: map[[2]int]bool{}}
	for i, p := range grid {
		m.occupied[[2]int{p.X, p.Y}] = i
	}
	for _, p := range grid {
		for side := range 4 {
			c := [2]int{p.X + dx[side], p.Y + dy[side]}
			if _, ok := m.occupied[c]; ok {
				continue
			}
			if !slices.Contains(m.empty, c) {
				m.empty = append(m.empty, c)
			}
			if p.door(side).Kind != doorWall {
				m.frontier[c] = true
			}
		}
	}
	return m
}

// fit reports whether map card id fits at the empty cell c turned by rot — joined to
// the map by a passable door, leaving the map open — and whether it is joined to the
// Entrance (the first card of the grid).
func (m mapIndex) fit(id string, c [2]int, rot int) (ok, touchesEntrance bool) {
	np := Placed{ID: id, X: c[0], Y: c[1], Rot: rot}
	linked, opens := false, len(m.frontier) > 1 || (len(m.frontier) == 1 && !m.frontier[c])
	for side := range 4 {
		n := [2]int{c[0] + dx[side], c[1] + dy[side]}
		j, ok := m.occupied[n]
		if !ok {
			opens = opens || np.door(side).Kind != doorWall
			continue
		}
		if np.door(side).Kind != doorWall && m.grid[j].door((side+2)%4).Kind != doorWall {
			linked = true
			touchesEntrance = touchesEntrance || j == 0
		}
	}
	return linked && opens, touchesEntrance
}

// placements lists the legal spots of map card id: aligned on the grid, next to the
// map with at least one passable door (so connected to the Entrance), never leaving
// the map closed; only passages touch the Entrance unless nothing else is possible.
// The list is sorted by y, x, rotation.
func placements(grid []Placed, id string) []placement {
	m := indexGrid(grid)
	var all, away []placement
	for _, c := range m.empty {
		for rot := 0; rot < 360; rot += 90 {
			ok, touchesEntrance := m.fit(id, c, rot)
			if !ok {
				continue
			}
			pl := placement{c[0], c[1], rot}
			all = append(all, pl)
			if !touchesEntrance {
				away = append(away, pl)
			}
		}
	}
	if cards.mapc[id].Type != "passage" && len(away) > 0 {
		all = away
	}
	slices.SortFunc(all, func(a, b placement) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		if a.X != b.X {
			return a.X - b.X
		}
		return a.Rot - b.Rot
	})
	return all
}

// canPlace reports whether placements(grid, id) holds pl, checking that one spot.
func canPlace(grid []Placed, id string, pl placement) bool {
	m := indexGrid(grid)
	c := [2]int{pl.X, pl.Y}
	if !slices.Contains(m.empty, c) || pl.Rot < 0 || pl.Rot >= 360 || pl.Rot%90 != 0 {
		return false
	}
	ok, touchesEntrance := m.fit(id, c, pl.Rot)
	if ok && touchesEntrance && cards.mapc[id].Type != "passage" {
		return slices.Contains(placements(grid, id), pl) // only when it fits nowhere else
	}
	return ok
}

// MapCell is one map card as shown to players.
type MapCell struct {
	X    int    `json:"x"`
	Y    int    `json:"y"`
	ID   string `json:"id"`
	Name Names  `json:"name"`
	Type string `json:"type"`
	// Doors are north, east, south, west after rotation: "open", "wall", "locked 3",
	// "trapped 4"; a door opened this turn reads "open".
	Doors [4]string `json:"doors"`
	// Obstacle is "pit 3", "spikes 4", "risk +1", "sewer A", "terrain cave", "portal"
	// or empty.
	Obstacle string `json:"obstacle,omitempty"`
	Glory    int    `json:"glory"`
	Peril    int    `json:"peril"`
	// Heroes are the seats (1 …) of the heroes standing here.
	Heroes []int `json:"heroes,omitempty"`
	// Monster: the card's monster lives (Card describes it); Wounds are its wounds.
	Monster bool `json:"monster,omitempty"`
	Wounds  int  `json:"wounds,omitempty"`
	// Items are the escort components lying here, by quest (their markers).
	Items []string `json:"items,omitempty"`
}

func doorText(d Door) string {
	if d.V > 0 {
		return fmt.Sprintf("%s %d", d.Kind, d.V)
	}
	return d.Kind
}

func obstacleText(o *Obstacle) string {
	if o == nil {
		return ""
	}
	switch o.Kind {
	case "pit", "spikes":
		return fmt.Sprintf("%s %d", o.Kind, o.V)
	case "risk":
		return fmt.Sprintf("risk +%d", o.Mod)
	case "sewer":
		return "sewer " + o.Pair
	case "terrain":
		return "terrain " + o.Terrain
	}
	return o.Kind
}

// doorMark is the mark of a door in DrawMap, two characters: a gap for open, the
// letter and value of a locked or trapped door (DoorMark, in say's words), a line for
// a wall.
func doorMark(d string, line string, say func(engine.Text) string) string {
	if d == doorOpen {
		return "  "
	}
	if m, ok := DoorMark(d); ok {
		return fitRunes(say(m), 2, " ")
	}
	return line + line
}

// fitRunes cuts s to n characters or pads it with fill.
func fitRunes(s string, n int, fill string) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s + strings.Repeat(fill, n-len(r))
}

// DrawMap draws the map in plain text with box-drawing characters: one box per card
// with its coordinates and id, its doors on the edges (a gap is an open door, Ln a
// locked one of value n, Tn a trapped one, a solid edge a wall), its obstacle and
// "monster" when a monster lives there (CellTexts), the seats of the heroes standing
// there and the markers (quest ids) of the escort components lying there. say puts
// the words and door marks into the reader's language (nil: English).
func DrawMap(cells []MapCell, say func(engine.Text) string) string {
	if say == nil {
		say = engine.Text.String
	}
	if len(cells) == 0 {
		return ""
	}
	minX, maxX, minY, maxY := cells[0].X, cells[0].X, cells[0].Y, cells[0].Y
	for _, c := range cells {
		minX, maxX = min(minX, c.X), max(maxX, c.X)
		minY, maxY = min(minY, c.Y), max(maxY, c.Y)
	}
	const w, h = 16, 5 // box width and height in characters
	rows := make([][]string, (maxY-minY+1)*h)
	for i := range rows {
		rows[i] = slices.Repeat([]string{" "}, (maxX-minX+1)*w)
	}
	put := func(r, c int, s string) {
		for _, ch := range s {
			rows[r][c] = string(ch)
			c++
		}
	}
	pad := func(s string, n int) string { return fitRunes(s, n, " ") }
	for _, c := range cells {
		r0, c0 := (c.Y-minY)*h, (c.X-minX)*w
		put(r0, c0, "┌"+strings.Repeat("─", w-2)+"┐")
		put(r0+h-1, c0, "└"+strings.Repeat("─", w-2)+"┘")
		for r := 1; r < h-1; r++ {
			put(r0+r, c0, "│"+strings.Repeat(" ", w-2)+"│")
		}
		put(r0, c0+w/2-1, doorMark(c.Doors[north], "─", say))
		put(r0+h-1, c0+w/2-1, doorMark(c.Doors[south], "─", say))
		e, wd := []rune(doorMark(c.Doors[east], "│", say)), []rune(doorMark(c.Doors[west], "│", say))
		put(r0+1, c0+w-1, string(e[0]))
		put(r0+2, c0+w-1, string(e[1]))
		put(r0+1, c0, string(wd[0]))
		put(r0+2, c0, string(wd[1]))
		put(r0+1, c0+2, pad(fmt.Sprintf("%s %d,%d", c.ID, c.X, c.Y), w-4))
		var middle []string
		for _, t := range CellTexts(c) {
			middle = append(middle, say(t))
		}
		put(r0+2, c0+2, pad(strings.Join(middle, " "), w-4))
		var marks []string
		for _, s := range c.Heroes {
			marks = append(marks, fmt.Sprintf("@%d", s))
		}
		marks = append(marks, c.Items...)
		if len(marks) > 0 {
			put(r0+3, c0+2, pad(strings.Join(marks, " "), w-4))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.TrimRight(strings.Join(r, ""), " "))
		b.WriteByte('\n')
	}
	return b.String()
}
