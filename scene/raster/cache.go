package raster

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"image"
	"math"
	"sync"

	"github.com/turnmail/turnmail/scene"
)

// Cache keeps the static layers of the latest boards drawn (a scene's first
// scene.Static items: the regions, their patterns and outlines), so that the next
// picture of a board only draws the pieces over a copy. Safe for concurrent use; the
// zero Cache is ready, a nil *Cache keeps nothing.
type Cache struct {
	mu      sync.Mutex
	entries []cached // the latest last
}

type cached struct {
	key  [32]byte
	rect image.Rectangle
	pix  []byte
}

// cacheBoards bounds the layers kept (about 6–9 MB each at 2×).
const cacheBoards = 4

// get copies the layer of key into dst, when it is kept at dst's size.
func (c *Cache) get(key [32]byte, dst *image.RGBA) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == key && e.rect == dst.Rect {
			copy(dst.Pix, e.pix)
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e) // the latest last
			return true
		}
	}
	return false
}

// put keeps a copy of img as the layer of key, dropping the oldest beyond cacheBoards.
func (c *Cache) put(key [32]byte, img *image.RGBA) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e.key == key {
			return
		}
	}
	if len(c.entries) >= cacheBoards {
		c.entries = c.entries[1:]
	}
	c.entries = append(c.entries, cached{key: key, rect: img.Rect, pix: append([]byte(nil), img.Pix...)})
}

// staticKey is the hash of what the static layer of s at scale looks like: the size,
// the background and every static item.
func staticKey(s *scene.Scene, scale float64) [32]byte {
	h := sha256.New()
	f := func(vs ...float64) {
		for _, v := range vs {
			binary.Write(h, binary.LittleEndian, math.Float64bits(v))
		}
	}
	col := func(cs ...scene.Color) {
		for _, c := range cs {
			h.Write([]byte{c.R, c.G, c.B})
		}
	}
	f(scale, s.Width, s.Height)
	col(s.Background)
	fill := func(fl scene.Fill) {
		col(fl.Color, fl.Ink)
		h.Write([]byte{byte(fl.Pattern), boolByte(fl.Set)})
	}
	stroke := func(st scene.Stroke) {
		col(st.Color)
		f(st.Width)
		f(st.Dash...)
		h.Write([]byte{byte(len(st.Dash))})
	}
	pts := func(ps []scene.Point) {
		binary.Write(h, binary.LittleEndian, uint32(len(ps)))
		for _, p := range ps {
			f(p.X, p.Y)
		}
	}
	for _, it := range s.Items[:s.Static] {
		switch it := it.(type) {
		case *scene.Polygon:
			h.Write([]byte{'P', byte(len(it.Rings))})
			for _, r := range it.Rings {
				pts(r)
			}
			fill(it.Fill)
			stroke(it.Stroke)
		case *scene.Circle:
			h.Write([]byte{'C'})
			f(it.Center.X, it.Center.Y, it.R)
			fill(it.Fill)
			stroke(it.Stroke)
		case *scene.Rect:
			h.Write([]byte{'R'})
			f(it.Min.X, it.Min.Y, it.Max.X, it.Max.Y, it.Radius)
			fill(it.Fill)
			stroke(it.Stroke)
		case *scene.Line:
			h.Write([]byte{'L'})
			pts(it.Points)
			stroke(it.Stroke)
		case *scene.Text:
			h.Write([]byte{'T', boolByte(it.Bold), byte(it.Anchor)})
			f(it.At.X, it.At.Y, it.Size, it.HaloWidth)
			col(it.Color, it.HaloColor)
			writeString(h, it.Text)
		}
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func writeString(h hash.Hash, s string) {
	binary.Write(h, binary.LittleEndian, uint32(len(s)))
	h.Write([]byte(s))
}
