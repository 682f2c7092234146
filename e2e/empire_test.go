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

	// Secret bids: after alice's bid, bob and carol see that she bid, not how much.
	bids := map[string]string{"alice": "7", "bob": "2", "carol": "4"}
	id = h.send(h.addr("alice"), reply["alice"], "Re: game", "bid 7\n")
	if status, reason := h.settled(id); status != "applied" {
		t.Fatalf("alice's bid: %s %s", status, reason)
	}
	for _, p := range []string{"bob", "carol"} {
		m := h.waitMail(h.addr(p), "alice made a secret bid")
		if strings.Contains(m.Body, "bid 7") || strings.Contains(m.Body, "(bid 7)") {
			t.Fatalf("%s's mail reveals alice's bid:\n%s", p, m.Body)
		}
		if !strings.Contains(m.Body, "bid sent, secret") {
			t.Errorf("%s's mail does not say that alice has bid:\n%s", p, m.Body)
		}
	}
	// Nor does the history bob asks for.
	id = h.send(h.addr("bob"), reply["bob"], "Re: game", "history\n")
	h.settled(id)
	hist := h.waitMail(h.addr("bob"), "bid (sealed)")
	if strings.Contains(hist.Body, "bid 7") {
		t.Fatalf("bob's history reveals alice's bid:\n%s", hist.Body)
	}
	for _, p := range []string{"bob", "carol"} {
		id := h.send(h.addr(p), reply[p], "Re: game", "bid "+bids[p]+"\n")
		if status, reason := h.settled(id); status != "applied" {
			t.Fatalf("%s's bid: %s %s", p, status, reason)
		}
	}
	// All bids are in: alice, the highest bidder, chooses who starts.
	m := h.waitMail(h.addr("alice"), "the bids were", "It is your move")
	if !strings.Contains(m.Body, "first alice") {
		t.Fatalf("alice may not choose the first player:\n%s", m.Body)
	}
	id = h.send(h.addr("alice"), reply["alice"], "Re: game", "first bob\n")
	if status, reason := h.settled(id); status != "applied" {
		t.Fatalf("first bob: %s %s", status, reason)
	}
	h.waitMail(h.addr("bob"), "It is your move", "take 1")
}
