package templates

import (
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/draw"
	"github.com/turnmail/turnmail/templates/doc"
)

// playerColour is the colour a player keeps for the whole game ("#rrggbb") and its
// name in the reader's words, which the text part shows (so that colour is never
// the only cue): the seat's swatch as every picture of the game draws it
// (scene.Seat of the player's place in the view, as draw.Swatches gives it). A
// name the view does not list has none.
func playerColour(w words, view map[string]any, name string) (colour, label string) {
	for i, p := range objs(view["players"]) {
		if Str(p["name"]) == name {
			sw := scene.Seat(i)
			return sw.RGB(), draw.ColourName(pictureWords{w}, sw)
		}
	}
	return "", ""
}

// pictureWords are the reader's words for the names the pictures give (the picture
// catalogue's colours).
type pictureWords struct{ w words }

func (p pictureWords) Say(format string, args ...any) string {
	return p.w.tr.Sprintf(p.w.lang, format, args...)
}
func (p pictureWords) Term(name string) string   { return p.w.term(name) }
func (p pictureWords) Lang() string              { return string(p.w.lang) }
func (p pictureWords) Text(t engine.Text) string { return p.w.text(t) }
func (p pictureWords) Name(key string) string {
	if sym, ok := strings.CutPrefix(key, "symbol:"); ok {
		return strings.Join(SymbolNames(p.w.tr, string(p.w.lang), []any{sym}), "")
	}
	return DisplayName(p.w.tr, string(p.w.lang), key)
}

// playerCell is a player's cell of a players' table: a swatch of their colour, then
// their name, in bold for the reader, and the colour's name in small print.
func playerCell(w words, view map[string]any, name string, reader bool) doc.Line {
	colour, label := playerColour(w, view, name)
	var l doc.Line
	if colour != "" {
		l = append(l, doc.Inline{Style: doc.Swatch, Colour: colour})
	}
	if reader {
		l = append(l, doc.B(name))
	} else {
		l = append(l, doc.T(name))
	}
	if label != "" {
		l = append(l, doc.S(" ("+label+")"))
	}
	return l
}
