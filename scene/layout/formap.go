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
// printed board (by name) when it shows exactly m's regions, borders and edge, else
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
		if b, ok := printed[m.Name]; ok && fits(b, m) {
			return b
		}
		return computeMap(m)
	}), nil
}

// fits reports whether b draws m: the same region ids in the same order, the same
// borders, the edge regions and only they on the rim.
func fits(b *Board, m Map) bool {
	if len(b.Regions) != len(m.Regions) {
		return false
	}
	for i, r := range m.Regions {
		if b.Regions[i].ID != r.ID || b.Regions[i].rim != r.Edge {
			return false
		}
	}
	return slices.Equal(b.Borders(), m.adjacency())
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
	mu     sync.Mutex
	boards map[string]*Board
}

var boards = &boardCache{boards: map[string]*Board{}}

// get returns the cached layout of m, or draws it and keeps it (dropping an older one
// when the cache is full).
func (c *boardCache) get(m Map, draw func() *Board) *Board {
	key := fingerprint(m)
	c.mu.Lock()
	b, ok := c.boards[key]
	c.mu.Unlock()
	if ok {
		return b
	}
	b = draw()
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.boards[key]; ok {
		return old
	}
	if len(c.boards) >= maxCached {
		for k := range c.boards { // drop one: any will do
			delete(c.boards, k)
			break
		}
	}
	c.boards[key] = b
	return b
}

// fingerprint is a text that identifies m completely.
func fingerprint(m Map) string {
	var sb strings.Builder
	sb.WriteString(strconv.Quote(m.Name))
	for _, r := range m.Regions {
		fmt.Fprintf(&sb, ";%d:%q:%t", r.ID, r.Terrain, r.Edge)
	}
	for _, p := range m.adjacency() {
		fmt.Fprintf(&sb, ";%d-%d", p[0], p[1])
	}
	return sb.String()
}
