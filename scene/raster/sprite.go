package raster

import (
	"encoding/binary"
	"image"
	"math"

	"github.com/turnmail/turnmail/scene"
)

// spriteMax bounds the sides of an item drawn as a sprite, in image pixels: markers,
// badges, icons and legend samples, drawn with their edges blended; a region, a
// route, a card is drawn where it lies, its edges sharp.
const spriteMax = 200

// rectMax bounds the sides of a rectangle drawn as a sprite (a card, a room), with
// sharp edges as a large shape's.
const rectMax = 800

// sprite is a small item or a label drawn once into masks, then painted wherever it
// stands: its corner sits on a whole pixel (a shape moves by less than half a pixel),
// so that the same marker is the same masks everywhere.
type sprite struct {
	x, y, w, h int     // its box, from the origin it is placed by
	adv        float64 // a label's advance width, in pixels
	// masks are the levels painted in order: the fill (a label's halo), the
	// pattern, the outline (a label's letters); nil where there is none.
	masks [3][]uint8
}

// box returns the pixels s covers placed at o.
func (s *sprite) box(o image.Point) image.Rectangle {
	return image.Rect(o.X+s.x, o.Y+s.y, o.X+s.x+s.w, o.Y+s.y+s.h)
}

func (s *sprite) cost() int { return len(s.masks[0]) + len(s.masks[1]) + len(s.masks[2]) + 64 }

// paint paints s's masks with its origin at o, in the colours given.
func (s *sprite) paint(c *canvas, o image.Point, colours [3]scene.Color) {
	for i, m := range s.masks {
		if m != nil {
			c.paint(o.X+s.x, o.Y+s.y, s.w, s.h, m, colours[i])
		}
	}
}

// spriteOp prepares shape g as a sprite (kept in r's cache), its coverage mapped
// by levels (level: edges blended, or sharp).
func (r *renderer) spriteOp(g geom, levels *[256]uint8) op {
	lo := fpt{math.Inf(1), math.Inf(1)}
	for _, ring := range g.rings {
		for _, p := range ring {
			lo.x, lo.y = math.Min(lo.x, p.x), math.Min(lo.y, p.y)
		}
	}
	if math.IsInf(lo.x, 0) {
		return op{}
	}
	o := image.Point{int(math.Round(lo.x)), int(math.Round(lo.y))}
	// The shape relative to its origin, in 1/64 pixels: the key, and what is drawn.
	rel := make([][]fpt, len(g.rings))
	k := append(r.key[:0], 'S', boolByte(g.closed), boolByte(g.fill.Set && g.closed), byte(g.fill.Pattern), boolByte(levels == &sharp))
	k = binary.LittleEndian.AppendUint64(k, math.Float64bits(r.scale))
	k = binary.LittleEndian.AppendUint64(k, math.Float64bits(g.stroke.Width))
	k = binary.LittleEndian.AppendUint32(k, uint32(len(g.stroke.Dash)))
	for _, d := range g.stroke.Dash {
		k = binary.LittleEndian.AppendUint64(k, math.Float64bits(d))
	}
	if g.fill.Set && g.fill.Pattern != scene.NoPattern {
		// A pattern lies on the image's grid: its phases at the origin.
		step, dstep, _, _ := patternGrid(r.scale)
		mod := func(a, n int) uint32 { return uint32(((a % n) + n) % n) }
		k = binary.LittleEndian.AppendUint32(k, mod(o.X, step))
		k = binary.LittleEndian.AppendUint32(k, mod(o.Y, step))
		k = binary.LittleEndian.AppendUint32(k, mod(o.X+o.Y, dstep))
		k = binary.LittleEndian.AppendUint32(k, mod(o.X-o.Y, dstep))
	}
	for i, ring := range g.rings {
		k = binary.LittleEndian.AppendUint32(k, uint32(len(ring)))
		rel[i] = make([]fpt, len(ring))
		for j, p := range ring {
			qx, qy := math.Round((p.x-lo.x)*64), math.Round((p.y-lo.y)*64)
			k = binary.LittleEndian.AppendUint32(k, uint32(int32(qx)))
			k = binary.LittleEndian.AppendUint32(k, uint32(int32(qy)))
			rel[i][j] = fpt{qx / 64, qy / 64}
		}
	}
	r.key = k
	sp := r.cache.sprite(k, func() *sprite { return r.drawSprite(geom{rel, g.closed, g.fill, g.stroke}, o, levels) })
	p := op{sp: sp, o: o, colours: [3]scene.Color{g.fill.Color, g.fill.Ink, g.stroke.Color}, box: sp.box(o)}
	r.sum(&p)
	return p
}

// drawSprite draws g (relative to the origin o it will be placed at) into a sprite.
func (r *renderer) drawSprite(g geom, o image.Point, levels *[256]uint8) *sprite {
	pad := 2 + g.stroke.Width*r.scale/2
	b := bounds(g.rings, pad)
	sp := &sprite{x: b.Min.X, y: b.Min.Y, w: b.Dx(), h: b.Dy()}
	n := b.Dx() * b.Dy()
	var fill, pattern, line []uint8
	if g.fill.Set && g.closed {
		fill = make([]uint8, n)
		rasterize(r.ras, g.rings, b, fill, levels)
		pattern = patternMask(g.fill.Pattern, fill, b.Add(o), r.scale)
	}
	r.stroke(g.rings, g.stroke, g.closed, true, func(pieces [][]fpt) {
		line = make([]uint8, n)
		rasterize(r.ras, pieces, b, line, levels)
	})
	if fill == nil {
		sp.masks[2] = line
		return sp
	}
	sp.masks = coverLayers(fill, pattern, line)
	return sp
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
