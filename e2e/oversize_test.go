package e2e

import (
	"database/sql"
	"errors"
	"strings"
	"testing"
)

// TestOversizeMail: a mail over the size limit is never interpreted. Up to twice the
// limit it is stored, rejected, and its (authenticated) writer told why; beyond that
// the watcher hands over only its header and it is moved aside unstored. Neither
// changes the game.
func TestOversizeMail(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	alice := h.addr("alice")
	game := h.newGame("smallworld", 7, "", "alice", "bob")
	ra := replyTo(t, h.waitMail(alice, "game "+game, "It is your move"))
	limit := int(h.cfg.Limits.MaxMessageBytes)

	big := h.send(alice, ra, "Re: game", "pick 1\n"+filler("x", 3*limit/2))
	if status, reason := h.settled(big); status != "rejected" || !strings.Contains(reason, "too large") {
		t.Errorf("mail of 1.5× the limit: status %q reason %q, want rejected as too large", status, reason)
	}
	// The player is told, with the commands that are legal for them.
	h.waitMail(alice, "game "+game, "too large to read", "pick 1")

	huge := h.send(alice, ra, "Re: game", "pick 1\n"+filler("y", 3*limit))
	marker := h.send("stranger@example.org", h.addr("turnmail"), "after the huge mail", "hello\n")
	h.settled(marker) // mail is handled in order: the huge one was handled before
	var status string
	err := h.d.Store.DB().QueryRow(`SELECT status FROM inbox WHERE message_id = ?`, huge).Scan(&status)
	if !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("mail of 3× the limit was stored (status %q, err %v)", status, err)
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
