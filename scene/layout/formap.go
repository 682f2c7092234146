package layout

import (
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/turnmail/turnmail/scene/layout/internal/layoutfile"
)

// ForMap returns the layout of a Small World family map: the embedded one for a
// printed board (by name) when it shows exactly m's regions and borders, else
// one computed from the graph, which keeps the ids' reading order (left to right, top
// to bottom), puts edge regions on the rim, and shows exactly the graph's adjacency.
// Results are cached per map (safe for concurrent use); the board returned is shared
// and must not be modified.
func ForMap(m Map) (*Board, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	printed, err := printedBoards()
	if err != nil {
		return nil, err
	}
	return boards.get(m, func() *Board {
		if b, ok := printed[m.Name]; ok {
			if extra, ok := fits(b, m); ok {
				return withBorderLinks(b, extra)
			}
		}
		return computeMap(m)
	}), nil
}

// maxExtraBorders is how many borders a map may have beyond what its printed
// layout draws for the layout still to be used, with those borders drawn as links:
// a game recorded before a correction of the map's data keeps the border the
// correction removed (see engine/smallworld's map corrections).
const maxExtraBorders = 3

// fits reports whether b draws m: the same region ids in the same order, every border
// b draws is one of m's, and m has at most maxExtraBorders more, which it returns.
// Edge flags are not compared: the printed board's rim is a fact of its layout, and a
// caller may only know a wider set (the entry regions).
func fits(b *Board, m Map) (extra [][2]int, ok bool) {
	if len(b.Regions) != len(m.Regions) {
		return nil, false
	}
	for i, r := range m.Regions {
		if b.Regions[i].ID != r.ID {
			return nil, false
		}
	}
	drawn, want := b.Borders(), m.adjacency()
	for _, p := range drawn {
		if _, found := slices.BinarySearchFunc(want, p, comparePairs); !found {
			return nil, false
		}
	}
	for _, p := range want {
		if _, found := slices.BinarySearchFunc(drawn, p, comparePairs); !found {
			extra = append(extra, p)
		}
	}
	return extra, len(extra) <= maxExtraBorders
}

// withBorderLinks returns b itself when extra is empty, else a copy of b that also
// draws the extra borders as links of kind LinkBorder.
func withBorderLinks(b *Board, extra [][2]int) *Board {
	if len(extra) == 0 {
		return b
	}
	c := *b
	c.Links = slices.Clone(b.Links)
	index := make(map[int]int, len(b.Regions))
	for i, r := range b.Regions {
		index[r.ID] = i
	}
	for _, p := range extra {
		ra, rb := b.Regions[index[p[0]]], b.Regions[index[p[1]]]
		c.Links = append(c.Links, Link{A: p[0], B: p[1], Kind: LinkBorder, Path: borderPath(ra, rb)})
	}
	return &c
}

//go:embed data/*.txt
var dataFS embed.FS

// printedBoards are the embedded layouts of the printed boards, by name, loaded and
// validated once.
var printedBoards = sync.OnceValues(func() (map[string]*Board, error) {
	files, err := dataFS.ReadDir("data")
	if err != nil {
		return nil, fmt.Errorf("layout: %w", err)
	}
	out := map[string]*Board{}
	for _, e := range files {
		name := e.Name()
		if !strings.HasSuffix(name, ".txt") || strings.HasPrefix(name, "empire-") {
			continue
		}
		raw, err := dataFS.ReadFile("data/" + name)
		if err != nil {
			return nil, fmt.Errorf("layout: %w", err)
		}
		b, err := loadMapLayout(raw)
		if err != nil {
			return nil, fmt.Errorf("layout: %s: %w", name, err)
		}
		if b.Name+".txt" != name {
			return nil, fmt.Errorf("layout: %s holds board %q", name, b.Name)
		}
		out[b.Name] = b
	}
	return out, nil
})

// loadMapLayout reads the layout file of a Small World family board: its regions are
// keyed by their ids, listed in ascending order.
func loadMapLayout(raw []byte) (*Board, error) {
	f, err := layoutfile.Parse(raw)
	if err != nil {
		return nil, err
	}
	var ids []int
	seen := map[string]bool{}
	for _, k := range f.Cells {
		if seen[k] {
			continue
		}
		seen[k] = true
		id, err := strconv.Atoi(k)
		if err != nil || id < 1 || strconv.Itoa(id) != k {
			return nil, fmt.Errorf("cell key %q is not a region id", k)
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = strconv.Itoa(id)
	}
	return build(f, keys, ids)
}

// maxCached bounds the layouts kept: inline maps come from archives.
const maxCached = 64

// boardCache keeps layouts by the map's fingerprint.
type boardCache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
}

// cacheEntry is one map's layout, drawn once however many callers ask at the same
// time.
type cacheEntry struct {
	once  sync.Once
	board *Board
}

var boards = &boardCache{entries: map[string]*cacheEntry{}}

// get returns the cached layout of m, or draws it and keeps it (dropping another
// when the cache is full).
func (c *boardCache) get(m Map, draw func() *Board) *Board {
	key := fingerprint(m)
	c.mu.Lock()
	e, ok := c.entries[key]
	if !ok {
		if len(c.entries) >= maxCached {
			for k := range c.entries { // drop one: any will do
				delete(c.entries, k)
				break
			}
		}
		e = &cacheEntry{}
		c.entries[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.board = draw() })
	return e.board
}

// fingerprint is a text that identifies everything of m a layout depends on (not
// the terrains).
func fingerprint(m Map) string {
	var sb strings.Builder
	sb.WriteString(strconv.Quote(m.Name))
	for _, r := range m.Regions {
		fmt.Fprintf(&sb, ";%d:%t", r.ID, r.Edge)
	}
	for _, p := range m.adjacency() {
		fmt.Fprintf(&sb, ";%d-%d", p[0], p[1])
	}
	return sb.String()
}
