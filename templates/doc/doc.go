// Package doc is the small document a mail is built as — paragraphs, lists, tables,
// the command block, the picture, a details section — and its two writers: Text
// writes the plain-text part, HTML the HTML part. A mail is put into words once,
// as a Doc; each output is a writer (as brdg.me's Markupper). The package knows no
// language: every word in a Doc comes from its builder (package templates).
package doc

import "strings"

// Doc is one mail's document.
type Doc struct {
	// Lang is the reader's language ("en", "it"): the HTML part's lang.
	Lang string
	// Title is the HTML part's title (the mail's subject, or what it is about).
	Title string
	// Heading, when set, is shown first as the HTML part's heading and as the text
	// part's first line (a notice's topic).
	Heading string
	// Preheader is the inbox preview of the HTML part: a hidden text at its top
	// (whose move it is, what happened). The text part's first line says the same.
	Preheader string
	// Blocks are the mail's body, in order.
	Blocks []Block
	// Footer is the signature line ("turnmail · game …"), after "-- ".
	Footer []Inline
}

// Block is one block of a Doc: *Para, *List, *Table, *Defs, *Commands, *Pre,
// *Figure, *Picture or *Section.
type Block interface{ block() }

// Style is how an inline run is set.
type Style uint8

// The styles of an inline run.
const (
	Plain  Style = iota
	Strong       // bold: what concerns the reader
	Code         // a command, an address, an id: monospace
	Small        // a note in small print
	// Swatch is a square of the run's Colour (a player's colour): the HTML part
	// shows it, the text part leaves it out.
	Swatch
	// Link is a run whose text leads to its Href, a web page (http or https): the
	// HTML part makes the text a link, the text part writes the address after it.
	Link
	// Send is a command the reader may send, named in a sentence ("did you mean
	// conquista 22?"): the HTML part makes it a link to its Href, a mailto: reply
	// that sends it (see Reply), as the Commands block does; the text part writes
	// the command as it is.
	Send
)

// Inline is a run of text with one style.
type Inline struct {
	Text  string
	Style Style
	// Colour is a Swatch's colour ("#rrggbb"; anything else is left out): a
	// player's colour on the board. The text part has no colour, so a colour must
	// never be the only cue.
	Colour string
	// Href is a Link's address; one that is not http or https is left out.
	Href string
}

// T is a plain run, B a strong one, C a code run, S small print.
func T(s string) Inline { return Inline{Text: s} }

// B is a strong run.
func B(s string) Inline { return Inline{Text: s, Style: Strong} }

// C is a code run.
func C(s string) Inline { return Inline{Text: s, Style: Code} }

// S is a run in small print.
func S(s string) Inline { return Inline{Text: s, Style: Small} }

// A is a run of text that links the web page at href.
func A(text, href string) Inline { return Inline{Text: text, Style: Link, Href: href} }

// Reply is a run of the command cmd that the reader may send: in the HTML part a
// mailto: link to replyTo with subject and cmd as the body (see Mailto), as each
// command of a Commands block is.
func Reply(cmd, replyTo, subject string) Inline {
	return Inline{Text: cmd, Style: Send, Href: Mailto(replyTo, subject, cmd)}
}

// webAddress reports whether href is an address a Link may lead to: http or https,
// with no space or control character in it.
func webAddress(href string) bool {
	if !strings.HasPrefix(href, "https://") && !strings.HasPrefix(href, "http://") {
		return false
	}
	return !strings.ContainsFunc(href, func(r rune) bool { return r <= ' ' || r == 0x7f })
}

// Line is a sequence of runs: a paragraph's text, a list item, a table cell.
type Line []Inline

// L is a Line of one plain run.
func L(s string) Line { return Line{T(s)} }

// Text returns the line's text without styles (and without swatches), as the text
// part shows it.
func (l Line) Text() string {
	n := 0
	for _, r := range l {
		n += len(r.Text)
	}
	b := make([]byte, 0, n)
	for _, r := range l {
		switch {
		case r.Style == Swatch:
		case r.Style == Link && webAddress(r.Href):
			b = append(b, r.Text...)
			b = append(b, ": "...)
			b = append(b, r.Href...)
		default:
			b = append(b, r.Text...)
		}
	}
	return string(b)
}

// Role is what a paragraph is for, which the HTML writer shows.
type Role uint8

// The roles of a paragraph.
const (
	Normal Role = iota
	// Turn is the line that says whose move it is: first in every state mail.
	Turn
	// Error is a refused command or an error.
	Error
	// Note is a remark of less weight (small print in HTML).
	Note
)

// Para is a paragraph. Lines are its lines: the text part keeps each on a line of
// its own (broken at spaces when longer than a mail line); HTML joins them with a
// line break.
type Para struct {
	Role  Role
	Lines []Line
	// Only, when set, shows the paragraph in one part alone (a web link that sits
	// beside the picture in HTML and with the other commands at the end of the text
	// part, where its address does not cost lines at the top).
	Only Part
}

// Part is a part of a mail: Only of a Para.
type Part uint8

// The parts of a mail; BothParts is the zero value.
const (
	BothParts Part = iota
	TextPart
	HTMLPart
)

// P returns a paragraph of one line.
func P(l Line) *Para { return &Para{Lines: []Line{l}} }

// Item is one item of a List.
type Item struct {
	Line Line
	// Mark sets the item apart ("!" in text, bold in HTML): it hit the reader.
	Mark bool
	// Sub are lines under it (a score's breakdown), in small print.
	Sub []Line
}

// List is a list with an optional title line above it.
type List struct {
	Title Line
	Items []Item
	// Numbered lists count from Start (1 when 0).
	Numbered bool
	Start    int
}

// Table is a table with a heading row. The text part lays it out in columns.
type Table struct {
	Title Line
	Head  []string
	Rows  []Row
	// Note is a line under the table (a legend).
	Note Line
	// Record, when set, has the text part write each row as one record instead of
	// columns: its cells one after another, Record[i] before cell i+1 (a cell left
	// empty drops its separator), the record broken under its second cell. It suits
	// a table too wide for a line of text.
	Record []string
}

// Row is one row of a Table.
type Row struct {
	Cells []Line
	// Mark sets the row apart: it changed since the reader's last mail ("*").
	Mark bool
	// Sub are lines under the row, across every column (a player's cards).
	Sub []Line
}

// Defs is a list of terms and what each means: the help's commands, what a verb
// does, how to read a pattern. The text part sets the terms in a column.
type Defs struct {
	Title Line
	Items []Def
	// Column is where the text part starts the meanings (0: after the widest term,
	// capped so that a long term stands on a line of its own).
	Column int
}

// Def is one term and its meaning.
type Def struct {
	Term, Text Line
}

// Command is one line a reader may send.
type Command struct {
	// Text is the command, exactly as the reader sends it.
	Text string
	// Note explains it; the text part shows it as a comment after the command.
	Note string
	// Pattern is true when the reader must complete the command (it has
	// placeholders): the HTML link opens a reply with it to complete.
	Pattern bool
}

// Commands is the block of commands to send: a copyable block in the text part;
// in the HTML part each command is a mailto: link to ReplyTo with the command as
// the body and Subject as the subject (one tap, then send).
type Commands struct {
	Title   Line
	Lines   []Command
	ReplyTo string
	Subject string
}

// Pre is text whose lines are kept as they are (a message quoted), set apart by
// indentation in the text part.
type Pre struct {
	Title Line
	Text  string
}

// Figure is a drawing each part shows in its own way: the text part as its lines
// of characters (Text) under Title, its legend; the HTML part as grids of cells
// (Grids) with Note, their legend, or as Text under Title when there are none.
type Figure struct {
	Title Line
	Text  string
	Grids []Grid
	Note  Line
	// TextOnly leaves the drawing out of the HTML part, which shows the board's
	// picture instead.
	TextOnly bool
}

// Grid is a table of cells with a heading for each column and each row.
type Grid struct {
	Corner string
	Cols   []string
	Rows   []GridRow
}

// GridRow is one row of a Grid.
type GridRow struct {
	Head  string
	Cells []Cell
}

// Cell is one cell of a Grid: its lines and how each of its edges is drawn (top,
// right, bottom, left). A cell without lines is empty.
type Cell struct {
	Lines []Line
	Edges [4]Edge
}

// Edge is how an edge of a cell is drawn.
type Edge uint8

// The edges of a cell.
const (
	NoEdge  Edge = iota
	Wall         // a thick line
	Opening      // a dotted line
	Door         // a double line
)

// Picture is the picture of the board, carried by the mail as a related part
// (multipart/related) and shown by Content-ID. The text part says nothing of it.
type Picture struct {
	CID           string
	Width, Height int
	Alt           string
}

// Section is a titled part of the mail: the details at its end.
type Section struct {
	Title  string
	Blocks []Block
}

func (*Para) block()     {}
func (*List) block()     {}
func (*Table) block()    {}
func (*Defs) block()     {}
func (*Commands) block() {}
func (*Pre) block()      {}
func (*Figure) block()   {}
func (*Picture) block()  {}
func (*Section) block()  {}
