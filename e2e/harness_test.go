package e2e

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"github.com/turnmail/turnmail/config"
	"github.com/turnmail/turnmail/daemon"
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// waitLimit bounds every wait so a broken build fails instead of hanging; it is not
// a performance assertion.
const waitLimit = 60 * time.Second

// poller spaces the polls of a wait: 20 ms at first, growing by half up to 250 ms, so
// that a long wait (a loaded machine, a slow step) does not spend the processor on
// polls (each a login to the mailbox, or a query).
type poller struct{ d time.Duration }

// wait sleeps before the next poll.
func (p *poller) wait() {
	p.d = min(max(p.d*3/2, 20*time.Millisecond), 250*time.Millisecond)
	time.Sleep(p.d)
}

// harness runs a complete turnmail daemon against a mail server and plays the players'
// side with real IMAP and SMTP clients.
type harness struct {
	t        *testing.T
	d        *daemon.Daemon
	cfg      *config.Config
	domain   string
	imapAddr string
	smtpAddr string
	// login maps a player's address to its IMAP user name.
	login func(addr string) string
	// password gives a player's address its mailbox password.
	password func(addr string) string

	cancel context.CancelFunc
	done   chan error

	mu   sync.Mutex
	seen map[string]uint32 // address → highest UID fetched
	// fetched holds the UIDs fetched per address: a real server may make a mail
	// visible after one with a higher UID (parallel deliveries), so inbox looks
	// again a little below the highest.
	fetched map[string]map[uint32]bool
	unread  map[string][]*parse.Message // fetched but not yet matched by waitMail
	// raw keeps each fetched mail as received, by Message-ID, when
	// TURNMAIL_BOTS_DUMP is set (dumpMails writes it beside the text).
	raw map[string][]byte
}

type harnessOptions struct {
	// real, when set, uses an external IMAP/SMTP server (Dovecot + Postfix).
	real *realServers
	// games replaces the engine registry.
	games engine.Registry
	// database reuses a database file (restart tests).
	database string
	// clock, when set, is the daemon's clock; move it and call tick.
	clock *fakeClock
	// quiet keeps the daemon's log at its production level (info) and discards
	// it even with -v: the load run measures the daemon, not a terminal.
	quiet bool
	// defaultLimits keeps the default mail limits; otherwise they are lifted (bots
	// play a whole game in seconds, which no group of people does).
	defaultLimits bool
	// configure, when set, changes the configuration before the daemon starts.
	configure func(*config.Config)
}

// liftLimits raises the mail limits far above what a test sends.
func liftLimits(l *config.Limits) {
	l.RepliesPerHour, l.RepliesPerDay, l.IdleRepliesPerHour, l.IdleRepliesPerDay = 100000, 100000, 100000, 100000
	l.NotificationsPerHour, l.ContactsPerAddressPerDay, l.FirstContactsPerHostPerDay, l.FirstContactsPerDay = 100000, 100000, 100000, 100000
}

// fakeClock is a settable clock for deadline tests.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)} // a Monday
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// tick runs the deadline scheduler once and returns how many timers fired.
func (h *harness) tick() int {
	h.t.Helper()
	n, err := h.d.Tick(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// restart stops the daemon and starts a new one on the same database, keeping what
// the players have read.
func (h *harness) restart(o harnessOptions) *harness {
	h.t.Helper()
	h.stop()
	o.database = h.cfg.Database
	h2 := newHarness(h.t, o)
	h2.seen, h2.unread, h2.fetched = h.seen, h.unread, h.fetched
	return h2
}

type realServers struct {
	imapAddr, smtpAddr, domain, password string
}

// realFromEnv returns the real mail servers named by TURNMAIL_REAL_*, or nil.
func realFromEnv(t *testing.T) *realServers {
	r := &realServers{
		imapAddr: os.Getenv("TURNMAIL_REAL_IMAP"),
		smtpAddr: os.Getenv("TURNMAIL_REAL_SMTP"),
		domain:   os.Getenv("TURNMAIL_REAL_DOMAIN"),
		password: os.Getenv("TURNMAIL_REAL_PASSWORD"),
	}
	if r.imapAddr == "" || r.smtpAddr == "" {
		if os.Getenv("TURNMAIL_REAL_REQUIRED") != "" {
			t.Fatal("TURNMAIL_REAL_REQUIRED is set but TURNMAIL_REAL_IMAP/SMTP are not")
		}
		t.Skip("no real mail servers: set TURNMAIL_REAL_IMAP, TURNMAIL_REAL_SMTP (make real-mail-up; see .ci/run)")
	}
	if r.domain == "" {
		r.domain = "localhost"
	}
	if r.password == "" {
		r.password = "secret"
	}
	return r
}

func newHarness(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	v := config.NewViper()
	c, err := config.Load(v, "")
	if err != nil {
		t.Fatal(err)
	}
	c.Database = o.database
	if c.Database == "" {
		c.Database = filepath.Join(t.TempDir(), "turnmail.db")
	}
	c.Secret = "e2e-test-secret-0123456789abcdef"
	c.Web.Addr = "127.0.0.1:0" // the game pages on a free port
	if !o.defaultLimits {
		liftLimits(&c.Limits)
	}
	// The players' own SMTP sending is not what the tests measure: a bot sends a
	// whole game's moves from one address within minutes.
	c.Embedded.MessagesPerHour = 1 << 20
	h := &harness{t: t, cfg: c, seen: map[string]uint32{}, unread: map[string][]*parse.Message{}, fetched: map[string]map[uint32]bool{}}
	if o.real != nil {
		c.Address = "turnmail@" + o.real.domain
		c.IMAP.Addr, c.IMAP.Security, c.IMAP.Username, c.IMAP.Password = o.real.imapAddr, "plain", "turnmail", o.real.password
		c.SMTP.Addr, c.SMTP.Security = o.real.smtpAddr, "plain"
		c.IMAP.PollInterval = time.Second
		h.domain, h.imapAddr, h.smtpAddr = o.real.domain, o.real.imapAddr, o.real.smtpAddr
		h.password = func(string) string { return o.real.password }
		h.login = func(addr string) string { return strings.SplitN(addr, "@", 2)[0] }
	} else {
		c.Embedded.IMAPAddr, c.Embedded.SMTPAddr = "127.0.0.1:0", "127.0.0.1:0"
		h.domain = c.Embedded.Domain
		h.login = func(addr string) string { return addr }
	}
	if o.configure != nil {
		o.configure(c)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() && !o.quiet {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	ctx, cancel := context.WithCancel(context.Background())
	dopts := daemon.Options{Games: o.games, Logger: log, TickEvery: time.Hour}
	if o.clock != nil {
		// Only the test's h.tick fires timers, so their counts are exact.
		dopts.Clock, dopts.TickEvery = o.clock.Now, -1
	}
	d, err := daemon.New(ctx, c, dopts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	h.d, h.cancel, h.done = d, cancel, make(chan error, 1)
	if d.Mail != nil {
		h.imapAddr, h.smtpAddr = d.Mail.IMAPAddr(), d.Mail.SMTPAddr()
		// Each player logs in with the password of their own mailbox.
		h.password = d.Mailboxes.Password
	}
	go func() { h.done <- d.Run(ctx) }()
	t.Cleanup(h.stop)
	return h
}

// stop ends the daemon and checks that it stopped cleanly.
func (h *harness) stop() {
	if h.cancel == nil {
		return
	}
	h.cancel()
	h.cancel = nil
	select {
	case err := <-h.done:
		if err != nil {
			h.t.Errorf("daemon stopped with: %v", err)
		}
	case <-time.After(waitLimit):
		h.t.Error("daemon did not stop")
	}
	if err := h.d.Close(); err != nil {
		h.t.Errorf("close: %v", err)
	}
}

func (h *harness) addr(user string) string { return user + "@" + h.domain }

// newGame creates a game between the named players (addresses at the harness domain).
func (h *harness) newGame(kind string, seed int64, setup string, players ...string) string {
	h.t.Helper()
	ng := service.NewGame{Kind: kind, Seed: seed}
	if setup != "" {
		ng.Setup = []byte(setup)
	}
	for _, p := range players {
		ng.Players = append(ng.Players, engine.Player{Name: p, Email: h.addr(p)})
	}
	id, err := h.d.Service.CreateGame(context.Background(), ng)
	if err != nil {
		h.t.Fatal(err)
	}
	return id
}

// send mails body from one address to another over SMTP and returns its Message-ID.
func (h *harness) send(from, to, subject, body string, extra ...string) string {
	h.t.Helper()
	id := fmt.Sprintf("%d.%d@client.example", time.Now().UnixNano(), len(body))
	msg := h.rawMail(id, from, to, subject, body, extra...)
	h.sendRaw(from, to, msg)
	return id
}

func (h *harness) rawMail(id, from, to, subject, body string, extra ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n",
		from, to, subject, id, time.Now().Format(time.RFC1123Z))
	for _, e := range extra {
		b.WriteString(e + "\r\n")
	}
	b.WriteString("\r\n" + strings.ReplaceAll(body, "\n", "\r\n"))
	return []byte(b.String())
}

func (h *harness) sendRaw(from, to string, msg []byte) {
	h.t.Helper()
	if err := sendPlain(h.smtpAddr, from, []string{to}, strings.NewReader(string(msg))); err != nil {
		h.t.Fatalf("send mail %s → %s: %v", from, to, err)
	}
}

// inbox lists the parsed mails in addr's INBOX with a UID above the last one read,
// and marks them read.
func (h *harness) inbox(addr string) []*parse.Message {
	h.t.Helper()
	c, err := imapclient.DialInsecure(h.imapAddr, nil)
	if err != nil {
		h.t.Fatalf("imap dial: %v", err)
	}
	defer c.Close()
	if err := c.Login(h.login(addr), h.password(addr)).Wait(); err != nil {
		h.t.Fatalf("imap login %s: %v", addr, err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		h.t.Fatalf("select: %v", err)
	}
	h.mu.Lock()
	from := max(h.seen[addr], lateWindow) + 1 - lateWindow
	if h.fetched[addr] == nil {
		h.fetched[addr] = map[uint32]bool{}
	}
	h.mu.Unlock()
	// First the UIDs only, then the bodies of the mails not fetched before: the
	// window below the highest UID is looked at again on every call, and its
	// mails (pictures attached) are not downloaded again each time.
	var set imap.UIDSet
	set.AddRange(imap.UID(from), 0)
	uids, err := c.Fetch(set, &imap.FetchOptions{UID: true}).Collect()
	if err != nil {
		h.t.Fatalf("fetch: %v", err)
	}
	var fresh imap.UIDSet
	h.mu.Lock()
	for _, m := range uids {
		done := uint32(m.UID) < from || h.fetched[addr][uint32(m.UID)] // "N:*" matches the last message even below N
		h.fetched[addr][uint32(m.UID)] = true
		if uint32(m.UID) > h.seen[addr] {
			h.seen[addr] = uint32(m.UID)
		}
		if !done {
			fresh.AddNum(m.UID)
		}
	}
	h.mu.Unlock()
	if len(fresh) == 0 {
		_ = c.Logout().Wait()
		return nil
	}
	msgs, err := c.Fetch(fresh, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		h.t.Fatalf("fetch: %v", err)
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return cmp.Compare(a.UID, b.UID) })
	var out []*parse.Message
	for _, m := range msgs {
		for _, body := range m.BodySection {
			p, err := parse.Parse(body.Bytes, nil)
			if err != nil {
				h.t.Fatalf("parse received mail: %v", err)
			}
			if os.Getenv("TURNMAIL_BOTS_DUMP") != "" {
				h.mu.Lock()
				if h.raw == nil {
					h.raw = map[string][]byte{}
				}
				h.raw[p.MessageID] = body.Bytes
				h.mu.Unlock()
			}
			out = append(out, p)
		}
	}
	_ = c.Logout().Wait()
	return out
}

// lateWindow is how far below the highest UID fetched inbox looks again for mail a
// real server made visible late.
const lateWindow = 32

// waitMail waits for the next mail to addr whose body contains every one of want
// (where the text breaks a long line, as spaces); mails that do not match stay
// unread for later calls.
func (h *harness) waitMail(addr string, want ...string) *parse.Message {
	h.t.Helper()
	deadline := time.Now().Add(waitLimit)
	var poll poller
	for time.Now().Before(deadline) {
		h.unread[addr] = append(h.unread[addr], h.inbox(addr)...)
		for i, m := range h.unread[addr] {
			ok := true
			for _, w := range want {
				ok = ok && (strings.Contains(m.Body, w) || strings.Contains(strings.Join(strings.Fields(m.Body), " "), strings.Join(strings.Fields(w), " ")))
			}
			if ok {
				h.unread[addr] = append(h.unread[addr][:i:i], h.unread[addr][i+1:]...)
				return m
			}
		}
		poll.wait()
	}
	var got []string
	for _, m := range h.unread[addr] {
		got = append(got, m.Subject+": "+m.Body)
	}
	h.t.Fatalf("no mail to %s containing %q; got:\n%s", addr, want, strings.Join(got, "\n----\n"))
	return nil
}

// unexpected returns the mails to addr that no waitMail has matched.
func (h *harness) unexpected(addr string) []*parse.Message {
	h.unread[addr] = append(h.unread[addr], h.inbox(addr)...)
	return h.unread[addr]
}

// settled waits until the mail with Message-ID id was processed and returns its status
// and reason.
func (h *harness) settled(id string) (status, reason string) {
	h.t.Helper()
	deadline := time.Now().Add(waitLimit)
	var poll poller
	for time.Now().Before(deadline) {
		var errText sql.NullString
		err := h.d.Store.DB().QueryRow(`SELECT status, error FROM inbox WHERE message_id = ?`, id).Scan(&status, &errText)
		if err == nil && status != "pending" {
			return status, errText.String
		}
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			h.t.Fatalf("inbox: %v", err)
		}
		poll.wait()
	}
	h.t.Fatalf("mail %s was never processed", id)
	return "", ""
}

// events is the number of events of a game.
func (h *harness) events(gameID string) int {
	h.t.Helper()
	n, err := h.d.Store.LastSeq(context.Background(), gameID)
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// quietOutbox waits until no mail is pending in the outbox, so that "no mail was sent"
// can be checked by reading the mailboxes.
func (h *harness) quietOutbox() {
	h.t.Helper()
	deadline := time.Now().Add(waitLimit)
	var poll poller
	for time.Now().Before(deadline) {
		if pendingMails(h.t, h.d.Store) == 0 {
			return
		}
		poll.wait()
	}
	h.t.Fatal("outbox never drained")
}

// replyTo returns the personal reply address a game mail carries.
func replyTo(t *testing.T, m *parse.Message) string {
	t.Helper()
	if len(m.ReplyTo) == 0 {
		t.Fatalf("mail %q has no Reply-To", m.Subject)
	}
	return m.ReplyTo[0].Address
}

// legalLines returns the indented command lines listed after "What you can send"
// in a state mail.
func legalLines(m *parse.Message) []string {
	return legalAfter(m, "What you can send, one command per line:")
}

// legalAfter returns the indented command lines listed after header (the sentence
// that introduces them in the reader's language) in a state mail.
func legalAfter(m *parse.Message, header string) []string {
	_, rest, ok := strings.Cut(m.Body, header)
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		if strings.HasPrefix(l, "    ") && strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// firstConcrete returns the first legal line that starts with verb and is not a pattern.
func firstConcrete(lines []string, verb string) string {
	for _, l := range lines {
		if strings.HasPrefix(l, verb+" ") || l == verb {
			if !engine.IsPattern(l) {
				return l
			}
		}
	}
	return ""
}

// sendPlain delivers one message over plain SMTP (loopback servers offer no TLS).
func sendPlain(addr, from string, to []string, r io.Reader) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SendMail(from, to, r); err != nil {
		return err
	}
	return c.Quit()
}

// pendingMails counts the mails waiting in the outbox (without loading them).
func pendingMails(t *testing.T, st *store.Store) int {
	t.Helper()
	counts, err := st.OutboxCounts(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return counts[store.OutboxPending]
}

// serviceLogin is the IMAP user name and password of addr's mailbox, the service's
// own included.
func (h *harness) serviceLogin(addr string) (user, password string) {
	return h.login(addr), h.password(addr)
}

// eventually polls cond until it holds, failing the test after waitLimit.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	var poll poller
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		poll.wait()
	}
}

// confirmMark is in every confirmation request (and nothing else).
const confirmMark = "This request expires"

// confirm waits for the next confirmation request to addr whose body has every one
// of want and replies body ("yes", "no") to its one-time address, as a mail client's
// reply does (quoting the request). It returns the request.
func (h *harness) confirm(addr, body string, want ...string) *parse.Message {
	h.t.Helper()
	m := h.waitMail(addr, append([]string{confirmMark}, want...)...)
	quoted := "> " + strings.ReplaceAll(strings.TrimSpace(m.Body), "\n", "\n> ")
	h.send(addr, replyTo(h.t, m), "Re: "+m.Subject, body+"\n\n"+quoted+"\n")
	return m
}
