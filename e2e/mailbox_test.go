package e2e

import (
	"testing"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// TestEmbeddedMailboxes_ownPasswords: on the embedded servers every mailbox opens with
// its own password only, over IMAP and SMTP AUTH: a player's password opens neither
// the service's mailbox (where reply tokens arrive) nor another player's, and the
// service's password is kept across a restart (the watcher logs in with it).
func TestEmbeddedMailboxes_ownPasswords(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, svc := h.addr("ann"), h.addr("ben"), h.addr("turnmail")
	pw := map[string]string{ann: h.password(ann), ben: h.password(ben), svc: h.password(svc)}
	if pw[ann] == pw[ben] || pw[ann] == pw[svc] || pw[ben] == pw[svc] || pw[ann] == "" {
		t.Fatalf("mailbox passwords are not distinct: %q", pw)
	}
	tests := []struct {
		user, withPasswordOf string
		ok                   bool
	}{
		{ann, ann, true},
		{svc, svc, true},
		{svc, ann, false},
		{"turnmail+" + "g1.0.aaaaaaaaaaaaaaaa@" + h.domain, ann, false},
		{ben, ann, false},
		{ann, svc, false},
	}
	for _, tt := range tests {
		c, err := imapclient.DialInsecure(h.imapAddr, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Login(tt.user, pw[tt.withPasswordOf]).Wait()
		c.Close()
		if (err == nil) != tt.ok {
			t.Errorf("imap login %s with %s's password: %v, want ok %v", tt.user, tt.withPasswordOf, err, tt.ok)
		}
		sc, err := smtp.Dial(h.smtpAddr)
		if err != nil {
			t.Fatal(err)
		}
		err = sc.Auth(sasl.NewPlainClient("", tt.user, pw[tt.withPasswordOf]))
		sc.Close()
		if (err == nil) != tt.ok {
			t.Errorf("smtp auth %s with %s's password: %v, want ok %v", tt.user, tt.withPasswordOf, err, tt.ok)
		}
	}

	h = h.restart(harnessOptions{games: testRegistry()})
	if got := h.password(svc); got != pw[svc] {
		t.Fatalf("the service password changed across a restart: %q, was %q", got, pw[svc])
	}
	// The watcher, logged in with it, still reads the service mailbox.
	h.send(ann, svc, "help", "help\n")
	h.waitMail(ann, "new")
}
