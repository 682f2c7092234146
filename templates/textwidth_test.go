package templates

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRender_textWidth: every line of the plain-text part of every kind of mail —
// the golden samples and state mails and refusals from real Small World and Empire
// views — is at most MaxLine characters long, except the reader's legal commands
// (with their notes, "entry   # note"), which are kept whole so that they can be
// copied.
func TestRender_textWidth(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(samples, realSamples(t)...) {
		text, _, err := set.Render(s.kind, s.data)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		commands := map[string]bool{}
		for _, c := range legalLines(s.data) {
			commands[commandIndent+c] = true
		}
		for i, l := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(l); n > MaxLine && !commands[l] {
				t.Errorf("%s line %d has %d characters:\n%s", s.name, i+1, n, l)
			}
		}
	}
}

// legalLines returns the commands a mail's data lists as legal for its reader, with
// their notes as the mail shows them.
func legalLines(data any) []string {
	switch d := data.(type) {
	case State:
		return Noted(d.Legal, d.LegalNotes)
	case Refusal:
		return Noted(d.Legal, d.LegalNotes)
	case Notice:
		return Noted(d.Legal, d.LegalNotes)
	case Lobby:
		var out []string
		for _, n := range d.Answers {
			out = append(out, Noted(n.Legal, n.LegalNotes)...)
		}
		return out
	}
	return nil
}

// TestWrap: long lines break at spaces under their indentation or their second
// column; command lines and words longer than a line stay whole.
func TestWrap(t *testing.T) {
	long := strings.Repeat("word ", 20) // 100 characters
	cmd := "    move 5>22>23>24>25 # along the path you name: land and crossings 1 point, sea routes 3"
	tests := []struct {
		name, in string
		want     []string
	}{
		{"short", "a short line", []string{"a short line"}},
		{"prose breaks softly", strings.TrimSpace(long), []string{strings.Repeat("word ", 15), strings.TrimSpace(strings.Repeat("word ", 5))}},
		{"a soft break's space counts", strings.Repeat("x", 76) + " y z", []string{strings.Repeat("x", 76) + " ", "y z"}},
		{"indented", "  " + strings.TrimSpace(long), []string{"  " + strings.TrimSpace(strings.Repeat("word ", 15)), "  " + strings.TrimSpace(strings.Repeat("word ", 5))}},
		{"command", cmd, []string{cmd}},
		{"command without a note", "    " + strings.Repeat("x", 90), []string{"    " + strings.Repeat("x", 90)}},
		{"table row", "    undo                           ask to take back the last move; the others answer accept",
			[]string{"    undo                           ask to take back the last move; the others", "                                   answer accept"}},
		{"long word", "see " + strings.Repeat("y", 80) + " here", []string{"see ", strings.Repeat("y", 80) + " ", "here"}},
		{"table row keeps its spacing", "    ta-k3p2  tally  open (join ta-k3p2)  players: ann, ben (2 of 3)  host: ann@example.org",
			[]string{"    ta-k3p2  tally  open (join ta-k3p2)  players: ann, ben (2 of 3)  host:", "             ann@example.org"}},
		{"characters, not bytes", strings.Repeat("é", 78), []string{strings.Repeat("é", 78)}},
		{"numbered row", "   7 hill      (lost-tribe) — lost-tribe ×1; next to 2, 3, 6, 8, 12, 13, 14, 15",
			[]string{"   7 hill      (lost-tribe) — lost-tribe ×1; next to 2, 3, 6, 8, 12, 13, 14,", "     15"}},
		{"marked numbered row", " * 3 forest    (mine) entry — empty; next to 2, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15",
			[]string{" * 3 forest    (mine) entry — empty; next to 2, 4, 7, 8, 9, 10, 11, 12, 13,", "     14, 15"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wrap(tt.in)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("wrap(%q) =\n%s\nwant\n%s", tt.in, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
