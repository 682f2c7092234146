// Package pngtest decodes the pictures tests compare pixel by pixel.
package pngtest

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"testing"
)

// Decode returns the pixels of the PNG b as RGBA, failing t when b is no PNG.
func Decode(t testing.TB, b []byte) *image.RGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
	return out
}
