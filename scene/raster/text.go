package raster

import (
	"fmt"
	"image"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

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
	f, err := opentype.NewFace(fs[key[0]], &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingNone})
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

// text draws a label: its halo first (the letters' mask dilated), then the letters.
func (r *renderer) text(t *scene.Text) error {
	if t.Text == "" {
		return nil
	}
	px := t.Size * r.scale
	face, err := r.faces.face(t.Bold, px)
	if err != nil {
		return err
	}
	adv := float64(font.MeasureString(face, t.Text)) / 64
	m := face.Metrics()
	ascent, descent := float64(m.Ascent)/64, float64(m.Descent)/64
	halo := int(math.Ceil(t.HaloWidth * r.scale))
	at := r.pt(t.At)
	x := at.x - adv/2
	switch t.Anchor {
	case scene.Start:
		x = at.x
	case scene.End:
		x = at.x - adv
	}
	baseline := at.y + px*capHeight/2
	pad := halo + 2
	box := image.Rect(int(math.Floor(x))-pad, int(math.Floor(baseline-ascent))-pad, int(math.Ceil(x+adv))+pad, int(math.Ceil(baseline+descent))+pad)
	clip := box.Intersect(r.dst.Bounds())
	if clip.Empty() {
		return nil
	}
	mask := image.NewAlpha(box)
	d := font.Drawer{Dst: mask, Src: image.Opaque, Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(baseline * 64))}}
	d.DrawString(t.Text)
	if halo > 0 {
		blit(r.dst, clip, rgba(t.HaloColor), sub(dilate(mask, halo), clip))
	}
	blit(r.dst, clip, rgba(t.Color), sub(mask, clip))

	return nil
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

// sub returns the part of m within r, as a mask whose origin is r's corner (what
// blit reads).
func sub(m *image.Alpha, r image.Rectangle) *image.Alpha {
	i := m.PixOffset(r.Min.X, r.Min.Y)
	return &image.Alpha{Pix: m.Pix[i:], Stride: m.Stride, Rect: image.Rect(0, 0, r.Dx(), r.Dy())}
}
