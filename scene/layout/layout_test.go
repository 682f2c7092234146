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

func TestEmpireFace_matchesTheEngine(t *testing.T) {
	raw, err := os.ReadFile("../../engine/empire/data/boards.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Faces []empireFace `json:"faces"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Faces) != 8 {
		t.Fatalf("%d faces", len(d.Faces))
	}
	for _, f := range d.Faces {
		b, err := EmpireFace(f.ID)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, is := range f.Islands {
			keys = append(keys, is.Regions...)
		}
		if len(b.Regions) != len(keys) {
			t.Fatalf("%s: %d regions, want %d", f.ID, len(b.Regions), len(keys))
		}
		for i, r := range b.Regions {
			if r.Key != keys[i] || r.ID != i+1 {
				t.Errorf("%s: region %d is %d %q, want %q", f.ID, i, r.ID, r.Key, keys[i])
			}
		}
		if len(b.Exits) != len(f.Exits) {
			t.Errorf("%s: %d exits, want %d", f.ID, len(b.Exits), len(f.Exits))
		}
	}
	if _, err := EmpireFace("9z"); err == nil {
		t.Error("unknown face: no error")
	}
}
