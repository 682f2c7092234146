package smallworld

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// withSymbolsParsed is what withSymbols does, the slow way: the board written out
// with the symbols changed and read back as its data would be.
func withSymbolsParsed(b *board, add map[int]string, drop string) (*board, error) {
	m := MapData{Map: b.name, Turns: b.turns, Regions: slices.Clone(b.regions)}
	for r, sym := range add {
		syms := slices.DeleteFunc(slices.Clone(m.Regions[r].Symbols), func(s string) bool { return s == drop })
		m.Regions[r].Symbols = append(syms, sym)
	}
	for a := range b.adj {
		for _, c := range b.adj[a] {
			if a < c {
				m.Adjacent = append(m.Adjacent, []int{b.id(a), b.id(c)})
			}
		}
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return parseUndergroundBoard(raw)
}

// TestWithSymbols: every board of Small World Underground (its own and the surface
// ones it mixes in) with random monsters and volcanoes added, a lost tribe dropped,
// is the board its data would give written that way: the same in every field, or
// refused by both (monsters side by side, a volcano off a chasm).
func TestWithSymbols(t *testing.T) {
	c := variantUnderground.catalogue()
	r := rand.New(rand.NewPCG(4, 5))
	tried, refused := 0, 0
	for name, b := range c.boards {
		for range 30 {
			add := map[int]string{}
			for range 1 + r.IntN(7) {
				reg := r.IntN(len(b.regions))
				if b.blocked[reg] && r.IntN(2) == 0 {
					add[reg] = "volcano"
				} else {
					add[reg] = "monster"
				}
			}
			drop := ""
			if r.IntN(2) == 0 {
				drop = "lost-tribe"
			}
			got, err := b.withSymbols(add, drop)
			want, werr := withSymbolsParsed(b, add, drop)
			tried++
			if (err == nil) != (werr == nil) {
				t.Fatalf("%s %v drop %q: %v, the data's way %v", name, add, drop, err, werr)
			}
			if err != nil {
				refused++
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %v drop %q: the board differs from the data's", name, add, drop)
			}
		}
	}
	if refused == 0 || refused == tried {
		t.Fatalf("%d of %d boards refused: the cases do not cover both outcomes", refused, tried)
	}
}
