package mailserver

import (
	"bufio"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// These tests attack the servers as a user of the same host would: raw TCP from
// loopback, no password (or a wrong one), many connections, much mail.

// attacker is a client that speaks IMAP or SMTP by hand and lives through the
// server closing the connection.
type attacker struct {
	t *testing.T
	net.Conn
	r *bufio.Reader
}

func dialAttacker(t *testing.T, addr string) *attacker {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &attacker{t: t, Conn: c, r: bufio.NewReader(c)}
}

// line reads one line ("" with err at EOF or on a closed connection).
func (c *attacker) line() (string, error) {
	c.t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	l, err := c.r.ReadString('\n')
	return strings.TrimRight(l, "\r\n"), err
}

// reply reads an SMTP reply, its last line.
func (c *attacker) reply() string {
	c.t.Helper()
	for {
		l, err := c.line()
		if err != nil {
			return "EOF " + l
		}
		if len(l) < 4 || l[3] != '-' {
			return l
		}
	}
}

// tagged sends an IMAP command tagged "a" and returns the tagged reply (untagged
// lines before it are skipped; a BYE is returned as it is).
func (c *attacker) tagged(cmd string) string {
	c.t.Helper()
	fmt.Fprintf(c, "a %s\r\n", cmd)
	for {
		l, err := c.line()
		if err != nil {
			return "EOF " + l
		}
		if strings.HasPrefix(l, "a ") || strings.HasPrefix(l, "* BYE") {
			return l
		}
	}
}

// closedAfter reports whether the server closes the connection after at most
// a few more lines, and the lines it sent.
func (c *attacker) closed() (bool, []string) {
	c.t.Helper()
	var lines []string
	for i := 0; i < 5; i++ {
		l, err := c.line()
		if l != "" {
			lines = append(lines, l)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
			return true, lines
		} else if err != nil {
			return false, lines
		}
	}
	return false, lines
}

// smtpCmd sends one SMTP command and returns the reply.
func (c *attacker) smtpCmd(cmd string) string {
	c.t.Helper()
	fmt.Fprintf(c, "%s\r\n", cmd)
	return c.reply()
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func plainAuth(user, pw string) string {
	return "AUTH PLAIN " + b64("\x00"+user+"\x00"+pw)
}

// TestLimits_connectionCaps: idle connections beyond the caps close the oldest
// connection that has not logged in, and once every held connection has logged
// in, new ones are refused with a reason; a client that logs in gets in all the
// while.
func TestLimits_connectionCaps(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, &Options{Limits: Limits{MaxConns: 8, MaxConnsPerAddr: 6, MaxConnsPerAccount: 10}})
	for _, p := range []struct {
		proto, addr, greeting, busy string
		login                       func(c *attacker) string
	}{
		{"imap", srv.IMAPAddr(), "* OK", "* BYE Too many connections", func(c *attacker) string {
			return c.tagged(`LOGIN "erin@` + testDomain + `" "` + DefaultPassword + `"`)
		}},
		{"smtp", srv.SMTPAddr(), "220 ", "421 4.7.0 Too many connections", func(c *attacker) string {
			c.smtpCmd("EHLO x")
			return c.smtpCmd(plainAuth("erin@"+testDomain, DefaultPassword))
		}},
	} {
		t.Run(p.proto, func(t *testing.T) {
			// 20 idle clients from loopback: the per-address cap (6) holds them
			// to 6; each new one closes the oldest.
			var idle []*attacker
			for i := 0; i < 20; i++ {
				c := dialAttacker(t, p.addr)
				if l, _ := c.line(); !strings.HasPrefix(l, p.greeting) {
					t.Fatalf("idle client %d greeted %q", i, l)
				}
				idle = append(idle, c)
			}
			for i, c := range idle[:14] {
				if closed, lines := c.closed(); !closed || len(lines) == 0 || !strings.HasPrefix(lines[0], p.busy) {
					t.Errorf("idle client %d, beyond the cap: closed %v after %q, want %q", i, closed, lines, p.busy)
				}
			}
			// A client that logs in gets in, and counts no longer as idle.
			var in []*attacker
			for i := 0; i < 6; i++ {
				c := dialAttacker(t, p.addr)
				c.line()
				if got := p.login(c); !strings.HasPrefix(got, "a OK") && !strings.HasPrefix(got, "235") {
					t.Fatalf("login %d with the caps reached: %q", i, got)
				}
				in = append(in, c)
			}
			// Six logged in from one address: the next connection is refused.
			c := dialAttacker(t, p.addr)
			if closed, lines := c.closed(); !closed || len(lines) != 1 || !strings.HasPrefix(lines[0], p.busy) {
				t.Errorf("a 7th connection from one address: closed %v after %q, want refused with %q", closed, lines, p.busy)
			}
			for _, c := range in {
				c.Close()
			}
			eventually(t, 5*time.Second, "the closed connections to be uncounted", func() bool {
				c := dialAttacker(t, p.addr)
				l, _ := c.line()
				c.Close()
				return strings.HasPrefix(l, p.greeting)
			})
		})
	}
}

// TestLimits_connectionsPerMailbox: one mailbox holds at most MaxConnsPerAccount
// logged-in connections.
func TestLimits_connectionsPerMailbox(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, &Options{Limits: Limits{MaxConnsPerAccount: 2}})
	login := `LOGIN "erin@` + testDomain + `" "` + DefaultPassword + `"`
	var cs []*attacker
	for i := 0; i < 2; i++ {
		c := dialAttacker(t, srv.IMAPAddr())
		c.line()
		if got := c.tagged(login); !strings.HasPrefix(got, "a OK") {
			t.Fatalf("login %d: %q", i, got)
		}
		cs = append(cs, c)
	}
	c := dialAttacker(t, srv.IMAPAddr())
	c.line()
	if got := c.tagged(login); !strings.HasPrefix(got, "a NO [LIMIT]") {
		t.Errorf("a third login to one mailbox: %q, want NO [LIMIT]", got)
	}
	if got := c.tagged(`LOGIN "frank@` + testDomain + `" "` + DefaultPassword + `"`); !strings.HasPrefix(got, "a OK") {
		t.Errorf("another mailbox on the same connection: %q", got)
	}
	cs[0].tagged("LOGOUT")
	eventually(t, 5*time.Second, "a logged-out connection to be uncounted", func() bool {
		c := dialAttacker(t, srv.IMAPAddr())
		c.line()
		return strings.HasPrefix(c.tagged(login), "a OK")
	})
}

// TestLimits_timeouts: a connection that does not log in is closed after
// LoginTimeout however busy it keeps; one whose client is silent, after the idle
// timeout; a client that keeps talking stays.
func TestLimits_timeouts(t *testing.T) {
	t.Parallel()
	// The idle timeout is ten times the talking client's pause, so that a busy machine
	// does not make a talking client look silent.
	srv := newTestServer(t, &Options{Limits: Limits{LoginTimeout: 300 * time.Millisecond, IMAPIdleTimeout: time.Second, SMTPIdleTimeout: 300 * time.Millisecond}})

	// IMAP without login, sending NOOPs: closed at the login timeout.
	c := dialAttacker(t, srv.IMAPAddr())
	c.line()
	var last string
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(50 * time.Millisecond) {
		if last = c.tagged("NOOP"); !strings.HasPrefix(last, "a OK") {
			break
		}
	}
	if closed, _ := c.closed(); !strings.HasPrefix(last, "* BYE Login took too long") || !closed {
		t.Errorf("a busy connection without login: last %q, closed %v; want BYE and closed", last, closed)
	}

	// IMAP logged in: a silent client is logged out; one that talks is not.
	silent := dialAttacker(t, srv.IMAPAddr())
	silent.line()
	talking := dialAttacker(t, srv.IMAPAddr())
	talking.line()
	for _, c := range []*attacker{silent, talking} {
		if got := c.tagged(`LOGIN "erin@` + testDomain + `" "` + DefaultPassword + `"`); !strings.HasPrefix(got, "a OK") {
			t.Fatalf("login: %q", got)
		}
	}
	for i := 0; i < 25; i++ { // 2.5 s: more than twice the idle timeout
		time.Sleep(100 * time.Millisecond)
		if got := talking.tagged("NOOP"); !strings.HasPrefix(got, "a OK") {
			t.Fatalf("a talking client was cut off: %q", got)
		}
	}
	if closed, lines := silent.closed(); !closed || len(lines) == 0 || !strings.HasPrefix(lines[0], "* BYE Autologout") {
		t.Errorf("a silent client: closed %v after %q, want * BYE Autologout", closed, lines)
	}

	// SMTP without AUTH: the whole session has LoginTimeout.
	s := dialAttacker(t, srv.SMTPAddr())
	s.reply()
	last = ""
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(50 * time.Millisecond) {
		if last = s.smtpCmd("NOOP"); !strings.HasPrefix(last, "250") {
			break
		}
	}
	if !strings.HasPrefix(last, "421 4.4.2") {
		t.Errorf("an SMTP session without login after the login timeout: %q, want 421 4.4.2", last)
	}
}

// TestLimits_loginThrottle: wrong passwords close the connection after
// LoginFailures, over IMAP LOGIN, IMAP AUTHENTICATE and SMTP AUTH; the right
// password still opens the mailbox afterwards.
func TestLimits_loginThrottle(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, &Options{Password: "right"})
	user := "turnmail@" + testDomain

	c := dialAttacker(t, srv.IMAPAddr())
	c.line()
	var got []string
	for i := 0; i < 5; i++ {
		got = append(got, c.tagged(fmt.Sprintf(`LOGIN "%s" "guess%d"`, user, i)))
	}
	if !strings.HasPrefix(got[0], "a NO [AUTHENTICATIONFAILED]") || !strings.Contains(got[2], "closing the connection") || !strings.HasPrefix(got[3], "EOF") {
		t.Errorf("five wrong IMAP logins on one connection: %q; want two refusals, a third that closes, then EOF", got)
	}

	c = dialAttacker(t, srv.IMAPAddr())
	c.line()
	got = nil
	for i := 0; i < 4; i++ {
		got = append(got, c.tagged("AUTHENTICATE PLAIN "+b64("\x00"+user+"\x00nope")))
	}
	if !strings.Contains(got[2], "closing the connection") || !strings.HasPrefix(got[3], "EOF") {
		t.Errorf("wrong IMAP AUTHENTICATE PLAIN: %q; want the third to close the connection", got)
	}

	s := dialAttacker(t, srv.SMTPAddr())
	s.reply()
	s.smtpCmd("EHLO x")
	got = nil
	for i := 0; i < 4; i++ {
		got = append(got, s.smtpCmd(plainAuth(user, fmt.Sprint("guess", i))))
	}
	if !strings.HasPrefix(got[0], "535 5.7.8") || !strings.HasPrefix(got[2], "421 4.7.0") || !strings.HasPrefix(got[3], "EOF") {
		t.Errorf("wrong SMTP AUTH: %q; want 535, 535, 421 and the connection closed", got)
	}

	if err := imapLogin(t, srv.IMAPAddr(), user, "right"); err != nil {
		t.Errorf("the right password after the failures: %v", err)
	}
}

// TestLoginThrottle: the delay doubles with each recent failure up to the
// maximum, applies to an address's logins until the window passes, lets at most
// a few wait at once, and the memory of addresses stays bounded.
func TestLoginThrottle(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	th := newLoginThrottle(Limits{FailureDelay: 100 * time.Millisecond, MaxFailureDelay: time.Second})
	th.now = func() time.Time { return now }

	var waits []time.Duration
	for i := 0; i < 7; i++ {
		w, ok := th.begin("a")
		if !ok {
			t.Fatalf("login %d refused", i)
		}
		waits = append(waits, w)
		th.end("a", w > 0, true)
	}
	want := []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second}
	if fmt.Sprint(waits) != fmt.Sprint(want) {
		t.Errorf("waits %v, want %v", waits, want)
	}
	if w, _ := th.begin("b"); w != 0 {
		t.Errorf("another address waits %v", w)
	}
	th.end("b", false, false)

	// At most defaultPendingLogins wait at once.
	for i := 0; i < defaultPendingLogins; i++ {
		if _, ok := th.begin("a"); !ok {
			t.Fatalf("waiting login %d refused", i)
		}
	}
	if _, ok := th.begin("a"); ok {
		t.Errorf("a login beyond the waiting ones was let through")
	}
	for i := 0; i < defaultPendingLogins; i++ {
		th.end("a", true, false)
	}
	if _, ok := th.begin("a"); !ok {
		t.Errorf("a login refused after the waiting ones ended")
	}
	th.end("a", true, false)

	// Failures expire after the window.
	now = now.Add(defaultFailureWindow + time.Second)
	if w, _ := th.begin("a"); w != 0 {
		t.Errorf("after the window, the address still waits %v", w)
	}

	// Bounded memory: more failing addresses than it remembers.
	for i := 0; i < 3*defaultTrackedAddresses; i++ {
		th.end(fmt.Sprintf("10.0.%d.%d", i/256, i%256), false, true)
		now = now.Add(time.Millisecond)
	}
	if n := th.m.Len(); n > defaultTrackedAddresses {
		t.Errorf("%d addresses remembered, want at most %d", n, defaultTrackedAddresses)
	}
	last := fmt.Sprintf("10.0.%d.%d", (3*defaultTrackedAddresses-1)/256, (3*defaultTrackedAddresses-1)%256)
	if w, _ := th.begin(last); w == 0 {
		t.Errorf("the latest failing address was forgotten")
	}
}

// TestLimits_relay: without login only mail for the server's domain is taken;
// the service, logged in, delivers to any address (locally); a player logged in
// does not.
func TestLimits_relay(t *testing.T) {
	t.Parallel()
	service := "turnmail@" + testDomain
	passwords := map[string]string{service: "svc", "alice@" + testDomain: "alice"}
	srv := newTestServer(t, &Options{Service: service, PasswordFor: func(a string) string { return passwords[a] }})
	msg := testMessage("x@x.org", "y@y.org", "s", "x")
	tests := []struct {
		name string
		auth sasl.Client
		to   string
		code int // 0: accepted
	}{
		{"own domain without login", nil, "turnmail+tok@" + testDomain, 0},
		{"a new mailbox at the own domain", nil, "newcomer@" + testDomain, 0},
		{"another domain without login", nil, "victim@elsewhere.example", 554},
		{"another domain, upper case", nil, "victim@TURNMAIL.LOCALHOST.evil", 554},
		{"another domain as a player", sasl.NewPlainClient("", "alice@"+testDomain, "alice"), "victim@elsewhere.example", 554},
		{"another domain as the service", sasl.NewPlainClient("", service, "svc"), "invited@elsewhere.example", 0},
	}
	for _, tt := range tests {
		err := sendSMTP(srv.SMTPAddr(), tt.auth, "x@x.org", []string{tt.to}, msg)
		var se *smtp.SMTPError
		switch {
		case tt.code == 0 && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.code != 0 && (!errors.As(err, &se) || se.Code != tt.code || se.EnhancedCode != (smtp.EnhancedCode{5, 7, 1})):
			t.Errorf("%s: %v, want %d 5.7.1", tt.name, err, tt.code)
		}
	}
	var n int
	if err := srv.db.QueryRow(`SELECT count(*) FROM mbox_accounts WHERE address LIKE '%elsewhere.example' AND address != 'invited@elsewhere.example'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d mailboxes created at another domain by refused mail (%v)", n, err)
	}
	if err := srv.db.QueryRow(`SELECT count(*) FROM mbox_messages m JOIN mbox_mailboxes b ON b.id = m.mailbox_id JOIN mbox_accounts a ON a.id = b.account_id WHERE a.address = 'invited@elsewhere.example'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("the service's invitation: %d messages in invited@elsewhere.example (%v)", n, err)
	}
}

// TestLimits_sendingRate: a sender without login (counted by client address) and
// a logged-in mailbox each have MessagesPerHour recipients; the service has no
// limit.
func TestLimits_sendingRate(t *testing.T) {
	t.Parallel()
	service := "turnmail@" + testDomain
	srv := newTestServer(t, &Options{Service: service, Limits: Limits{MessagesPerHour: 3}})
	msg := testMessage("x@x.org", "y@y.org", "s", "x")
	send := func(auth sasl.Client, from string, to ...string) error {
		return sendSMTP(srv.SMTPAddr(), auth, from, to, msg)
	}
	for i := 0; i < 3; i++ {
		if err := send(nil, fmt.Sprintf("forged%d@x.org", i), "turnmail@"+testDomain); err != nil {
			t.Fatalf("message %d without login: %v", i, err)
		}
	}
	var se *smtp.SMTPError
	// Another envelope sender does not help: the client address is counted.
	if err := send(nil, "another@x.org", "turnmail@"+testDomain); !errors.As(err, &se) || se.Code != 450 || se.EnhancedCode != (smtp.EnhancedCode{4, 7, 1}) {
		t.Errorf("a 4th message without login: %v, want 450 4.7.1", err)
	}
	alice := sasl.NewPlainClient("", "alice@"+testDomain, DefaultPassword)
	if err := send(alice, "alice@"+testDomain, "a@"+testDomain, "b@"+testDomain, "c@"+testDomain, "d@"+testDomain); !errors.As(err, &se) || se.Code != 450 {
		t.Errorf("4 recipients from a mailbox allowed 3: %v, want 450 at the 4th", err)
	}
	for i := 0; i < 10; i++ {
		if err := send(sasl.NewPlainClient("", service, DefaultPassword), service, fmt.Sprintf("p%d@%s", i, testDomain)); err != nil {
			t.Fatalf("the service's message %d: %v", i, err)
		}
	}
}

// TestLimits_quotas: nothing over the quotas reaches the database, and each is
// answered with its code: a full mailbox 452 4.2.2 (SMTP) or NO [OVERQUOTA]
// (IMAP APPEND and COPY), a message larger than a mailbox's quota 552 5.2.2, the
// total full 452 4.3.1, too many mailboxes 452 4.3.1, too many folders NO
// [LIMIT]; expunging makes room again.
func TestLimits_quotas(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, &Options{Limits: Limits{
		MailboxMessages: 3, MailboxBytes: 4000, TotalMessages: 7, TotalBytes: 1 << 20, MaxMailboxes: 4, MaxFolders: 3,
	}})
	small := testMessage("x@x.org", "y@y.org", "s", "x")
	code := func(err error) string {
		var se *smtp.SMTPError
		if !errors.As(err, &se) {
			return fmt.Sprint(err)
		}
		return fmt.Sprintf("%d %d.%d.%d", se.Code, se.EnhancedCode[0], se.EnhancedCode[1], se.EnhancedCode[2])
	}
	send := func(to string, msg string) string {
		if err := sendSMTP(srv.SMTPAddr(), nil, "x@x.org", []string{to}, msg); err != nil {
			return code(err)
		}
		return "ok"
	}
	a := "a@" + testDomain
	for i := 0; i < 3; i++ {
		if got := send(a, small); got != "ok" {
			t.Fatalf("message %d: %s", i, got)
		}
	}
	if got := send(a, small); got != "452 4.2.2" {
		t.Errorf("a 4th message to a mailbox of 3: %s, want 452 4.2.2", got)
	}
	if got := send("b@"+testDomain, testMessage("x@x.org", "y", "big", strings.Repeat(strings.Repeat("x", 98)+"\r\n", 50))); got != "552 5.2.2" {
		t.Errorf("a message over a mailbox's quota: %s, want 552 5.2.2", got)
	}

	// IMAP: APPEND and COPY into the full mailbox are refused.
	c := dialIMAP(t, srv.IMAPAddr(), a, DefaultPassword, nil)
	var ie *imap.Error
	appendCmd := c.Append("INBOX", int64(len(small)), nil)
	appendCmd.Write([]byte(small))
	appendCmd.Close()
	if _, err := appendCmd.Wait(); !errors.As(err, &ie) || ie.Code != imap.ResponseCodeOverQuota {
		t.Errorf("APPEND to a full mailbox: %v, want NO [OVERQUOTA]", err)
	}
	if err := c.Create("Kept", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Copy(imap.SeqSetNum(1), "Kept").Wait(); !errors.As(err, &ie) || ie.Code != imap.ResponseCodeOverQuota {
		t.Errorf("COPY within a full mailbox: %v, want NO [OVERQUOTA]", err)
	}
	if _, err := c.Move(imap.SeqSetNum(1), "Kept").Wait(); err != nil {
		t.Errorf("MOVE within a full mailbox (takes no room): %v", err)
	}
	if err := c.Create("F3", nil).Wait(); err != nil {
		t.Errorf("a 3rd folder of 3: %v", err)
	}
	if err := c.Create("F4", nil).Wait(); !errors.As(err, &ie) || ie.Code != imap.ResponseCodeLimit {
		t.Errorf("a 4th folder of 3: %v, want NO [LIMIT]", err)
	}

	// The total: 7 messages in all.
	for i, to := range []string{"b", "b", "b", "c"} {
		if got := send(to+"@"+testDomain, small); got != "ok" {
			t.Fatalf("message %d to %s: %s", i, to, got)
		}
	}
	if got := send("c@"+testDomain, small); got != "452 4.3.1" {
		t.Errorf("a message beyond the total: %s, want 452 4.3.1", got)
	}

	// Expunging makes room again.
	if _, err := c.Select("Kept", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.SeqSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	if got := send(a, small); got != "ok" {
		t.Errorf("after an expunge: %s, want the message taken", got)
	}

	var msgs, bytes, accounts int64
	if err := srv.db.QueryRow(`SELECT count(*), coalesce(sum(size), 0) FROM mbox_messages`).Scan(&msgs, &bytes); err != nil {
		t.Fatal(err)
	}
	if err := srv.db.QueryRow(`SELECT count(*) FROM mbox_accounts`).Scan(&accounts); err != nil {
		t.Fatal(err)
	}
	if msgs > 7 || accounts > 4 {
		t.Errorf("the database holds %d messages (%d bytes) in %d mailboxes, over the quotas", msgs, bytes, accounts)
	}
}

// TestLimits_tooManyMailboxes: a recipient that would be a mailbox beyond
// MaxMailboxes is refused at RCPT with 452 4.3.1, and nothing is created.
func TestLimits_tooManyMailboxes(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, &Options{Limits: Limits{MaxMailboxes: 2}})
	msg := testMessage("x@x.org", "y@y.org", "s", "x")
	for _, to := range []string{"a", "b", "a+x"} {
		if err := sendSMTP(srv.SMTPAddr(), nil, "x@x.org", []string{to + "@" + testDomain}, msg); err != nil {
			t.Fatalf("%s: %v", to, err)
		}
	}
	var se *smtp.SMTPError
	if err := sendSMTP(srv.SMTPAddr(), nil, "x@x.org", []string{"c@" + testDomain}, msg); !errors.As(err, &se) || se.Code != 452 || se.EnhancedCode != (smtp.EnhancedCode{4, 3, 1}) {
		t.Errorf("a third mailbox of 2: %v, want 452 4.3.1", err)
	}
	if n := countRows(t, srv.db, "mbox_accounts"); n != 2 {
		t.Errorf("%d mailboxes, want 2", n)
	}
}

func countRows(t *testing.T, db *sql.DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPrintfLogger_quietOnClosedConnections: the protocol servers' complaints
// about connections closed under them (the limiter's, a client gone) stay out of
// the log at its usual level; other complaints are warnings.
func TestPrintfLogger_quietOnClosedConnections(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	p := printfLogger{slog.New(slog.NewTextHandler(&b, nil))}
	p.Printf("failed to write greeting: %v", fmt.Errorf("write tcp 127.0.0.1:1143->127.0.0.1:5: %w", net.ErrClosed))
	p.Println("error handling 127.0.0.1:5: read: connection reset by peer")
	if b.Len() != 0 {
		t.Errorf("closed connections logged: %s", b.String())
	}
	p.Printf("handling %v command: %v", "FETCH", "database is locked")
	if !strings.Contains(b.String(), "level=WARN") {
		t.Errorf("another complaint is not a warning: %q", b.String())
	}
}

// TestLimits_parallelGuessing: once its address has failed, guessing from many
// connections at once gains nothing: a few logins wait their delay, the others are
// refused unchecked, and no password is checked before the delay has passed.
func TestLimits_parallelGuessing(t *testing.T) {
	t.Parallel()
	var checks atomic.Int64
	srv := newTestServer(t, &Options{
		PasswordFor: func(string) string { checks.Add(1); return "right" },
		Limits:      Limits{FailureDelay: time.Minute, MaxFailureDelay: time.Minute},
	})
	user := "turnmail@" + testDomain
	first := dialAttacker(t, srv.IMAPAddr())
	first.line()
	if got := first.tagged(`LOGIN "` + user + `" "guess"`); !strings.HasPrefix(got, "a NO [AUTHENTICATIONFAILED]") {
		t.Fatalf("the first wrong login: %q", got)
	}
	const n = 20
	replies := make(chan string, n)
	for i := 0; i < n; i++ {
		c := dialAttacker(t, srv.IMAPAddr())
		c.line()
		go func() { replies <- c.tagged(fmt.Sprintf(`LOGIN "%s" "guess%d"`, user, i)) }()
	}
	for i := 0; i < n-defaultPendingLogins; i++ {
		if got := <-replies; !strings.HasPrefix(got, "a NO [UNAVAILABLE]") {
			t.Errorf("a parallel guess: %q, want NO [UNAVAILABLE]", got)
		}
	}
	// The waiting ones are checked only when their minute is over (or, here,
	// never: the server closes first).
	if got := checks.Load(); got != 1 {
		t.Errorf("%d passwords checked, want 1 (the first guess)", got)
	}
}

// TestRareLog: a flood of one kind of refusal is one warning line a minute.
func TestRareLog(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	r := newRareLog(slog.New(slog.NewTextHandler(&b, nil)))
	for i := 0; i < 1000; i++ {
		r.log("login failed", "client", "loopback")
		r.log("smtp relay denied", "client", "loopback")
	}
	if n := strings.Count(b.String(), "level=WARN"); n != 2 {
		t.Errorf("%d warnings for 2000 refusals of 2 kinds, want 2:\n%s", n, b.String())
	}
}

// fakeConn is a connection from a given address that records what it is sent.
type fakeConn struct {
	net.Conn // nil: only the methods below are used
	addr     net.Addr
	mu       sync.Mutex
	sent     string
	closed   bool
}

func (c *fakeConn) RemoteAddr() net.Addr             { return c.addr }
func (c *fakeConn) SetWriteDeadline(time.Time) error { return nil }
func (c *fakeConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent += string(p)
	return len(p), nil
}
func (c *fakeConn) Close() error { c.mu.Lock(); defer c.mu.Unlock(); c.closed = true; return nil }
func (c *fakeConn) state() (sent string, closed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent, c.closed
}

// TestConnLimiter_caps: the per-address cap closes the oldest connection of that
// address not logged in, the total cap the oldest of any; logged-in connections
// are never closed to make room, and when every one has logged in, a new
// connection is refused. An IPv6 /64 is one address, so is all of loopback.
func TestConnLimiter_caps(t *testing.T) {
	t.Parallel()
	l := newConnLimiter(Limits{MaxConns: 4, MaxConnsPerAddr: 2, MaxConnsPerAccount: 9, LoginTimeout: time.Hour}.withDefaults(), time.Hour, imapFarewells, newRareLog(slog.New(slog.NewTextHandler(io.Discard, nil))))
	dial := func(ip string) (*fakeConn, *limitedConn) {
		c := &fakeConn{addr: &net.TCPAddr{IP: net.ParseIP(ip), Port: 1}}
		return c, l.admit(c)
	}
	a1, _ := dial("192.0.2.1")
	_, a2 := dial("192.0.2.1")
	b1, _ := dial("2001:db8::1")
	_, b2 := dial("2001:db8::2:3") // the same /64
	if _, closed := a1.state(); closed {
		t.Fatal("a connection was closed below the caps")
	}
	_, a3 := dial("192.0.2.1") // the address's third: a1 goes
	if sent, closed := a1.state(); !closed || sent != imapFarewells.busy {
		t.Errorf("the oldest of a full address: closed %v, sent %q", closed, sent)
	}
	for _, lc := range []*limitedConn{a2, b2, a3} {
		if !lc.login("someone@" + testDomain) {
			t.Fatal("login refused")
		}
	}
	_, c1 := dial("198.51.100.7") // the total is full: b1, the one not logged in, goes
	if _, closed := b1.state(); !closed {
		t.Errorf("the total cap did not close the connection that had not logged in")
	}
	c1.login("other@" + testDomain)
	d, lc := dial("127.0.0.9")
	if sent, closed := d.state(); lc != nil || !closed || sent != imapFarewells.busy {
		t.Errorf("every connection logged in: a new one got %v, sent %q, closed %v; want refused", lc, sent, closed)
	}
	if got := clientKey(&net.TCPAddr{IP: net.ParseIP("127.0.0.9")}); got != clientKey(&net.TCPAddr{IP: net.IPv6loopback}) {
		t.Errorf("127.0.0.9 and ::1 count as %q and another address", got)
	}
	a2.Close()
	if _, lc := dial("203.0.113.5"); lc == nil {
		t.Errorf("a connection closed does not make room")
	}
}
