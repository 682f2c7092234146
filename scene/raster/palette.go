package raster

import (
	"sync"
	"sync/atomic"

	"github.com/turnmail/turnmail/scene"
)

// palette is a picture's colours (at most 256, the background first) and the blends
// of its colours drawn so far, which join the palette as they are met. A layer's
// palette is shared by the pictures drawn over it, so that a colour keeps its index
// from one picture to the next (and a band kept from one is right in the next): it
// only grows, safe for concurrent use. When it is full, a colour that is not in it
// is drawn as the nearest that is, flagged inexact: a Cache then starts the layer's
// next palette.
type palette struct {
	id     uint64 // tells palettes apart in the keys of kept bands
	mu     sync.Mutex
	n      atomic.Int32
	colors [256]scene.Color
	// mix[s][d] is the index of colour s drawn at half over colour d (-1 unknown,
	// inexactFlag when it is the nearest of a full palette).
	mix [256]atomic.Pointer[[256]atomic.Int32]
}

const inexactFlag = 1 << 8

// palettes numbers palettes.
var palettes atomic.Uint64

func newPalette(bg scene.Color) *palette {
	p := &palette{id: palettes.Add(1)}
	p.index(bg)
	return p
}

// copy returns a new palette with p's colours and blends.
func (p *palette) copy() *palette {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := &palette{id: palettes.Add(1)}
	n := p.n.Load()
	q.colors = p.colors
	q.n.Store(n)
	for i := range n {
		if t := p.mix[i].Load(); t != nil {
			u := new([256]atomic.Int32)
			for j := range t {
				u[j].Store(t[j].Load())
			}
			q.mix[i].Store(u)
		}
	}
	return q
}

// len returns the number of colours.
func (p *palette) len() int { return int(p.n.Load()) }

// colours returns the colours so far.
func (p *palette) colours() []scene.Color { return p.colors[:p.n.Load()] }

// index returns the index of colour c, added when new, and whether it is c (not the
// nearest colour of a full palette).
func (p *palette) index(c scene.Color) (uint8, bool) {
	n := p.n.Load()
	for i := range n {
		if p.colors[i] == c {
			return uint8(i), true
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.indexLocked(c)
}

func (p *palette) indexLocked(c scene.Color) (uint8, bool) {
	n := p.n.Load()
	for i := range n {
		if p.colors[i] == c {
			return uint8(i), true
		}
	}
	if n < 256 {
		p.colors[n] = c
		p.n.Store(n + 1)
		return uint8(n), true
	}
	best, bestD := 0, 1<<30
	for i, x := range p.colors {
		dr, dg, db := int(x.R)-int(c.R), int(x.G)-int(c.G), int(x.B)-int(c.B)
		if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best), false
}

// table returns the blend table of colour s.
func (p *palette) table(s uint8) *[256]atomic.Int32 {
	if t := p.mix[s].Load(); t != nil {
		return t
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.mix[s].Load(); t != nil {
		return t
	}
	t := new([256]atomic.Int32)
	for i := range t {
		t[i].Store(-1)
	}
	p.mix[s].Store(t)
	return t
}

// blend returns the index of colour s drawn at half over colour d (with inexactFlag
// when it is the nearest of a full palette).
func (p *palette) blend(s, d uint8) int32 {
	t := p.table(s)
	if v := t[d].Load(); v >= 0 {
		return v
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if v := t[d].Load(); v >= 0 {
		return v
	}
	a, b := p.colors[s], p.colors[d]
	m := func(x, y uint8) uint8 { return uint8((uint16(x) + uint16(y) + 1) / 2) }
	i, exact := p.indexLocked(scene.Color{R: m(a.R, b.R), G: m(a.G, b.G), B: m(a.B, b.B)})
	v := int32(i)
	if !exact {
		v |= inexactFlag
	}
	t[d].Store(v)
	return v
}
