package raster

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"os"
	"testing"

	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/internal/pngtest"
)

// sample is a scene with one item of each kind, at known places.
func sample() *scene.Scene {
	s := scene.New(300, 200)
	s.Add(
		&scene.Polygon{Rings: [][]scene.Point{pts(10, 10, 140, 10, 140, 90, 10, 90), pts(60, 40, 90, 40, 90, 60, 60, 60)},
			Fill: scene.Solid(scene.RGB(0x88cc88)), Stroke: scene.Stroke{Color: scene.Ink, Width: 2}},
		&scene.Polygon{Rings: [][]scene.Point{pts(160, 10, 290, 10, 290, 90, 160, 90)},
			Fill: scene.Patterned(scene.RGB(0xddeeff), scene.CrossHatch, scene.RGB(0x3366aa))},
		&scene.Circle{Center: scene.Point{X: 50, Y: 150}, R: 30, Fill: scene.Solid(scene.Seat(0).Color), Stroke: scene.Stroke{Color: scene.Ink, Width: 2}},
		&scene.Rect{Min: scene.Point{X: 100, Y: 120}, Max: scene.Point{X: 180, Y: 180}, Radius: 8, Fill: scene.Solid(scene.Seat(1).Color)},
		&scene.Line{Points: pts(200, 120, 290, 190), Stroke: scene.Stroke{Color: scene.Ink, Width: 3, Dash: []float64{6, 4}}},
		&scene.Text{At: scene.Point{X: 240, Y: 150}, Text: "42", Size: 24, Bold: true, Color: scene.Ink, HaloWidth: 3, HaloColor: scene.White},
	)
	return s
}

func TestDraw_itemsWhereTheySit(t *testing.T) {
	img, err := Draw(sample(), 2)
	if err != nil {
		t.Fatal(err)
	}
	at := func(x, y float64) scene.Color {
		c := img.RGBAAt(int(x*2), int(y*2))
		return scene.Color{R: c.R, G: c.G, B: c.B}
	}
	for _, tc := range []struct {
		name string
		x, y float64
		want scene.Color
	}{
		{"polygon fill", 30, 30, scene.RGB(0x88cc88)},
		{"polygon hole", 75, 50, scene.Paper},
		{"polygon outline", 10, 50, scene.Ink},
		{"circle", 50, 150, scene.Seat(0).Color},
		{"rounded rect", 140, 150, scene.Seat(1).Color},
		{"rounded corner left out", 100.5, 120.5, scene.Paper},
		{"background", 295, 195, scene.Paper},
	} {
		if got := at(tc.x, tc.y); got != tc.want {
			t.Errorf("%s at %g,%g: %v, want %v", tc.name, tc.x, tc.y, got, tc.want)
		}
	}
	// The pattern draws both its colour and its ink inside its area.
	colours := map[scene.Color]bool{}
	for y := 20.0; y < 80; y += 0.5 {
		colours[at(200, y)] = true
	}
	if !colours[scene.RGB(0xddeeff)] || !colours[scene.RGB(0x3366aa)] {
		t.Errorf("cross hatch: colours %v, want its fill and its ink", colours)
	}
	// The label: dark letters with a white halo around them.
	dark, white := 0, 0
	for y := 138.0; y < 162; y += 0.5 {
		for x := 220.0; x < 260; x += 0.5 {
			switch at(x, y) {
			case scene.Ink:
				dark++
			case scene.White:
				white++
			}
		}
	}
	if dark < 50 || white < 50 {
		t.Errorf("label: %d dark and %d white pixels, want letters and a halo", dark, white)
	}
}

func TestPNG_palettedAndDecodable(t *testing.T) {
	b, err := PNG(sample())
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("SCENE_OUT"); dir != "" {
		_ = os.WriteFile(dir+"/raster-sample.png", b, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("decoded %T, want a paletted image", img)
	}
	if got := p.Bounds().Size(); got != (image.Point{600, 400}) {
		t.Errorf("size %v, want 600x400 (2x)", got)
	}
	r, g, b2, _ := p.At(100, 300).RGBA()
	if c := scene.Seat(0).Color; uint8(r>>8) != c.R || uint8(g>>8) != c.G || uint8(b2>>8) != c.B {
		t.Errorf("circle: %d,%d,%d, want %v", r>>8, g>>8, b2>>8, c)
	}
}

func TestDraw_refusesBadScenes(t *testing.T) {
	for name, s := range map[string]*scene.Scene{
		"no size":    scene.New(0, 10),
		"huge":       scene.New(scene.MaxSide+1, 10),
		"short ring": {Width: 10, Height: 10, Items: []scene.Item{&scene.Polygon{Rings: [][]scene.Point{pts(1, 1, 2, 2)}}}},
		"nil item":   {Width: 10, Height: 10, Items: []scene.Item{nil}},
		"NaN point":  {Width: 10, Height: 10, Items: []scene.Item{&scene.Polygon{Rings: [][]scene.Point{pts(1, 1, math.NaN(), 2, 3, 1)}}}},
		"zero font":  {Width: 10, Height: 10, Items: []scene.Item{&scene.Text{Text: "x"}}},
	} {
		if _, err := Draw(s, 2); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// pts makes points of x, y pairs.
func pts(xy ...float64) []scene.Point {
	var out []scene.Point
	for i := 0; i+1 < len(xy); i += 2 {
		out = append(out, scene.Point{X: xy[i], Y: xy[i+1]})
	}
	return out
}

// TestCache_samePixels: a scene drawn over its static layer from a Cache is the same
// picture as one drawn whole, on a miss and on a hit, and when what stands on the
// board moves; another board gets its own layer.
func TestCache_samePixels(t *testing.T) {
	s := sample()
	s.Static = 2 // the two polygons
	var c Cache
	for i := range 6 {
		if i >= 3 { // the circle moves
			s.Items[2].(*scene.Circle).Center.X += 7.3
		}
		whole, err := Draw(s, Scale)
		if err != nil {
			t.Fatal(err)
		}
		b, err := c.PNG(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := pngtest.Decode(t, b); !bytes.Equal(got.Pix, whole.Pix) {
			t.Fatalf("picture %d through the cache differs from the whole drawing", i)
		}
	}
	if n := c.layers.len(); n != 1 {
		t.Fatalf("%d layers kept, want 1", n)
	}
	other := sample()
	other.Static = 2
	other.Items[0].(*scene.Polygon).Fill = scene.Solid(scene.RGB(0x123456))
	b, err := c.PNG(other)
	if err != nil {
		t.Fatal(err)
	}
	if got := pngtest.Decode(t, b).RGBAAt(60, 60); got.R != 0x12 || got.G != 0x34 {
		t.Errorf("another board drawn with the first one's layer: %v", got)
	}
	if n := c.layers.len(); n != 2 {
		t.Errorf("%d layers kept, want 2", n)
	}
}

// TestCache_keepsBands: the same scene again draws no band; a marker moved draws only
// the bands it leaves and reaches (and those whose matches reach back into them).
func TestCache_keepsBands(t *testing.T) {
	s := sample()
	s.Height = 600 // 1200 rows: 38 bands
	s.Static = 2
	var c Cache
	for range 2 {
		if _, err := c.PNG(s); err != nil {
			t.Fatal(err)
		}
	}
	if _, kept, drawn := c.Bands(); drawn == 0 || kept == 0 {
		t.Fatalf("%d bands kept, %d drawn: the second picture kept none", kept, drawn)
	}
	_, _, before := c.Bands()
	if _, err := c.PNG(s); err != nil {
		t.Fatal(err)
	}
	if _, _, drawn := c.Bands(); drawn != before {
		t.Errorf("the same picture again drew %d bands", drawn-before)
	}
	s.Items[2].(*scene.Circle).Center.Y += 100 // 64 rows of 2× below
	b, err := c.PNG(s)
	if err != nil {
		t.Fatal(err)
	}
	_, _, after := c.Bands()
	if n := after - before; n < 2 || n > 10 {
		t.Errorf("a marker moved: %d bands drawn, want those it leaves and reaches", n)
	}
	whole, err := Draw(s, Scale)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pngtest.Decode(t, b).Pix, whole.Pix) {
		t.Error("the picture with the marker moved differs from the whole drawing")
	}
}
