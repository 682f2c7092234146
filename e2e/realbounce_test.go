package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
)

// TestRealServers_bounce: Postfix's own delivery report for a mail to an address
// that has no mailbox comes back to the mail's VERP return path and is believed:
// the address is marked unreachable in that game and the host is told.
func TestRealServers_bounce(t *testing.T) {
	h := newHarness(t, harnessOptions{real: realFromEnv(t)})
	host, ghost := h.addr("alice"), h.addr("ghost-"+strings.ToLower(time.Now().Format("150405.000000")))
	game, err := h.d.Service.CreateGame(context.Background(), service.NewGame{
		Kind: "smallworld", Seed: 7, Host: host,
		Players: []engine.Player{{Name: "bob", Email: h.addr("bob")}, {Name: "ghost", Email: ghost}},
	})
	if err != nil {
		t.Fatal(err)
	}
	h.waitMail(host, "Mail to "+ghost+" (ghost in game "+game+") bounced")
	_, players, err := h.d.Store.Game(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	if players[1].Unreachable == "" || players[0].Unreachable != "" {
		t.Fatalf("unreachable: bob %q, ghost %q; want ghost only", players[0].Unreachable, players[1].Unreachable)
	}
	// The report came to the mail's own return path.
	var raw []byte
	if err := h.d.Store.DB().QueryRow(`SELECT raw FROM inbox WHERE error LIKE 'bounce: marked unreachable%'`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if m, err := parse.Parse(raw, nil); err != nil || !strings.Contains(strings.Join(m.Recipients(), " "), "turnmail+bounce-") {
		t.Errorf("the delivery report did not come to a VERP return path:\n%s", headerBlock(raw))
	}
}

// headerBlock is the header of a raw mail, for failure messages.
func headerBlock(raw []byte) string {
	h, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	return h
}
