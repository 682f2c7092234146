package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// TestQuarantine: a mail whose processing fails in a way retrying cannot fix (an
// engine panic, a state mail that cannot be rendered) is quarantined — stored as
// failed with its error, its writer told once, the host told with the error — and
// the mails behind it in the same batch, to the same game and to others, are
// processed as usual.
func TestQuarantine(t *testing.T) {
	host := "host@" + domain
	tests := []struct {
		name, from, body string
		wantReason       string
	}{
		{"engine panic", "alice@" + domain, "add 7\n", "panic"},
		{"render failure", "alice@" + domain, "add 8\n", "encode view"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureRegistry(t, 100, engine.Registry{"tally": testgame.Faulty{}})
			ctx := context.Background()
			game := f.hostedGame(host, `{"turns": false}`)
			other := f.hostedGame(host, `{"turns": false}`)
			alice, bob := f.svc.ReplyAddress(game, 0), f.svc.ReplyAddress(game, 1)
			before := len(f.queued())
			poison := f.mail(tc.from, alice, tc.body)
			results, err := f.svc.ReceiveAll(ctx, []store.InboxMsg{
				{Mailbox: "INBOX", Raw: poison},
				{Mailbox: "INBOX", Raw: f.mail("bob@"+domain, bob, "add 1\n")},
				{Mailbox: "INBOX", Raw: f.mail("alice@"+domain, alice, "add 2\n")},
				{Mailbox: "INBOX", Raw: f.mail("bob@"+domain, f.svc.ReplyAddress(other, 1), "add 3\n")},
			})
			if err != nil {
				t.Fatalf("ReceiveAll: %v (a poison mail must not stop the batch)", err)
			}
			if len(results) != 4 {
				t.Fatalf("%d results, want 4", len(results))
			}
			if r := results[0]; r.Status != service.StatusFailed || !strings.Contains(r.Reason, tc.wantReason) || r.GameID != game {
				t.Errorf("poison mail: %+v, want failed (%q) in %s", r, tc.wantReason, game)
			}
			for i, r := range results[1:] {
				if r.Status != service.StatusApplied {
					t.Errorf("mail %d behind the poison one: %+v, want applied", i+2, r)
				}
			}
			m, err := f.st.Inbox(ctx, results[0].InboxID)
			if err != nil || m.Status != store.InboxFailed || m.GameID != game || !strings.Contains(m.Error, tc.wantReason) {
				t.Errorf("stored poison mail: %+v, %v", m, err)
			}
			failed, err := f.st.FailedInbox(ctx)
			if err != nil || len(failed) != 1 || failed[0].ID != results[0].InboxID {
				t.Errorf("FailedInbox = %+v, %v; want the poison mail", failed, err)
			}
			var toWriter, toHost int
			for _, q := range f.queued()[before:] {
				if !strings.Contains(q.Subject+q.Body, "could not be processed") {
					continue
				}
				switch strings.ToLower(q.To[0].Address) {
				case tc.from:
					toWriter++
				case host:
					toHost++
					if !strings.Contains(q.Body, tc.wantReason) {
						t.Errorf("the host's notice does not give the error:\n%s", q.Body)
					}
				default:
					t.Errorf("failure notice to %s", q.To[0].Address)
				}
			}
			if toWriter != 1 {
				t.Errorf("%d notices to the writer %s, want 1", toWriter, tc.from)
			}
			if toHost != 1 {
				t.Errorf("%d notices to the host, want 1", toHost)
			}
			// The same mail again is a duplicate: still quarantined, nobody told again.
			n := len(f.queued())
			if r := f.receive(poison); !r.Duplicate || r.Status != service.StatusFailed {
				t.Errorf("poison mail again: %+v", r)
			}
			if len(f.queued()) != n {
				t.Errorf("the duplicate of a quarantined mail was answered")
			}
		})
	}
}

// TestQuarantine_lobby: a lobby mail that panics is quarantined and its writer
// (whom the lobby answers anyway) told; the lobby mail after it is answered.
func TestQuarantine_lobby(t *testing.T) {
	f := newFixtureRegistry(t, 100, engine.Registry{"tally": testgame.Faulty{}})
	ctx := context.Background()
	cy := "cy@" + domain
	before := len(f.queued())
	results, err := f.svc.ReceiveAll(ctx, []store.InboxMsg{
		{Mailbox: "INBOX", Raw: f.mail(cy, svcAddr, "new tally explode=1\n")},
		{Mailbox: "INBOX", Raw: f.mail(cy, svcAddr, "new tally\n")},
	})
	if err != nil || len(results) != 2 {
		t.Fatalf("ReceiveAll = %+v, %v", results, err)
	}
	if results[0].Status != service.StatusFailed || results[1].Status != service.StatusApplied {
		t.Errorf("results %+v, want failed then applied", results)
	}
	var subjects, bodies []string
	for _, q := range f.queued()[before:] {
		subjects, bodies = append(subjects, q.Subject), append(bodies, q.Body)
	}
	if len(subjects) != 2 || !strings.Contains(subjects[0], "could not be processed") || !strings.Contains(bodies[1], "is open") {
		t.Errorf("mails to cy: %q, want the failure notice and the new game (in its thread, with its subject)", subjects)
	}
}

// TestRetry: a quarantined mail is processed again by Retry; while the fault is
// still there it stays quarantined, and Retry of a mail that is not quarantined is
// refused.
func TestRetry(t *testing.T) {
	f := newFixtureRegistry(t, 100, engine.Registry{"tally": testgame.Faulty{}})
	ctx := context.Background()
	game := f.hostedGame("host@"+domain, `{"turns": false}`)
	res := f.receive(f.mail("alice@"+domain, f.svc.ReplyAddress(game, 0), "add 7\n"))
	if res.Status != service.StatusFailed {
		t.Fatalf("poison: %+v", res)
	}
	again, err := f.svc.Retry(ctx, res.InboxID)
	if err != nil || again.Status != service.StatusFailed {
		t.Fatalf("retry with the fault still there: %+v, %v; want failed again", again, err)
	}
	ok := f.receive(f.mail("alice@"+domain, f.svc.ReplyAddress(game, 0), "add 1\n"))
	if ok.Status != service.StatusApplied {
		t.Fatalf("a valid move: %+v", ok)
	}
	if _, err := f.svc.Retry(ctx, ok.InboxID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("retry of an applied mail: %v, want ErrNotFound", err)
	}
	if _, err := f.svc.Retry(ctx, 9999); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("retry of no mail: %v, want ErrNotFound", err)
	}
}

// TestProcessPending_quarantines: a stored pending mail that fails (after a crash)
// is quarantined, and the pending mails after it are processed.
func TestProcessPending_quarantines(t *testing.T) {
	f := newFixtureRegistry(t, 100, engine.Registry{"tally": testgame.Faulty{}})
	ctx := context.Background()
	game := f.hostedGame("host@"+domain, `{"turns": false}`)
	var ids []int64
	for _, body := range []string{"add 7\n", "add 1\n"} {
		id, _, err := f.st.AddInbox(ctx, store.InboxMsg{Mailbox: "INBOX", Raw: f.mail("alice@"+domain, f.svc.ReplyAddress(game, 0), body)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	n, err := f.svc.ProcessPending(ctx)
	if err != nil || n != 2 {
		t.Fatalf("ProcessPending = %d, %v; want 2, nil", n, err)
	}
	for i, want := range []string{store.InboxFailed, store.InboxApplied} {
		m, err := f.st.Inbox(ctx, ids[i])
		if err != nil || m.Status != want {
			t.Errorf("mail %d: %q, %v; want %q", i, m.Status, err, want)
		}
	}
}
