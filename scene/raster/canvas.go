package raster

import (
	"encoding/binary"
	"math/bits"

	"github.com/turnmail/turnmail/scene"
)

// Coverage levels: what a shape's mask says of a pixel. An edge is drawn in one
// blend, half the colour over what lies below: at 2× an edge looks as smooth as with
// more steps, and a picture with fewer colours and less noise compresses better.
const (
	none = 0
	half = 1
	full = 2
)

// sharp maps a coverage to full or none: the edges of a region, which a phone
// shows pixel for pixel at 2×, where a blend would cost more bytes than it shows.
var sharp = func() (l [256]uint8) {
	for i := 128; i < 256; i++ {
		l[i] = full
	}
	return l
}()

// fullWord is eight mask bytes of full coverage.
const fullWord = full * 0x0101010101010101

// fullRun holds eight pixels of each palette index.
var fullRun = func() (r [256][8]uint8) {
	for i := range r {
		for j := range r[i] {
			r[i][j] = uint8(i)
		}
	}
	return r
}()

// level maps a coverage (0–255) to its level.
var level = func() (l [256]uint8) {
	for i := range l {
		switch {
		case i >= 192:
			l[i] = full
		case i >= 64:
			l[i] = half
		}
	}
	return l
}()

// canvas is an image of palette indices stored as a PNG's image data: each row a
// filter byte (0, none) and its pixels, which the encoder reads as they are. A canvas
// drawn over a kept layer copies the layer's rows in bands as they are drawn on, and
// records which tiles of each row were drawn on (dirty), so that the encoder knows
// which bands and bytes changed.
type canvas struct {
	w, h, stride int
	pix          []byte
	pal          *palette
	inexact      bool     // a colour drawn is the nearest the full palette has
	base         *layer   // the layer below, or nil
	ready        []bool   // per band: rows set from the layer (or the background)
	dirty        []uint64 // per row: the tiles drawn on (with a base)
	tile         int      // tile width in pixels
}

// bandRows is the height of a band of the encoder, in rows.
const bandRows = 32

// dictRows is how many rows before its band a band's matches reach back to.
const dictRows = 2

// tileWidth is the width of the tiles of a row of w pixels that dirty records.
func tileWidth(w int) int { return max(16, (w+63)/64) }

// newCanvas returns a w × h canvas of the background colour bg, over layer base
// (nil: none). buf is reused when large enough.
func newCanvas(w, h int, base *layer, pal *palette, buf []byte) *canvas {
	c := &canvas{w: w, h: h, stride: w + 1, pal: pal, base: base, tile: tileWidth(w)}
	n := c.stride * h
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	c.pix = buf[:n]
	c.ready = make([]bool, (h+bandRows-1)/bandRows)
	if base == nil {
		clear(c.pix)
		for i := range c.ready {
			c.ready[i] = true
		}
		return c
	}
	c.dirty = make([]uint64, h)
	return c
}

// rows makes rows y0 to y1 (exclusive) ready to draw on.
func (c *canvas) rows(y0, y1 int) {
	for b := y0 / bandRows; b*bandRows < y1 && b < len(c.ready); b++ {
		if c.ready[b] {
			continue
		}
		c.ready[b] = true
		for y := b * bandRows; y < min(c.h, (b+1)*bandRows); y++ {
			copy(c.pix[y*c.stride:(y+1)*c.stride], c.base.row(y))
		}
	}
}

// paint draws colour col through mask m (levels, w wide, h high) with its corner at
// (x0, y0), clipped to the canvas.
func (c *canvas) paint(x0, y0, w, h int, m []uint8, col scene.Color) {
	ci, exact := c.pal.index(col)
	c.inexact = c.inexact || !exact
	xa, xb := max(0, x0), min(c.w, x0+w)
	ya, yb := max(0, y0), min(c.h, y0+h)
	if xa >= xb || ya >= yb {
		return
	}
	c.rows(ya, yb)
	mix := c.pal.table(ci)
	for y := ya; y < yb; y++ {
		mrow := m[(y-y0)*w+xa-x0 : (y-y0)*w+xb-x0]
		drow := c.pix[y*c.stride+1+xa : y*c.stride+1+xb]
		first, last := -1, -1
		for x := 0; x < len(mrow); x++ {
			// Eight pixels out of the mask, or all in it, at once.
			if x+8 <= len(mrow) {
				switch binary.LittleEndian.Uint64(mrow[x:]) {
				case 0:
					x += 7
					continue
				case fullWord:
					copy(drow[x:x+8], fullRun[ci][:])
					if first < 0 {
						first = x
					}
					last = x + 7
					x += 7
					continue
				}
			}
			switch mrow[x] {
			case none:
				continue
			case full:
				drow[x] = ci
			default:
				v := mix[drow[x]].Load()
				if v < 0 {
					v = c.pal.blend(ci, drow[x])
				}
				if v&inexactFlag != 0 {
					c.inexact = true
				}
				drow[x] = uint8(v)
			}
			if first < 0 {
				first = x
			}
			last = x
		}
		if c.dirty != nil && first >= 0 {
			c.dirty[y] |= c.tiles(xa+first, xa+last+1)
		}
	}
}

// tiles returns the mask of the tiles that pixels x0 to x1 (exclusive) touch.
func (c *canvas) tiles(x0, x1 int) uint64 {
	a, b := x0/c.tile, (x1-1)/c.tile
	if b >= 63 {
		b = 63
	}
	return (^uint64(0) >> (63 - uint(b))) &^ (uint64(1)<<uint(a) - 1)
}

// Next implements deflate.Changes: the first run of bytes of the image data within
// [a, b) that lies in tiles drawn on.
func (c *canvas) Next(a, b int) (int, int) {
	for y := a / c.stride; y*c.stride < b; y++ {
		d := c.dirty[y]
		if d == 0 {
			continue
		}
		row := y * c.stride
		x0 := max(a-row, 1) - 1 // the filter byte is never drawn on
		x1 := min(b-row, c.stride) - 1
		if x1 <= x0 {
			continue
		}
		m := d & c.tiles(x0, x1)
		if m == 0 {
			continue
		}
		t := bits.TrailingZeros64(m)
		e := t + bits.TrailingZeros64(^(d >> uint(t)))
		return row + 1 + max(x0, t*c.tile), row + 1 + min(x1, e*c.tile)
	}
	return b, b
}

// spans calls f with each run of tiles drawn on in row y, as pixel offsets.
func (c *canvas) spans(y int, f func(x0, x1 int)) {
	d := c.dirty[y]
	for d != 0 {
		a := bits.TrailingZeros64(d)
		b := a + bits.TrailingZeros64(^(d >> uint(a)))
		x1 := c.w
		if b < 64 {
			x1 = min(c.w, b*c.tile)
			d &^= (uint64(1)<<uint(b) - 1)
		} else {
			d = 0
		}
		f(a*c.tile, x1)
	}
}
