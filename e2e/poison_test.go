package e2e

import (
	"strings"
	"testing"
)

// TestPoisonHeaders: mail whose headers cannot be echoed or answered — a
// Message-ID with a space, a From with a quoted local part, an invitation to a
// quoted address — is settled (answered without the bad id, or refused), and the
// valid move after it is applied and answered.
func TestPoisonHeaders(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	alice, service := h.addr("alice"), h.addr("turnmail")
	game := h.newGame("smallworld", 7, "", "alice", "bob")
	a := h.waitMail(alice, "game "+game, "Your move")
	ra := replyTo(t, a)
	pick := firstConcrete(legalLines(a), "pick")

	poison := []struct {
		name, envelope string
		raw            []byte
		id, wantStatus string
	}{
		{"Message-ID with a space", alice, h.rawMail("a b@evil.test", alice, service, "hello", "help\n"), "a b@evil.test", "applied"},
		{"From with a quoted local part", "evil@example.org", h.rawMail("q1@evil.test", `"a b"@evil.test`, service, "hello", "help\n"), "q1@evil.test", "rejected"},
		{"From with a quoted local part and a comma", "evil@example.org", h.rawMail("q2@evil.test", `"a,b"@evil.test`, service, "hello", "new smallworld\n"), "q2@evil.test", "rejected"},
		{"new with list= a quoted address", alice, h.rawMail("q3@client.example", alice, service, "hello", `new smallworld list="a b"@victim.test`+"\n"), "q3@client.example", "rejected"},
	}
	for _, p := range poison {
		h.sendRaw(p.envelope, service, p.raw)
		if status, reason := h.settled(p.id); status != p.wantStatus {
			t.Errorf("%s: status %q (%s), want %q", p.name, status, reason, p.wantStatus)
		}
	}
	help := h.waitMail(alice, "new GAME")
	if strings.Contains(help.InReplyTo, " ") || strings.Contains(strings.Join(help.References, ","), "evil.test") {
		t.Errorf("the answer echoes the bad Message-ID: In-Reply-To %q, References %q", help.InReplyTo, help.References)
	}
	h.waitMail(alice, `list="a b"@victim.test cannot be used as a mail address`)

	id := h.send(alice, ra, "Re: game", pick+"\n")
	if status, reason := h.settled(id); status != "applied" {
		t.Fatalf("the move after the poison mail: status %q (%s)", status, reason)
	}
	h.waitMail(alice, "game "+game, "Since your last mail:", "alice took ")
	// bob waits: he hears of it when alice's turn ends (see TestBots).
}
