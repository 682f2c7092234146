// Package scene is a picture of a game as shapes, labels and colours, independent of
// its output: scene/raster writes it as a PNG (the mail's inline picture), scene/svg as
// SVG (the game's web page), and scene/draw builds it from a game's view.
//
// Coordinates are CSS pixels of the picture as shown (Width × Height); y grows
// downwards. A writer may draw at a higher resolution (raster draws at 2×, sharp on a
// phone). Items are drawn in order, later ones on top.
package scene

import (
	"fmt"
	"math"
)

// Point is a position in CSS pixels.
type Point struct{ X, Y float64 }

// Add returns p moved by q.
func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }

// Color is an opaque colour. Pictures are opaque everywhere (a mail client in dark
// mode inverts or darkens what is transparent).
type Color struct{ R, G, B uint8 }

// RGB returns the colour 0xRRGGBB.
func RGB(v uint32) Color { return Color{uint8(v >> 16), uint8(v >> 8), uint8(v)} }

// Hex returns the colour as "#rrggbb".
func (c Color) Hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Luma is the colour's relative luminance (0 black … 1 white), to choose a text colour
// that reads on it.
func (c Color) Luma() float64 {
	lin := func(v uint8) float64 {
		f := float64(v) / 255
		if f <= 0.04045 {
			return f / 12.92
		}
		return math.Pow((f+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// Mix returns c moved towards d by t (0: c, 1: d).
func (c Color) Mix(d Color, t float64) Color {
	m := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + (float64(b)-float64(a))*t)) }
	return Color{m(c.R, d.R), m(c.G, d.G), m(c.B, d.B)}
}

// Colours every picture uses.
var (
	White = Color{255, 255, 255}
	Black = Color{0, 0, 0}
	// Ink is the dark outline and text colour: near black, so that outlines stay
	// dark when a mail client darkens a picture.
	Ink = Color{0x22, 0x22, 0x22}
	// Paper is the opaque background.
	Paper = Color{0xfb, 0xf8, 0xf0}
)

// Pattern is drawn over a fill so that an area reads without its colour.
type Pattern uint8

// Patterns.
const (
	NoPattern Pattern = iota
	// Hatch: parallel lines rising to the right (45°).
	Hatch
	// BackHatch: parallel lines falling to the right (135°).
	BackHatch
	// CrossHatch: both.
	CrossHatch
	// Horizontal lines.
	Horizontal
	// Vertical lines.
	Vertical
	// Dots on a square grid.
	Dots
	// Grid: horizontal and vertical lines (a cross hatch whose rows repeat, which
	// costs a picture fewer bytes).
	Grid
)

// Patterns lists every pattern, NoPattern first.
var Patterns = []Pattern{NoPattern, Hatch, BackHatch, CrossHatch, Horizontal, Vertical, Dots, Grid}

// String names the pattern (the SVG writer's pattern ids).
func (p Pattern) String() string {
	switch p {
	case Hatch:
		return "hatch"
	case BackHatch:
		return "backhatch"
	case CrossHatch:
		return "crosshatch"
	case Horizontal:
		return "horizontal"
	case Vertical:
		return "vertical"
	case Dots:
		return "dots"
	case Grid:
		return "grid"
	}
	return "none"
}

// PatternSpacing is the distance between a pattern's lines or dots, in CSS pixels;
// PatternWidth the width of its lines (the diameter of its dots is twice that).
const (
	PatternSpacing = 7.0
	PatternWidth   = 1.0
)

// Fill paints an area: a colour, and optionally a pattern in a second colour over it.
// The zero Fill paints nothing.
type Fill struct {
	Color   Color
	Pattern Pattern
	// Ink is the pattern's colour.
	Ink Color
	// Set reports that the fill paints (a zero Fill is "none").
	Set bool
}

// Solid returns a fill of one colour.
func Solid(c Color) Fill { return Fill{Color: c, Set: true} }

// Patterned returns a fill of colour c with pattern p drawn in ink.
func Patterned(c Color, p Pattern, ink Color) Fill {
	return Fill{Color: c, Pattern: p, Ink: ink, Set: true}
}

// Stroke outlines a shape or draws a line. A zero Width draws nothing.
type Stroke struct {
	Color Color
	Width float64
	// Dash alternates lengths drawn and skipped; nil is a solid line.
	Dash []float64
}

// Item is one thing drawn: *Polygon, *Circle, *Rect, *Line or *Text.
type Item interface {
	// Bounds returns the item's extent (minimum and maximum corner), its stroke and
	// halo included.
	Bounds() (Point, Point)
	item()
}

// Polygon is an area bounded by closed rings: the outer ring first, holes after
// (drawn with the non-zero rule, holes wound the other way; the writers orient them).
type Polygon struct {
	Rings  [][]Point
	Fill   Fill
	Stroke Stroke
}

// Circle is a disc.
type Circle struct {
	Center Point
	R      float64
	Fill   Fill
	Stroke Stroke
}

// Rect is an axis-aligned rectangle with optionally rounded corners.
type Rect struct {
	Min, Max Point
	// Radius rounds the corners.
	Radius float64
	Fill   Fill
	Stroke Stroke
}

// Line is an open polyline.
type Line struct {
	Points []Point
	Stroke Stroke
}

// Anchor is which point of a text At names.
type Anchor uint8

// Anchors: the text's start, middle or end on its baseline's horizontal; the text is
// centred vertically on At (At is the middle of the capital letters' height).
const (
	Middle Anchor = iota
	Start
	End
)

// Text is a one-line label.
type Text struct {
	At     Point
	Text   string
	Size   float64 // font size in CSS pixels
	Bold   bool
	Anchor Anchor
	Color  Color
	// Halo is a band of HaloColor around the letters (HaloWidth wide), so that a
	// label reads on any background.
	HaloWidth float64
	HaloColor Color
}

func (*Polygon) item() {}
func (*Circle) item()  {}
func (*Rect) item()    {}
func (*Line) item()    {}
func (*Text) item()    {}

// Bounds implements Item.
func (p *Polygon) Bounds() (Point, Point) {
	var b [2]Point
	for i, r := range p.Rings {
		e := extent(r)
		if i == 0 {
			b = e
			continue
		}
		b[0].X, b[0].Y = math.Min(b[0].X, e[0].X), math.Min(b[0].Y, e[0].Y)
		b[1].X, b[1].Y = math.Max(b[1].X, e[1].X), math.Max(b[1].Y, e[1].Y)
	}
	return grow(b, p.Stroke.Width/2)
}

// Bounds implements Item.
func (c *Circle) Bounds() (Point, Point) {
	r := c.R + c.Stroke.Width/2
	return Point{c.Center.X - r, c.Center.Y - r}, Point{c.Center.X + r, c.Center.Y + r}
}

// Bounds implements Item.
func (r *Rect) Bounds() (Point, Point) { return grow([2]Point{r.Min, r.Max}, r.Stroke.Width/2) }

// Bounds implements Item.
func (l *Line) Bounds() (Point, Point) { return grow(extent(l.Points), l.Stroke.Width/2) }

// Bounds implements Item: an estimate from the font size (writers measure exactly).
func (t *Text) Bounds() (Point, Point) {
	w := EstimateWidth(t.Text, t.Size, t.Bold)
	x0 := t.At.X - w/2
	switch t.Anchor {
	case Start:
		x0 = t.At.X
	case End:
		x0 = t.At.X - w
	}
	return grow([2]Point{{x0, t.At.Y - t.Size*0.55}, {x0 + w, t.At.Y + t.Size*0.45}}, t.HaloWidth)
}

// EstimateWidth estimates the width of s at size in the Go fonts (an average advance
// per letter), for layout before a writer measures.
func EstimateWidth(s string, size float64, bold bool) float64 {
	adv := 0.56
	if bold {
		adv = 0.6
	}
	n := 0
	for range s {
		n++
	}
	return float64(n) * size * adv
}

func extent(pts []Point) [2]Point {
	if len(pts) == 0 {
		return [2]Point{}
	}
	lo, hi := pts[0], pts[0]
	for _, p := range pts[1:] {
		if p.X != p.X || p.Y != p.Y { // NaN: an extent that Validate refuses
			nan := Point{math.NaN(), math.NaN()}
			return [2]Point{nan, nan}
		}
		if p.X < lo.X {
			lo.X = p.X
		} else if p.X > hi.X {
			hi.X = p.X
		}
		if p.Y < lo.Y {
			lo.Y = p.Y
		} else if p.Y > hi.Y {
			hi.Y = p.Y
		}
	}
	return [2]Point{lo, hi}
}

func grow(b [2]Point, d float64) (Point, Point) {
	return Point{b[0].X - d, b[0].Y - d}, Point{b[1].X + d, b[1].Y + d}
}

// Scene is a whole picture.
type Scene struct {
	// Width and Height are the picture's size in CSS pixels.
	Width, Height float64
	// Background fills the whole picture (opaque).
	Background Color
	// Alt is the picture's text alternative (the mail's alt attribute).
	Alt   string
	Items []Item
	// Static counts the first items that show only the board (its areas, outlines and
	// routes), not the game's state: a writer may draw them once per board and draw
	// the other items over a copy (raster.Cache).
	Static int
}

// New returns an empty scene of the given size on Paper.
func New(w, h float64) *Scene { return &Scene{Width: w, Height: h, Background: Paper} }

// Add appends items.
func (s *Scene) Add(items ...Item) { s.Items = append(s.Items, items...) }

// Validate checks what a writer relies on: a positive, bounded size, finite
// coordinates, polygons with rings of at least three points, positive font sizes.
func (s *Scene) Validate() error {
	if s.Static < 0 || s.Static > len(s.Items) {
		return fmt.Errorf("scene: %d static items of %d", s.Static, len(s.Items))
	}
	if !(s.Width > 0 && s.Height > 0 && s.Width <= MaxSide && s.Height <= MaxSide) {
		return fmt.Errorf("scene: size %gx%g, want 0 < side <= %d", s.Width, s.Height, MaxSide)
	}
	for i, it := range s.Items {
		if it == nil {
			return fmt.Errorf("scene: item %d is nil", i)
		}
		lo, hi := it.Bounds()
		for _, v := range []float64{lo.X, lo.Y, hi.X, hi.Y} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("scene: item %d (%T) has a coordinate that is not finite", i, it)
			}
		}
		switch it := it.(type) {
		case *Polygon:
			for _, r := range it.Rings {
				if len(r) < 3 {
					return fmt.Errorf("scene: item %d: polygon ring of %d points", i, len(r))
				}
			}
		case *Text:
			if !(it.Size > 0) {
				return fmt.Errorf("scene: item %d: text %q of size %g", i, it.Text, it.Size)
			}
		}
	}
	return nil
}

// MaxSide bounds a scene's width and height in CSS pixels.
const MaxSide = 4000
