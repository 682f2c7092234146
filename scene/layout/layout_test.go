package layout

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
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

func TestForMap_printedBoards(t *testing.T) {
	for _, path := range engineMaps {
		m := readMap(t, path)
		t.Run(m.Name, func(t *testing.T) {
			b, err := ForMap(m)
			if err != nil {
				t.Fatal(err)
			}
			if b.Name != m.Name || strings.HasPrefix(b.Source, "computed") || b.Source == "" {
				t.Fatalf("board %q from %q, want the printed layout of %s", b.Name, b.Source, m.Name)
			}
			if len(b.Regions) != len(m.Regions) {
				t.Fatalf("%d regions drawn, map has %d", len(b.Regions), len(m.Regions))
			}
			total := 0.0
			for i, r := range b.Regions {
				want := m.Regions[i]
				if r.ID != want.ID || r.Key != strconv.Itoa(want.ID) {
					t.Errorf("region %d is %d %q, want %d", i, r.ID, r.Key, want.ID)
				}
				if got := onRim(b, r); got != want.Edge {
					t.Errorf("region %d: on the rim %t, edge %t", r.ID, got, want.Edge)
				}
				total += regionArea(r)
			}
			if board := b.Width * b.Height; math.Abs(total-board) > 1e-6*board {
				t.Errorf("regions cover %g of the board's %g", total, board)
			}
			// The drawing's borders: shared outlines, and links only where a border
			// cannot be one.
			shared := map[[2]int]bool{}
			for pr := range sharedLength(b) {
				shared[pr] = true
			}
			for _, l := range b.Links {
				if l.Kind != LinkBorder || shared[pair(l.A, l.B)] {
					t.Errorf("link %d-%d (%s) on a board of shared borders", l.A, l.B, l.Kind)
				}
			}
			if got, want := b.Borders(), m.adjacency(); !slices.Equal(got, want) {
				t.Errorf("borders drawn %v\nmap %v", got, want)
			}
			for _, p := range geometryProblems(b, pictureWidth) {
				t.Error(p)
			}
			if again, _ := ForMap(m); again != b {
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
		"long name": {Name: strings.Repeat("x", maxName+1), Regions: []MapRegion{{ID: 1}}},
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
			// Islands lie apart: only land borders are shared outlines.
			for pr := range sharedLength(b) {
				if kinds[pr] != "land" {
					t.Errorf("regions %d and %d share an outline; the face joins them by %q", pr[0], pr[1], kinds[pr])
				}
			}
			for _, r := range b.Regions {
				if onRim(b, r) {
					t.Errorf("region %s reaches the face's edge", r.Key)
				}
			}
			for _, l := range b.Links {
				if over := landCrossed(b, l.Path, l.A, l.B); len(over) > 0 {
					t.Errorf("%s %d-%d passes over regions %v", l.Kind, l.A, l.B, over)
				}
			}
			for _, e := range b.Exits {
				end := e.Path[len(e.Path)-1]
				on := map[string]bool{"n": end.Y == 0, "s": end.Y == b.Height, "w": end.X == 0, "e": end.X == b.Width}
				if !on[e.Side] || e.Path[0] != b.Region(e.Region).Label {
					t.Errorf("exit %s runs %v", e.Side, e.Path)
				}
				if over := landCrossed(b, e.Path, e.Region); len(over) > 0 {
					t.Errorf("exit %s passes over regions %v", e.Side, over)
				}
			}
			for _, p := range geometryProblems(b, faceWidth) {
				t.Error(p)
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

// TestForMap_extraBorders: a map with a few borders more than its printed layout draws
// (a game recorded before a correction of the map's data) keeps the printed layout and
// gets them as border links; a map missing a drawn border gets a computed layout.
func TestForMap_extraBorders(t *testing.T) {
	m := readMap(t, "../../engine/smallworld/data/maps/smallworld-5p.json")
	old := m
	old.Adjacent = append(slices.Clone(m.Adjacent), [2]int{14, 20})
	b, err := ForMap(old)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(b.Source, "computed") {
		t.Fatalf("source %q, want the printed layout", b.Source)
	}
	if !slices.Equal(b.Borders(), old.adjacency()) {
		t.Errorf("borders drawn differ from the map's")
	}
	var links []Link
	for _, l := range b.Links {
		if l.Kind == LinkBorder {
			links = append(links, l)
		}
	}
	if len(links) != 1 || pair(links[0].A, links[0].B) != [2]int{14, 20} || len(links[0].Path) < 3 {
		t.Errorf("border links %+v, want one from 14 to 20 through where they come closest", links)
	}
	printed, err := ForMap(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range printed.Links {
		if l.Kind == LinkBorder {
			t.Errorf("the printed layout of the corrected map draws a border link %d–%d", l.A, l.B)
		}
	}

	missing := m
	missing.Name = m.Name
	missing.Adjacent = slices.DeleteFunc(slices.Clone(m.Adjacent), func(p [2]int) bool { return pair(p[0], p[1]) == [2]int{13, 14} })
	c, err := ForMap(missing)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.Source, "computed") {
		t.Errorf("a map without a border the printed layout draws got %q, want a computed layout", c.Source)
	}
}
