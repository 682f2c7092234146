package smallworld

import (
	"embed"
	"fmt"
	"slices"
)

// The boards of Small World Underground, loaded and validated for its variant
// (underground.go). Their terrains and symbols belong to the "underground" pack of
// data/terrains.json.

//go:embed data/underground/maps/*.json data/underground/races-powers.json
var undergroundFS embed.FS

const packUnderground = "underground"

// undergroundPacks are the terrain and symbol packs an Underground board may use.
var undergroundPacks = []string{packBase, packUnderground}

// undergroundBoards loads the four embedded Underground boards, keyed by name, each
// validated by parseUndergroundBoard.
func undergroundBoards() (map[string]*board, error) {
	files, err := undergroundFS.ReadDir("data/underground/maps")
	if err != nil {
		return nil, fmt.Errorf("read underground maps: %w", err)
	}
	out := map[string]*board{}
	for _, f := range files {
		raw, err := undergroundFS.ReadFile("data/underground/maps/" + f.Name())
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f.Name(), err)
		}
		b, err := parseUndergroundBoard(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		if _, dup := out[b.name]; dup {
			return nil, fmt.Errorf("map %s given twice", b.name)
		}
		out[b.name] = b
	}
	return out, nil
}

// parseUndergroundBoard decodes a board of Small World Underground and checks what the
// rules rely on (data/underground/maps README, "Notes for a rules engine"): monsters
// only on land, never on two bordering regions; volcanoes only on chasms; the rivers one
// channel of bordering segments whose two ends, and only they, touch the edge; every
// region but the chasms reachable from every other without crossing a chasm.
func parseUndergroundBoard(raw []byte) (*board, error) {
	b, err := parseBoardOf(raw, undergroundPacks)
	if err != nil {
		return nil, err
	}
	return checkUndergroundBoard(b)
}

// undergroundBoard is parseUndergroundBoard for a board already decoded.
func undergroundBoard(m MapData) (*board, error) {
	terrains, err := builtinTerrains()
	if err != nil {
		return nil, err
	}
	b, err := newBoard(m, terrains, undergroundPacks)
	if err != nil {
		return nil, err
	}
	return checkUndergroundBoard(b)
}

// checkUndergroundBoard checks and completes a board of Small World Underground (see
// parseUndergroundBoard).
func checkUndergroundBoard(b *board) (*board, error) {
	terrains, err := builtinTerrains()
	if err != nil {
		return nil, err
	}
	monster := uint8(1) << terrains.symbol("monster")
	volcano := uint8(1) << terrains.symbol("volcano")
	fail := func(format string, args ...any) error {
		return fmt.Errorf("map %s: %s", b.name, fmt.Sprintf(format, args...))
	}
	var rivers, ends []int
	for r := range b.regions {
		land := !b.water[r] && !b.blocked[r]
		switch {
		case b.has(r, monster) && !land:
			return nil, fail("region %d: monsters stand on land, not on a %s", b.id(r), b.terrain[r])
		case b.has(r, volcano) && !b.blocked[r]:
			return nil, fail("region %d: a volcano symbol on a %s; volcanoes are on chasms", b.id(r), b.terrain[r])
		case b.has(r, symLostTribe) && b.has(r, monster):
			return nil, fail("region %d: monsters or a lost tribe, not both", b.id(r))
		}
		if b.has(r, monster) {
			for _, n := range b.adj[r] {
				if b.has(n, monster) {
					return nil, fail("monster regions %d and %d border each other", b.id(r), b.id(n))
				}
			}
		}
		if b.water[r] && b.terrain[r] == "river" { // a surface board's seas and lakes stay seas
			b.ford[r] = true // anyone may enter a river; only an ability keeps it
			rivers = append(rivers, r)
			if b.regions[r].Edge {
				ends = append(ends, r)
			}
		}
	}
	if len(rivers) > 0 {
		if len(ends) != 2 {
			return nil, fail("%d river segments touch the edge; a river has two ends", len(ends))
		}
		// One channel: walking from one end along bordering segments reaches every
		// segment, each bordering at most two others.
		seen := b.component(ends[0], func(r int) bool { return b.water[r] })
		if len(seen) != len(rivers) || !slices.Contains(seen, ends[1]) {
			return nil, fail("the river segments do not form one channel from edge to edge")
		}
		for _, r := range rivers {
			n := 0
			for _, x := range b.adj[r] {
				if b.water[x] {
					n++
				}
			}
			if n > 2 {
				return nil, fail("river segment %d borders %d others; a channel has no forks", b.id(r), n)
			}
		}
	}
	open := 0
	start := -1
	for r := range b.regions {
		if !b.blocked[r] {
			open++
			start = r
		}
	}
	if start < 0 {
		return nil, fail("every region is a chasm")
	}
	if got := b.component(start, func(r int) bool { return !b.blocked[r] }); len(got) != open {
		return nil, fail("chasms cut the board: %d of %d regions are reachable from region %d", len(got), open, b.id(start))
	}
	return b, nil
}

// component lists the regions reachable from r through bordering regions that satisfy
// in (r included; r must satisfy in).
func (b *board) component(r int, in func(int) bool) []int {
	seen := []int{r}
	for i := 0; i < len(seen); i++ {
		for _, n := range b.adj[seen[i]] {
			if in(n) && !slices.Contains(seen, n) {
				seen = append(seen, n)
			}
		}
	}
	return seen
}
