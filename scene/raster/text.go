package raster

import (
	"encoding/binary"
	"fmt"
	"image"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"

	"github.com/turnmail/turnmail/scene"
)

// fonts are the Go fonts (regular and bold), parsed once; a parsed font is read only.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	var out [2]*opentype.Font
	for i, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return out, fmt.Errorf("raster: parse Go font: %w", err)
		}
		out[i] = f
	}
	return out, nil
})

// faceCache keeps the faces of one drawing by weight and size (in 1/64 pixels).
type faceCache map[[2]int]font.Face

func (fc faceCache) face(bold bool, px float64) (font.Face, error) {
	key := [2]int{0, int(math.Round(px * 64))}
	if bold {
		key[0] = 1
	}
	if f, ok := fc[key]; ok {
		return f, nil
	}
	fs, err := fonts()
	if err != nil {
		return nil, err
	}
	f, err := opentype.NewFace(fs[key[0]], &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("raster: font face: %w", err)
	}
	fc[key] = f
	return f, nil
}

// Measure returns the width of t in CSS pixels, as raster draws it.
func Measure(t *scene.Text) (float64, error) {
	fc := faceCache{}
	f, err := fc.face(t.Bold, t.Size*8)
	if err != nil {
		return 0, err
	}
	return float64(font.MeasureString(f, t.Text)) / 64 / 8, nil
}

// capHeight is the Go fonts' capital letter height per em.
const capHeight = 0.72

// textOp prepares a label: its halo first (the letters' mask dilated), then the
// letters. A label is drawn once as a sprite (kept in r's cache) and placed with its
// start and baseline on whole pixels.
func (r *renderer) textOp(t *scene.Text) (op, error) {
	if t.Text == "" {
		return op{}, nil
	}
	px := t.Size * r.scale
	halo := int(math.Ceil(t.HaloWidth * r.scale))
	k := append(r.key[:0], 'T', boolByte(t.Bold))
	k = binary.LittleEndian.AppendUint64(k, math.Float64bits(px))
	k = binary.LittleEndian.AppendUint32(k, uint32(halo))
	k = append(k, t.Text...)
	r.key = k
	var err error
	sp := r.cache.sprite(k, func() *sprite {
		var sp *sprite
		sp, err = r.drawText(t.Text, t.Bold, px, halo)
		return sp
	})
	if err != nil {
		return op{}, err
	}
	at := r.pt(t.At)
	x := at.x - sp.adv/2
	switch t.Anchor {
	case scene.Start:
		x = at.x
	case scene.End:
		x = at.x - sp.adv
	}
	o := image.Point{int(math.Round(x)), int(math.Round(at.y + px*capHeight/2))}
	p := op{sp: sp, o: o, colours: [3]scene.Color{t.HaloColor, {}, t.Color}, box: sp.box(o)}
	r.sum(&p)
	return p, nil
}

// drawText draws a label into a sprite whose origin is the start of its baseline.
func (r *renderer) drawText(text string, bold bool, px float64, halo int) (*sprite, error) {
	face, err := r.faces.face(bold, px)
	if err != nil {
		return nil, err
	}
	adv := float64(font.MeasureString(face, text)) / 64
	m := face.Metrics()
	pad := halo + 2
	box := image.Rect(-pad, int(math.Floor(-float64(m.Ascent)/64))-pad, int(math.Ceil(adv))+pad, int(math.Ceil(float64(m.Descent)/64))+pad)
	mask := image.NewAlpha(box)
	d := font.Drawer{Dst: mask, Src: image.Opaque, Face: face}
	d.DrawString(text)
	sp := &sprite{x: box.Min.X, y: box.Min.Y, w: box.Dx(), h: box.Dy(), adv: adv}
	var around []uint8
	if halo > 0 {
		around = dilate(mask, halo).Pix
		for i, v := range around {
			around[i] = sharp[v]
		}
	}
	letters := levels(mask.Pix)
	if around != nil { // no halo under the letters
		sp.masks = coverLayers(around, nil, letters)
	}
	sp.masks[2] = letters
	return sp, nil
}

// levels maps coverages to levels, in place.
func levels(m []uint8) []uint8 {
	for i, v := range m {
		m[i] = level[v]
	}
	return m
}

// dilate returns m grown by n pixels in every direction (a maximum over the square of
// side 2n+1, in two passes), so that a halo follows the letters.
func dilate(m *image.Alpha, n int) *image.Alpha {
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	tmp := make([]uint8, w*h)
	for y := range h {
		row := m.Pix[y*m.Stride : y*m.Stride+w]
		for x := range w {
			var v uint8
			for k := max(0, x-n); k <= min(w-1, x+n); k++ {
				v = max(v, row[k])
			}
			tmp[y*w+x] = v
		}
	}
	out := image.NewAlpha(b)
	for x := range w {
		for y := range h {
			var v uint8
			for k := max(0, y-n); k <= min(h-1, y+n); k++ {
				v = max(v, tmp[k*w+x])
			}
			out.Pix[y*out.Stride+x] = v
		}
	}
	return out
}
