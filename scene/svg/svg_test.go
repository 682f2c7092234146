package svg

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/scene"
)

// TestMarshal_wellFormed: a scene with every kind of item, a patterned fill and a
// hostile label (a player's name) is one well-formed SVG document: every item an
// element of its own, the label escaped, each pattern defined once.
func TestMarshal_wellFormed(t *testing.T) {
	s := scene.New(200, 100)
	s.Alt = `ann & "ben" <script>`
	fill := scene.Patterned(scene.RGB(0xddeeff), scene.CrossHatch, scene.RGB(0x3366aa))
	s.Add(
		&scene.Polygon{Rings: [][]scene.Point{{{X: 1, Y: 1}, {X: 50, Y: 1}, {X: 50, Y: 50}}}, Fill: fill},
		&scene.Polygon{Rings: [][]scene.Point{{{X: 60, Y: 1}, {X: 90, Y: 1}, {X: 90, Y: 50}}}, Fill: fill, Stroke: scene.Stroke{Color: scene.Ink, Width: 1, Dash: []float64{3, 2}}},
		&scene.Circle{Center: scene.Point{X: 20, Y: 70}, R: 10, Fill: scene.Solid(scene.White)},
		&scene.Rect{Min: scene.Point{X: 40, Y: 60}, Max: scene.Point{X: 60, Y: 80}, Radius: 3},
		&scene.Line{Points: []scene.Point{{X: 70, Y: 60}, {X: 90, Y: 90}}, Stroke: scene.Stroke{Color: scene.Ink, Width: 2}},
		&scene.Text{At: scene.Point{X: 150, Y: 50}, Text: `<b>eve</b> & "co"`, Size: 12, HaloWidth: 2, HaloColor: scene.White},
	)
	doc, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(doc))
	elements, texts := map[string]int{}, ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, doc)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			elements[tok.Name.Local]++
		case xml.CharData:
			texts += string(tok)
		}
	}
	if elements["pattern"] != 1 || elements["path"] != 3 || elements["circle"] != 1 || elements["text"] != 1 || elements["title"] != 1 {
		t.Errorf("elements %v: want one pattern, three paths, a circle, a text and a title", elements)
	}
	if !strings.Contains(texts, `<b>eve</b> & "co"`) || !strings.Contains(texts, `ann & "ben" <script>`) || bytes.Contains(doc, []byte("<script>")) {
		t.Errorf("labels not escaped as text: %s", doc)
	}
	if !bytes.Contains(doc, []byte(`stroke-dasharray="3 2"`)) {
		t.Error("dash not written")
	}
}
