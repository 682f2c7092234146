package templates

import "github.com/turnmail/turnmail/templates/doc"

// playerColour is the colour a player keeps for the whole game ("#rrggbb") and the
// mark that stands for it where colour cannot show (issue 22: the scene's palette,
// so that the players' table matches the picture of the board).
//
// HOOK(scene palette): package scene (branch scene) exports the palette; until it
// lands here, no player has a colour and the table shows names only.
func playerColour(view map[string]any, name string) (colour, mark string) { return "", "" }

// playerCell is a player's cell of a players' table: a swatch of their colour and
// their mark, if they have one, then their name, in bold for the reader.
func playerCell(view map[string]any, name string, reader bool) doc.Line {
	var l doc.Line
	if colour, mark := playerColour(view, name); colour != "" {
		l = append(l, doc.Inline{Text: "■", Colour: colour})
		if mark != "" {
			l = append(l, doc.T(mark))
		}
		l = append(l, doc.T(" "))
	}
	if reader {
		return append(l, doc.B(name))
	}
	return append(l, doc.T(name))
}
