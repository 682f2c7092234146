package layout

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// terrainColours are debug colours for looking at layouts.
var terrainColours = map[string]color.RGBA{
	"sea": {70, 130, 200, 255}, "lake": {110, 170, 230, 255}, "river": {90, 170, 220, 255},
	"farmland": {230, 200, 90, 255}, "forest": {40, 130, 60, 255}, "hill": {150, 200, 90, 255},
	"mountain": {160, 160, 170, 255}, "swamp": {130, 110, 80, 255},
	"mine": {190, 110, 50, 255}, "mudpool": {140, 120, 100, 255}, "mushroom": {60, 190, 170, 255},
	"crystal": {160, 100, 210, 255}, "blackmountain": {70, 70, 80, 255}, "chasm": {20, 20, 20, 255},
}

// renderDebug draws b at width px: regions filled by terrain, outlines, links, each
// label's room as a circle and the region's key.
func renderDebug(b *Board, terrain map[int]string, px int) *image.RGBA {
	s := float32(float64(px) / b.Width)
	w, h := px, int(math.Ceil(b.Height*float64(s)))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{30, 60, 110, 255}), image.Point{}, draw.Src)
	fill := func(paths [][]Point, c color.RGBA) {
		r := vector.NewRasterizer(w, h)
		for _, ring := range paths {
			r.MoveTo(float32(ring[0].X)*s, float32(ring[0].Y)*s)
			for _, p := range ring[1:] {
				r.LineTo(float32(p.X)*s, float32(p.Y)*s)
			}
			r.ClosePath()
		}
		r.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{})
	}
	line := func(a, c Point, width float64) [][]Point {
		dx, dy := c.X-a.X, c.Y-a.Y
		l := math.Hypot(dx, dy)
		if l == 0 {
			return nil
		}
		nx, ny := -dy/l*width/2, dx/l*width/2
		return [][]Point{{{a.X + nx, a.Y + ny}, {c.X + nx, c.Y + ny}, {c.X - nx, c.Y - ny}, {a.X - nx, a.Y - ny}}}
	}
	for _, r := range b.Regions {
		c, ok := terrainColours[terrain[r.ID]]
		if !ok {
			c = color.RGBA{200, 190, 160, 255}
		}
		fill(r.Rings, c)
	}
	lw := 1.2 / float64(s)
	for _, r := range b.Regions {
		for _, ring := range r.Rings {
			var segs [][]Point
			for i, p := range ring {
				segs = append(segs, line(p, ring[(i+1)%len(ring)], lw)...)
			}
			fill(segs, color.RGBA{0, 0, 0, 255})
		}
	}
	for _, l := range b.Links {
		var segs [][]Point
		for i := 1; i < len(l.Path); i++ {
			segs = append(segs, line(l.Path[i-1], l.Path[i], 3*lw)...)
		}
		fill(segs, color.RGBA{255, 40, 40, 255})
	}
	for _, e := range b.Exits {
		fill(line(e.Path[0], e.Path[len(e.Path)-1], 3*lw), color.RGBA{255, 255, 255, 255})
	}
	for _, r := range b.Regions {
		var circle []Point
		for k := range 32 {
			a := float64(k) * math.Pi / 16
			circle = append(circle, Point{r.Label.X + r.Room*math.Cos(a), r.Label.Y + r.Room*math.Sin(a)})
		}
		var segs [][]Point
		for i := range circle {
			segs = append(segs, line(circle[i], circle[(i+1)%len(circle)], lw*0.6)...)
		}
		fill(segs, color.RGBA{255, 255, 255, 160})
		d := font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{255, 255, 255, 255}), Face: basicfont.Face7x13}
		txt := r.Key
		d.Dot = fixed.P(int(float32(r.Label.X)*s)-len(txt)*7/2, int(float32(r.Label.Y)*s)+4)
		bg := image.Rect(d.Dot.X.Round()-1, d.Dot.Y.Round()-11, d.Dot.X.Round()+len(txt)*7+1, d.Dot.Y.Round()+3)
		draw.Draw(img, bg, image.NewUniform(color.RGBA{0, 0, 0, 255}), image.Point{}, draw.Src)
		d.DrawString(txt)
	}
	return img
}

// TestRenderDebug writes every board as a PNG into $LAYOUT_PNG, to look at.
func TestRenderDebug(t *testing.T) {
	dir := os.Getenv("LAYOUT_PNG")
	if dir == "" {
		t.Skip("set LAYOUT_PNG to a directory to draw the layouts")
	}
	px := 1000
	if v, err := strconv.Atoi(os.Getenv("LAYOUT_PX")); err == nil {
		px = v
	}
	save := func(name string, img image.Image) {
		f, err := os.Create(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range engineMaps {
		m := readMap(t, path)
		b, err := ForMap(m)
		if err != nil {
			t.Fatal(err)
		}
		terrain := map[int]string{}
		for _, r := range m.Regions {
			terrain[r.ID] = r.Terrain
		}
		save(m.Name, renderDebug(b, terrain, px))
		if os.Getenv("LAYOUT_COMPUTED") != "" {
			if c := growMap(m); c != nil {
				save("computed-"+m.Name, renderDebug(c, terrain, px))
			}
		}
	}
	for _, f := range []string{"1a", "1b", "2a", "2b", "3a", "3b", "4a", "4b"} {
		b, err := EmpireFace(f)
		if err != nil {
			t.Fatal(err)
		}
		save("empire-"+f, renderDebug(b, nil, px/2))
	}
}
