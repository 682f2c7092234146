package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/mail/mailnet"
	"github.com/turnmail/turnmail/store"
)

// get serves one request and returns the status code and body.
func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(body)
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestHealth: /healthz says ok until mail has been failing or waiting for more than
// StaleAfter, or the database cannot be written; then 503 with the reason.
func TestHealth(t *testing.T) {
	ctx := context.Background()
	start := time.Now().UTC()
	tests := []struct {
		name string
		// arrange prepares the store and the health at start; it returns when the
		// check happens.
		arrange func(t *testing.T, st *store.Store, h *health) time.Time
		want    string // "" means ok
	}{
		{"fresh", func(*testing.T, *store.Store, *health) time.Time { return start }, ""},
		{"watcher failing briefly", func(_ *testing.T, _ *store.Store, h *health) time.Time {
			h.watcherStatus(nil)
			h.watcherStatus(errors.New("dial: connection reset"))
			return start.Add(StaleAfter / 2)
		}, ""},
		{"watcher failing for long", func(_ *testing.T, _ *store.Store, h *health) time.Time {
			h.watcherStatus(nil)
			h.watcherStatus(errors.New("dial: connection reset"))
			h.watcherStatus(errors.New("dial: connection refused"))
			return start.Add(2 * StaleAfter)
		}, "reading mail has failed for 2m0s: dial: connection refused"},
		{"watcher never worked", func(_ *testing.T, _ *store.Store, h *health) time.Time {
			h.watcherStatus(errors.New("dial: connection refused"))
			return start
		}, "reading mail has not worked since the start: dial: connection refused"},
		{"login refused, at once", func(_ *testing.T, _ *store.Store, h *health) time.Time {
			h.watcherStatus(nil)
			h.watcherStatus(fmt.Errorf("login: %w", &mailnet.LoginError{Err: errors.New("NO [AUTHENTICATIONFAILED] bad password")}))
			return start
		}, "reading mail: the server refused the login: login: NO [AUTHENTICATIONFAILED] bad password"},
		{"smtp login refused, at once", func(_ *testing.T, _ *store.Store, h *health) time.Time {
			h.senderStatus(fmt.Errorf("auth: %w", &mailnet.LoginError{Err: errors.New("535 5.7.8 bad credentials")}))
			return start
		}, "sending mail: the server refused the login: auth: 535 5.7.8 bad credentials"},
		{"smtp failing for long", func(_ *testing.T, _ *store.Store, h *health) time.Time {
			h.senderStatus(nil)
			h.senderStatus(errors.New("dial: i/o timeout"))
			return start.Add(2 * StaleAfter)
		}, "sending mail has failed for 2m0s: dial: i/o timeout"},
		{"watcher recovered", func(_ *testing.T, _ *store.Store, h *health) time.Time {
			h.watcherStatus(errors.New("login: bad password"))
			h.watcherStatus(nil)
			return start.Add(2 * StaleAfter)
		}, ""},
		{"mail stored but not processed", func(t *testing.T, st *store.Store, _ *health) time.Time {
			if _, _, err := st.AddInbox(ctx, store.InboxMsg{Raw: []byte("x"), ReceivedAt: start}); err != nil {
				t.Fatal(err)
			}
			return start.Add(2 * StaleAfter)
		}, "1 received mails wait to be processed"},
		{"mail not sent", func(t *testing.T, st *store.Store, _ *health) time.Time {
			if err := st.Enqueue(ctx, store.OutMail{From: "a@x.org", To: []string{"b@x.org"}, Raw: []byte("x")}); err != nil {
				t.Fatal(err)
			}
			return time.Now().UTC().Add(2 * StaleAfter)
		}, "1 mails wait to be sent"},
		{"database closed", func(_ *testing.T, st *store.Store, _ *health) time.Time {
			st.Close()
			return start
		}, "database cannot be written"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := openStore(t)
			now := start
			h := &health{clock: func() time.Time { return now }}
			now = tc.arrange(t, st, h)
			code, body := get(t, h.handler(st), "/healthz")
			if tc.want == "" {
				if code != http.StatusOK || body != "ok\n" {
					t.Errorf("/healthz = %d %q, want 200 ok", code, body)
				}
				return
			}
			if code != http.StatusServiceUnavailable || !strings.Contains(body, tc.want) {
				t.Errorf("/healthz = %d %q, want 503 with %q", code, body, tc.want)
			}
		})
	}
}

// TestMetrics: /metrics counts quarantined and pending mail and the outbox, and
// gives the age of the oldest unprocessed mail.
func TestMetrics(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	start := time.Now().UTC()
	now := start.Add(90 * time.Second)
	h := &health{clock: func() time.Time { return now }}
	for _, m := range []store.InboxMsg{
		{Raw: []byte("a"), Status: store.InboxFailed, Error: "boom"},
		{Raw: []byte("b"), Status: store.InboxFailed, Error: "boom"},
		{Raw: []byte("c"), ReceivedAt: start},
	} {
		if _, _, err := st.AddInbox(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	_, body := get(t, h.handler(st), "/metrics")
	for _, want := range []string{
		"turnmail_healthy 0\n",
		"turnmail_inbox_quarantined 2\n",
		"turnmail_inbox_pending 1\n",
		"turnmail_inbox_oldest_unprocessed_seconds 90\n",
		"turnmail_outbox_pending 0\n",
		"turnmail_mail_failing_seconds 0\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
}

// TestHealth_tellsTheHost: a login refused, or a link that never worked, is told
// to the host at once in one plain line, once (not at every retry), and again when
// it works; a passing failure of a link that worked is not.
func TestHealth_tellsTheHost(t *testing.T) {
	var told []string
	h := &health{clock: time.Now, tell: func(l string) { told = append(told, l) }}
	refused := fmt.Errorf("login: %w", &mailnet.LoginError{Err: errors.New("NO bad password")})
	h.watcherStatus(refused)
	h.watcherStatus(refused)
	h.watcherStatus(nil)
	h.watcherStatus(errors.New("dial: connection reset"))
	h.senderStatus(errors.New("dial tcp 127.0.0.1:25: connection refused"))
	want := []string{
		"reading mail: the server refused the login: login: NO bad password (retrying; /healthz reports it until it works)",
		"reading mail works again",
		"sending mail has not worked since the start: dial tcp 127.0.0.1:25: connection refused (retrying; /healthz reports it until it works)",
	}
	if strings.Join(told, "\n") != strings.Join(want, "\n") {
		t.Errorf("told\n%s\nwant\n%s", strings.Join(told, "\n"), strings.Join(want, "\n"))
	}
}
