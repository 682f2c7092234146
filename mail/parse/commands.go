package parse

import (
	"fmt"
	"strings"
)

// Line is one command line of a reply.
type Line struct {
	// N is the 1-based number of the line in Message.Reply, for error messages.
	N int
	// Text is the command with its comment removed and white space trimmed.
	Text string
}

// CommandLines returns the command lines of a reply text: for each line, "#" and
// everything after it is a comment and is removed, the rest is trimmed (no-break
// spaces count as spaces), and lines left empty are skipped.
func CommandLines(reply string) []Line {
	var out []Line
	for i, l := range strings.Split(normalizeNewlines(reply), "\n") {
		if j := strings.IndexByte(l, '#'); j >= 0 {
			l = l[:j]
		}
		l = strings.TrimSpace(strings.ReplaceAll(l, "\u00a0", " "))
		if l == "" {
			continue
		}
		out = append(out, Line{N: i + 1, Text: l})
	}
	return out
}

// FormatCommands formats command lines one per line as "N: text", each ending in a
// newline, as `turnmail parse-mail --commands` prints them.
func FormatCommands(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%d: %s\n", l.N, l.Text)
	}
	return b.String()
}
