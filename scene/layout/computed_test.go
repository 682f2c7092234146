package layout

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// checkComputed checks what any drawing of m must satisfy: every region once in the
// map's order, the map's borders exactly, the geometry sound.
func checkComputed(t *testing.T, m Map, b *Board) {
	t.Helper()
	if !strings.HasPrefix(b.Source, "computed") {
		t.Errorf("source %q, want computed", b.Source)
	}
	if len(b.Regions) != len(m.Regions) {
		t.Fatalf("%d regions drawn, map has %d", len(b.Regions), len(m.Regions))
	}
	for i, r := range b.Regions {
		if r.ID != m.Regions[i].ID {
			t.Errorf("region %d is %d, want %d", i, r.ID, m.Regions[i].ID)
		}
	}
	if got, want := b.Borders(), m.adjacency(); !slices.Equal(got, want) {
		t.Errorf("borders %v\nwant %v", got, want)
	}
	for _, p := range crossings(b) {
		t.Error(p)
	}
}

func TestGrowMap_drawsThePrintedGraphs(t *testing.T) {
	for _, path := range engineMaps {
		m := readMap(t, path)
		m.Name = "custom"
		t.Run(path[strings.LastIndex(path, "/")+1:], func(t *testing.T) {
			b := growMap(m)
			if b == nil {
				t.Fatal("no drawing")
			}
			checkComputed(t, m, b)
			for _, r := range b.Regions {
				edge := m.Regions[slices.IndexFunc(m.Regions, func(x MapRegion) bool { return x.ID == r.ID })].Edge
				if onRim(b, r) != edge {
					t.Errorf("region %d: on the rim %t, edge %t", r.ID, onRim(b, r), edge)
				}
			}
			// Reading order: the lowest id lies in the top left quarter.
			first := b.Region(m.Regions[0].ID).Label
			if first.X > b.Width/2 || first.Y > b.Height/2 {
				t.Errorf("region %d at %v, want the top left", m.Regions[0].ID, first)
			}
		})
	}
}

// small returns a map of n regions in a row, each bordering the next; all edge.
func small(n int) Map {
	m := Map{Name: fmt.Sprintf("row-%d", n)}
	for i := range n {
		m.Regions = append(m.Regions, MapRegion{ID: 10 * (i + 1), Terrain: "hill", Edge: true})
		if i > 0 {
			m.Adjacent = append(m.Adjacent, [2]int{10 * i, 10 * (i + 1)})
		}
	}
	return m
}

func TestForMap_customMaps(t *testing.T) {
	complete := Map{Name: "k6"}
	for i := 1; i <= 6; i++ {
		complete.Regions = append(complete.Regions, MapRegion{ID: i, Edge: i <= 3})
		for j := i + 1; j <= 6; j++ {
			complete.Adjacent = append(complete.Adjacent, [2]int{j, i})
		}
	}
	islands := Map{Name: "islands", Regions: []MapRegion{{ID: 1, Edge: true}, {ID: 2, Edge: true}, {ID: 3}}}
	noEdge := small(4)
	for i := range noEdge.Regions {
		noEdge.Regions[i].Edge = false
	}
	big := small(maxRegions)
	changed := readMap(t, engineMaps[0])
	changed.Adjacent = changed.Adjacent[1:]
	for name, m := range map[string]Map{
		"one region":                    {Name: "one", Regions: []MapRegion{{ID: 7, Edge: true}}},
		"a row":                         small(5),
		"non-planar K6":                 complete,
		"unconnected":                   islands,
		"no edge region":                noEdge,
		"the largest allowed":           big,
		"a printed name, another graph": changed,
		"duplicate borders":             {Name: "dup", Regions: []MapRegion{{ID: 1, Edge: true}, {ID: 2, Edge: true}}, Adjacent: [][2]int{{1, 2}, {2, 1}}},
	} {
		t.Run(name, func(t *testing.T) {
			b, err := ForMap(m)
			if err != nil {
				t.Fatal(err)
			}
			checkComputed(t, m, b)
		})
	}
}

func TestForMap_printedBoardWithEntryRegionsAsEdge(t *testing.T) {
	// A caller may only know the entry regions (edge, or bordering a sea on the edge):
	// the printed layout still fits.
	m := readMap(t, engineMaps[0])
	sea := map[int]bool{}
	for _, r := range m.Regions {
		if r.Terrain == "sea" && r.Edge {
			sea[r.ID] = true
		}
	}
	for _, p := range m.Adjacent {
		for k, id := range p {
			if sea[p[1-k]] {
				m.Regions[slices.IndexFunc(m.Regions, func(r MapRegion) bool { return r.ID == id })].Edge = true
			}
		}
	}
	b, err := ForMap(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(b.Source, "computed") {
		t.Errorf("got a computed layout for the printed board")
	}
}

func TestForMap_concurrent(t *testing.T) {
	maps := []Map{readMap(t, engineMaps[1]), small(6), small(7)}
	var wg sync.WaitGroup
	got := make([][]*Board, 8)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, m := range maps {
				b, err := ForMap(m)
				if err != nil {
					t.Error(err)
				}
				got[g] = append(got[g], b)
			}
		}()
	}
	wg.Wait()
	for g := range got {
		for i := range maps {
			if len(got[g]) != len(maps) || got[g][i] != got[0][i] {
				t.Fatalf("goroutine %d got another board for map %d", g, i)
			}
		}
	}
}
