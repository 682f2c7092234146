package scene

import "math"

// Shape is a marker's outline. Each seat has its own, so that colour is never the
// only thing that tells two players apart.
type Shape uint8

// Marker shapes, in seat order.
const (
	ShapeCircle Shape = iota
	ShapeSquare
	ShapeDiamond
	ShapeTriangle
	ShapeHexagon
	ShapePentagon
	ShapeStar
)

// String names the shape in English ("circle").
func (s Shape) String() string {
	return [...]string{"circle", "square", "diamond", "triangle", "hexagon", "pentagon", "star"}[s%7]
}

// Swatch is the colour of one seat for the whole game: its colour, the colour of
// text written on it, the shape of its markers and the colour's English name (a term
// of the picture catalogue, so that the players' table can name it in either
// language).
type Swatch struct {
	Name  string
	Color Color
	Text  Color
	Shape Shape
}

// RGB returns the swatch's colour as "#rrggbb" (for the mail's players' table).
func (s Swatch) RGB() string { return s.Color.Hex() }

// seats are the Okabe–Ito colours (Okabe and Ito, "Color Universal Design", 2002),
// which people with every common colour vision deficiency tell apart, in an order
// that keeps the first two and three the most distinct: blue and orange, then
// bluish green. Black is kept for the monsters, grey for the Lost Tribe.
var seats = []Swatch{
	{"blue", RGB(0x0072b2), White, ShapeCircle},
	{"orange", RGB(0xe69f00), Ink, ShapeSquare},
	{"bluish green", RGB(0x009e73), White, ShapeDiamond},
	{"reddish purple", RGB(0xcc79a7), Ink, ShapeTriangle},
	{"vermilion", RGB(0xd55e00), White, ShapeHexagon},
	{"sky blue", RGB(0x56b4e9), Ink, ShapePentagon},
	{"yellow", RGB(0xf0e442), Ink, ShapeStar},
}

// Seats is the number of seats with a colour and shape of their own; seat i and
// i+Seats share them (no game of turnmail seats that many).
const Seats = 7

// Seat returns the swatch of seat i (0 for the first player, in turn order).
func Seat(i int) Swatch {
	if i < 0 {
		i = -i
	}
	return seats[i%len(seats)]
}

// Neutral pieces that are not a player's.
var (
	// LostTribe is the Lost Tribe's (and Empire's neutral armies') marker: light grey.
	LostTribe = Swatch{"grey", RGB(0xbdbdbd), Ink, ShapeCircle}
	// Monster is the monsters' marker (Small World Underground): black.
	Monster = Swatch{"black", RGB(0x1a1a1a), White, ShapeSquare}
)

// ShapePoints returns the outline of shape s centred on c, of radius r (the distance
// from the centre to its farthest point); nil for a circle.
func ShapePoints(s Shape, c Point, r float64) []Point {
	poly := func(n int, start, rad float64) []Point {
		out := make([]Point, n)
		for i := range n {
			a := start + 2*math.Pi*float64(i)/float64(n)
			out[i] = Point{c.X + rad*math.Cos(a), c.Y + rad*math.Sin(a)}
		}
		return out
	}
	switch s {
	case ShapeSquare:
		return poly(4, math.Pi/4, r*1.2) // as large to the eye as a circle of r
	case ShapeDiamond:
		return poly(4, -math.Pi/2, r*1.12)
	case ShapeTriangle:
		t := poly(3, -math.Pi/2, r*1.3)
		for i := range t {
			t[i].Y += r * 0.25
		}
		return t
	case ShapeHexagon:
		return poly(6, 0, r*1.05)
	case ShapePentagon:
		return poly(5, -math.Pi/2, r*1.08)
	case ShapeStar:
		out := make([]Point, 10)
		for i := range 10 {
			rad := r * 1.25
			if i%2 == 1 {
				rad = r * 0.75
			}
			a := -math.Pi/2 + math.Pi*float64(i)/5
			out[i] = Point{c.X + rad*math.Cos(a), c.Y + rad*math.Sin(a)}
		}
		return out
	}
	return nil
}

// Marker returns the items of a marker: the swatch's shape filled with its colour
// and outlined in Ink, centred on c, of radius r. A faded marker (a race in decline)
// is paler, hatched and outlined with a dashed line.
func Marker(sw Swatch, c Point, r float64, faded bool) Item {
	fill := Solid(sw.Color)
	stroke := Stroke{Color: Ink, Width: math.Max(1.2, r/8)}
	if faded {
		fill = Patterned(sw.Color.Mix(White, 0.55), BackHatch, sw.Color.Mix(Ink, 0.2))
		stroke.Dash = []float64{r / 3, r / 5}
	}
	if pts := ShapePoints(sw.Shape, c, r); pts != nil {
		return &Polygon{Rings: [][]Point{pts}, Fill: fill, Stroke: stroke}
	}
	return &Circle{Center: c, R: r, Fill: fill, Stroke: stroke}
}

// TextOn returns the colour that reads on the swatch's marker (faded or not).
func (s Swatch) TextOn(faded bool) Color {
	if faded {
		return Ink
	}
	return s.Text
}
