package empire

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

//go:embed data/boards.json
var boardsJSON []byte

// boardsFormat is the format tag of a board set document.
const boardsFormat = "empire-boards/1"

// boardSet is a board set document: data/boards.json, or the "boards" option.
type boardSet struct {
	Format string `json:"format"`
	Note   string `json:"_note,omitempty"`
	Faces  []face `json:"faces"`
}

// face is one side of a board: islands of regions, land borders, crossings (only on a
// face with the separate-islands icon), sea routes, and the sea routes that leave each
// side of the face (exits, keyed n, e, s, w).
type face struct {
	ID              string            `json:"id"`
	Board           int               `json:"board,omitempty"`
	Name            string            `json:"name,omitempty"`
	StartIcon       bool              `json:"start_icon,omitempty"`
	SeparateIslands bool              `json:"separate_islands,omitempty"`
	Islands         []islandData      `json:"islands"`
	Land            []string          `json:"land,omitempty"`
	Sea             []string          `json:"sea,omitempty"`
	Crossings       []string          `json:"crossings,omitempty"`
	Exits           map[string]string `json:"exits,omitempty"`
}

type islandData struct {
	Name    string   `json:"name"`
	Regions []string `json:"regions"`
}

// sides in clockwise order; a face rotated r quarter turns clockwise shows its side s
// at world side (s+r)%4.
var sides = []string{"n", "e", "s", "w"}

// Edge kinds.
const (
	edgeLand     = "land"
	edgeCrossing = "crossing"
	edgeSea      = "sea"
)

type edge struct {
	To   int    `json:"to"`
	Kind string `json:"kind"`
}

// layout is the assembled board of one game: the faces at their positions, regions
// numbered from 1 (index+1) in position, island and region order.
type layout struct {
	Kind    string       `json:"kind"`
	Faces   []placedFace `json:"faces"`
	Regions []regionInfo `json:"regions"`
	Islands []islandInfo `json:"islands"`
	Adj     [][]edge     `json:"adj"`
}

type placedFace struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Position string `json:"position"`
	Rotation int    `json:"rotation"`
}

type regionInfo struct {
	// Label is face id and region letter, for example "1a-c".
	Label  string `json:"label"`
	Face   int    `json:"face"`
	Island int    `json:"island"`
}

type islandInfo struct {
	Name    string `json:"name"`
	Face    int    `json:"face"`
	Regions []int  `json:"regions"`
}

// slot is a position of a layout and the world sides it joins to earlier slots.
type slot struct {
	name  string
	links []link
}

// link joins world side mine of this slot to world side theirs of slot other.
type link struct {
	other, mine, theirs int
}

// Layout kinds: the T (centre board joined to three) and the ring (2×2 rectangle).
const (
	layoutT    = "t"
	layoutRing = "ring"
)

var layouts = map[string][]slot{
	// T: three boards in a row, the fourth below the middle one (the centre).
	layoutT: {
		{name: "centre"},
		{name: "west", links: []link{{other: 0, mine: 1, theirs: 3}}},
		{name: "east", links: []link{{other: 0, mine: 3, theirs: 1}}},
		{name: "south", links: []link{{other: 0, mine: 0, theirs: 2}}},
	},
	// Ring: north-west, north-east, south-east, south-west; each joins its two
	// neighbours. The north-west board plays the centre board's part.
	layoutRing: {
		{name: "north-west"},
		{name: "north-east", links: []link{{other: 0, mine: 3, theirs: 1}}},
		{name: "south-east", links: []link{{other: 1, mine: 0, theirs: 2}}},
		{name: "south-west", links: []link{{other: 2, mine: 1, theirs: 3}, {other: 0, mine: 0, theirs: 2}}},
	},
}

// loadBoards decodes and validates a board set (structure only; officialCheck adds the
// rulebook's constraints on a complete set of four double-sided boards).
func loadBoards(data []byte) (*boardSet, error) {
	var bs boardSet
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&bs); err != nil {
		return nil, fmt.Errorf("boards: %w", err)
	}
	if err := bs.validate(); err != nil {
		return nil, err
	}
	return &bs, nil
}

// validate checks the format tag and every face (an inline set arrives decoded).
func (bs *boardSet) validate() error {
	if bs.Format != "" && bs.Format != boardsFormat {
		return fmt.Errorf("boards: format %q, want %q", bs.Format, boardsFormat)
	}
	if len(bs.Faces) == 0 {
		return fmt.Errorf("boards: no faces")
	}
	ids := map[string]bool{}
	for _, f := range bs.Faces {
		if ids[f.ID] {
			return fmt.Errorf("boards: face %q given twice", f.ID)
		}
		ids[f.ID] = true
		if err := f.validate(); err != nil {
			return fmt.Errorf("boards: face %q: %w", f.ID, err)
		}
	}
	return nil
}

// regionIndex numbers the face's regions in island order.
func (f face) regionIndex() map[string]int {
	idx := map[string]int{}
	for _, is := range f.Islands {
		for _, r := range is.Regions {
			idx[r] = len(idx)
		}
	}
	return idx
}

func splitPair(p string) (string, string, bool) {
	a, b, ok := strings.Cut(p, "-")
	return strings.TrimSpace(a), strings.TrimSpace(b), ok && a != b
}

func (f face) validate() error {
	if f.ID == "" {
		return fmt.Errorf("no id")
	}
	if len(f.Islands) == 0 {
		return fmt.Errorf("no islands")
	}
	island := map[string]int{}
	for i, is := range f.Islands {
		if len(is.Regions) == 0 {
			return fmt.Errorf("island %q has no regions", is.Name)
		}
		for _, r := range is.Regions {
			if _, dup := island[r]; dup || r == "" {
				return fmt.Errorf("region %q named twice or empty", r)
			}
			island[r] = i
		}
	}
	if len(f.Crossings) > 0 && !f.SeparateIslands {
		return fmt.Errorf("crossings on a face without the separate-islands icon")
	}
	seen := map[string]bool{}
	adj := map[string][]string{}
	for kind, list := range map[string][]string{edgeLand: f.Land, edgeSea: f.Sea, edgeCrossing: f.Crossings} {
		for _, p := range list {
			a, b, ok := splitPair(p)
			if !ok {
				return fmt.Errorf("%s %q: want two different regions joined by '-'", kind, p)
			}
			ia, oka := island[a]
			ib, okb := island[b]
			if !oka || !okb {
				return fmt.Errorf("%s %q: unknown region", kind, p)
			}
			if (kind == edgeLand) != (ia == ib) {
				return fmt.Errorf("%s %q: land borders join regions of one island, sea routes and crossings different islands", kind, p)
			}
			key := min(a, b) + "-" + max(a, b)
			if seen[key] {
				return fmt.Errorf("%q joined twice", key)
			}
			seen[key] = true
			adj[a] = append(adj[a], b)
			adj[b] = append(adj[b], a)
		}
	}
	for side, r := range f.Exits {
		if !slices.Contains(sides, side) {
			return fmt.Errorf("exit side %q, want n, e, s or w", side)
		}
		if _, ok := island[r]; !ok {
			return fmt.Errorf("exit %s: unknown region %q", side, r)
		}
	}
	// Each island is connected by land; the face by land, crossings and sea.
	for _, is := range f.Islands {
		if n := reach(is.Regions[0], adj, func(r string) bool { return island[r] == island[is.Regions[0]] }); n != len(is.Regions) {
			return fmt.Errorf("island %q is not connected by land", is.Name)
		}
	}
	if n := reach(f.Islands[0].Regions[0], adj, func(string) bool { return true }); n != len(island) {
		return fmt.Errorf("face is not connected")
	}
	return nil
}

// reach counts the regions reachable from start through regions satisfying keep.
func reach(start string, adj map[string][]string, keep func(string) bool) int {
	seen := map[string]bool{start: true}
	stack := []string{start}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range adj[r] {
			if !seen[s] && keep(s) {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return len(seen)
}

// officialCheck adds the rulebook's constraints for a complete set: four boards of two
// faces each, one face with the start icon, one with three separately scored islands
// joined by crossings, every face able to join three others (exits on at least three
// sides), six to eight regions per face for balance.
func (bs *boardSet) officialCheck() error {
	if len(bs.Faces) != 8 {
		return fmt.Errorf("boards: %d faces, want 8", len(bs.Faces))
	}
	perBoard := map[int]int{}
	starts, separate := 0, 0
	for _, f := range bs.Faces {
		perBoard[f.Board]++
		if f.StartIcon {
			starts++
		}
		if f.SeparateIslands {
			separate++
			if len(f.Islands) != 3 || len(f.Sea) != 0 || len(f.Crossings) < 2 {
				return fmt.Errorf("boards: face %s: the separate-islands face has 3 islands joined by crossings only", f.ID)
			}
		}
		if len(f.Exits) < 3 {
			return fmt.Errorf("boards: face %s: exits on %d sides, want at least 3", f.ID, len(f.Exits))
		}
		if n := len(f.regionIndex()); n < 6 || n > 8 {
			return fmt.Errorf("boards: face %s: %d regions, want 6 to 8", f.ID, n)
		}
	}
	for b := 1; b <= 4; b++ {
		if perBoard[b] != 2 {
			return fmt.Errorf("boards: board %d has %d faces, want 2", b, perBoard[b])
		}
	}
	if starts != 1 || separate != 1 {
		return fmt.Errorf("boards: %d start-icon and %d separate-islands faces, want 1 each", starts, separate)
	}
	return nil
}

func (bs *boardSet) find(id string) (face, bool) {
	for _, f := range bs.Faces {
		if strings.EqualFold(f.ID, id) {
			return f, true
		}
	}
	return face{}, false
}

// build assembles the faces (in slot order) into a layout of the given kind, turning
// each face so that it has an exit on every side joined to another face.
func (bs *boardSet) build(kind string, ids []string) (*layout, error) {
	slots, ok := layouts[kind]
	if !ok {
		return nil, fmt.Errorf("layout %q, want %q or %q", kind, layoutT, layoutRing)
	}
	if len(ids) == 0 || len(ids) > len(slots) {
		return nil, fmt.Errorf("layout: %d faces, want 1 to %d", len(ids), len(slots))
	}
	lay := &layout{Kind: kind}
	faces := make([]face, len(ids))
	boards := map[int]bool{}
	for i, id := range ids {
		f, ok := bs.find(id)
		if !ok {
			return nil, fmt.Errorf("layout: unknown face %q", id)
		}
		if f.Board != 0 && boards[f.Board] {
			return nil, fmt.Errorf("layout: face %q: both faces of board %d", id, f.Board)
		}
		boards[f.Board] = true
		if f.StartIcon && i != 0 {
			return nil, fmt.Errorf("layout: face %q carries the start icon and must be the centre board (first)", id)
		}
		faces[i] = f
	}
	// needs[i] are the world sides of slot i joined to another used slot.
	needs := make([][]int, len(ids))
	for i := range ids {
		for _, l := range slots[i].links {
			if l.other < len(ids) {
				needs[i] = append(needs[i], l.mine)
				needs[l.other] = append(needs[l.other], l.theirs)
			}
		}
	}
	rot := make([]int, len(ids))
	for i, f := range faces {
		rot[i] = -1
		for r := 0; r < 4 && rot[i] < 0; r++ {
			fits := true
			for _, w := range needs[i] {
				if _, ok := f.Exits[sides[(w-r+4)%4]]; !ok {
					fits = false
				}
			}
			if fits {
				rot[i] = r
			}
		}
		if rot[i] < 0 {
			return nil, fmt.Errorf("layout: face %q cannot be turned to join its %d neighbours at %s", f.ID, len(needs[i]), slots[i].name)
		}
	}
	// Regions, islands and edges inside the faces.
	base := make([]map[string]int, len(faces))
	for i, f := range faces {
		lay.Faces = append(lay.Faces, placedFace{ID: f.ID, Name: f.Name, Position: slots[i].name, Rotation: rot[i]})
		base[i] = map[string]int{}
		for _, is := range f.Islands {
			isl := islandInfo{Name: is.Name, Face: i}
			for _, r := range is.Regions {
				base[i][r] = len(lay.Regions)
				isl.Regions = append(isl.Regions, len(lay.Regions))
				lay.Regions = append(lay.Regions, regionInfo{Label: f.ID + "-" + r, Face: i, Island: len(lay.Islands)})
			}
			lay.Islands = append(lay.Islands, isl)
		}
	}
	lay.Adj = make([][]edge, len(lay.Regions))
	join := func(a, b int, kind string) {
		lay.Adj[a] = append(lay.Adj[a], edge{To: b, Kind: kind})
		lay.Adj[b] = append(lay.Adj[b], edge{To: a, Kind: kind})
	}
	for i, f := range faces {
		for _, group := range []struct {
			kind  string
			pairs []string
		}{{edgeLand, f.Land}, {edgeCrossing, f.Crossings}, {edgeSea, f.Sea}} {
			for _, p := range group.pairs {
				a, b, _ := splitPair(p)
				join(base[i][a], base[i][b], group.kind)
			}
		}
	}
	// Sea routes between neighbouring faces.
	exitAt := func(i, world int) int {
		return base[i][faces[i].Exits[sides[(world-rot[i]+4)%4]]]
	}
	for i := range ids {
		for _, l := range slots[i].links {
			if l.other < len(ids) {
				join(exitAt(i, l.mine), exitAt(l.other, l.theirs), edgeSea)
			}
		}
	}
	for i := range lay.Adj {
		slices.SortFunc(lay.Adj[i], func(x, y edge) int { return x.To - y.To })
	}
	return lay, nil
}

// startCandidates lists the regions of the centre face with a sea route to another face.
func (l *layout) startCandidates() []int {
	var out []int
	for r, info := range l.Regions {
		if info.Face != 0 {
			continue
		}
		for _, e := range l.Adj[r] {
			if e.Kind == edgeSea && l.Regions[e.To].Face != 0 {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// connected reports whether every region can be reached from region 0.
func (l *layout) connected() bool {
	seen := make([]bool, len(l.Regions))
	seen[0] = true
	stack, n := []int{0}, 1
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range l.Adj[r] {
			if !seen[e.To] {
				seen[e.To] = true
				n++
				stack = append(stack, e.To)
			}
		}
	}
	return n == len(l.Regions)
}
