package layout

import (
	"strings"
	"testing"
)

// BenchmarkLoadAll loads and validates every embedded layout, as the first picture
// after start-up does.
func BenchmarkLoadAll(b *testing.B) {
	files, err := dataFS.ReadDir("data")
	if err != nil {
		b.Fatal(err)
	}
	var raws [][]byte
	var faces []bool
	for _, e := range files {
		raw, err := dataFS.ReadFile("data/" + e.Name())
		if err != nil {
			b.Fatal(err)
		}
		raws = append(raws, raw)
		faces = append(faces, strings.HasPrefix(e.Name(), "empire-"))
	}
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		for i, raw := range raws {
			load := loadMapLayout
			if faces[i] {
				load = loadFace
			}
			if _, err := load(raw); err != nil {
				b.Fatal(err)
			}
		}
	}
	// The machine is shared: CPU time says more than the wall clock.
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkForMap is a picture's look-up of its board once loaded.
func BenchmarkForMap(b *testing.B) {
	m := readMap(b, engineMaps[7])
	if _, err := ForMap(m); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := ForMap(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkComputeMap draws a 55-region map without a printed layout.
func BenchmarkComputeMap(b *testing.B) {
	m := readMap(b, engineMaps[7])
	for range b.N {
		if growMap(m) == nil {
			b.Fatal("no drawing")
		}
	}
}
