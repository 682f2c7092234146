// Package svg writes a scene as an SVG document, for the game's web page: the same
// items as scene/raster draws, one SVG element per item, fill patterns as <pattern>
// definitions.
package svg

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/scene"
)

// Marshal returns s as an SVG document.
func Marshal(s *scene.Scene) ([]byte, error) {
	var buf bytes.Buffer
	if err := Encode(&buf, s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Encode writes s as an SVG document. Every item is one element with the attribute
// data-item="N" (its index in s.Items), so that a test can match the two writers.
func Encode(w io.Writer, s *scene.Scene) error {
	if err := s.Validate(); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="Go, 'Go Regular', Arial, sans-serif">`,
		num(s.Width), num(s.Height), num(s.Width), num(s.Height))
	if s.Alt != "" {
		fmt.Fprintf(&b, "<title>%s</title>", esc(s.Alt))
	}
	defs := patterns(s)
	if len(defs) > 0 {
		b.WriteString("<defs>")
		for _, d := range defs {
			b.WriteString(d)
		}
		b.WriteString("</defs>")
	}
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="%s"/>`, s.Background.Hex())
	for i, it := range s.Items {
		switch it := it.(type) {
		case *scene.Polygon:
			var d strings.Builder
			for _, r := range it.Rings {
				d.WriteString(path(r))
				d.WriteString("Z")
			}
			fmt.Fprintf(&b, `<path data-item="%d" d="%s" fill-rule="evenodd"%s/>`, i, d.String(), paint(it.Fill, it.Stroke))
		case *scene.Circle:
			fmt.Fprintf(&b, `<circle data-item="%d" cx="%s" cy="%s" r="%s"%s/>`, i, num(it.Center.X), num(it.Center.Y), num(it.R), paint(it.Fill, it.Stroke))
		case *scene.Rect:
			fmt.Fprintf(&b, `<rect data-item="%d" x="%s" y="%s" width="%s" height="%s" rx="%s"%s/>`, i, num(it.Min.X), num(it.Min.Y),
				num(it.Max.X-it.Min.X), num(it.Max.Y-it.Min.Y), num(it.Radius), paint(it.Fill, it.Stroke))
		case *scene.Line:
			fmt.Fprintf(&b, `<path data-item="%d" d="%s"%s/>`, i, path(it.Points), paint(scene.Fill{}, it.Stroke))
		case *scene.Text:
			anchor := "middle"
			switch it.Anchor {
			case scene.Start:
				anchor = "start"
			case scene.End:
				anchor = "end"
			}
			weight := ""
			if it.Bold {
				weight = ` font-weight="bold"`
			}
			halo := ""
			if it.HaloWidth > 0 {
				halo = fmt.Sprintf(` stroke="%s" stroke-width="%s" stroke-linejoin="round" paint-order="stroke"`, it.HaloColor.Hex(), num(2*it.HaloWidth))
			}
			// The baseline sits half a capital letter's height below At, as raster draws it.
			fmt.Fprintf(&b, `<text data-item="%d" x="%s" y="%s" font-size="%s" text-anchor="%s" fill="%s"%s%s>%s</text>`, i, num(it.At.X),
				num(it.At.Y+it.Size*0.36), num(it.Size), anchor, it.Color.Hex(), weight, halo, esc(it.Text))
		default:
			return fmt.Errorf("svg: unknown item %T", it)
		}
	}
	b.WriteString("</svg>\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("svg: write: %w", err)
	}
	return nil
}

// patterns returns the <pattern> definitions the scene's fills use, one per pattern
// and ink, with ids patternID gives.
func patterns(s *scene.Scene) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range s.Items {
		var f scene.Fill
		switch it := it.(type) {
		case *scene.Polygon:
			f = it.Fill
		case *scene.Circle:
			f = it.Fill
		case *scene.Rect:
			f = it.Fill
		}
		if !f.Set || f.Pattern == scene.NoPattern {
			continue
		}
		id := patternID(f)
		if seen[id] {
			continue
		}
		seen[id] = true
		st, lw := scene.PatternSpacing, scene.PatternWidth
		ink := f.Ink.Hex()
		var body string
		line := func(x1, y1, x2, y2 float64) string {
			return fmt.Sprintf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"/>`, num(x1), num(y1), num(x2), num(y2), ink, num(lw))
		}
		size, rot := st, ""

		switch f.Pattern {
		case scene.Hatch:
			body, rot = line(0, 0, 0, st), ` patternTransform="rotate(45)"`
		case scene.BackHatch:
			body, rot = line(0, 0, 0, st), ` patternTransform="rotate(-45)"`
		case scene.CrossHatch:
			body, rot = line(0, 0, 0, st)+line(0, 0, st, 0), ` patternTransform="rotate(45)"`
		case scene.Horizontal:
			body = line(0, 0, st, 0)
		case scene.Vertical:
			body = line(0, 0, 0, st)
		case scene.Grid:
			body = line(0, 0, st, 0) + line(0, 0, 0, st)
		case scene.Dots:
			body = fmt.Sprintf(`<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, num(st/2), num(st/2), num(lw), ink)
		}
		bg := fmt.Sprintf(`<rect width="%s" height="%s" fill="%s"/>`, num(size), num(size), f.Color.Hex())
		out = append(out, fmt.Sprintf(`<pattern id="%s" width="%s" height="%s" patternUnits="userSpaceOnUse"%s>%s%s</pattern>`, id, num(size), num(size), rot, bg, body))
	}
	return out
}

func patternID(f scene.Fill) string {
	return "p-" + f.Pattern.String() + "-" + f.Color.Hex()[1:] + "-" + f.Ink.Hex()[1:]
}

// paint returns the fill and stroke attributes. A patterned fill is a <pattern> whose
// tile is the fill's colour with the pattern's lines or dots over it.
func paint(f scene.Fill, s scene.Stroke) string {
	var b strings.Builder
	switch {
	case !f.Set:
		b.WriteString(` fill="none"`)
	case f.Pattern != scene.NoPattern:
		fmt.Fprintf(&b, ` fill="url(#%s)"`, patternID(f))
	default:
		fmt.Fprintf(&b, ` fill="%s"`, f.Color.Hex())
	}
	if s.Width > 0 {
		fmt.Fprintf(&b, ` stroke="%s" stroke-width="%s" stroke-linejoin="round" stroke-linecap="round"`, s.Color.Hex(), num(s.Width))
		if len(s.Dash) > 0 {
			parts := make([]string, len(s.Dash))
			for i, d := range s.Dash {
				parts[i] = num(d)
			}
			fmt.Fprintf(&b, ` stroke-dasharray="%s"`, strings.Join(parts, " "))
		}
	}
	return b.String()
}

func path(pts []scene.Point) string {
	var b strings.Builder
	for i, p := range pts {
		if i == 0 {
			b.WriteString("M")
		} else {
			b.WriteString("L")
		}
		b.WriteString(num(p.X))
		b.WriteString(",")
		b.WriteString(num(p.Y))
	}
	return b.String()
}

// num writes a coordinate with at most two decimals.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

func esc(s string) string { return escaper.Replace(s) }
