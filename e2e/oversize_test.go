package e2e

import (
	"strings"
	"testing"
)

// TestOversizeMail: a mail over the size limit is never interpreted: it is stored
// (beyond twice the limit the watcher fetches only its header), rejected, and its
// authenticated writer told why, however large it is. Neither changes the game.
func TestOversizeMail(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	alice := h.addr("alice")
	game := h.newGame("smallworld", 7, "", "alice", "bob")
	ra := replyTo(t, h.waitMail(alice, "game "+game, "Your move"))
	limit := int(h.cfg.Limits.MaxMessageBytes)

	for _, size := range []struct {
		name  string
		bytes int
	}{{"1.5× the limit", 3 * limit / 2}, {"3× the limit", 3 * limit}} {
		id := h.send(alice, ra, "Re: game", "pick 1\n"+filler("x", size.bytes))
		if status, reason := h.settled(id); status != "rejected" || !strings.Contains(reason, "too large") {
			t.Errorf("mail of %s: status %q reason %q, want rejected as too large", size.name, status, reason)
		}
		// The player is told, with the commands that are legal for them.
		h.waitMail(alice, "game "+game, "too large to read", "pick 1")
		var stored int
		if err := h.d.Store.DB().QueryRow(`SELECT length(raw) FROM inbox WHERE message_id = ?`, id).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored > 2*limit {
			t.Errorf("mail of %s: %d bytes stored, want at most twice the limit", size.name, stored)
		}
	}
	if n := h.events(game); n != 0 {
		t.Fatalf("oversize mail changed the game: %d events", n)
	}
}

// filler returns about n bytes of text in lines of 76 characters (SMTP limits lines).
func filler(ch string, n int) string {
	line := strings.Repeat(ch, 76) + "\n"
	return strings.Repeat(line, n/len(line)+1)
}
