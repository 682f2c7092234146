package page

import (
	"encoding/json"
	"regexp"
	"strings"
)

// pack holds the pictures of a replay file: every step's SVG cut into pieces (one
// per tag: an element, or a text and its closing tag), each distinct piece stored
// once. The board's outlines, which most steps share, are then written once, and a
// step costs only what it changed. A step lists its pieces as copies of runs of the
// previous step's list (-1-start, length) and indexes of pieces (≥ 0); nav.js puts
// them back together.
type pack struct {
	Pieces []string `json:"pieces"`
	Steps  [][2]any `json:"steps"` // [N, ops]
	index  map[string]int
	prev   []int
	// size counts the bytes the JSON will take, roughly (pieces and numbers).
	size int
}

// itemAttr is the attribute scene/svg gives every item (its index in the scene): it
// tells a test which item is which, and would make equal pieces differ.
var itemAttr = regexp.MustCompile(` data-item="\d+"`)

// pieces cuts an SVG document before every tag. Every '<' of scene/svg's output
// starts a tag: texts are escaped.
func pieces(doc string) []string {
	doc = itemAttr.ReplaceAllString(doc, "")
	var out []string
	for len(doc) > 0 {
		i := strings.IndexByte(doc[1:], '<')
		if i < 0 {
			out = append(out, doc)
			break
		}
		out = append(out, doc[:i+1])
		doc = doc[i+1:]
	}
	return out
}

// add adds step n's picture.
func (p *pack) add(n int, doc string) {
	if p.index == nil {
		p.index = map[string]int{}
	}
	var ids []int
	for _, s := range pieces(doc) {
		if !strings.Contains(s, "'") {
			s = strings.ReplaceAll(s, `"`, "'") // fewer escapes in JSON; the SVG reads the same
		}
		id, ok := p.index[s]
		if !ok {
			id = len(p.Pieces)
			p.index[s] = id
			p.Pieces = append(p.Pieces, s)
			p.size += len(s) + 4
		}
		ids = append(ids, id)
	}
	ops := delta(p.prev, ids)
	p.size += 8 + 5*len(ops)
	p.Steps = append(p.Steps, [2]any{n, ops})
	p.prev = ids
}

// delta writes cur as runs copied from prev and single pieces.
func delta(prev, cur []int) []int {
	at := map[int][]int{}
	for i, id := range prev {
		if len(at[id]) < 8 {
			at[id] = append(at[id], i)
		}
	}
	var ops []int
	for i := 0; i < len(cur); {
		best, bestLen := -1, 0
		for _, start := range at[cur[i]] {
			n := 0
			for i+n < len(cur) && start+n < len(prev) && prev[start+n] == cur[i+n] {
				n++
			}
			if n > bestLen {
				best, bestLen = start, n
			}
		}
		if bestLen >= 2 {
			ops = append(ops, -1-best, bestLen)
			i += bestLen
			continue
		}
		ops = append(ops, cur[i])
		i++
	}
	return ops
}

// unpack rebuilds every step's SVG from a pack's JSON, as nav.js does (for tests).
func unpack(b []byte) (map[int]string, error) {
	var p struct {
		Pieces []string
		Steps  [][2]json.RawMessage
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, err
	}
	out := map[int]string{}
	var prev []int
	for _, st := range p.Steps {
		var n int
		var ops []int
		if err := json.Unmarshal(st[0], &n); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(st[1], &ops); err != nil {
			return nil, err
		}
		var ids []int
		for i := 0; i < len(ops); i++ {
			if ops[i] >= 0 {
				ids = append(ids, ops[i])
				continue
			}
			start, n := -ops[i]-1, ops[i+1]
			ids = append(ids, prev[start:start+n]...)
			i++
		}
		var b strings.Builder
		for _, id := range ids {
			b.WriteString(p.Pieces[id])
		}
		out[n] = b.String()
		prev = ids
	}
	return out, nil
}
