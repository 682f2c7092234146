package layout

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// engineMaps are the printed boards as the engines embed them.
var engineMaps = []string{
	"../../engine/smallworld/data/maps/smallworld-2p.json",
	"../../engine/smallworld/data/maps/smallworld-3p.json",
	"../../engine/smallworld/data/maps/smallworld-4p.json",
	"../../engine/smallworld/data/maps/smallworld-5p.json",
	"../../engine/smallworld/data/underground/maps/underground-2p.json",
	"../../engine/smallworld/data/underground/maps/underground-3p.json",
	"../../engine/smallworld/data/underground/maps/underground-4p.json",
	"../../engine/smallworld/data/underground/maps/underground-5p.json",
}

// readMap reads an engine map file into a Map.
func readMap(t testing.TB, path string) Map {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Map     string `json:"map"`
		Regions []struct {
			ID      int    `json:"id"`
			Terrain string `json:"terrain"`
			Edge    bool   `json:"edge"`
		} `json:"regions"`
		Adjacent [][2]int `json:"adjacent"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	m := Map{Name: d.Map, Adjacent: d.Adjacent}
	for _, r := range d.Regions {
		m.Regions = append(m.Regions, MapRegion{ID: r.ID, Terrain: r.Terrain, Edge: r.Edge})
	}
	return m
}

func TestForMap_bordersAreTheMapsAdjacency(t *testing.T) {
	for _, path := range engineMaps {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".json"), func(t *testing.T) {
			m := readMap(t, path)
			b, err := ForMap(m)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := b.Borders(), m.adjacency(); !slices.Equal(got, want) {
				t.Errorf("borders drawn %v\nmap %v", got, want)
			}
			if len(b.Regions) != len(m.Regions) {
				t.Errorf("%d regions drawn, map has %d", len(b.Regions), len(m.Regions))
			}
			for i, r := range b.Regions {
				if r.ID != m.Regions[i].ID || len(r.Rings) == 0 || r.Room <= 0 {
					t.Errorf("region %d: id %d, %d rings, room %g", i, r.ID, len(r.Rings), r.Room)
				}
			}
			again, _ := ForMap(m)
			if again != b {
				t.Errorf("second call drew the map again")
			}
		})
	}
}

func TestForMap_refusesBadMaps(t *testing.T) {
	for name, m := range map[string]Map{
		"empty":     {Name: "x"},
		"zero id":   {Regions: []MapRegion{{ID: 0}}},
		"duplicate": {Regions: []MapRegion{{ID: 1}, {ID: 1}}},
		"unknown":   {Regions: []MapRegion{{ID: 1}}, Adjacent: [][2]int{{1, 2}}},
		"self":      {Regions: []MapRegion{{ID: 1}}, Adjacent: [][2]int{{1, 1}}},
		"too big":   {Regions: make([]MapRegion, maxRegions+1)},
	} {
		if _, err := ForMap(m); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// engineFace is a face of engine/empire/data/boards.json.
type engineFace struct {
	ID      string `json:"id"`
	Islands []struct {
		Regions []string `json:"regions"`
	} `json:"islands"`
	Land      []string          `json:"land"`
	Sea       []string          `json:"sea"`
	Crossings []string          `json:"crossings"`
	Exits     map[string]string `json:"exits"`
}

func readFaces(t testing.TB) []engineFace {
	t.Helper()
	raw, err := os.ReadFile("../../engine/empire/data/boards.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Faces []engineFace `json:"faces"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	return d.Faces
}

func TestEmpireFace_matchesTheEngine(t *testing.T) {
	faces := readFaces(t)
	if len(faces) != 8 {
		t.Fatalf("%d faces", len(faces))
	}
	for _, f := range faces {
		t.Run(f.ID, func(t *testing.T) {
			b, err := EmpireFace(f.ID)
			if err != nil {
				t.Fatal(err)
			}
			id := map[string]int{}
			for i, is := range f.Islands {
				var want []int
				for _, k := range is.Regions {
					id[k] = len(id) + 1
					want = append(want, id[k])
				}
				if got := b.Islands()[i]; !slices.Equal(got, want) {
					t.Errorf("island %d: regions %v, want %v", i, got, want)
				}
			}
			if len(b.Regions) != len(id) {
				t.Fatalf("%d regions, want %d", len(b.Regions), len(id))
			}
			for _, r := range b.Regions {
				if id[r.Key] != r.ID {
					t.Errorf("region %q has id %d, want %d", r.Key, r.ID, id[r.Key])
				}
			}
			var want [][2]int
			kinds := map[[2]int]string{}
			for kind, list := range map[string][]string{"land": f.Land, LinkSea: f.Sea, LinkCrossing: f.Crossings} {
				for _, p := range list {
					x, y, _ := strings.Cut(p, "-")
					k := pair(id[x], id[y])
					want = append(want, k)
					kinds[k] = kind
				}
			}
			slices.SortFunc(want, comparePairs)
			if got := b.Borders(); !slices.Equal(got, want) {
				t.Errorf("borders drawn %v\nface %v", got, want)
			}
			for _, l := range b.Links {
				if kinds[pair(l.A, l.B)] != l.Kind {
					t.Errorf("link %d-%d drawn as %s, the face has %s", l.A, l.B, l.Kind, kinds[pair(l.A, l.B)])
				}
			}
			if len(b.Exits) != len(f.Exits) {
				t.Errorf("%d exits, want %d", len(b.Exits), len(f.Exits))
			}
			for _, e := range b.Exits {
				if id[f.Exits[e.Side]] != e.Region {
					t.Errorf("exit %s from region %d, want %s", e.Side, e.Region, f.Exits[e.Side])
				}
			}
		})
	}
	if _, err := EmpireFace("9z"); err == nil {
		t.Error("unknown face: no error")
	}
}
