package smallworld

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed data/maps/*.json data/races-powers.json data/terrains.json
var dataFS embed.FS

// Terrains of the printed boards.
const (
	Farmland = "farmland"
	Forest   = "forest"
	Hill     = "hill"
	Mountain = "mountain"
	Swamp    = "swamp"
	Sea      = "sea"
	Lake     = "lake"
)

// Region symbols of the printed boards.
const (
	SymLostTribe = "lost-tribe"
	SymMine      = "mine"
	SymCavern    = "cavern"
	SymMagic     = "magic"
)

// packBase is the content pack of the base game; terrains, symbols and abilities of
// other packs (Small World Underground) are only known to the games that use them.
const packBase = "base"

// terrainData is one terrain of data/terrains.json: a printed terrain plays as its
// class (a base terrain: Underground's mud pool plays as a swamp), may be water (seas
// and lakes; Underground's rivers) or impassable (Underground's chasms), and may carry
// symbols (Underground's mine and crystal grove regions count as the mine and magic
// symbols). Pack is the content pack it belongs to (packBase when not given).
type terrainData struct {
	Name       string   `json:"name"`
	Pack       string   `json:"pack,omitempty"`
	As         string   `json:"as,omitempty"`
	Water      bool     `json:"water,omitempty"`
	Impassable bool     `json:"impassable,omitempty"`
	Symbols    []string `json:"symbols,omitempty"`
}

// symbolData is one region symbol of data/terrains.json.
type symbolData struct {
	Name string `json:"name"`
	Pack string `json:"pack,omitempty"`
}

// terrainTable is the terrain data: terrains and symbols in data order, classes
// resolved, symbol bits by position.
type terrainTable struct {
	terrains []terrainData
	symbols  []symbolData
}

// loadTerrains decodes and validates data/terrains.json: names unique, every class a
// terrain of its own class in the same pack or the base game, symbols known.
func loadTerrains(raw []byte) (*terrainTable, error) {
	var t terrainTable
	var d struct {
		Terrains []terrainData `json:"terrains"`
		Symbols  []symbolData  `json:"symbols"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("terrains: %w", err)
	}
	if len(d.Symbols) > 8 {
		return nil, fmt.Errorf("terrains: %d symbols, at most 8", len(d.Symbols))
	}
	// The engine's symbol bits (symLostTribe …) are the first four symbols.
	for i, name := range []string{SymLostTribe, SymMine, SymCavern, SymMagic} {
		if i >= len(d.Symbols) || d.Symbols[i].Name != name {
			return nil, fmt.Errorf("terrains: symbol %d must be %s", i+1, name)
		}
	}
	for _, x := range d.Symbols {
		if x.Pack == "" {
			x.Pack = packBase
		}
		if x.Name == "" || t.symbol(x.Name) >= 0 {
			return nil, fmt.Errorf("terrains: symbol %q given twice or empty", x.Name)
		}
		t.symbols = append(t.symbols, x)
	}
	for _, x := range d.Terrains {
		if x.Pack == "" {
			x.Pack = packBase
		}
		if x.As == "" {
			x.As = x.Name
		}
		if x.Name == "" || t.terrain(x.Name) != nil {
			return nil, fmt.Errorf("terrains: %q given twice or empty", x.Name)
		}
		for _, sym := range x.Symbols {
			if t.symbol(sym) < 0 {
				return nil, fmt.Errorf("terrains: %s carries unknown symbol %q", x.Name, sym)
			}
		}
		t.terrains = append(t.terrains, x)
	}
	for _, x := range t.terrains {
		c := t.terrain(x.As)
		if c == nil || c.As != c.Name || (c.Pack != x.Pack && c.Pack != packBase) {
			return nil, fmt.Errorf("terrains: %s plays as %q, which is not a terrain class of its pack or the base game", x.Name, x.As)
		}
	}
	return &t, nil
}

func (t *terrainTable) terrain(name string) *terrainData {
	for i := range t.terrains {
		if t.terrains[i].Name == name {
			return &t.terrains[i]
		}
	}
	return nil
}

// symbol returns the bit position of symbol name, or -1.
func (t *terrainTable) symbol(name string) int {
	return slices.IndexFunc(t.symbols, func(x symbolData) bool { return x.Name == name })
}

// known lists the terrain names (or symbol names) of packs, in data order.
func (t *terrainTable) known(packs []string, symbols bool) string {
	var names []string
	if symbols {
		for _, x := range t.symbols {
			if slices.Contains(packs, x.Pack) {
				names = append(names, x.Name)
			}
		}
	} else {
		for _, x := range t.terrains {
			if slices.Contains(packs, x.Pack) {
				names = append(names, x.Name)
			}
		}
	}
	return strings.Join(names, ", ")
}

// builtinTerrains is the embedded terrain data, parsed once.
var builtinTerrains = sync.OnceValues(func() (*terrainTable, error) {
	raw, err := dataFS.ReadFile("data/terrains.json")
	if err != nil {
		return nil, fmt.Errorf("read terrains: %w", err)
	}
	return loadTerrains(raw)
})

// MapData is a board in the data format of shared/data/smallworld/maps: the printed
// boards are embedded, and the "map" option may give one inline.
type MapData struct {
	Map      string       `json:"map"`
	Players  int          `json:"players,omitempty"`
	Turns    int          `json:"turns"`
	Regions  []RegionData `json:"regions"`
	Adjacent [][]int      `json:"adjacent"`
	// Corrections are fixes of the board's data: a game recorded under rules older
	// than a correction's plays on the board as it was before it.
	Corrections []Correction `json:"corrections,omitempty"`
}

// Correction is a fix of a board's data made with rules version Rules: games of
// older rules versions play with the borders it removed (Adjacent) still there.
type Correction struct {
	Rules    int     `json:"rules"`
	Adjacent [][]int `json:"adjacent"`
	// Note says what was wrong and the source of the fix.
	Note string `json:"note"`
}

// RegionData is one region of a board as printed.
type RegionData struct {
	ID      int      `json:"id"`
	Terrain string   `json:"terrain"`
	Edge    bool     `json:"edge"`
	Symbols []string `json:"symbols,omitempty"`
}

// board is a validated map with everything the rules ask about precomputed. It is
// shared by every state of a game and never modified after load.
type board struct {
	name    string
	turns   int
	regions []RegionData
	index   map[int]int // region id → index
	adj     [][]int     // by index, ascending
	adjSet  [][]bool    // adjSet[a][b]: a and b share a border
	entry   []bool      // a first conquest may enter here (edge or sea shore on the edge)
	coastal []bool      // borders a sea or lake (Tritons)
	water   []bool      // sea or lake
	ford    []bool      // water anyone may enter but nobody keeps (Underground's rivers; set by its variant)
	caverns []int       // indexes of cavern regions (Underworld)
	blocked []bool      // impassable: never entered (Underground's chasms)
	terrain []string    // as printed
	class   []string    // the base terrain it plays as (terrains.json)
	sym     []uint8     // bit set of symbols
	// ids lists the region ids in index order, as text, for messages.
	ids []string
	// before are the board as it was before each correction of its data, in
	// ascending order of the rules version that made it (see forRules).
	before []boardBefore
}

// boardBefore is a board as games of rules older than rules play it.
type boardBefore struct {
	rules int
	board *board
}

// versions returns b and its boards before each correction.
func (b *board) versions() []*board {
	out := []*board{b}
	for _, old := range b.before {
		out = append(out, old.board)
	}
	return out
}

// forRules returns the board as a game of the given rules version plays it: b, or b
// as it was before the first correction made after that version.
func (b *board) forRules(rules int) *board {
	for _, old := range b.before {
		if rules < old.rules {
			return old.board
		}
	}
	return b
}

const (
	symLostTribe uint8 = 1 << iota
	symMine
	symCavern
	symMagic
)

func (b *board) has(r int, sym uint8) bool { return b.sym[r]&sym != 0 }

func (b *board) id(r int) int { return b.regions[r].ID }

// parseBoard decodes and validates a map document of the base game.
func parseBoard(raw []byte) (*board, error) { return parseBoardOf(raw, []string{packBase}) }

// parseBoardOf decodes and validates a map document whose terrains and symbols belong
// to packs.
func parseBoardOf(raw []byte, packs []string) (*board, error) {
	terrains, err := builtinTerrains()
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var m MapData
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("map: %w", err)
	}
	b, err := newBoard(m, terrains, packs)
	if err != nil {
		return nil, err
	}
	return withCorrections(b, m, terrains, packs)
}

// withCorrections gives b its boards before each of m's corrections: each has the
// borders of m plus those removed by that correction and every later one.
func withCorrections(b *board, m MapData, terrains *terrainTable, packs []string) (*board, error) {
	fixes := slices.Clone(m.Corrections)
	slices.SortFunc(fixes, func(x, y Correction) int { return x.Rules - y.Rules })
	for i, c := range fixes {
		if c.Rules <= rulesOriginal || c.Rules > currentRules || (i > 0 && c.Rules == fixes[i-1].Rules) {
			return nil, fmt.Errorf("map %s: correction of rules %d: want distinct versions from %d to %d", b.name, c.Rules, rulesOriginal+1, currentRules)
		}
		old := m
		old.Corrections = nil
		old.Adjacent = slices.Clone(m.Adjacent)
		for _, later := range fixes[i:] {
			old.Adjacent = append(old.Adjacent, later.Adjacent...)
		}
		ob, err := newBoard(old, terrains, packs)
		if err != nil {
			return nil, fmt.Errorf("correction of rules %d: %w", c.Rules, err)
		}
		b.before = append(b.before, boardBefore{rules: c.Rules, board: ob})
	}
	return b, nil
}

// newBoard validates m (ids unique and positive, terrains and symbols known, adjacency
// between known distinct regions without duplicates) and precomputes the derived sets.
func newBoard(m MapData, terrains *terrainTable, packs []string) (*board, error) {
	name := m.Map
	if name == "" {
		name = "custom"
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("map %s: %s", name, fmt.Sprintf(format, args...))
	}
	if m.Turns < 1 {
		return nil, fail("turns must be at least 1, got %d", m.Turns)
	}
	if len(m.Regions) == 0 {
		return nil, fail("no regions")
	}
	n := len(m.Regions)
	b := &board{
		name: name, turns: m.Turns, regions: slices.Clone(m.Regions),
		index: make(map[int]int, n), adj: make([][]int, n), adjSet: make([][]bool, n),
		entry: make([]bool, n), coastal: make([]bool, n), water: make([]bool, n), ford: make([]bool, n), blocked: make([]bool, n),
		terrain: make([]string, n), class: make([]string, n), sym: make([]uint8, n), ids: make([]string, n),
	}
	for i, r := range m.Regions {
		if r.ID < 1 {
			return nil, fail("region id %d: ids must be positive", r.ID)
		}
		if _, dup := b.index[r.ID]; dup {
			return nil, fail("region id %d given twice", r.ID)
		}
		b.index[r.ID] = i
		td := terrains.terrain(r.Terrain)
		if td == nil || !slices.Contains(packs, td.Pack) {
			return nil, fail("region %d: unknown terrain %q (known: %s)", r.ID, r.Terrain, terrains.known(packs, false))
		}
		b.terrain[i] = r.Terrain
		b.class[i] = td.As
		b.water[i] = td.Water
		b.blocked[i] = td.Impassable
		for _, s := range r.Symbols {
			k := terrains.symbol(s)
			if k < 0 || !slices.Contains(packs, terrains.symbols[k].Pack) {
				return nil, fail("region %d: unknown symbol %q (known: %s)", r.ID, s, terrains.known(packs, true))
			}
			if b.sym[i]&(1<<k) != 0 {
				return nil, fail("region %d: symbol %q given twice", r.ID, s)
			}
			b.sym[i] |= 1 << k
		}
		for _, s := range td.Symbols {
			b.sym[i] |= 1 << terrains.symbol(s)
		}
		if b.water[i] && b.sym[i]&symLostTribe != 0 {
			return nil, fail("region %d: a %s cannot hold a lost tribe", r.ID, r.Terrain)
		}
		if b.sym[i]&symCavern != 0 {
			b.caverns = append(b.caverns, i)
		}
		b.ids[i] = strconv.Itoa(r.ID)
		b.adjSet[i] = make([]bool, n)
	}
	for _, pair := range m.Adjacent {
		if len(pair) != 2 {
			return nil, fail("adjacency %v is not a pair of region ids", pair)
		}
		a, okA := b.index[pair[0]]
		c, okC := b.index[pair[1]]
		if !okA || !okC {
			return nil, fail("adjacency %v names an unknown region", pair)
		}
		if a == c {
			return nil, fail("adjacency %v joins a region to itself", pair)
		}
		if b.adjSet[a][c] {
			return nil, fail("adjacency %v given twice", pair)
		}
		b.adjSet[a][c], b.adjSet[c][a] = true, true
		b.adj[a] = append(b.adj[a], c)
		b.adj[c] = append(b.adj[c], a)
	}
	for i := range b.adj {
		sort.Ints(b.adj[i])
		// Symmetry holds by construction; check it anyway so that a future change to
		// the loader cannot break it silently.
		for _, j := range b.adj[i] {
			if !b.adjSet[j][i] {
				return nil, fail("adjacency of %d and %d is not symmetric", b.id(i), b.id(j))
			}
		}
	}
	for i := range b.regions {
		b.entry[i] = b.regions[i].Edge && !b.blocked[i]
		for _, j := range b.adj[i] {
			if b.water[j] {
				b.coastal[i] = true
			}
			if b.class[j] == Sea && b.regions[j].Edge && !b.blocked[i] {
				b.entry[i] = true
			}
		}
	}
	return b, nil
}
