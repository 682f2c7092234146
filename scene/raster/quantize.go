package raster

import (
	"image"
	"image/color"
	"slices"
)

// Quantize returns img with at most colours colours (2 to 256): keep first (the
// scene's own colours, exact, so that a player's colour on one small marker is never
// lost), then the most frequent colours, counted in bins of 5 bits per channel (each
// bin's colour the average of its pixels); every other pixel is mapped to the nearest
// of them. A picture of flat fills keeps its
// fills exact to within a bin; anti-aliased edges take the nearest blend.
func Quantize(img *image.RGBA, colours int, keep []color.RGBA) *image.Paletted {
	const bins = 1 << 15
	var count [bins]int32
	var sum [bins][3]int64
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	// The colours are counted on every other pixel of every other row: a picture's
	// colours come in areas and lines at least two pixels wide (it is drawn at 2×).
	for y := 0; y < h; y += 2 {
		row := img.Pix[y*img.Stride : y*img.Stride+w*4]
		for x := 0; x+2 < len(row); x += 8 {
			r, g, bl := row[x], row[x+1], row[x+2]
			k := int(r>>3)<<10 | int(g>>3)<<5 | int(bl>>3)
			count[k]++
			sum[k][0] += int64(r)
			sum[k][1] += int64(g)
			sum[k][2] += int64(bl)
		}
	}
	var used []int
	for k, n := range count {
		if n > 0 {
			used = append(used, k)
		}
	}
	slices.SortFunc(used, func(a, b int) int { return int(count[b] - count[a]) })
	colours = max(2, min(256, colours))
	var lut [bins]int16
	for i := range lut {
		lut[i] = -1
	}
	var pal color.Palette
	for _, c := range keep {
		if len(pal) == colours {
			break
		}
		if k := int(c.R>>3)<<10 | int(c.G>>3)<<5 | int(c.B>>3); lut[k] < 0 {
			lut[k] = int16(len(pal))
			pal = append(pal, color.RGBA{c.R, c.G, c.B, 0xff})
		}
	}
	for _, k := range used {
		if len(pal) == colours {
			break
		}
		if lut[k] >= 0 {
			continue
		}
		n := int64(count[k])
		lut[k] = int16(len(pal))
		pal = append(pal, color.RGBA{uint8(sum[k][0] / n), uint8(sum[k][1] / n), uint8(sum[k][2] / n), 0xff})
	}
	out := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	for y := range h {
		row := img.Pix[y*img.Stride : y*img.Stride+w*4]
		dst := out.Pix[y*out.Stride : y*out.Stride+w]
		for x := range dst {
			p := row[x*4 : x*4+3 : x*4+3]
			k := int(p[0]>>3)<<10 | int(p[1]>>3)<<5 | int(p[2]>>3)
			i := lut[k]
			if i < 0 {
				i = int16(nearest(pal, p[0], p[1], p[2]))
				lut[k] = i
			}
			dst[x] = uint8(i)
		}
	}
	return out
}

// nearest returns the index of the palette colour nearest r, g, b.
func nearest(pal color.Palette, r, g, b uint8) int {
	best, bestD := 0, 1<<30
	for i, c := range pal {
		p := c.(color.RGBA)
		dr, dg, db := int(p.R)-int(r), int(p.G)-int(g), int(p.B)-int(b)
		if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	return best
}
