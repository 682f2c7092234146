// Package draw turns a game's view into a scene: the picture of the board a reader
// finds in every state mail. It reads only the view the engine gave the reader
// (engine.State.View(reader)), so that what the reader may not see (hands, sealed
// bids, face-down pieces) cannot reach the picture.
//
// Small World, Underground and Necromancer Island are drawn on their board's layout
// (scene/layout.ForMap), Eight-Minute Empire on its faces' layouts
// (layout.EmpireFace), Dungeoneer as the grid of its placed map cards.
package draw

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/engine/empire"
	"github.com/turnmail/turnmail/engine/smallworld"
	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/layout"
)

// Words gives a picture its text in the reader's language.
type Words interface {
	// Say formats a text of the picture catalogue (its key is the English fmt
	// format) in the reader's language.
	Say(format string, args ...any) string
	// Term names a game term (a race, a power, a card, a place) in the reader's
	// language.
	Term(name string) string
	// Lang is the reader's language ("en", "it").
	Lang() string
	// Text renders an engine's text (a card's action) in the reader's language.
	Text(t engine.Text) string
	// Name is the printed name of a view's key for a terrain, a piece or, prefixed
	// with "symbol:", a region symbol ("symbol:mine").
	Name(key string) string
}

// Input is what a picture is drawn from.
type Input struct {
	// View is the reader's view: what the engine's State.View(reader) returned.
	View any
	// Changed are the ids of the regions that changed since the reader's last mail
	// (map games; nil when there is no earlier mail).
	Changed []string
	// Words gives the text in the reader's language (English when nil).
	Words Words
	// After names the player whose move the picture follows ("" when none): the
	// alt text starts with it.
	After string
}

// Width is the width of every picture in CSS pixels: the mail shows it at this width
// (or the screen's, when narrower).
const Width = 600.0

// ErrNoPicture is returned for the view of a game that has no picture.
var ErrNoPicture = errors.New("draw: no picture of this game")

// Scene draws in's view. Views of games without a picture return an error.
func Scene(in Input) (*scene.Scene, error) {
	if in.Words == nil {
		in.Words = English{}
	}
	var s *scene.Scene
	var err error
	switch v := in.View.(type) {
	case *smallworld.View:
		s, err = smallWorld(v, in)
	case smallworld.View:
		s, err = smallWorld(&v, in)
	case empire.View:
		s, err = eightMinute(&v, in)
	case *empire.View:
		s, err = eightMinute(v, in)
	case dungeoneer.View:
		s, err = dungeon(&v, in)
	case *dungeoneer.View:
		s, err = dungeon(v, in)
	default:
		return nil, fmt.Errorf("%w (a view of type %T)", ErrNoPicture, in.View)
	}
	if err != nil {
		return nil, fmt.Errorf("draw: %w", err)
	}
	if in.After != "" {
		s.Alt = in.Words.Say("Board after %s's move. %s", clip(in.After, 24), s.Alt)
	}
	return s, s.Validate()
}

// English is the Words of a reader of English, without the catalogues: terms and keys
// as the views name them (for tests and tools).
type English struct{}

// Say implements Words.
func (English) Say(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// Term implements Words.
func (English) Term(name string) string { return name }

// Lang implements Words.
func (English) Lang() string { return "en" }

// Text implements Words.
func (English) Text(t engine.Text) string { return t.String() }

// Name implements Words.
func (English) Name(key string) string {
	key = strings.TrimPrefix(key, "symbol:")
	return strings.ReplaceAll(key, "_", " ")
}

// Sizes of text, in CSS pixels: the picture is shown at Width on a computer and
// about 0.62 of that on a phone (380 of 390 px), where these stay at 8 px or more
// (the counts and numbers bold, at 9.5 to 10.5 px).
const (
	sizeNumber = 17.0
	sizeCount  = 15.0
	sizeBadge  = 13.0
	sizeLegend = 16.0
	sizeTitle  = 18.0
)

// seatOf maps player names to their seats (turn order).
type seatOf map[string]int

func (s seatOf) swatch(name string) (scene.Swatch, bool) {
	i, ok := s[name]
	if !ok {
		return scene.Swatch{}, false
	}
	return scene.Seat(i), true
}

// label returns a text item with a halo of the background colour.
func label(at scene.Point, text string, size float64, bold bool, anchor scene.Anchor) *scene.Text {
	return &scene.Text{At: at, Text: text, Size: size, Bold: bold, Anchor: anchor, Color: scene.Ink, HaloWidth: 2.5, HaloColor: scene.White}
}

// markerWithCount draws a seat's marker with a number in it.
func markerWithCount(sw scene.Swatch, c scene.Point, r float64, faded bool, n int) []scene.Item {
	items := []scene.Item{scene.Marker(sw, c, r, faded)}
	if n > 0 {
		t := &scene.Text{At: c, Text: fmt.Sprint(n), Size: sizeCount, Bold: true, Anchor: scene.Middle, Color: sw.TextOn(faded)}
		if sw.Shape == scene.ShapeTriangle {
			t.At.Y += r * 0.2
		}
		if faded {
			t.HaloWidth, t.HaloColor = 2, scene.White
		}
		items = append(items, t)
	}
	return items
}

// badge is a small rounded box with a short text (a piece's code), white on Ink.
func badge(c scene.Point, text string) []scene.Item {
	w := scene.EstimateWidth(text, sizeBadge, true) + 6
	h := sizeBadge + 4
	return []scene.Item{
		&scene.Rect{Min: scene.Point{X: c.X - w/2, Y: c.Y - h/2}, Max: scene.Point{X: c.X + w/2, Y: c.Y + h/2}, Radius: 3,
			Fill: scene.Solid(scene.White), Stroke: scene.Stroke{Color: scene.Ink, Width: 1.2}},
		&scene.Text{At: c, Text: text, Size: sizeBadge, Bold: true, Color: scene.Ink},
	}
}

// badgeWidth is the width badge gives text.
func badgeWidth(text string) float64 { return scene.EstimateWidth(text, sizeBadge, true) + 6 }

// legend lays out legend entries (a sample drawn by the caller and a text) in rows
// that fit the picture's width, from y; it returns the items and the y below them.
type legendEntry struct {
	sample func(c scene.Point) []scene.Item
	text   string
	// newRow starts a row; wide entries take a row of their own.
	newRow, wide bool
}

const legendRow = 26.0

// legendLine is the height of the second and later lines of a legend entry too long
// for one (wrapped, never cut short); legendLines the most lines an entry takes, and
// legendRunes the most characters (a text from outside, a name, is bounded).
const (
	legendLine  = 19.0
	legendLines = 3
	legendRunes = 200
)

// legend lays the entries out in rows from y, each its sample then its text; a
// text longer than the picture's width is wrapped under itself. It returns the
// items and the bottom.
func legend(entries []legendEntry, y float64) ([]scene.Item, float64) {
	var items []scene.Item
	const margin, sampleW, gap = 10.0, 32.0, 16.0
	x := margin
	y += legendRow / 2
	for _, e := range entries {
		text := clip(e.text, legendRunes)
		w := sampleW + scene.EstimateWidth(text, sizeLegend, false) + gap
		if x > margin && (x+w > Width-margin || e.wide || e.newRow) {
			x, y = margin, y+legendRow
		}
		lines := []string{text}
		if room := Width - margin - x - sampleW; scene.EstimateWidth(text, sizeLegend, false) > room {
			lines = wrap(text, room, sizeLegend, legendLines)
		}
		items = append(items, e.sample(scene.Point{X: x + sampleW/2 - 3, Y: y})...)
		for i, l := range lines {
			items = append(items, &scene.Text{At: scene.Point{X: x + sampleW, Y: y + float64(i)*legendLine}, Text: l, Size: sizeLegend, Anchor: scene.Start, Color: scene.Ink})
		}
		x += w
		if len(lines) > 1 {
			x, y = Width, y+float64(len(lines)-1)*legendLine // the next entry starts a row
		}
		if e.wide {
			x, y = margin, y+legendRow
		}
	}
	if x > margin {
		y += legendRow
	}
	return items, y - legendRow/2
}

// caption writes the printed name of a component (a terrain, a symbol, a piece) as
// a legend shows it: in English each word capitalized but the short joining words
// ("Black Mountain", "Hole-in-the-Ground"), as the English rulebooks write them; in
// Italian the first letter ("Montagna nera"), as the Italian rulebooks write them.
func caption(w Words, name string) string {
	if w.Lang() != "en" {
		return upperFirst(name)
	}
	small := map[string]bool{"of": true, "the": true, "in": true, "on": true, "a": true, "an": true, "and": true, "to": true}
	var b strings.Builder
	start := true // at the start of a word
	word := 0     // words so far
	for i, r := range name {
		if start && unicode.IsLetter(r) {
			end := strings.IndexFunc(name[i:], func(r rune) bool { return !unicode.IsLetter(r) })
			if end < 0 {
				end = len(name) - i
			}
			if word == 0 || !small[name[i:i+end]] {
				r = unicode.ToUpper(r)
			}
			word++
		}
		start = !unicode.IsLetter(r) && r != '\''
		b.WriteRune(r)
	}
	return b.String()
}

// upperFirst returns s with its first letter upper case.
func upperFirst(s string) string {
	for i, r := range s {
		return s[:i] + string(unicode.ToUpper(r)) + s[i+utf8.RuneLen(r):]
	}
	return s
}

// clip shortens s to at most n letters (names come from players), without control
// characters and without the marks that reorder text (a name that turns the words
// after it around in the SVG).
func clip(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0,
			r == 0x200e || r == 0x200f || r == 0x061c,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return -1
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// textWidth is how wide text is at most in the Go fonts at size: 0.9 of
// scene.EstimateWidth, which counts an average letter wider than theirs (measured on
// the cards' texts and the alphabet, the fonts' letters are 0.8–0.9 of it).
func textWidth(text string, size float64, bold bool) float64 {
	return 0.9 * scene.EstimateWidth(text, size, bold)
}

// clipTo clips text to width at size (textWidth).
func clipTo(text string, width, size float64, bold bool) string {
	if textWidth(text, size, bold) <= width {
		return clip(text, utf8.RuneCountInString(text))
	}
	return clip(text, max(1, int(width/textWidth("x", size, bold))))
}

// swatchSample draws a fill sample for a legend entry.
func swatchSample(f scene.Fill) func(scene.Point) []scene.Item {
	return func(c scene.Point) []scene.Item {
		return []scene.Item{&scene.Rect{Min: scene.Point{X: c.X - 10, Y: c.Y - 8}, Max: scene.Point{X: c.X + 10, Y: c.Y + 8},
			Fill: f, Stroke: scene.Stroke{Color: scene.Ink, Width: 1.2}}}
	}
}

// fit maps layout units into the picture: a scale and an offset.
type fit struct {
	k, ox, oy float64
}

func (f fit) pt(x, y float64) scene.Point { return scene.Point{X: f.ox + x*f.k, Y: f.oy + y*f.k} }

// ring converts a layout ring with f.
func (f fit) ring(pts []layout.Point) []scene.Point {
	out := make([]scene.Point, len(pts))
	for i, p := range pts {
		out[i] = f.pt(p.X, p.Y)
	}
	return out
}

// at converts a layout point with f.
func (f fit) at(p layout.Point) scene.Point { return f.pt(p.X, p.Y) }

// fitBox returns the fit of a w × h board into the box of width bw from (x, y),
// keeping its proportions, at most maxH high.
func fitBox(w, h, x, y, bw, maxH float64) fit {
	k := bw / w
	if h*k > maxH {
		k = maxH / h
	}
	return fit{k: k, ox: x + (bw-w*k)/2, oy: y}
}

// clamp returns v within [lo, hi].
func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// seatNames names a seat's colour (scene.Seat's, by its key) in the reader's
// language: the colour alone, and with the shape of the seat's marker. It is the
// one table of the seats' names.
func seatNames(w Words, sw scene.Swatch) (colour, marker string) {
	switch sw.Name {
	case "blue":
		return w.Say("blue"), w.Say("blue circles")
	case "orange":
		return w.Say("orange"), w.Say("orange squares")
	case "bluish green":
		return w.Say("bluish green"), w.Say("bluish green diamonds")
	case "reddish purple":
		return w.Say("reddish purple"), w.Say("reddish purple triangles")
	case "vermilion":
		return w.Say("vermilion"), w.Say("vermilion hexagons")
	case "sky blue":
		return w.Say("sky blue"), w.Say("sky blue pentagons")
	case "yellow":
		return w.Say("yellow"), w.Say("yellow stars")
	}
	return sw.Name, sw.Name
}

// SwatchName names a seat's colour and marker shape in the reader's language ("blue
// circles"), for the picture's alt text and the players' list of a game's page.
func SwatchName(w Words, sw scene.Swatch) string {
	_, marker := seatNames(w, sw)
	return marker
}

// ColourName names a seat's colour alone in the reader's language ("blue"), for the
// players' table of a mail (its text part's only cue of the colour).
func ColourName(w Words, sw scene.Swatch) string {
	colour, _ := seatNames(w, sw)
	return colour
}

// Swatches returns the colour and marker of each player of a game's view, by name:
// the seats in the view's order, as every picture of the game draws them (the mail's
// players' table shows the same).
func Swatches(view any) map[string]scene.Swatch {
	var names []string
	switch v := view.(type) {
	case *smallworld.View:
		for _, p := range v.Players {
			names = append(names, p.Name)
		}
	case empire.View:
		for _, p := range v.Players {
			names = append(names, p.Name)
		}
	case dungeoneer.View:
		for _, p := range v.Players {
			names = append(names, p.Name)
		}
	}
	out := make(map[string]scene.Swatch, len(names))
	for i, n := range names {
		out[n] = scene.Seat(i)
	}
	return out
}
