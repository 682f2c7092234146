package imapwatch_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/compose"
	"github.com/turnmail/turnmail/mail/imapwatch"
	"github.com/turnmail/turnmail/mail/smtpsend"
)

// TestRealServers runs the mail loop against a real Dovecot and Postfix, as
// started by shared/scripts/real-mail-servers:
//
//	TURNMAIL_TEST_IMAP_ADDR=127.0.0.1:1143 TURNMAIL_TEST_SMTP_ADDR=127.0.0.1:2525 go test ./mail/imapwatch -run RealServers
//
// A mail built by compose, with a reply token in its recipient address, goes
// out through smtpsend, lands in Dovecot, and comes back through the
// Watcher, which finds the token and moves the mail to a folder. Without
// TURNMAIL_TEST_SMTP_ADDR the mail is put into the mailbox with IMAP APPEND.
// TURNMAIL_TEST_MAIL_USER (default turnmail) and TURNMAIL_TEST_MAIL_PASSWORD
// (default secret) name the mailbox; the test moves everything in its INBOX.
// The TURNMAIL_REAL_* variables of .ci/run (see e2e) are used when these are not
// set, so CI runs this test too; with TURNMAIL_REAL_REQUIRED=1 it fails instead of
// skipping.
func TestRealServers(t *testing.T) {
	env := func(name, fallback, def string) string {
		if v := os.Getenv(name); v != "" {
			return v
		}
		if v := os.Getenv(fallback); v != "" {
			return v
		}
		return def
	}
	imapAddr := env("TURNMAIL_TEST_IMAP_ADDR", "TURNMAIL_REAL_IMAP", "")
	smtpAddr := env("TURNMAIL_TEST_SMTP_ADDR", "TURNMAIL_REAL_SMTP", "")
	if imapAddr == "" {
		if os.Getenv("TURNMAIL_REAL_REQUIRED") != "" {
			t.Fatal("TURNMAIL_REAL_REQUIRED is set but no IMAP server is named (TURNMAIL_REAL_IMAP)")
		}
		t.Skip("TURNMAIL_TEST_IMAP_ADDR (or TURNMAIL_REAL_IMAP) not set")
	}
	// Under .ci/run the e2e tests watch the turnmail mailbox at the same time:
	// this test moves everything in its mailbox, so it takes erin's there.
	defUser := "turnmail"
	if os.Getenv("TURNMAIL_TEST_IMAP_ADDR") == "" {
		defUser = "erin"
	}
	user := env("TURNMAIL_TEST_MAIL_USER", "", defUser)
	password := env("TURNMAIL_TEST_MAIL_PASSWORD", "TURNMAIL_REAL_PASSWORD", "secret")
	logger := slog.New(slog.DiscardHandler)
	if testing.Verbose() {
		logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}

	secret := []byte("integration secret")
	token := auth.Token(secret, "sw-it01", 1)
	to := auth.ReplyAddress(user, "localhost", token)
	msgID := compose.NewMessageID("localhost")
	raw, err := compose.Build(compose.Mail{
		From:      compose.Address{Name: "Älice", Address: "alice@localhost"},
		To:        []compose.Address{{Name: "Turnmail", Address: to}},
		Subject:   "Re: [sw-it01] Dein Zug",
		MessageID: msgID,
		Text:      "conquer 12\nend\n",
		HTML:      "<p>conquer 12</p>",
	})
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()

	got := make(chan imapwatch.Fetched, 1)
	var mu sync.Mutex
	wantID := msgID
	handler := func(ctx context.Context, m imapwatch.Fetched) (imapwatch.Disposition, error) {
		r, err := gomail.CreateReader(bytes.NewReader(m.Raw))
		if err == nil {
			mu.Lock()
			want := wantID
			mu.Unlock()
			if id, _ := r.Header.MessageID(); "<"+id+">" == want {
				got <- m
			}
		}
		return imapwatch.Processed, nil
	}
	w := imapwatch.New(imapwatch.Options{
		Addr: imapAddr, Username: user, Password: password, Security: imapwatch.SecurityPlain,
		MoveTo: imapwatch.MoveTo{Processed: "Processed", Rejected: "Rejected"},
		Logger: logger, RetryMin: 100 * time.Millisecond,
	}, handler, &cursors{})
	wg.Add(1)
	go func() { defer wg.Done(); w.Run(ctx) }()

	if smtpAddr == "" {
		appendRaw(t, imapAddr, user, password, "INBOX", raw)
	} else {
		sendOne(ctx, t, &wg, smtpAddr, to, raw, logger)
	}
	var m imapwatch.Fetched
	select {
	case m = <-got:
	case <-ctx.Done():
		t.Fatal("mail not received")
	}
	r, err := gomail.CreateReader(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatal(err)
	}
	var recipient string
	for _, key := range []string{"Delivered-To", "X-Original-To", "To"} {
		if v := r.Header.Get(key); v != "" && strings.Contains(v, "+") {
			recipient = v
			break
		}
	}
	tok, ok := auth.TokenFrom(recipient, user, "localhost")
	if !ok {
		t.Fatalf("no token in %q", recipient)
	}
	if game, seat, err := auth.Parse(secret, tok); err != nil || game != "sw-it01" || seat != 1 {
		t.Errorf("Parse(%q) = %q, %d, %v", tok, game, seat, err)
	}
	if subject, _ := r.Header.Subject(); subject != "Re: [sw-it01] Dein Zug" {
		t.Errorf("Subject = %q", subject)
	}
	if r.Header.Get("X-Turnmail") != "1" {
		t.Errorf("X-Turnmail = %q", r.Header.Get("X-Turnmail"))
	}

	// The watcher is idling now (Dovecot has IDLE): a second mail wakes it.
	msgID = compose.NewMessageID("localhost")
	raw2 := []byte("From: alice@localhost\r\nTo: " + to + "\r\nSubject: second\r\nMessage-ID: " + msgID + "\r\n\r\ndone\r\n")
	mu.Lock()
	wantID = msgID
	mu.Unlock()
	appendRaw(t, imapAddr, user, password, "INBOX", raw2)
	select {
	case m = <-got:
		if !bytes.Equal(m.Raw, raw2) {
			t.Errorf("second mail = %q", m.Raw)
		}
	case <-ctx.Done():
		t.Fatal("second mail not received")
	}
}

func appendRaw(t *testing.T, addr, user, password, mailbox string, raw []byte) {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, password).Wait(); err != nil {
		t.Fatal(err)
	}
	cmd := c.Append(mailbox, int64(len(raw)), nil)
	cmd.Write(raw)
	cmd.Close()
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

// sendOne delivers raw to `to` with smtpsend and waits for the outcome.
func sendOne(ctx context.Context, t *testing.T, wg *sync.WaitGroup, addr, to string, raw []byte, logger *slog.Logger) {
	t.Helper()
	q := &queue{items: []smtpsend.Outgoing{{ID: 1, From: "alice@localhost", To: []string{to}, Raw: raw}}, wake: make(chan struct{}), done: make(chan string, 1)}
	s := smtpsend.New(smtpsend.Options{Addr: addr, Security: smtpsend.SecurityPlain, Logger: logger}, q)
	wg.Add(1)
	go func() { defer wg.Done(); s.Run(ctx) }()
	select {
	case outcome := <-q.done:
		if outcome != "sent" {
			t.Fatalf("smtpsend: %s", outcome)
		}
	case <-ctx.Done():
		t.Fatal("mail not sent")
	}
}

type cursors struct {
	mu   sync.Mutex
	v, l uint32
}

func (c *cursors) Cursor(context.Context, string) (uint32, uint32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.v, c.l, nil
}

func (c *cursors) SetCursor(_ context.Context, _ string, v, l uint32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.v, c.l = v, l
	return nil
}

// queue is a one-shot smtpsend.Queue.
type queue struct {
	mu    sync.Mutex
	items []smtpsend.Outgoing
	wake  chan struct{}
	done  chan string
}

func (q *queue) Due(context.Context, time.Time, int) ([]smtpsend.Outgoing, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.items, nil
}

func (q *queue) finish(outcome string) error {
	q.mu.Lock()
	q.items = nil
	q.mu.Unlock()
	q.done <- outcome
	return nil
}

func (q *queue) MarkSent(context.Context, []smtpsend.Sent) error { return q.finish("sent") }
func (q *queue) MarkRetry(_ context.Context, _ int64, _ time.Time, e string) error {
	return q.finish("retry: " + e)
}
func (q *queue) MarkFailed(_ context.Context, _ int64, e string) error {
	return q.finish("failed: " + e)
}
func (q *queue) Wake() <-chan struct{} { return q.wake }
