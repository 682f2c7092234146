package layout

import (
	"fmt"
	"strings"
	"sync"

	"github.com/turnmail/turnmail/scene/layout/internal/layoutfile"
)

// EmpireFace returns the layout of one face of an Eight-Minute Empire board by face
// id ("1a" … "4b"): its islands as land masses in a sea, land borders as shared
// outlines, sea routes and crossings as Links, and Exits towards the face's sides, as
// the face lies unturned. Regions are numbered from 1 in the face's island order;
// Key is the region's letter. The board returned is shared and must not be modified.
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

// Islands returns the islands of an Empire face as lists of region ids, in the
// face's island order (nil for other boards).
func (b *Board) Islands() [][]int { return b.islands }

// empireFaces are the embedded Empire faces by face id, loaded and validated once.
var empireFaces = sync.OnceValues(func() (map[string]*Board, error) {
	files, err := dataFS.ReadDir("data")
	if err != nil {
		return nil, fmt.Errorf("layout: %w", err)
	}
	out := map[string]*Board{}
	for _, e := range files {
		name := e.Name()
		id, ok := strings.CutPrefix(strings.TrimSuffix(name, ".txt"), "empire-")
		if !ok || !strings.HasSuffix(name, ".txt") {
			continue
		}
		raw, err := dataFS.ReadFile("data/" + name)
		if err != nil {
			return nil, fmt.Errorf("layout: %w", err)
		}
		b, err := loadFace(raw)
		if err != nil {
			return nil, fmt.Errorf("layout: %s: %w", name, err)
		}
		if b.Name != "empire-"+id {
			return nil, fmt.Errorf("layout: %s holds board %q", name, b.Name)
		}
		out[id] = b
	}
	return out, nil
})

// loadFace reads an Empire face's layout file: its regions are its islands' regions
// in order, numbered from 1.
func loadFace(raw []byte) (*Board, error) {
	f, err := layoutfile.Parse(raw)
	if err != nil {
		return nil, err
	}
	var keys []string
	var ids []int
	var islands [][]int
	for _, is := range f.Islands {
		var list []int
		for _, k := range is.Regions {
			keys = append(keys, k)
			ids = append(ids, len(keys))
			list = append(list, len(keys))
		}
		islands = append(islands, list)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("face %s has no islands", f.Board)
	}
	b, err := build(f, keys, ids)
	if err != nil {
		return nil, err
	}
	b.islands = islands
	return b, nil
}
