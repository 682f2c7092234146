package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
)

// TestPoisonMail: a mail whose processing fails for good (here an engine panic) is
// quarantined — moved to the Failed folder, its writer told — and the moves sent
// after it, by both players, are applied and answered; /healthz stays ok.
func TestPoisonMail(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: engine.Registry{"tally": testgame.Faulty{}}})
	alice, bob := h.addr("alice"), h.addr("bob")
	game := h.newGame("tally", 1, "", "alice", "bob")
	ra := replyTo(t, h.waitMail(alice, game))
	rb := replyTo(t, h.waitMail(bob, game))

	poison := h.send(alice, ra, "Re: game", "add 7\n")
	second := h.send(bob, rb, "Re: game", "add 1\n")
	third := h.send(alice, ra, "Re: game", "add 2\n")
	if status, reason := h.settled(poison); status != "failed" || !strings.Contains(reason, "panic") {
		t.Errorf("poison mail: %q %q, want failed with the panic", status, reason)
	}
	for _, id := range []string{second, third} {
		if status, reason := h.settled(id); status != "applied" {
			t.Errorf("mail after the poison one: %q %q, want applied", status, reason)
		}
	}
	h.waitMail(alice, "could not be processed", "Nothing in it was applied")
	if n := h.events(game); n != 2 {
		t.Errorf("%d events, want the 2 valid moves", n)
	}
	h.waitFolder(h.cfg.Address, h.cfg.IMAP.Failed, poison)

	rec := httptest.NewRecorder()
	h.d.HealthHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("/healthz = %d %s after a quarantined mail, want ok", rec.Code, rec.Body)
	}
}

// waitFolder waits until the mail with Message-ID id is in folder of addr's mailbox.
func (h *harness) waitFolder(addr, folder, id string) {
	h.t.Helper()
	user, pass := h.serviceLogin(addr)
	eventually(h.t, "mail "+id+" in "+folder, func() bool {
		c, err := imapclient.DialInsecure(h.imapAddr, nil)
		if err != nil {
			h.t.Fatalf("imap dial: %v", err)
		}
		defer c.Close()
		if err := c.Login(user, pass).Wait(); err != nil {
			h.t.Fatalf("imap login %s: %v", user, err)
		}
		if _, err := c.Select(folder, nil).Wait(); err != nil {
			return false // not created yet
		}
		data, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Message-ID", Value: id}}}, nil).Wait()
		return err == nil && len(data.AllUIDs()) == 1
	})
}
