// Package raster writes a scene as a PNG image, in pure Go: golang.org/x/image/vector
// computes the shapes' coverage, golang.org/x/image/font/opentype draws the labels in
// the Go fonts, and the picture is drawn straight into palette indices (a picture of
// flat fills and lines has few colours; an edge is one blend of two of them) and
// written as a paletted PNG, small enough for a mail.
//
// A Cache makes the next picture of a board cheap: the board's static layer (the
// scene's first Static items) is drawn and compressed once, small items and labels
// are drawn once, and the picture's image data is compressed in bands of rows, of
// which those that nothing was drawn on are the layer's, and the others are parsed
// again only where they were drawn on (scene/raster/internal/deflate) and kept for
// the next picture that has them.
package raster

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"image"
	"image/color"
	imagedraw "image/draw"
	"io"
	"math"
	"slices"

	"golang.org/x/image/vector"

	"github.com/turnmail/turnmail/scene"
)

// Scale is the resolution PNG draws at: two image pixels per CSS pixel, sharp on a
// phone's screen.
const Scale = 2

// MaxBytes is the size a picture should keep within.
const MaxBytes = 100 << 10

// PNG encodes s at Scale as a paletted PNG, drawn whole and compressed whole.
func PNG(s *scene.Scene) ([]byte, error) { return (*Cache)(nil).PNG(s) }

// Encode writes s as a paletted PNG drawn at scale image pixels per CSS pixel.
func Encode(w io.Writer, s *scene.Scene, scale float64) error {
	cv, err := drawWhole(s, scale, nil)
	if err != nil {
		return err
	}
	if _, err := w.Write(encodeWhole(cv, 0)); err != nil {
		return fmt.Errorf("raster: write png: %w", err)
	}
	return nil
}

// Draw draws s at scale image pixels per CSS pixel into a new opaque RGBA image: the
// pixels of its PNG.
func Draw(s *scene.Scene, scale float64) (*image.RGBA, error) {
	cv, err := drawWhole(s, scale, nil)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, cv.w, cv.h))
	colours := cv.pal.colours()
	for y := range cv.h {
		row := cv.pix[y*cv.stride+1 : (y+1)*cv.stride]
		for x, i := range row {
			c := colours[i]
			copy(img.Pix[y*img.Stride+4*x:], []byte{c.R, c.G, c.B, 0xff})
		}
	}
	return img, nil
}

// size checks s and scale and returns the picture's size in image pixels.
func size(s *scene.Scene, scale float64) (int, int, error) {
	if err := s.Validate(); err != nil {
		return 0, 0, err
	}
	if !(scale > 0 && scale <= 4) {
		return 0, 0, fmt.Errorf("raster: scale %g, want 0 < scale <= 4", scale)
	}
	return int(math.Ceil(s.Width * scale)), int(math.Ceil(s.Height * scale)), nil
}

// drawWhole draws every item of s on a new canvas (small items and labels through
// c's sprites when c is not nil).
func drawWhole(s *scene.Scene, scale float64, c *Cache) (*canvas, error) {
	w, h, err := size(s, scale)
	if err != nil {
		return nil, err
	}
	cv := newCanvas(w, h, nil, newPalette(s.Background), nil)
	if err := newRenderer(cv, scale, c).items(s.Items); err != nil {
		return nil, err
	}
	return cv, nil
}

// fpt is a point in image pixels.
type fpt struct{ x, y float64 }

type renderer struct {
	c     *canvas
	scale float64
	ras   *vector.Rasterizer
	faces faceCache
	cache *Cache        // sprites kept, or nil
	sums  *maphash.Hash // hashes what each op paints (nil: not needed)
	cover []uint8
	key   []byte
}

func newRenderer(cv *canvas, scale float64, c *Cache) *renderer {
	return &renderer{c: cv, scale: scale, ras: vector.NewRasterizer(0, 0), faces: faceCache{}, cache: c}
}

func (r *renderer) pt(p scene.Point) fpt { return fpt{p.X * r.scale, p.Y * r.scale} }

func (r *renderer) pts(ps []scene.Point) []fpt {
	out := make([]fpt, len(ps))
	for i, p := range ps {
		out[i] = r.pt(p)
	}
	return out
}

// items draws the items in order.
func (r *renderer) items(items []scene.Item) error {
	for _, it := range items {
		o, err := r.op(it)
		if err != nil {
			return err
		}
		r.paint(o)
	}
	return nil
}

// op is an item ready to be painted: a sprite and where it goes, or a shape drawn
// where it lies; with the box of pixels it may paint and, when the renderer hashes,
// the hash of what it paints.
type op struct {
	box     image.Rectangle
	sum     uint64
	sp      *sprite
	o       image.Point
	colours [3]scene.Color
	g       *geom
}

// op prepares item it.
func (r *renderer) op(it scene.Item) (op, error) {
	if t, ok := it.(*scene.Text); ok {
		return r.textOp(t)
	}
	g, ok := r.geometry(it)
	if !ok {
		return op{}, fmt.Errorf("raster: unknown item %T", it)
	}
	lo, hi := it.Bounds()
	w, h := (hi.X-lo.X)*r.scale, (hi.Y-lo.Y)*r.scale
	if w <= spriteMax && h <= spriteMax {
		return r.spriteOp(g, &level), nil
	}
	if _, ok := it.(*scene.Rect); ok && w <= rectMax && h <= rectMax {
		return r.spriteOp(g, &sharp), nil
	}
	o := op{g: &g, box: bounds(g.rings, g.stroke.Width*r.scale/2+2)}
	if r.sums != nil {
		r.sums.Reset()
		r.sums.Write(appendItem(r.key[:0], it))
		o.sum = r.sums.Sum64()
	}
	return o, nil
}

// paint paints op o.
func (r *renderer) paint(o op) {
	switch {
	case o.sp != nil:
		o.sp.paint(r.c, o.o, o.colours)
	case o.g != nil:
		r.shape(*o.g)
	}
}

// sum sets o.sum to the hash of r.key (the sprite's), o's origin and colours.
func (r *renderer) sum(o *op) {
	if r.sums == nil {
		return
	}
	b := binary.LittleEndian.AppendUint32(r.key, uint32(int32(o.o.X)))
	b = binary.LittleEndian.AppendUint32(b, uint32(int32(o.o.Y)))
	for _, c := range o.colours {
		b = append(b, c.R, c.G, c.B)
	}
	r.key = b
	r.sums.Reset()
	r.sums.Write(b)
	o.sum = r.sums.Sum64()
}

// geom is an item's shape in image pixels: closed rings (filled and outlined) or
// open lines (stroked), with its fill and stroke.
type geom struct {
	rings  [][]fpt
	closed bool
	fill   scene.Fill
	stroke scene.Stroke
}

func (r *renderer) geometry(it scene.Item) (geom, bool) {
	switch it := it.(type) {
	case *scene.Polygon:
		rings := make([][]fpt, 0, len(it.Rings))
		for i, ring := range it.Rings {
			pts := r.pts(ring)
			// The outer ring positive, holes negative: the rasteriser adds coverage
			// up, so that a hole wound the other way cancels its outer ring.
			if (area(pts) < 0) == (i == 0) {
				reverse(pts)
			}
			rings = append(rings, pts)
		}
		return geom{rings, true, it.Fill, it.Stroke}, true
	case *scene.Circle:
		return geom{circlePath(r.pt(it.Center), it.R*r.scale), true, it.Fill, it.Stroke}, true
	case *scene.Rect:
		return geom{[][]fpt{roundRect(r.pt(it.Min), r.pt(it.Max), it.Radius*r.scale)}, true, it.Fill, it.Stroke}, true
	case *scene.Line:
		return geom{[][]fpt{r.pts(it.Points)}, false, scene.Fill{}, it.Stroke}, true
	}
	return geom{}, false
}

// shape draws g: its fill, its pattern, its outline. Where the outline covers a
// pixel whole, the fill is not drawn under it: its blend with what was there would
// not be seen, and would take a colour of the palette.
func (r *renderer) shape(g geom) {
	if !(g.fill.Set && g.closed) {
		r.stroke(g.rings, g.stroke, g.closed, false, func(pieces [][]fpt) {
			b := r.bbox(pieces, 1)
			if !b.Empty() {
				r.c.paint(b.Min.X, b.Min.Y, b.Dx(), b.Dy(), r.coverage(pieces, b), g.stroke.Color)
			}
		})
		return
	}
	b := r.bbox(g.rings, 1+g.stroke.Width*r.scale/2)
	if b.Empty() {
		return
	}
	n := b.Dx() * b.Dy()
	fill, line := make([]uint8, n), make([]uint8, n)
	rasterize(r.ras, g.rings, b, fill, &sharp)
	r.stroke(g.rings, g.stroke, true, true, func(pieces [][]fpt) { rasterize(r.ras, pieces, b, line, &sharp) })
	layers := coverLayers(fill, patternMask(g.fill.Pattern, fill, b, r.scale), line)
	for i, c := range [3]scene.Color{g.fill.Color, g.fill.Ink, g.stroke.Color} {
		if layers[i] != nil {
			r.c.paint(b.Min.X, b.Min.Y, b.Dx(), b.Dy(), layers[i], c)
		}
	}
}

// coverLayers returns the masks of a fill, its pattern and its outline (any may be
// nil) as drawn: the fill and the pattern left out where the outline is full, the
// fill where the pattern is.
func coverLayers(fill, pattern, line []uint8) [3][]uint8 {
	for i := range fill {
		switch {
		case line != nil && line[i] == full:
			fill[i] = none
			if pattern != nil {
				pattern[i] = none
			}
		case pattern != nil && pattern[i] == full:
			fill[i] = none
		}
	}
	if line != nil && !slices.ContainsFunc(line, func(v uint8) bool { return v != none }) {
		line = nil
	}
	return [3][]uint8{fill, pattern, line}
}

// bbox returns the pixel rectangle covering the rings, clipped to the canvas.
func (r *renderer) bbox(rings [][]fpt, pad float64) image.Rectangle {
	return bounds(rings, pad).Intersect(image.Rect(0, 0, r.c.w, r.c.h))
}

// bounds returns the pixel rectangle covering the rings, pad pixels wider.
func bounds(rings [][]fpt, pad float64) image.Rectangle {
	lo, hi := fpt{math.Inf(1), math.Inf(1)}, fpt{math.Inf(-1), math.Inf(-1)}
	for _, ring := range rings {
		for _, p := range ring {
			lo.x, lo.y = math.Min(lo.x, p.x), math.Min(lo.y, p.y)
			hi.x, hi.y = math.Max(hi.x, p.x), math.Max(hi.y, p.y)
		}
	}
	if lo.x > hi.x {
		return image.Rectangle{}
	}
	return image.Rect(int(math.Floor(lo.x-pad)), int(math.Floor(lo.y-pad)), int(math.Ceil(hi.x+pad)), int(math.Ceil(hi.y+pad)))
}

// coverage returns the levels of the closed rings over b (a mask of b's size, in
// r's scratch space: valid until the next call).
func (r *renderer) coverage(rings [][]fpt, b image.Rectangle) []uint8 {
	n := b.Dx() * b.Dy()
	if cap(r.cover) < n {
		r.cover = make([]uint8, n)
	}
	m := r.cover[:n]
	clear(m)
	rasterize(r.ras, rings, b, m, &sharp)
	return m
}

// rasterize writes the levels of the closed rings over b into m (b's size, cleared),
// each coverage mapped by levels (level, or sharp).
func rasterize(ras *vector.Rasterizer, rings [][]fpt, b image.Rectangle, m []uint8, levels *[256]uint8) {
	ras.Reset(b.Dx(), b.Dy())
	ox, oy := float64(b.Min.X), float64(b.Min.Y)
	for _, ring := range rings {
		if len(ring) < 2 {
			continue
		}
		ras.MoveTo(float32(ring[0].x-ox), float32(ring[0].y-oy))
		for _, p := range ring[1:] {
			ras.LineTo(float32(p.x-ox), float32(p.y-oy))
		}
		ras.ClosePath()
	}
	ras.DrawOp = drawSrc
	a := &image.Alpha{Pix: m, Stride: b.Dx(), Rect: image.Rect(0, 0, b.Dx(), b.Dy())}
	ras.Draw(a, a.Rect, image.Opaque, image.Point{})
	for i, v := range m {
		m[i] = levels[v]
	}
}

// patternMask returns the mask of pattern p within the shape's mask m over b (nil
// for no pattern). A pattern is a rule on the image's pixel grid (lines every step
// pixels, dots at a grid's nodes): exact and crisp, the same in neighbouring areas,
// and each row the one above shifted by a pixel or repeated, which compresses well.
func patternMask(p scene.Pattern, m []uint8, b image.Rectangle, scale float64) []uint8 {
	step, dstep, width, dwidth := patternGrid(scale)
	mod := func(a, n int) int { return ((a % n) + n) % n }
	var on func(x, y int) bool
	switch p {
	case scene.Hatch:
		on = func(x, y int) bool { return mod(x+y, dstep) < dwidth }
	case scene.BackHatch:
		on = func(x, y int) bool { return mod(x-y, dstep) < dwidth }
	case scene.CrossHatch:
		on = func(x, y int) bool { return mod(x+y, dstep) < dwidth || mod(x-y, dstep) < dwidth }
	case scene.Horizontal:
		on = func(_, y int) bool { return mod(y, step) < width }
	case scene.Vertical:
		on = func(x, _ int) bool { return mod(x, step) < width }
	case scene.Grid:
		on = func(x, y int) bool { return mod(x, step) < width || mod(y, step) < width }
	case scene.Dots:
		on = func(x, y int) bool { return mod(x+step/2, step) <= width && mod(y+step/2, step) <= width }
	default:
		return nil
	}
	out := make([]uint8, len(m))
	w := b.Dx()
	for y := range b.Dy() {
		for x, a := range m[y*w : (y+1)*w] {
			if a != none && on(b.Min.X+x, b.Min.Y+y) {
				out[y*w+x] = a
			}
		}
	}
	return out
}

// patternGrid returns the spacing of a pattern's lines (and dots) in image pixels
// at scale, along a row for diagonal lines, and their widths.
func patternGrid(scale float64) (step, dstep, width, dwidth int) {
	step = max(3, int(math.Round(scene.PatternSpacing*scale)))
	width = max(1, int(math.Round(scene.PatternWidth*scale)))
	// Diagonal lines step apart across them are step·√2 apart along a row.
	dstep, dwidth = int(math.Round(float64(step)*math.Sqrt2)), max(1, int(math.Round(float64(width)*math.Sqrt2)))
	return step, dstep, width, dwidth
}

// stroke cuts the outlines of rings (closed) or polylines (open) drawn with s into
// pieces — a quad per segment and a round join at every point, all wound alike so
// that they add up — and hands them to fill a few at a time: long segments are cut
// into short overlapping pieces, so that each fill's box stays small (a long
// diagonal's box is mostly empty); all at once when whole.
func (r *renderer) stroke(lines [][]fpt, s scene.Stroke, closed, whole bool, fill func([][]fpt)) {
	if s.Width <= 0 {
		return
	}
	hw := s.Width * r.scale / 2
	b := batch{fill: fill, noLimit: whole}
	const piece = 48.0 // image pixels
	for _, l := range lines {
		if closed && len(l) > 1 {
			l = append(l[:len(l):len(l)], l[0])
		}
		for _, run := range dash(l, s.Dash, r.scale) {
			for i, p := range run {
				if i > 0 {
					a := run[i-1]
					n := math.Ceil(math.Hypot(p.x-a.x, p.y-a.y) / piece)
					for k := 0.0; k < n; k++ {
						t0, t1 := math.Max(0, (k-0.05)/n), math.Min(1, (k+1.05)/n)
						b.add(quad(fpt{a.x + (p.x-a.x)*t0, a.y + (p.y-a.y)*t0}, fpt{a.x + (p.x-a.x)*t1, a.y + (p.y-a.y)*t1}, hw))
					}
				}
				b.add(polyCircle(p, hw, joinSides(hw)))
			}
		}
	}
	b.flush()
}

// batch collects pieces of one colour and fills them together while their box stays
// small (or always, with no limit: a sprite's).
type batch struct {
	fill    func([][]fpt)
	pieces  [][]fpt
	lo, hi  fpt
	noLimit bool
}

func (b *batch) add(piece []fpt) {
	if len(piece) == 0 {
		return
	}
	lo, hi := b.lo, b.hi
	if len(b.pieces) == 0 {
		lo, hi = piece[0], piece[0]
	}
	for _, p := range piece {
		lo.x, lo.y = math.Min(lo.x, p.x), math.Min(lo.y, p.y)
		hi.x, hi.y = math.Max(hi.x, p.x), math.Max(hi.y, p.y)
	}
	if !b.noLimit && len(b.pieces) > 0 && (hi.x-lo.x)*(hi.y-lo.y) > 96*96 {
		b.flush()
		b.add(piece)
		return
	}
	b.pieces, b.lo, b.hi = append(b.pieces, piece), lo, hi
}

func (b *batch) flush() {
	if len(b.pieces) > 0 {
		b.fill(b.pieces)
	}
	b.pieces = b.pieces[:0]
}

func joinSides(r float64) int {
	return max(8, min(24, int(r*2)))
}

// dash cuts a polyline into the runs drawn by the pattern (lengths in CSS pixels).
func dash(l []fpt, pattern []float64, scale float64) [][]fpt {
	total := 0.0
	for _, d := range pattern {
		total += d
	}
	if len(l) < 2 || total <= 0 {
		return [][]fpt{l}
	}
	var out [][]fpt
	idx, left, on := 0, pattern[0]*scale, true
	cur := []fpt{l[0]}
	for i := 1; i < len(l); i++ {
		a, b := l[i-1], l[i]
		seg := math.Hypot(b.x-a.x, b.y-a.y)
		pos := 0.0
		for seg-pos > left {
			pos += left
			t := pos / seg
			p := fpt{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t}
			if on {
				out = append(out, append(cur, p))
			}
			cur = []fpt{p}
			on = !on
			idx = (idx + 1) % len(pattern)
			left = pattern[idx] * scale
		}
		left -= seg - pos
		cur = append(cur, b)
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// quad is the rectangle of half-width hw around segment a–b, wound positively.
func quad(a, b fpt, hw float64) []fpt {
	dx, dy := b.x-a.x, b.y-a.y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return nil
	}
	nx, ny := -dy/n*hw, dx/n*hw
	q := []fpt{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}}
	if area(q) < 0 {
		reverse(q)
	}
	return q
}

// polyCircle is a circle as a polygon of n sides, wound positively.
func polyCircle(c fpt, r float64, n int) []fpt {
	out := make([]fpt, n)
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		out[i] = fpt{c.x + r*math.Cos(a), c.y + r*math.Sin(a)}
	}
	return out
}

// circlePath is a disc, smooth at any size.
func circlePath(c fpt, r float64) [][]fpt {
	return [][]fpt{polyCircle(c, r, max(16, min(96, int(r*1.5))))}
}

// roundRect is a rectangle with corners rounded by radius rad.
func roundRect(lo, hi fpt, rad float64) []fpt {
	rad = math.Min(rad, math.Min(hi.x-lo.x, hi.y-lo.y)/2)
	if rad <= 0 {
		return []fpt{lo, {hi.x, lo.y}, hi, {lo.x, hi.y}}
	}
	var out []fpt
	corners := []struct {
		c     fpt
		start float64
	}{{fpt{hi.x - rad, lo.y + rad}, -math.Pi / 2}, {fpt{hi.x - rad, hi.y - rad}, 0}, {fpt{lo.x + rad, hi.y - rad}, math.Pi / 2}, {fpt{lo.x + rad, lo.y + rad}, math.Pi}}
	const steps = 6
	for _, k := range corners {
		for i := 0; i <= steps; i++ {
			a := k.start + math.Pi/2*float64(i)/steps
			out = append(out, fpt{k.c.x + rad*math.Cos(a), k.c.y + rad*math.Sin(a)})
		}
	}
	return out
}

// area is the signed area of a ring (positive clockwise on screen, y down).
func area(ps []fpt) float64 {
	a := 0.0
	for i, p := range ps {
		q := ps[(i+1)%len(ps)]
		a += p.x*q.y - q.x*p.y
	}
	return a / 2
}

func reverse(ps []fpt) {
	for i, j := 0, len(ps)-1; i < j; i, j = i+1, j-1 {
		ps[i], ps[j] = ps[j], ps[i]
	}
}

// rgba is c as an image colour.
func rgba(c scene.Color) color.RGBA { return color.RGBA{c.R, c.G, c.B, 0xff} }

const drawSrc = imagedraw.Src
