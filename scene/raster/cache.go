package raster

import (
	"encoding/binary"
	"hash/maphash"
	"image"
	"math"
	"sync"
	"sync/atomic"

	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/raster/internal/deflate"
)

// Cache keeps what makes the next picture cheap: the static layers of the latest
// boards (a scene's first scene.Static items: regions, patterns, outlines, drawn and
// compressed once), the sprites of small items and labels, and the compressed bands
// of rows of recent pictures. Each is bounded by its bytes. Safe for concurrent use;
// the zero Cache is ready, a nil *Cache keeps nothing.
type Cache struct {
	once     sync.Once
	layers   lru[[32]byte, *layer]
	bands    lru[bandKey, kept]
	sprites  lru[string, *sprite]
	seed     maphash.Seed
	bufs     sync.Pool // canvases' pixels
	splicers sync.Pool
	stats    struct{ layer, kept, drawn atomic.Int64 }
}

// Bands counts the bands of the pictures c drew: those that were the board's
// layer's, those kept from an earlier picture, and those drawn and compressed anew.
func (c *Cache) Bands() (layer, kept, drawn int64) {
	return c.stats.layer.Load(), c.stats.kept.Load(), c.stats.drawn.Load()
}

// Bytes kept at most.
const (
	layerBytes  = 48 << 20 // about 2.5 MB a board at 2×
	bandBytes   = 16 << 20 // about 1 KB a band
	spriteBytes = 8 << 20  // a few KB a sprite
)

func (c *Cache) init() {
	c.once.Do(func() {
		c.layers.limit, c.bands.limit, c.sprites.limit = layerBytes, bandBytes, spriteBytes
		c.seed = maphash.MakeSeed()
		c.splicers.New = func() any { return new(deflate.Splicer) }
	})
}

// sprite returns the sprite kept under k, or the one build draws (kept). A nil
// sprite (a drawing that failed) is not kept.
func (c *Cache) sprite(k []byte, build func() *sprite) *sprite {
	if c == nil {
		return build()
	}
	c.init()
	if sp, ok := c.sprites.get(string(k)); ok {
		return sp
	}
	sp := build()
	if sp != nil {
		c.sprites.put(string(k), sp, sp.cost()+len(k))
	}
	return sp
}

// layer is a board's static layer: its rows drawn as image data (whole bands; the
// rows below are the background, all zero bytes), the palette after it, and each
// band's parse and compressed bytes.
type layer struct {
	key          [32]byte
	w, h, stride int
	pix          []byte
	pal          *palette // after the layer's items (not written to)
	bands        []kept
	mu           sync.Mutex
	shared       *palette // the palette of the pictures drawn over it
	zero         []byte   // a row of the background
	bgOnce       sync.Once
	bg           kept // a whole band of the background
}

// kept is a compressed band: its bytes (a block and a sync flush), its parse (for
// a layer's bands) and the Adler-32 of its rows.
type kept struct {
	toks  []deflate.Token
	data  []byte
	adler uint32
}

func (l *layer) cost() int {
	n := len(l.pix) + 4096
	for _, b := range l.bands {
		n += 4*len(b.toks) + len(b.data)
	}
	return n
}

// row returns row y of the layer (a background row below it).
func (l *layer) row(y int) []byte {
	if y < l.h {
		return l.pix[y*l.stride : (y+1)*l.stride]
	}
	return l.zero
}

// base returns band i of rows rows as the layer has it, or nil when the band is
// not all within the layer or all below it.
func (l *layer) base(i, rows int) *kept {
	switch {
	case (i+1)*bandRows <= l.h && rows == bandRows:
		return &l.bands[i]
	case i*bandRows >= l.h:
		if rows == bandRows {
			l.bgOnce.Do(func() { l.bg = background(rows * l.stride) })
			return &l.bg
		}
		b := background(rows * l.stride)
		return &b
	}
	return nil
}

// background returns a band of n zero bytes (the background's rows): a literal, then
// matches a byte back.
func background(n int) kept {
	toks := []deflate.Token{deflate.Literal(0)}
	for left := n - 1; left > 0; {
		switch l := min(left, deflate.MaxMatch); {
		case l >= deflate.MinMatch:
			toks = append(toks, deflate.Match(l, 1))
			left -= l
		default:
			toks = append(toks, deflate.Literal(0))
			left--
		}
	}
	return kept{toks: toks, data: deflate.Block(nil, toks), adler: uint32(n%65521)<<16 | 1}
}

// layerChain is how hard a layer's bands are compressed (hash chain candidates): a
// layer is compressed once for many pictures, so it is worth a few milliseconds more
// (3 % fewer bytes than the default).
const layerChain = 1024

// layerOf returns the static layer of s at scale (w pixels wide), drawn and kept
// when new.
func (c *Cache) layerOf(s *scene.Scene, scale float64, w int) (*layer, error) {
	key := staticKey(s, scale, w)
	if l, ok := c.layers.get(key); ok {
		return l, nil
	}
	bottom := 0.0
	for _, it := range s.Items[:s.Static] {
		_, hi := it.Bounds()
		if t, ok := it.(*scene.Text); ok {
			hi.Y += t.Size // the letters' descent, beyond the estimate
		}
		bottom = math.Max(bottom, hi.Y)
	}
	h := 0
	if s.Static > 0 {
		h = (int(math.Ceil(bottom*scale)) + 8 + bandRows - 1) / bandRows * bandRows
	}
	l := &layer{key: key, w: w, h: h, stride: w + 1, pal: newPalette(s.Background)}
	l.zero = make([]byte, l.stride)
	cv := newCanvas(w, h, nil, l.pal, nil)
	if err := newRenderer(cv, scale, c).items(s.Items[:s.Static]); err != nil {
		return nil, err
	}
	l.pix = cv.pix
	l.pal = compact(l.pix, l.stride, l.pal)
	l.shared = l.pal.copy()
	p := &deflate.Parser{Chain: layerChain}
	for y0 := 0; y0 < h; y0 += bandRows {
		toks := p.Parse(nil, l.pix, max(0, y0-dictRows)*l.stride, y0*l.stride, (y0+bandRows)*l.stride, l.stride)
		l.bands = append(l.bands, kept{toks: toks, data: deflate.Block(nil, toks), adler: deflate.Adler(l.pix[y0*l.stride : (y0+bandRows)*l.stride])})
	}
	c.layers.put(key, l, l.cost())
	return l, nil
}

// compact returns the palette of the colours that the image data pix (rows of stride
// bytes) shows, and maps pix to it: the blends met while drawing that were drawn
// over leave it. The background stays first.
func compact(pix []byte, stride int, p *palette) *palette {
	var used [256]bool
	used[0] = true
	for _, v := range pix {
		used[v] = true
	}
	var to [256]uint8
	q := &palette{id: palettes.Add(1)}
	colours := p.colours()
	for i, u := range used[:len(colours)] {
		if u {
			to[i], _ = q.index(colours[i])
		}
	}
	for y := 0; y*stride < len(pix); y++ {
		row := pix[y*stride+1 : (y+1)*stride]
		for x, v := range row {
			row[x] = to[v]
		}
	}
	return q
}

// palette returns the palette of the pictures drawn over l: the current one, or a
// new one (the layer's colours only) when old is the current one (it was full).
func (l *layer) palette(old *palette) *palette {
	l.mu.Lock()
	defer l.mu.Unlock()
	if old != nil && l.shared == old {
		l.shared = l.pal.copy()
	}
	return l.shared
}

// PNG is PNG with what c keeps: the board's static layer (s.Static), the sprites and
// the bands of earlier pictures. The picture is the same as PNG's, pixel for pixel.
func (c *Cache) PNG(s *scene.Scene) ([]byte, error) {
	if c == nil {
		cv, err := drawWhole(s, Scale, nil)
		if err != nil {
			return nil, err
		}
		return encodeWhole(cv, 0), nil
	}
	c.init()
	w, h, err := size(s, Scale)
	if err != nil {
		return nil, err
	}
	l, err := c.layerOf(s, Scale, w)
	if err != nil {
		return nil, err
	}
	if l.h > h { // a picture shorter than its board: drawn whole
		cv, err := drawWhole(s, Scale, c)
		if err != nil {
			return nil, err
		}
		return encodeWhole(cv, 0), nil
	}
	var buf []byte
	if b, ok := c.bufs.Get().(*[]byte); ok {
		buf = *b
	}
	defer func() { c.bufs.Put(&buf) }()
	var out []byte
	for try, pal := 0, l.palette(nil); ; try, pal = try+1, l.palette(pal) {
		cv := newCanvas(w, h, l, pal, buf)
		buf = cv.pix
		r := newRenderer(cv, Scale, c)
		r.sums = new(maphash.Hash)
		r.sums.SetSeed(c.seed)
		ops := make([]op, 0, len(s.Items)-s.Static)
		for _, it := range s.Items[s.Static:] {
			o, err := r.op(it)
			if err != nil {
				return nil, err
			}
			ops = append(ops, o)
		}
		out = c.encode(r, l, ops)
		if !cv.inexact || try > 0 {
			break // drawn with its colours, or with a palette as new as can be
		}
	}
	if len(out) > MaxBytes { // compressed harder, whole
		cv, err := drawWhole(s, Scale, c)
		if err != nil {
			return nil, err
		}
		if whole := encodeWhole(cv, 1024); len(whole) < len(out) {
			out = whole
		}
	}
	return out, nil
}

// bandKey names a band's content: the palette of its picture (and so its layer), the
// band, and the hash of the ops that paint on it or on the rows before it that its
// matches reach.
type bandKey struct {
	palette    uint64
	band, rows int32
	sum        uint64
}

// encode returns the PNG of the ops over layer l, painting only what the bands it
// does not have yet need: a band that no op paints on (nor on the rows before it
// that its matches reach) is the layer's; another is kept from an earlier picture
// with the same ops over the same band, or painted and spliced from the layer's
// (parsed again where painted on) and kept.
func (c *Cache) encode(r *renderer, l *layer, ops []op) []byte {
	cv := r.c
	s := cv.stride
	nb := (cv.h + bandRows - 1) / bandRows
	type band struct {
		key  bandKey
		base *kept
		data []byte
		sum  uint32
		miss bool
	}
	bands := make([]band, nb)
	var h maphash.Hash
	h.SetSeed(c.seed)
	var b8 [8]byte
	var missed []image.Rectangle // the rows of the bands to draw
	for i := range bands {
		y0, y1 := i*bandRows, min(cv.h, (i+1)*bandRows)
		wy := max(0, y0-dictRows)
		b := &bands[i]
		b.base = l.base(i, y1-y0)
		b.key = bandKey{palette: cv.pal.id, band: int32(i), rows: int32(y1 - y0)}
		h.Reset()
		drawn := false
		for _, o := range ops {
			if o.box.Min.Y < y1 && o.box.Max.Y > wy && !o.box.Empty() {
				binary.LittleEndian.PutUint64(b8[:], o.sum)
				h.Write(b8[:])
				drawn = true
			}
		}
		b.key.sum = h.Sum64()
		switch {
		case !drawn && b.base != nil:
			b.data, b.sum = b.base.data, b.base.adler
			c.stats.layer.Add(1)
			continue
		}
		if k, ok := c.bands.get(b.key); ok {
			b.data, b.sum = k.data, k.adler
			c.stats.kept.Add(1)
			continue
		}
		c.stats.drawn.Add(1)
		b.miss = true
		missed = append(missed, image.Rect(0, wy, cv.w, y1))
	}
	// Paint what the bands to make need, in order.
	for _, o := range ops {
		for _, m := range missed {
			if o.box.Overlaps(m) {
				r.paint(o)
				break
			}
		}
	}
	var p deflate.Parser
	sp := c.splicers.Get().(*deflate.Splicer)
	defer c.splicers.Put(sp)
	sp.Reset()
	step, dstep, _, _ := patternGrid(Scale)
	idat := append(make([]byte, 0, 128<<10), zlibHead...)
	sum := uint32(1)
	for i := range bands {
		b := &bands[i]
		y0, y1 := i*bandRows, min(cv.h, (i+1)*bandRows)
		n := (y1 - y0) * s
		if b.miss {
			wy := max(0, y0-dictRows)
			cv.rows(wy, y1)
			var toks []deflate.Token
			if b.base != nil {
				toks = sp.Splice(nil, b.base.toks, cv.pix, wy*s, y0*s, y1*s, s, cv, step, dstep)
				b.sum = b.base.adler
				for y := y0; y < y1; y++ {
					cv.spans(y, func(x0, x1 int) {
						b.sum = deflate.AdlerChange(b.sum, n, (y-y0)*s+1+x0, l.row(y)[1+x0:1+x1], cv.pix[y*s+1+x0:y*s+1+x1])
					})
				}
			} else {
				toks = p.Parse(nil, cv.pix, wy*s, y0*s, y1*s, s)
				b.sum = deflate.Adler(cv.pix[y0*s : y1*s])
			}
			b.data = deflate.Block(nil, toks)
			if !cv.inexact {
				c.bands.put(b.key, kept{data: b.data, adler: b.sum}, len(b.data)+64)
			}
		}
		idat = append(idat, b.data...)
		sum = deflate.AdlerJoin(sum, b.sum, n)
	}
	idat = append(idat, deflate.End...)
	idat = binary.BigEndian.AppendUint32(idat, sum)
	return writePNG(cv, idat)
}

// staticKey is the hash of what the static layer of s at scale, w pixels wide, looks
// like: the background and every static item.
func staticKey(s *scene.Scene, scale float64, w int) [32]byte {
	b := make([]byte, 0, 64<<10)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(scale))
	b = binary.LittleEndian.AppendUint32(b, uint32(w))
	b = append(b, s.Background.R, s.Background.G, s.Background.B)
	for _, it := range s.Items[:s.Static] {
		b = appendItem(b, it)
	}
	return sum256(b)
}

// Key returns the hash of everything s shows: two scenes with the same key are the
// same picture.
func Key(s *scene.Scene) [32]byte {
	b := make([]byte, 0, 64<<10)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.Width))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.Height))
	b = append(b, s.Background.R, s.Background.G, s.Background.B)
	b = binary.LittleEndian.AppendUint32(b, uint32(s.Static))
	for _, it := range s.Items {
		b = appendItem(b, it)
	}
	return sum256(b)
}

// keySeeds seed sum256: keys are compared within one process only.
var keySeeds = [4]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed(), maphash.MakeSeed(), maphash.MakeSeed()}

// sum256 is a 256-bit hash of b, four seeded hashes (several times as fast as SHA-256
// on a scene's items; nobody outside the process chooses the seeds).
func sum256(b []byte) [32]byte {
	var k [32]byte
	for i, seed := range keySeeds {
		binary.LittleEndian.PutUint64(k[8*i:], maphash.Bytes(seed, b))
	}
	return k
}

// appendItem appends what item it draws to b.
func appendItem(b []byte, it scene.Item) []byte {
	f := func(vs ...float64) {
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	col := func(cs ...scene.Color) {
		for _, c := range cs {
			b = append(b, c.R, c.G, c.B)
		}
	}
	fill := func(fl scene.Fill) {
		col(fl.Color, fl.Ink)
		b = append(b, byte(fl.Pattern), boolByte(fl.Set))
	}
	stroke := func(st scene.Stroke) {
		col(st.Color)
		f(st.Width)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(st.Dash)))
		f(st.Dash...)
	}
	pts := func(ps []scene.Point) {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(ps)))
		for _, p := range ps {
			f(p.X, p.Y)
		}
	}
	switch it := it.(type) {
	case *scene.Polygon:
		b = append(b, 'P')
		b = binary.LittleEndian.AppendUint32(b, uint32(len(it.Rings)))
		for _, r := range it.Rings {
			pts(r)
		}
		fill(it.Fill)
		stroke(it.Stroke)
	case *scene.Circle:
		b = append(b, 'C')
		f(it.Center.X, it.Center.Y, it.R)
		fill(it.Fill)
		stroke(it.Stroke)
	case *scene.Rect:
		b = append(b, 'R')
		f(it.Min.X, it.Min.Y, it.Max.X, it.Max.Y, it.Radius)
		fill(it.Fill)
		stroke(it.Stroke)
	case *scene.Line:
		b = append(b, 'L')
		pts(it.Points)
		stroke(it.Stroke)
	case *scene.Text:
		b = append(b, 'T', boolByte(it.Bold), byte(it.Anchor))
		f(it.At.X, it.At.Y, it.Size, it.HaloWidth)
		col(it.Color, it.HaloColor)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(it.Text)))
		b = append(b, it.Text...)
	}
	return b
}
