package templates

import (
	"strings"
	"unicode/utf8"
)

// rowColumn is the width of the first column of a plain-text table of commands (the
// help): the explanations start after it and a space.
const rowColumn = 30

// Row lays out one row of a plain-text table of commands, as the help lists them: the
// command indented as a line to copy, then its explanation at the second column. A
// command too long for the column stands on a line of its own, with its explanation
// on the next line at the column (an Italian command may be longer than its English
// one). An empty command gives a line of explanation at the column.
func Row(command, what string) string {
	pad := strings.Repeat(" ", len(commandIndent)+rowColumn+1)
	if command == "" {
		return pad + what
	}
	n := utf8.RuneCountInString(command)
	line := commandIndent + command
	switch {
	case n < rowColumn:
		return line + strings.Repeat(" ", rowColumn+1-n) + what
	case utf8.RuneCountInString(line+" "+what) <= MaxLine:
		return line + " " + what
	}
	return line + "\n" + pad + what
}
