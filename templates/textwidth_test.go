package templates

import (
	"github.com/turnmail/turnmail/templates/doc"

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
			commands[doc.CommandIndent+c] = true
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
