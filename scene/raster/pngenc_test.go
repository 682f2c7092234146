package raster

import (
	"bytes"
	"image"
	"image/png"
	"testing"
)

// TestEncodePaletted: the PNG written decodes with image/png to the same pixels and
// palette, at every level.
func TestEncodePaletted(t *testing.T) {
	img, err := Draw(sample(), 2)
	if err != nil {
		t.Fatal(err)
	}
	q := Quantize(img, 64, nil)
	for _, level := range []int{1, 6, 9} {
		var buf bytes.Buffer
		if err := encodePaletted(&buf, q, level); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
		p, ok := got.(*image.Paletted)
		if !ok || !bytes.Equal(p.Pix, q.Pix) || len(p.Palette) != len(q.Palette) {
			t.Fatalf("level %d: decoded %T, not the image written", level, got)
		}
		for i := range p.Palette {
			if p.Palette[i] != q.Palette[i] {
				t.Fatalf("level %d: palette entry %d is %v, want %v", level, i, p.Palette[i], q.Palette[i])
			}
		}
	}
}
