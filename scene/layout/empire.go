package layout

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
)

//go:embed data/empire-faces.json
var empireJSON []byte

// empireFace is one Empire face's graph as the layout data gives it.
type empireFace struct {
	ID      string `json:"id"`
	Islands []struct {
		Name    string   `json:"name"`
		Regions []string `json:"regions"`
	} `json:"islands"`
	Land      []string          `json:"land"`
	Sea       []string          `json:"sea"`
	Crossings []string          `json:"crossings"`
	Exits     map[string]string `json:"exits"`
}

// EmpireFace returns the layout of one face of an Eight-Minute Empire board by face
// id ("1a" … "4b"). Regions are numbered from 1 in the face's island order; Key is the
// region's letter. The board returned is shared and must not be modified.
func EmpireFace(face string) (*Board, error) {
	faces, err := empireFaces()
	if err != nil {
		return nil, err
	}
	b, ok := faces[face]
	if !ok {
		return nil, fmt.Errorf("layout: no Empire face %q", face)
	}
	return b, nil
}

var empireFaces = sync.OnceValues(func() (map[string]*Board, error) {
	var doc struct {
		Format string       `json:"format"`
		Faces  []empireFace `json:"faces"`
	}
	dec := json.NewDecoder(bytes.NewReader(empireJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("layout: empire faces: %w", err)
	}
	out := map[string]*Board{}
	for _, f := range doc.Faces {
		b, err := computeFace(f)
		if err != nil {
			return nil, fmt.Errorf("layout: empire face %q: %w", f.ID, err)
		}
		out[f.ID] = b
	}
	return out, nil
})

// computeFace draws a face as a grid of boxes, island after island; land borders,
// crossings and sea routes are all Links.
func computeFace(f empireFace) (*Board, error) {
	const size, gap = 1000.0, 40.0
	idx := map[string]int{}
	var keys []string
	for _, is := range f.Islands {
		for _, r := range is.Regions {
			if _, dup := idx[r]; dup {
				return nil, fmt.Errorf("region %q twice", r)
			}
			keys = append(keys, r)
			idx[r] = len(keys)
		}
	}
	n := len(keys)
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	cell := (size - 2*gap) / float64(cols)
	b := &Board{Name: "empire-" + f.ID, Width: size, Height: size, Source: SourceComputed}
	for i, k := range keys {
		x0, y0 := gap+float64(i%cols)*cell+gap/2, gap+float64(i/cols)*cell+gap/2
		x1, y1 := x0+cell-gap, y0+cell-gap
		b.Regions = append(b.Regions, Region{
			ID: i + 1, Key: k,
			Rings: [][]Point{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}},
			Label: Point{(x0 + x1) / 2, (y0 + y1) / 2}, Room: (cell - gap) / 2,
		})
	}
	for _, k := range []struct {
		kind string
		list []string
	}{{LinkBorder, f.Land}, {LinkSea, f.Sea}, {LinkCrossing, f.Crossings}} {
		kind := k.kind
		for _, p := range k.list {
			x, y, _ := strings.Cut(p, "-")
			a, b2 := idx[x], idx[y]
			if a == 0 || b2 == 0 || a == b2 {
				return nil, fmt.Errorf("%s %q: unknown regions", kind, p)
			}
			b.Links = append(b.Links, Link{A: a, B: b2, Kind: kind, Path: []Point{b.Regions[a-1].Label, b.Regions[b2-1].Label}})
		}
	}
	for _, side := range []string{"n", "e", "s", "w"} {
		r, ok := f.Exits[side]
		if !ok {
			continue
		}
		a := idx[r]
		if a == 0 {
			return nil, fmt.Errorf("exit %s: unknown region %q", side, r)
		}
		from := b.Regions[a-1].Label
		to := map[string]Point{"n": {from.X, 0}, "e": {size, from.Y}, "s": {from.X, size}, "w": {0, from.Y}}[side]
		b.Exits = append(b.Exits, Exit{Side: side, Region: a, Path: []Point{from, to}})
	}
	return b, nil
}
