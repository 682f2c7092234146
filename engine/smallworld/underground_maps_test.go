package smallworld

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestUndergroundBoards: the four Underground boards load and validate, their terrains
// play as the base classes of the rulebook's equivalences, chasms are never entry
// regions, and the 2- and 3-player boards carry the scanned monsters and volcanoes.
func TestUndergroundBoards(t *testing.T) {
	boards, err := undergroundBoards()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ regions, monsters, volcanoes int }{
		"underground-2p": {28, 4, 2}, "underground-3p": {33, 5, 2},
		"underground-4p": {44, 0, 0}, "underground-5p": {55, 0, 0},
	}
	terrains, err := builtinTerrains()
	if err != nil {
		t.Fatal(err)
	}
	monster := uint8(1) << terrains.symbol("monster")
	volcano := uint8(1) << terrains.symbol("volcano")
	class := map[string]string{"mudpool": Swamp, "mushroom": Forest, "blackmountain": Mountain, "mine": "mine", "crystal": "crystal", "river": "river", "chasm": "chasm"}
	for name, w := range want {
		b, ok := boards[name]
		if !ok {
			t.Errorf("%s missing", name)
			continue
		}
		monsters, volcanoes := 0, 0
		for r := range b.regions {
			if got := class[b.terrain[r]]; got != b.class[r] {
				t.Errorf("%s region %d: %s plays as %s, want %s", name, b.id(r), b.terrain[r], b.class[r], got)
			}
			if b.blocked[r] && b.entry[r] {
				t.Errorf("%s region %d: a chasm is an entry region", name, b.id(r))
			}
			if b.terrain[r] == "mine" && !b.has(r, symMine) || b.terrain[r] == "crystal" && !b.has(r, symMagic) {
				t.Errorf("%s region %d: %s lacks its symbol", name, b.id(r), b.terrain[r])
			}
			if b.has(r, monster) {
				monsters++
			}
			if b.has(r, volcano) {
				volcanoes++
			}
		}
		if len(b.regions) != w.regions || monsters != w.monsters || volcanoes != w.volcanoes {
			t.Errorf("%s: %d regions, %d monsters, %d volcanoes; want %+v", name, len(b.regions), monsters, volcanoes, w)
		}
	}
}

// TestUndergroundBoardChecks: each rule of parseUndergroundBoard refuses a board that
// breaks it, saying why.
func TestUndergroundBoardChecks(t *testing.T) {
	find := func(m MapData, terrain string, n int) int {
		for i, r := range m.Regions {
			if r.Terrain == terrain {
				if n == 0 {
					return i
				}
				n--
			}
		}
		t.Fatalf("no %s #%d", terrain, n)
		return 0
	}
	cases := map[string]struct {
		change func(m *MapData)
		want   string
	}{
		"monster on a river": {func(m *MapData) {
			m.Regions[find(*m, "river", 0)].Symbols = []string{"monster"}
		}, "monsters stand on land"},
		"volcano on land": {func(m *MapData) {
			m.Regions[find(*m, "mine", 0)].Symbols = []string{"volcano"}
		}, "volcanoes are on chasms"},
		"bordering monsters": {func(m *MapData) {
			a := m.Adjacent[0]
			for _, p := range m.Adjacent {
				if x, y := m.Regions[p[0]-1], m.Regions[p[1]-1]; x.Terrain != "river" && x.Terrain != "chasm" && y.Terrain != "river" && y.Terrain != "chasm" {
					a = p
					break
				}
			}
			m.Regions[a[0]-1].Symbols = []string{"monster"}
			m.Regions[a[1]-1].Symbols = []string{"monster"}
		}, "border each other"},
		"lost tribe and monsters": {func(m *MapData) {
			r := slices.IndexFunc(m.Regions, func(g RegionData) bool { return slices.Contains(g.Symbols, "monster") })
			m.Regions[r].Symbols = append(m.Regions[r].Symbols, "lost-tribe")
		}, "monsters or a lost tribe, not both"},
		"third river end": {func(m *MapData) {
			m.Regions[find(*m, "river", 0)].Edge = true
			m.Regions[find(*m, "river", 1)].Edge = true
			m.Regions[find(*m, "river", 2)].Edge = true
		}, "river has two ends"},
		"broken river": {func(m *MapData) {
			var keep [][]int
			for _, p := range m.Adjacent {
				if m.Regions[p[0]-1].Terrain != "river" || m.Regions[p[1]-1].Terrain != "river" {
					keep = append(keep, p)
				}
			}
			m.Adjacent = keep
		}, "one channel"},
		"unknown terrain": {func(m *MapData) { m.Regions[0].Terrain = "lava" }, "unknown terrain"},
		"chasms cut the board": {func(m *MapData) {
			// Surround a region whose neighbours are all land with chasms.
			near := map[int][]int{}
			for _, p := range m.Adjacent {
				near[p[0]] = append(near[p[0]], p[1])
				near[p[1]] = append(near[p[1]], p[0])
			}
			for _, r := range m.Regions {
				land := r.Terrain != "river" && r.Terrain != "chasm"
				for _, n := range near[r.ID] {
					land = land && m.Regions[n-1].Terrain != "river"
				}
				if land {
					for _, n := range near[r.ID] {
						m.Regions[n-1].Terrain, m.Regions[n-1].Symbols = "chasm", nil
					}
					return
				}
			}
		}, "chasms cut the board"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			m, err := undergroundMapData("underground-2p")
			if err != nil {
				t.Fatal(err)
			}
			c.change(&m)
			raw, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			_, err = parseUndergroundBoard(raw)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error mentioning %q", err, c.want)
			}
		})
	}
}

// TestUndergroundTerrainsNotInBase: a base-game board may not use Underground terrains
// or symbols (the base rules know nothing of chasms and monsters).
func TestUndergroundTerrainsNotInBase(t *testing.T) {
	for _, raw := range []string{
		`{"map":"x","turns":5,"regions":[{"id":1,"terrain":"chasm"}],"adjacent":[]}`,
		`{"map":"x","turns":5,"regions":[{"id":1,"terrain":"hill","symbols":["monster"]}],"adjacent":[]}`,
	} {
		if _, err := parseBoard([]byte(raw)); err == nil || !strings.Contains(err.Error(), "known: ") || strings.Contains(err.Error(), "chasm,") {
			t.Errorf("%s: got %v", raw, err)
		}
	}
}

// undergroundMapData returns the embedded document of an Underground board.
func undergroundMapData(name string) (MapData, error) {
	var m MapData
	raw, err := undergroundFS.ReadFile("data/underground/maps/" + name + ".json")
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(raw, &m)
}
