// Package raster writes a scene as a PNG image, in pure Go: golang.org/x/image/vector
// fills the shapes (anti-aliased), golang.org/x/image/font/opentype draws the labels in
// the Go fonts, and the image is written as a paletted PNG (at most 256 colours, which a
// picture of flat fills and lines needs), small enough for a mail.
package raster

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/vector"

	"github.com/turnmail/turnmail/scene"
)

// Scale is the resolution PNG draws at: two image pixels per CSS pixel, sharp on a
// phone's screen.
const Scale = 2

// MaxBytes is the size a picture should keep within: PNG writes it with fewer colours
// when it would be larger.
const MaxBytes = 100 << 10

// PNG encodes s at Scale as a paletted PNG of 128 colours; one over MaxBytes is
// compressed harder, and at last with 32 colours (anti-aliased edges get coarser, the
// scene's own colours stay: a picture uses fewer than 32).
func PNG(s *scene.Scene) ([]byte, error) { return (*Cache)(nil).PNG(s) }

// PNG is PNG with the board's static layer (s.Static) drawn once and kept in c (a nil
// Cache keeps nothing).
func (c *Cache) PNG(s *scene.Scene) ([]byte, error) {
	img, err := c.draw(s, Scale)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	keep := colours(s)
	// Fast first (klauspost's zlib); the standard library's, which packs a picture
	// tighter, for one that is over the budget; the last try with fewer colours.
	for _, try := range []struct {
		colours int
		encode  func(io.Writer, *image.Paletted) error
	}{
		{128, func(w io.Writer, p *image.Paletted) error { return encodePaletted(w, p, 6) }},
		{128, func(w io.Writer, p *image.Paletted) error { return png.Encode(w, p) }},
		{32, func(w io.Writer, p *image.Paletted) error { return png.Encode(w, p) }},
		{32, func(w io.Writer, p *image.Paletted) error {
			return (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(w, p)
		}},
	} {
		buf.Reset()
		p := Quantize(img, try.colours, keep)
		if err := try.encode(&buf, p); err != nil {
			return nil, fmt.Errorf("raster: encode png: %w", err)
		}
		if buf.Len() <= MaxBytes {
			break
		}
	}
	return buf.Bytes(), nil
}

// Encode writes s as a paletted PNG of at most 256 colours, drawn at scale image
// pixels per CSS pixel.
func Encode(w io.Writer, s *scene.Scene, scale float64) error {
	img, err := Draw(s, scale)
	if err != nil {
		return err
	}
	if err := png.Encode(w, Quantize(img, 256, colours(s))); err != nil {
		return fmt.Errorf("raster: encode png: %w", err)
	}
	return nil
}

// Draw draws s at scale image pixels per CSS pixel into a new opaque RGBA image.
func Draw(s *scene.Scene, scale float64) (*image.RGBA, error) { return (*Cache)(nil).draw(s, scale) }

// draw draws s, its static layer from c when c has it (and into c when not).
func (c *Cache) draw(s *scene.Scene, scale float64) (*image.RGBA, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if !(scale > 0 && scale <= 4) {
		return nil, fmt.Errorf("raster: scale %g, want 0 < scale <= 4", scale)
	}
	w, h := int(math.Ceil(s.Width*scale)), int(math.Ceil(s.Height*scale))
	r := &renderer{dst: image.NewRGBA(image.Rect(0, 0, w, h)), scale: scale, ras: vector.NewRasterizer(0, 0), faces: faceCache{}}
	items := s.Items
	var key [32]byte
	if c != nil && s.Static > 0 {
		key = staticKey(s, scale)
		if c.get(key, r.dst) {
			items = items[s.Static:]
		}
	}
	if len(items) == len(s.Items) {
		draw.Draw(r.dst, r.dst.Bounds(), image.NewUniform(rgba(s.Background)), image.Point{}, draw.Src)
	}
	for i, it := range items {
		if c != nil && s.Static > 0 && len(items) == len(s.Items) && i == s.Static {
			c.put(key, r.dst)
		}
		switch it := it.(type) {
		case *scene.Polygon:
			r.polygon(it)
		case *scene.Circle:
			r.shape(circlePath(r.pt(it.Center), it.R*scale), it.Fill, it.Stroke, true)
		case *scene.Rect:
			r.shape([][]fpt{roundRect(r.pt(it.Min), r.pt(it.Max), it.Radius*scale)}, it.Fill, it.Stroke, true)
		case *scene.Line:
			r.stroke([][]fpt{r.pts(it.Points)}, it.Stroke, false)
		case *scene.Text:
			if err := r.text(it); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("raster: unknown item %T", it)
		}
	}
	if c != nil && s.Static > 0 && s.Static == len(s.Items) && len(items) == len(s.Items) {
		c.put(key, r.dst)
	}
	return r.dst, nil
}

// colours lists the colours s names (background, fills, patterns, strokes, text and
// halos), each once, in order of first use.
func colours(s *scene.Scene) []color.RGBA {
	seen := map[scene.Color]bool{}
	var out []color.RGBA
	add := func(cs ...scene.Color) {
		for _, c := range cs {
			if !seen[c] {
				seen[c] = true
				out = append(out, rgba(c))
			}
		}
	}
	add(s.Background)
	fill := func(f scene.Fill) {
		if f.Set {
			add(f.Color)
			if f.Pattern != scene.NoPattern {
				add(f.Ink)
			}
		}
	}
	for _, it := range s.Items {
		switch it := it.(type) {
		case *scene.Polygon:
			fill(it.Fill)
			add(it.Stroke.Color)
		case *scene.Circle:
			fill(it.Fill)
			add(it.Stroke.Color)
		case *scene.Rect:
			fill(it.Fill)
			add(it.Stroke.Color)
		case *scene.Line:
			add(it.Stroke.Color)
		case *scene.Text:
			add(it.Color, it.HaloColor)
		}
	}
	return out
}

func rgba(c scene.Color) color.RGBA { return color.RGBA{c.R, c.G, c.B, 0xff} }

// fpt is a point in image pixels.
type fpt struct{ x, y float64 }

type renderer struct {
	dst   *image.RGBA
	scale float64
	ras   *vector.Rasterizer
	faces faceCache
	cover *image.Alpha // scratch masks: a shape's cover, a pattern's
	mask  *image.Alpha
	pat   *image.Alpha
}

func (r *renderer) pt(p scene.Point) fpt { return fpt{p.X * r.scale, p.Y * r.scale} }

func (r *renderer) pts(ps []scene.Point) []fpt {
	out := make([]fpt, len(ps))
	for i, p := range ps {
		out[i] = r.pt(p)
	}
	return out
}

func (r *renderer) polygon(p *scene.Polygon) {
	rings := make([][]fpt, 0, len(p.Rings))
	for i, ring := range p.Rings {
		pts := r.pts(ring)
		// The outer ring positive, holes negative: the rasteriser adds coverage up,
		// so that a hole wound the other way cancels its outer ring.
		if (area(pts) < 0) == (i == 0) {
			reverse(pts)
		}
		rings = append(rings, pts)
	}
	r.shape(rings, p.Fill, p.Stroke, true)
}

// shape fills the closed rings and strokes them.
func (r *renderer) shape(rings [][]fpt, f scene.Fill, s scene.Stroke, closed bool) {
	if f.Set {
		r.fill(rings, rgba(f.Color))
		if f.Pattern != scene.NoPattern {
			r.pattern(rings, f)
		}
	}
	r.stroke(rings, s, closed)
}

// bbox returns the pixel rectangle covering pts, clipped to the image.
func (r *renderer) bbox(rings [][]fpt, pad float64) image.Rectangle {
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
	b := image.Rect(int(math.Floor(lo.x-pad)), int(math.Floor(lo.y-pad)), int(math.Ceil(hi.x+pad)), int(math.Ceil(hi.y+pad)))
	return b.Intersect(r.dst.Bounds())
}

// load resets the rasteriser to b and adds the closed rings, moved by -b.Min.
func (r *renderer) load(rings [][]fpt, b image.Rectangle) {
	r.ras.Reset(b.Dx(), b.Dy())
	ox, oy := float64(b.Min.X), float64(b.Min.Y)
	for _, ring := range rings {
		if len(ring) < 2 {
			continue
		}
		r.ras.MoveTo(float32(ring[0].x-ox), float32(ring[0].y-oy))
		for _, p := range ring[1:] {
			r.ras.LineTo(float32(p.x-ox), float32(p.y-oy))
		}
		r.ras.ClosePath()
	}
}

func (r *renderer) fill(rings [][]fpt, c color.RGBA) {
	b := r.bbox(rings, 1)
	if b.Empty() {
		return
	}
	r.load(rings, b)
	// Through a mask: drawing the mask skips the pixels it leaves out, which the
	// rasteriser's own RGBA path blends one by one.
	m := scratch(&r.cover, b)
	r.ras.DrawOp = draw.Src
	r.ras.Draw(m, m.Bounds(), image.Opaque, image.Point{})
	blit(r.dst, b, c, m)
}

// levels rounds a coverage to one of five steps (0, ¼ … 1): at 2× an edge looks as
// smooth, and a picture with fewer blends of its colours is smaller.
var levels = func() (l [256]uint8) {
	for i := range l {
		l[i] = uint8(min(255, (i+32)/64*64))
	}
	return l
}()

// blit paints opaque colour c into dst's rectangle b through mask m (of b's size):
// where m is full the colour is set, where it is empty nothing is done, else blended.
func blit(dst *image.RGBA, b image.Rectangle, c color.RGBA, m *image.Alpha) {
	w := b.Dx()
	cr, cg, cb := uint32(c.R), uint32(c.G), uint32(c.B)
	for y := 0; y < b.Dy(); y++ {
		mrow := m.Pix[y*m.Stride : y*m.Stride+w]
		off := (b.Min.Y+y-dst.Rect.Min.Y)*dst.Stride + (b.Min.X-dst.Rect.Min.X)*4
		drow := dst.Pix[off : off+w*4]
		for x, a := range mrow {
			a = levels[a]
			switch a {
			case 0:
			case 0xff:
				drow[x*4], drow[x*4+1], drow[x*4+2], drow[x*4+3] = c.R, c.G, c.B, 0xff
			default:
				ma, na := uint32(a), 255-uint32(a)
				p := drow[x*4 : x*4+3 : x*4+3]
				p[0] = uint8((cr*ma + uint32(p[0])*na + 127) / 255)
				p[1] = uint8((cg*ma + uint32(p[1])*na + 127) / 255)
				p[2] = uint8((cb*ma + uint32(p[2])*na + 127) / 255)
			}
		}
	}
}

// alpha returns a cleared scratch mask of b's size (reused between shapes).
func scratch(m **image.Alpha, b image.Rectangle) *image.Alpha {
	n := b.Dx() * b.Dy()
	if *m == nil || cap((*m).Pix) < n {
		*m = &image.Alpha{Pix: make([]uint8, n)}
	}
	a := *m
	a.Pix = a.Pix[:n]
	clear(a.Pix)
	a.Stride, a.Rect = b.Dx(), image.Rect(0, 0, b.Dx(), b.Dy())
	return a
}

// pattern draws f's pattern over the rings, clipped to them. A pattern is a rule on
// the image's pixel grid (lines every step pixels, dots at a grid's nodes): exact
// and crisp, the same in neighbouring areas, and each row the one above shifted by a
// pixel or repeated, which compresses well.
func (r *renderer) pattern(rings [][]fpt, f scene.Fill) {
	b := r.bbox(rings, 1)
	if b.Empty() {
		return
	}
	shape := scratch(&r.mask, b)
	r.load(rings, b)
	r.ras.DrawOp = draw.Src
	r.ras.Draw(shape, shape.Bounds(), image.Opaque, image.Point{})
	step := max(3, int(math.Round(scene.PatternSpacing*r.scale)))
	width := max(1, int(math.Round(scene.PatternWidth*r.scale)))
	// Diagonal lines step apart across them are step·√2 apart along a row.
	dstep, dwidth := int(math.Round(float64(step)*math.Sqrt2)), max(1, int(math.Round(float64(width)*math.Sqrt2)))
	mod := func(a, n int) int { return ((a % n) + n) % n }
	var on func(x, y int) bool
	switch f.Pattern {
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
	case scene.Dots:
		on = func(x, y int) bool { return mod(x+step/2, step) <= width && mod(y+step/2, step) <= width }
	default:
		return
	}
	pat := scratch(&r.pat, b)
	w := b.Dx()
	for y := 0; y < b.Dy(); y++ {
		row := shape.Pix[y*w : (y+1)*w]
		for x, a := range row {
			if a > 0 && on(b.Min.X+x, b.Min.Y+y) {
				pat.Pix[y*w+x] = a
			}
		}
	}
	blit(r.dst, b, rgba(f.Ink), pat)
}

// stroke draws the outlines of rings (closed) or polylines (open) with s: a quad per
// segment and a round join at every point, all wound alike so that they add up. Long
// segments are cut into short overlapping pieces and the pieces filled a few at a
// time, so that each fill's box stays small (a long diagonal's box is mostly empty).
func (r *renderer) stroke(lines [][]fpt, s scene.Stroke, closed bool) {
	if s.Width <= 0 {
		return
	}
	hw := s.Width * r.scale / 2
	b := batch{r: r, c: rgba(s.Color)}
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
// small.
type batch struct {
	r      *renderer
	c      color.RGBA
	pieces [][]fpt
	lo, hi fpt
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
	if len(b.pieces) > 0 && (hi.x-lo.x)*(hi.y-lo.y) > 96*96 {
		b.flush()
		b.add(piece)
		return
	}
	b.pieces, b.lo, b.hi = append(b.pieces, piece), lo, hi
}

func (b *batch) flush() {
	if len(b.pieces) > 0 {
		b.r.fill(b.pieces, b.c)
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
