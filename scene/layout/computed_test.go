package layout

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestComputeMap_drawsPrintedGraphsExactly(t *testing.T) {
	for _, path := range engineMaps {
		m := readMap(t, path)
		m.Name = "custom-" + m.Name
		t.Run(m.Name, func(t *testing.T) {
			start := time.Now()
			b := growMap(m)
			if b == nil {
				t.Fatal("no drawing")
			}
			t.Logf("%s in %v, %d links", m.Name, time.Since(start), len(b.Links))
			if got, want := b.Borders(), m.adjacency(); !slices.Equal(got, want) {
				t.Errorf("borders %v\nwant %v", got, want)
			}
			if !strings.HasPrefix(b.Source, "computed") {
				t.Errorf("source %q", b.Source)
			}
		})
	}
}
