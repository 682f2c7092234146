package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestAnchors_coverTheirMaps(t *testing.T) {
	top, err := root()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("anchors/[a-z]*-*.txt")
	if err != nil || len(files) != 8 {
		t.Fatalf("%d anchors files (%v), want 8", len(files), err)
	}
	for _, path := range files {
		a, err := readAnchors(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := readMap(filepath.Join(top, a.mapFile))
		if err != nil {
			t.Fatal(err)
		}
		if len(a.regions) != len(m.Regions) {
			t.Errorf("%s: %d anchors for %d regions", a.board, len(a.regions), len(m.Regions))
		}
		for _, r := range m.Regions {
			v, ok := a.regions[r.ID]
			if !ok || v[0] < 0 || v[0] > 1 || v[1] < 0 || v[1] > 1/a.aspect || v[2] <= 0 {
				t.Errorf("%s: region %d anchored at %v", a.board, r.ID, v)
			}
		}
	}
}

// TestDrawFace_reproducesTheData draws one Empire face again: the committed file is
// what the generator makes of the anchors and the engine's face.
func TestDrawFace_reproducesTheData(t *testing.T) {
	if testing.Short() {
		t.Skip("anneals a face")
	}
	top, err := root()
	if err != nil {
		t.Fatal(err)
	}
	mapFile, anchors, err := readEmpireAnchors("anchors/empire.txt")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(top, mapFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Faces []face `json:"faces"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, f := range doc.Faces {
		if f.ID != "1b" {
			continue
		}
		got, err := drawFace(f, anchors[f.ID], 12)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(top, "scene", "layout", "data", "empire-1b.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Format(faceComments(mapFile)...), want) {
			t.Errorf("data/empire-1b.txt is not what the generator draws: run go generate ./scene/layout")
		}
		return
	}
	t.Fatal("no face 1b")
}
