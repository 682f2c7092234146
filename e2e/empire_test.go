package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestEmpireSecretBidByMail plays the opening of Eight-Minute Empire: Legends by mail:
// the setup placement, then the secret simultaneous bid, checking that no player's
// mail shows another's bid before all bids are in.
func TestEmpireSecretBidByMail(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{})
	players := []string{"alice", "bob", "carol"}
	game := h.newGame("empire", 11, "", players...)
	reply := map[string]string{}
	for _, p := range players {
		m := h.waitMail(h.addr(p), "Eight-Minute Empire")
		reply[p] = replyTo(t, m)
	}

	// The player drawn to place the shared armies does so by mail.
	l, err := h.d.Service.Load(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	settler := l.State.ToAct()[0]
	first := regexp.MustCompile(`settle <(\d+)`).FindStringSubmatch(strings.Join(l.State.Legal(settler), "\n"))
	if first == nil {
		t.Fatalf("%s may not settle: %v", settler, l.State.Legal(settler))
	}
	id := h.send(h.addr(settler), reply[settler], "Re: game", "settle "+first[1]+"\n")
	if status, reason := h.settled(id); status != "applied" {
		t.Fatalf("settle: %s %s", status, reason)
	}

	// Secret bids: alice's bid changes nothing bob and carol could send, so it is no
	// mail to them (issue 23), only a line of their next mail.
	for _, p := range []string{"bob", "carol"} {
		h.waitMail(h.addr(p), "What you can send", "bid <")
	}
	h.quietOutbox()
	for _, p := range []string{"bob", "carol"} {
		h.unexpected(h.addr(p))
		h.unread[h.addr(p)] = nil
	}
	bids := map[string]string{"alice": "7", "bob": "2", "carol": "4"}
	id = h.send(h.addr("alice"), reply["alice"], "Re: game", "bid 7\n")
	if status, reason := h.settled(id); status != "applied" {
		t.Fatalf("alice's bid: %s %s", status, reason)
	}
	h.quietOutbox()
	for _, p := range []string{"bob", "carol"} {
		for _, m := range h.unexpected(h.addr(p)) {
			t.Errorf("%s was mailed about alice's sealed bid:\n%s", p, m.Body)
		}
	}
	// The history bob asks for tells that she bid, not how much.
	id = h.send(h.addr("bob"), reply["bob"], "Re: game", "history\n")
	h.settled(id)
	hist := h.waitMail(h.addr("bob"), "The last", "alice made a secret bid")
	if strings.Contains(hist.Body, "bid 7") || strings.Contains(hist.Body, "7 coins") {
		t.Fatalf("bob's history reveals alice's bid:\n%s", hist.Body)
	}
	id = h.send(h.addr("bob"), reply["bob"], "Re: game", "bid "+bids["bob"]+"\n")
	if status, reason := h.settled(id); status != "applied" {
		t.Fatalf("bob's bid: %s %s", status, reason)
	}
	// bob's answer tells him that alice bid, not how much.
	m := h.waitMail(h.addr("bob"), "alice made a secret bid")
	if strings.Contains(m.Body, "bid 7") || !strings.Contains(m.Body, "sent, secret") {
		t.Fatalf("bob's mail reveals alice's bid or does not say that she bid:\n%s", m.Body)
	}
	id = h.send(h.addr("carol"), reply["carol"], "Re: game", "bid "+bids["carol"]+"\n")
	if status, reason := h.settled(id); status != "applied" {
		t.Fatalf("carol's bid: %s %s", status, reason)
	}
	// All bids are in: alice, the highest bidder, chooses who starts.
	m = h.waitMail(h.addr("alice"), "the bids were", "Your move")
	if !strings.Contains(m.Body, "first alice") {
		t.Fatalf("alice may not choose the first player:\n%s", m.Body)
	}
	id = h.send(h.addr("alice"), reply["alice"], "Re: game", "first bob\n")
	if status, reason := h.settled(id); status != "applied" {
		t.Fatalf("first bob: %s %s", status, reason)
	}
	h.waitMail(h.addr("bob"), "Your move", "take 1")
}
