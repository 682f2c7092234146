package mailserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	_ "modernc.org/sqlite"
)

const testDomain = "turnmail.localhost"

// openTestDB opens the SQLite file as the game store does.
func openTestDB(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// testServer is a started Server on free loopback ports, with its database.
type testServer struct {
	*Server
	db   *sql.DB
	path string
}

func newTestServer(tb testing.TB, opts *Options) *testServer {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "turnmail.db")
	return startTestServer(tb, path, opts)
}

// startTestServer opens path and starts a server on it; Close is registered
// as cleanup (a second Close, after a test's own, is harmless).
func startTestServer(tb testing.TB, path string, opts *Options) *testServer {
	tb.Helper()
	db := openTestDB(tb, path)
	var o Options
	if opts != nil {
		o = *opts
	}
	o.IMAPAddr, o.SMTPAddr = "127.0.0.1:0", "127.0.0.1:0"
	// Failed logins wait milliseconds, not seconds, unless a test says otherwise.
	if o.Limits.FailureDelay == 0 {
		o.Limits.FailureDelay, o.Limits.MaxFailureDelay = time.Millisecond, 4*time.Millisecond
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
		if testing.Verbose() {
			o.Logger = slog.Default()
		}
	}
	srv, err := New(db, &o)
	if err != nil {
		tb.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := srv.Close(); err != nil && !errors.Is(err, ErrClosed) {
			tb.Errorf("Close: %v", err)
		}
	})
	return &testServer{Server: srv, db: db, path: path}
}

// dialIMAP connects and logs in.
func dialIMAP(tb testing.TB, addr, user, password string, opts *imapclient.Options) *imapclient.Client {
	tb.Helper()
	c, err := imapclient.DialInsecure(addr, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	if err := c.Login(user, password).Wait(); err != nil {
		tb.Fatalf("login %s: %v", user, err)
	}
	return c
}

// sendSMTP sends one message over SMTP, without AUTH when auth is nil.
func sendSMTP(addr string, auth sasl.Client, from string, to []string, msg string) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		return err
	}
	if auth != nil {
		if err := c.Auth(auth); err != nil {
			return err
		}
	}
	if err := c.SendMail(from, to, strings.NewReader(msg)); err != nil {
		return err
	}
	return c.Quit()
}

func testMessage(from, to, subject, body string) string {
	return fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@test>\r\nDate: Mon, 02 Jan 2006 15:04:05 +0000\r\n\r\n%s\r\n",
		from, to, subject, strings.ReplaceAll(subject, " ", "-"), body)
}

// fetchAll fetches UID, FLAGS and BODY.PEEK[] of every message of the
// selected mailbox, in UID order.
func fetchAll(tb testing.TB, c *imapclient.Client) []*imapclient.FetchMessageBuffer {
	tb.Helper()
	search, err := c.UIDSearch(&imap.SearchCriteria{}, nil).Wait()
	if err != nil {
		tb.Fatalf("UID SEARCH: %v", err)
	}
	uids := search.AllUIDs()
	if len(uids) == 0 {
		return nil
	}
	msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
		UID:         true,
		Flags:       true,
		BodySection: []*imap.FetchItemBodySection{{Peek: true}},
	}).Collect()
	if err != nil {
		tb.Fatalf("UID FETCH: %v", err)
	}
	return msgs
}

func body(m *imapclient.FetchMessageBuffer) string {
	return string(m.FindBodySection(&imap.FetchItemBodySection{Peek: true}))
}

// eventually polls f until it returns true or the deadline passes.
func eventually(tb testing.TB, d time.Duration, what string, f func() bool) {
	tb.Helper()
	deadline := time.Now().Add(d)
	for !f() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
