package e2e

import (
	"strings"
	"testing"

	"github.com/turnmail/turnmail/service"
)

// TestSay: over SMTP and IMAP, ann's say reaches ben in a mail of its own with the
// game's subject and thread, ann is told it was relayed, the game does not move
// (still ann's turn), and a greeting around it is quoted as not read.
func TestSay(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben := h.addr("ann"), h.addr("ben")
	game := turnGame(t, h, h.addr("host"), service.Settings{})
	ra := replyTo(t, h.waitMail(ann, "Your move"))
	opening := h.waitMail(ben, "It is ann's move") // ben's thread starts here

	h.send(ann, ra, "Re", "Ciao Ben!\nsay Ti distruggo, è certo. <script>\n\nA domani,\n")
	got := h.waitMail(ben, "ann says:\n    Ti distruggo, è certo. <script>")
	if got.Subject != opening.Subject {
		t.Errorf("chat subject %q, want the game's %q", got.Subject, opening.Subject)
	}
	root := opening.MessageID // the opening mail is the root of ben's thread
	if len(opening.References) > 0 {
		root = opening.References[0]
	}
	if len(got.References) == 0 || got.References[0] != root || got.InReplyTo == "" {
		t.Errorf("chat mail In-Reply-To %q References %v, not in the game's thread (root %s)", got.InReplyTo, got.References, root)
	}
	h.waitMail(ann, "Relayed to ben:", "Not read as commands", "line 1: Ciao Ben!", "line 4: A domani,")
	if n := h.events(game); n != 1 {
		t.Errorf("%d events, want 1 (the message, no move)", n)
	}
	h.send(ann, ra, "Re", "add 4\n")
	h.waitMail(ben, "Your move")
	if s := score(t, h, game, "ann"); s != 4 {
		t.Errorf("ann has %d, want 4", s)
	}
	for _, m := range h.unexpected(ben) {
		if strings.Contains(m.Body, "A domani") || strings.Contains(m.Body, "Ciao Ben") {
			t.Errorf("ben got ann's greeting:\n%s", m.Body)
		}
	}
}
