package e2e

import (
	"strings"
	"testing"

	"github.com/turnmail/turnmail/mail/parse"
)

// TestMailLoop plays the opening of a Small World game over the embedded IMAP and
// SMTP servers and checks the documented outcome of every kind of bad mail.
func TestMailLoop(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	playOpening(t, h, true)
}

// TestRealServers plays the same opening through Dovecot and Postfix (.ci/run starts
// them; locally: make real-mail-up and the TURNMAIL_REAL_* variables of .ci/run).
func TestRealServers(t *testing.T) {
	h := newHarness(t, harnessOptions{real: realFromEnv(t)})
	playOpening(t, h, false)
}

func playOpening(t *testing.T, h *harness, allCases bool) {
	alice, bob, service := h.addr("alice"), h.addr("bob"), h.addr("turnmail")
	game := h.newGame("smallworld", 7, "", "alice", "bob")

	// Every mail of this game names it (real servers may hold mail of earlier runs).
	wait := func(addr string, want ...string) *parse.Message {
		t.Helper()
		return h.waitMail(addr, append([]string{"game " + game}, want...)...)
	}
	a := wait(alice, "Your move")
	b := wait(bob, "It is alice's move")
	ra, rb := replyTo(t, a), replyTo(t, b)
	if !strings.HasPrefix(ra, "turnmail+"+game+".") || ra == rb {
		t.Fatalf("reply addresses %q and %q are not personal to the game", ra, rb)
	}
	if !strings.Contains(a.Subject, game) {
		t.Errorf("subject %q does not name the game", a.Subject)
	}
	pick := firstConcrete(legalLines(a), "pick")
	if pick == "" {
		t.Fatalf("alice's opening mail lists no pick command:\n%s", a.Body)
	}

	// Bad mail first: none of it may change the game.
	type badMail struct {
		name, from, to, body string
		extra                []string
		wantStatus           string
		wantReason           string
	}
	bad := []badMail{
		{"illegal move", alice, ra, "conquer 999\n", nil, "rejected", "999"},
		{"not your turn", bob, rb, pick + "\n", nil, "rejected", "alice"},
		{"forged From", "mallory@" + h.domain, ra, pick + "\n", nil, "rejected", "is not the address of alice"},
	}
	if allCases {
		bad = append(bad,
			badMail{"wrong token", alice, tamper(ra), pick + "\n", nil, "rejected", "invalid reply token"},
			badMail{"unknown sender", "stranger@example.org", service, "pick 1\n", nil, "ignored", "unknown sender"},
			badMail{"auto-reply", alice, ra, "I am on holiday\n", []string{"Auto-Submitted: auto-replied"}, "ignored", "auto-generated"},
			badMail{"no token", alice, service, pick + "\n", nil, "rejected", "no reply token"},
			badMail{"no commands", alice, ra, "# just a comment\n", nil, "rejected", "No command"},
		)
	}
	for _, m := range bad {
		id := h.send(m.from, m.to, "Re: game", m.body, m.extra...)
		status, reason := h.settled(id)
		if status != m.wantStatus || !strings.Contains(reason, m.wantReason) {
			t.Errorf("%s: status %q reason %q, want %q containing %q", m.name, status, reason, m.wantStatus, m.wantReason)
		}
		if n := h.events(game); n != 0 {
			t.Fatalf("%s: the game has %d events, want 0", m.name, n)
		}
	}
	// The answers: an error mail to alice naming the line, one to bob saying whose turn
	// it is; nothing to the forger, the stranger or the auto-replier.
	wait(alice, "line 1: conquer 999")
	wait(bob, "It is alice's move\n\nNot applied — line 1:")
	if allCases {
		h.waitMail(alice, ra, "not through a game's reply address") // the how-to mail lists her reply address
		wait(alice, "No command was found")
		h.quietOutbox()
		for _, who := range []string{"mallory@" + h.domain, alice} {
			if got := h.unexpected(who); len(got) != 0 {
				t.Errorf("%s got %d unexpected mails, first %q", who, len(got), got[0].Subject)
			}
		}
	}

	// bob wants a mail after every move of alice's, not only when her turn ends.
	if status, reason := h.settled(h.send(bob, rb, "Re: game", "notify every\n")); status != "applied" {
		t.Fatalf("notify every: status %q (%s)", status, reason)
	}
	wait(bob, "Done: notify every")

	// A legal move, then its duplicate: applied once, both players told.
	id := h.send(alice, ra, "Re: game", pick+"\n")
	if status, reason := h.settled(id); status != "applied" {
		t.Fatalf("legal move: status %q (%s)", status, reason)
	}
	a = wait(alice, "Since your last mail:", "alice took ")
	wait(bob, "alice took ") // the account names the combo
	if allCases {
		h.sendRaw(alice, ra, h.rawMail(id, alice, ra, "Re: game", pick+"\n"))
		marker := h.send("stranger@example.org", service, "after the duplicate", "hello\n")
		h.settled(marker)                // mail is handled in order: the duplicate was handled before
		if n := h.events(game); n != 2 { // notify every, pick
			t.Fatalf("after a duplicate Message-ID the game has %d events, want 2", n)
		}
	}

	// Several lines in one mail: applied up to the first illegal one.
	conquer := firstConcrete(legalLines(a), "conquer")
	if conquer == "" {
		t.Fatalf("after picking, alice may not conquer:\n%s", a.Body)
	}
	id = h.send(alice, ra, "Re: game", "# my turn\n"+conquer+"\nconquer 999\n")
	if status, reason := h.settled(id); status != "applied" || !strings.Contains(reason, "line 3") {
		t.Fatalf("multi-line mail: status %q reason %q, want applied with an error on line 3", status, reason)
	}
	// The whole line was copied, its note too (a comment): the command is applied.
	cmd := strings.TrimSpace(strings.SplitN(conquer, "#", 2)[0])
	wait(alice, "Applied from your mail: ", cmd, "Not applied — line 3: conquer 999")
	wait(bob, "conquered region "+strings.TrimPrefix(cmd, "conquer ")+" ")
	if n := h.events(game); n != 3 { // notify every, pick, conquer
		t.Fatalf("the game has %d events, want 3", n)
	}
}

// tamper changes the last character of the reply token in addr (always to
// another one: the token is random, so a fixed replacement would sometimes be
// no change at all).
func tamper(addr string) string {
	at := strings.LastIndexByte(addr, '@')
	c := byte('x')
	if addr[at-1] == c {
		c = 'y'
	}
	return addr[:at-1] + string(c) + addr[at:]
}
