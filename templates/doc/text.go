package doc

import (
	"strings"
	"unicode/utf8"
)

// MaxLine is the longest line of a plain-text part, in characters, so that text
// clients and quoting ("> ") do not break lines (RFC 5322 recommends 78). A command
// line is never broken, so that it can be copied whole.
const MaxLine = 78

// CommandIndent is the indentation of a line that is a command to copy.
const CommandIndent = "    "

// Text writes d as the plain-text part: the heading, the blocks one after another
// with a blank line between them, and the footer after the signature separator
// "-- ". Paragraphs longer than a line break softly (RFC 3676 format=flowed: the
// broken line ends in a space, so that clients that reflow join it again); the
// lines of lists, tables and definitions continue under their text.
func Text(d *Doc) string {
	var w textWriter
	if d.Heading != "" {
		w.para(d.Heading)
		w.blank()
	}
	w.blocks(d.Blocks)
	if len(d.Footer) > 0 {
		w.blank()
		w.out = append(w.out, "-- ")
		w.para(Line(d.Footer).Text())
	}
	for len(w.out) > 0 && w.out[len(w.out)-1] == "" {
		w.out = w.out[:len(w.out)-1]
	}
	return strings.Join(w.out, "\n") + "\n"
}

// textWriter collects the lines of a plain-text part.
type textWriter struct {
	out []string
}

// blank ends a block: one blank line, never two, never first.
func (w *textWriter) blank() {
	if n := len(w.out); n > 0 && w.out[n-1] != "" {
		w.out = append(w.out, "")
	}
}

func (w *textWriter) blocks(bs []Block) {
	for _, b := range bs {
		before := len(w.out)
		w.block(b)
		if len(w.out) > before {
			w.blank()
		}
	}
}

func (w *textWriter) block(b Block) {
	switch b := b.(type) {
	case *Para:
		if b.Only == HTMLPart {
			return
		}
		for _, l := range b.Lines {
			w.para(l.Text())
		}
	case *List:
		w.title(b.Title)
		start := max(b.Start, 1)
		for i, it := range b.Items {
			head := "  - "
			switch {
			case b.Numbered:
				head = "  " + itoa(start+i) + ". "
			case it.Mark:
				head = "  ! "
			}
			w.hang(head, it.Line.Text(), utf8.RuneCountInString(head))
			for _, s := range it.Sub {
				w.hang("      ", s.Text(), 6)
			}
		}
	case *Table:
		w.title(b.Title)
		if b.Record != nil {
			w.records(b)
		} else {
			w.table(b)
		}
		if len(b.Note) > 0 {
			w.para(b.Note.Text())
		}
	case *Defs:
		w.title(b.Title)
		w.defs(b)
	case *Commands:
		w.title(b.Title)
		for _, c := range b.Lines {
			l := CommandIndent + c.Text
			if c.Note != "" {
				l += "   # " + c.Note
			}
			w.out = append(w.out, strings.TrimRight(l, " "))
		}
	case *Pre:
		w.title(b.Title)
		for _, l := range strings.Split(strings.TrimRight(b.Text, "\n"), "\n") {
			w.out = append(w.out, strings.TrimRight(CommandIndent+l, " "))
		}
	case *Figure:
		w.title(b.Title)
		for _, l := range strings.Split(strings.TrimRight(b.Text, "\n"), "\n") {
			w.out = append(w.out, strings.TrimRight(l, " "))
		}
	case *Picture:
		// The text part has no picture; its board is told in words.
	case *Section:
		if b.Title != "" {
			w.blank()
			w.para(b.Title)
			w.blank()
		}
		w.blocks(b.Blocks)
	}
}

// title writes a block's title line, if it has one.
func (w *textWriter) title(l Line) {
	if len(l) > 0 {
		w.para(l.Text())
	}
}

// para writes a line of text, broken softly (format=flowed) where it is longer than
// MaxLine; its own line breaks are kept.
func (w *textWriter) para(s string) {
	for _, l := range strings.Split(s, "\n") {
		w.out = append(w.out, Wrap(l, "", 0, true)...)
	}
}

// hang writes head and s, broken at MaxLine, each later line indented by indent.
func (w *textWriter) hang(head, s string, indent int) {
	for i, l := range strings.Split(s, "\n") {
		if i > 0 {
			head, l = strings.Repeat(" ", indent), strings.TrimLeft(l, " ")
		}
		w.out = append(w.out, Wrap(l, head, indent, false)...)
	}
}

// Wrap breaks head+s into lines of at most MaxLine characters at spaces; each line
// after the first starts with indent spaces. A soft break leaves a space at the end
// of the broken line (format=flowed). A word longer than a line stays whole.
func Wrap(s, head string, indent int, soft bool) []string {
	s = strings.TrimRight(s, " ")
	if utf8.RuneCountInString(head+s) <= MaxLine {
		return []string{strings.TrimRight(head+s, " ")}
	}
	trail := ""
	if soft {
		trail = " "
	}
	pad := strings.Repeat(" ", indent)
	prefix, rest := head, s
	var out []string
	for utf8.RuneCountInString(prefix+rest) > MaxLine {
		room := MaxLine - len(trail) - utf8.RuneCountInString(prefix) // in characters
		at := -1                                                      // the byte index of the break
		for i, n := 0, 0; i < len(rest); i++ {
			if rest[i] == ' ' && strings.TrimLeft(rest[:i], " ") != "" && (n <= room || at < 0) {
				at = i
			}
			if utf8.RuneStart(rest[i]) {
				n++
			}
			if n > room && at >= 0 {
				break
			}
		}
		if at < 0 {
			break // one word longer than the line
		}
		out = append(out, prefix+strings.TrimRight(rest[:at], " ")+trail)
		prefix, rest = pad, strings.TrimLeft(rest[at:], " ")
	}
	return append(out, prefix+rest)
}

// gap is the space between the columns of a plain-text table.
const gap = "  "

// table lays a table out in columns, heading first; a marked row starts with "*".
// A table wider than a line narrows its widest columns: a cell longer than its
// column pushes the rest of its row to the next line, under their columns; the last
// cell breaks under its own column.
func (w *textWriter) table(t *Table) {
	rows := make([][]string, 0, len(t.Rows)+1)
	if len(t.Head) > 0 {
		rows = append(rows, t.Head)
	}
	for _, r := range t.Rows {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = c.Text()
		}
		rows = append(rows, cells)
	}
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return
	}
	width := make([]int, cols-1) // the columns before the last
	for _, r := range rows {
		for i, c := range r {
			if i < cols-1 {
				width[i] = max(width[i], utf8.RuneCountInString(c))
			}
		}
	}
	const indent = 2
	last := 0 // the widest cell of the last column
	for _, r := range rows {
		if len(r) == cols {
			last = max(last, utf8.RuneCountInString(r[cols-1]))
		}
	}
	least := make([]int, cols-1) // a column is never narrower than its heading
	for i := range least {
		least[i] = 4
		if i < len(t.Head) {
			least[i] = max(least[i], utf8.RuneCountInString(t.Head[i]))
		}
	}
	// A table wider than a line narrows its widest columns, leaving the last one
	// room for its cells or half the line.
	room := MaxLine - indent - len(gap)*(cols-1) - min(last, MaxLine/2)
	for sum(width) > room {
		widest := -1
		for i := range width {
			if width[i] > least[i] && (widest < 0 || width[i] > width[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		width[widest]--
	}
	start := make([]int, cols)
	start[0] = indent
	for i := 1; i < cols; i++ {
		start[i] = start[i-1] + width[i-1] + len(gap)
	}
	for i, r := range rows {
		mark := "  "
		if len(t.Head) > 0 {
			i--
		}
		if i >= 0 && t.Rows[i].Mark {
			mark = "* "
		}
		line := mark
		for j, c := range r {
			n := utf8.RuneCountInString(line)
			if j > 0 && n > start[j]-len(gap) {
				w.out = append(w.out, strings.TrimRight(line, " "))
				line, n = "", 0
			}
			line += strings.Repeat(" ", start[j]-n)
			if j == len(r)-1 {
				w.out = append(w.out, Wrap(line+c, "", start[j], false)...)
				line = ""
				break
			}
			if parts := Wrap(line+c, "", start[j], false); len(parts) > 1 {
				w.out = append(w.out, parts[:len(parts)-1]...)
				line = parts[len(parts)-1]
				continue
			}
			line += c
		}
		if line != "" {
			w.out = append(w.out, strings.TrimRight(line, " "))
		}
		if i >= 0 {
			for _, s := range t.Rows[i].Sub {
				w.hang("    ", s.Text(), 4)
			}
		}
	}
}

// recordIndent is where a record continues: under its second cell when the first
// is short (a region's number), else at this column.
const recordIndent = 6

// records writes each row of a table as one record: its cells joined by the
// table's separators, broken under the second cell.
func (w *textWriter) records(t *Table) {
	for _, r := range t.Rows {
		mark := "  "
		if r.Mark {
			mark = "* "
		}
		line := mark
		indent := recordIndent
		for i, c := range r.Cells {
			text := c.Text()
			switch {
			case i == 0:
				line += text
				sep := 1
				if len(t.Record) > 0 {
					sep = utf8.RuneCountInString(t.Record[0])
				}
				indent = min(utf8.RuneCountInString(line)+sep, recordIndent)
			case text == "":
			case i-1 < len(t.Record):
				line += t.Record[i-1] + text
			default:
				line += " " + text
			}
		}
		w.out = append(w.out, Wrap(line, "", indent, false)...)
		for _, s := range r.Sub {
			w.hang("    ", s.Text(), 4)
		}
	}
}

// sum adds ns.
func sum(ns []int) int {
	t := 0
	for _, n := range ns {
		t += n
	}
	return t
}

// defsColumn is the widest column of terms the text part gives a Defs by itself.
const defsColumn = 34

// defs sets each term at the indentation and its meaning at the column, broken
// under the column; a term too wide for the column stands on a line of its own.
func (w *textWriter) defs(d *Defs) {
	const indent = 2
	col := d.Column
	if col == 0 {
		for _, it := range d.Items { // the widest term that fits the column
			if n := indent + utf8.RuneCountInString(it.Term.Text()) + 2; n <= defsColumn {
				col = max(col, n)
			}
		}
		if col == 0 {
			col = defsColumn
		}
	}
	pad := strings.Repeat(" ", col)
	for _, it := range d.Items {
		term, text := strings.Repeat(" ", indent)+it.Term.Text(), it.Text.Text()
		n := utf8.RuneCountInString(term)
		switch {
		case text == "":
			w.out = append(w.out, term)
		case n+2 <= col:
			w.hang(term+strings.Repeat(" ", col-n), text, col)
		default:
			w.out = append(w.out, term)
			w.hang(pad, text, col)
		}
	}
}

// itoa formats a small number.
func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
