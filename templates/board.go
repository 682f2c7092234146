package templates

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Board returns the data of a map game's state section (the templates
// "state-smallworld" and "html-smallworld"): a copy of the engine's view whose region
// table lists the reader's own regions first (the order of the view otherwise) and
// marks with "changed" the regions whose ids are in changed (see State.Changed). It
// adds "Lang", the reader's language, "own", the number of the reader's regions, and
// "marked", true when a region is marked. The view itself is not modified. reader is
// "" for observers: the order is the view's.
func Board(view map[string]any, reader string, changed []string, lang string) map[string]any {
	out := make(map[string]any, len(view)+2)
	for k, v := range view {
		out[k] = v
	}
	out["Lang"], out["own"], out["marked"] = lang, 0, false
	regions, _ := view["regions"].([]any)
	if regions == nil {
		return out
	}
	rows := make([]any, 0, len(regions))
	marked, own := false, 0
	mine := func(r any) bool {
		m, ok := r.(map[string]any)
		return ok && reader != "" && Str(m["owner"]) == reader
	}
	for _, r := range regions {
		m, ok := r.(map[string]any)
		if !ok {
			rows = append(rows, r)
			continue
		}
		row := make(map[string]any, len(m)+1)
		for k, v := range m {
			row[k] = v
		}
		if slices.Contains(changed, Str(m["id"])) {
			row["changed"] = true
			marked = true
		}
		if mine(row) {
			own++
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b any) int {
		switch ma, mb := mine(a), mine(b); {
		case ma && !mb:
			return -1
		case mb && !ma:
			return 1
		}
		return 0
	})
	out["regions"], out["own"], out["marked"] = rows, own, marked
	return out
}

// noteColumn is the column where the text of a verb note starts, after its pattern.
const noteColumn = 14

// VerbNote lays out one line of "What these commands do:" in the plain-text part:
// the command pattern, indented by two and padded to noteColumn, then what it does,
// broken at spaces to MaxLine with the rest under the text's column ("  swap N
// your Shadow Mimes take …").
func VerbNote(pattern, text string) string {
	head := "  " + pattern + "  "
	if n := utf8.RuneCountInString(head); n < noteColumn {
		head += strings.Repeat(" ", noteColumn-n)
	}
	pad := strings.Repeat(" ", noteColumn)
	var lines []string
	line := head
	fresh := true // nothing but the head or the pad on line yet
	for _, w := range strings.Fields(text) {
		if !fresh && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > MaxLine {
			lines = append(lines, line)
			line, fresh = pad, true
		}
		if !fresh {
			line += " "
		}
		line += w
		fresh = false
	}
	return strings.Join(append(lines, line), "\n")
}
