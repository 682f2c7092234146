package imapwatch

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/turnmail/turnmail/internal/testtls"
	"github.com/turnmail/turnmail/mail/mailnet"
)

// testTimeout only keeps a broken test from hanging; nothing depends on it.
const testTimeout = 20 * time.Second

const (
	testUser = "turnmail"
	testPass = "secret"
)

// ---- server and proxy ------------------------------------------------------

var (
	capsFull     = imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapMove: {}, imap.CapUIDPlus: {}}
	capsUIDPlus  = imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapUIDPlus: {}}
	capsBareRev1 = imap.CapSet{imap.CapIMAP4rev1: {}}
)

type testServer struct {
	user  *imapmemserver.User
	addr  string // the server itself
	proxy *proxy // what the watcher connects to
	cfg   serverConfig
}

type serverConfig struct {
	caps      imap.CapSet
	stripIdle bool        // the proxy hides IDLE from the capabilities
	tls       *tls.Config // STARTTLS when set (and implicit is false)
	implicit  bool        // implicit TLS on the listener
	clientTLS *tls.Config // how the helper client trusts the server
}

func startServer(t *testing.T, cfg serverConfig) *testServer {
	t.Helper()
	user := imapmemserver.NewUser(testUser, testPass)
	if err := user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	caps := cfg.caps
	if caps == nil {
		caps = capsFull
	}
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &testSession{user: user}, nil, nil
		},
		Caps:         caps,
		InsecureAuth: true,
		Logger:       log.New(io.Discard, "", 0),
		TLSConfig:    cfg.tls,
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var served net.Listener = ln
	if cfg.implicit {
		served = tls.NewListener(ln, cfg.tls)
	}
	go srv.Serve(served)
	p := startProxy(t, ln.Addr().String(), cfg.stripIdle)
	t.Cleanup(func() { srv.Close() })
	return &testServer{user: user, addr: ln.Addr().String(), proxy: p, cfg: cfg}
}

// testSession is imapmemserver's session with one fix. imapserver's
// SessionTracker.Idle only flushes updates queued after it started, so an
// EXISTS queued between the client's last command and the server entering
// IDLE is held back until the next change. Real servers report it; here the
// session polls its queue while idling instead.
type testSession struct {
	*imapmemserver.UserSession // nil until Login
	user                       *imapmemserver.User
}

var _ imapserver.SessionMove = (*testSession)(nil)

func (s *testSession) Login(username, password string) error {
	if err := s.user.Login(username, password); err != nil {
		return err
	}
	s.UserSession = imapmemserver.NewUserSession(s.user)
	return nil
}

func (s *testSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := s.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-tick.C:
		}
	}
}

// proxy forwards TCP connections to the server. It can drop every
// connection, hide IDLE, and records what clients sent.
type proxy struct {
	ln        net.Listener
	target    string
	stripIdle bool

	mu       sync.Mutex
	conns    []net.Conn
	accepted int
	sent     bytes.Buffer  // client → server bytes, all connections
	sentCh   chan struct{} // closed and replaced on every write to sent
}

func startProxy(t *testing.T, target string, stripIdle bool) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, stripIdle: stripIdle, sentCh: make(chan struct{})}
	go p.serve()
	t.Cleanup(func() {
		ln.Close()
		p.dropAll()
	})
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.accepted++
		p.mu.Unlock()
		go func() {
			// Recorded before it is forwarded: once the server has answered a
			// command, the test sees it in clientSent.
			io.Copy(io.MultiWriter(lockedWriter{p}, s), c)
			s.Close()
		}()
		go func() {
			p.serverToClient(c, s)
			c.Close()
		}()
	}
}

type lockedWriter struct{ p *proxy }

func (w lockedWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	close(w.p.sentCh)
	w.p.sentCh = make(chan struct{})
	return w.p.sent.Write(b)
}

// waitSent blocks until the clients have sent n occurrences of s in total.
func (p *proxy) waitSent(t *testing.T, s string, n int) {
	t.Helper()
	deadline := time.After(testTimeout)
	for {
		p.mu.Lock()
		got := strings.Count(p.sent.String(), s)
		ch := p.sentCh
		p.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("clients sent %q %d times, want %d", s, got, n)
		}
	}
}

// serverToClient copies line by line, removing IDLE from capability lists
// when asked.
func (p *proxy) serverToClient(c, s net.Conn) {
	if !p.stripIdle {
		io.Copy(c, s) // byte for byte: TLS is not line-based
		return
	}
	r := bufio.NewReader(s)
	for {
		line, err := r.ReadBytes('\n')
		if p.stripIdle && bytes.Contains(line, []byte("CAPABILITY")) {
			line = bytes.ReplaceAll(line, []byte(" IDLE"), nil)
		}
		if _, werr := c.Write(line); werr != nil || err != nil {
			return
		}
	}
}

// dropAll cuts every open connection, as a network failure would.
func (p *proxy) dropAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *proxy) connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

func (p *proxy) clientSent() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sent.String()
}

// ---- a second client that plays the mail system and the inspector -------

func (ts *testServer) client(t *testing.T) *imapclient.Client {
	t.Helper()
	copts := &imapclient.Options{DebugWriter: debugW(), TLSConfig: ts.cfg.clientTLS}
	var c *imapclient.Client
	var err error
	if ts.cfg.implicit {
		c, err = imapclient.DialTLS(ts.addr, copts)
	} else {
		c, err = imapclient.DialInsecure(ts.addr, copts)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(testUser, testPass).Wait(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func rawMessage(subject string) string {
	return "From: alice@example.org\r\nTo: turnmail@example.org\r\nSubject: " + subject +
		"\r\nMessage-ID: <" + subject + "@example.org>\r\n\r\nconquer 12\r\n"
}

// deliver appends a message to the mailbox and returns its UIDVALIDITY and
// UID.
func (ts *testServer) deliver(t *testing.T, mailbox, raw string) (uint32, uint32) {
	t.Helper()
	c := ts.client(t)
	cmd := c.Append(mailbox, int64(len(raw)), nil)
	if _, err := io.WriteString(cmd, raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := cmd.Wait()
	if err != nil {
		t.Fatal(err)
	}
	c.Logout().Wait()
	return data.UIDValidity, uint32(data.UID)
}

type stored struct {
	subject string
	flags   []imap.Flag
}

// contents lists a mailbox: subjects and flags in UID order.
func (ts *testServer) contents(t *testing.T, mailbox string) []stored {
	t.Helper()
	c := ts.client(t)
	defer func() { c.Logout().Wait() }()
	if _, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatalf("select %s: %v", mailbox, err)
	}
	msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true, Envelope: true}).Collect()
	if err != nil {
		var ierr *imap.Error
		if errors.As(err, &ierr) {
			return nil // empty mailbox: "1:*" is invalid
		}
		t.Fatalf("fetch %s: %v", mailbox, err)
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
	var out []stored
	for _, m := range msgs {
		out = append(out, stored{m.Envelope.Subject, m.Flags})
	}
	return out
}

func subjects(l []stored) []string {
	var out []string
	for _, s := range l {
		out = append(out, s.subject)
	}
	return out
}

// ---- cursors and handler ---------------------------------------------------

type memCursors struct {
	mu      sync.Mutex
	m       map[string][2]uint32
	changed chan struct{}
	writes  int // SetCursor calls
}

func newMemCursors() *memCursors {
	return &memCursors{m: map[string][2]uint32{}, changed: make(chan struct{})}
}

func (c *memCursors) Cursor(ctx context.Context, mailbox string) (uint32, uint32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.m[mailbox]
	return v[0], v[1], nil
}

func (c *memCursors) SetCursor(ctx context.Context, mailbox string, validity, last uint32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[mailbox] = [2]uint32{validity, last}
	c.writes++
	close(c.changed)
	c.changed = make(chan struct{})
	return nil
}

// waitFor blocks until the INBOX cursor is (validity, last).
func (c *memCursors) waitFor(t *testing.T, validity, last uint32) {
	t.Helper()
	deadline := time.After(testTimeout)
	for {
		c.mu.Lock()
		got := c.m["INBOX"]
		ch := c.changed
		c.mu.Unlock()
		if got == [2]uint32{validity, last} {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("cursor = %v, want [%d %d]", got, validity, last)
		}
	}
}

// recorder is a Handler that reports every call on a channel.
type recorder struct {
	calls chan Fetched
	// decide picks the disposition (and error); nil means Processed.
	decide func(m Fetched) (Disposition, error)
}

func newRecorder() *recorder { return &recorder{calls: make(chan Fetched, 100)} }

func (r *recorder) handle(ctx context.Context, m Fetched) (Disposition, error) {
	r.calls <- m
	if r.decide != nil {
		return r.decide(m)
	}
	return Processed, nil
}

func (r *recorder) next(t *testing.T) Fetched {
	t.Helper()
	select {
	case m := <-r.calls:
		return m
	case <-time.After(testTimeout):
		t.Fatal("timed out waiting for the handler")
		return Fetched{}
	}
}

func subjectOf(m Fetched) string {
	for _, line := range strings.Split(string(m.Raw), "\r\n") {
		if s, ok := strings.CutPrefix(line, "Subject: "); ok {
			return s
		}
	}
	return ""
}

// ---- running a watcher -----------------------------------------------------

func testLogger() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func baseOptions(ts *testServer) Options {
	return Options{
		Addr:         ts.proxy.addr(),
		Username:     testUser,
		Password:     testPass,
		Security:     SecurityPlain,
		PollInterval: time.Hour, // tests that poll set it themselves
		IdleRestart:  time.Hour,
		RetryMin:     10 * time.Millisecond,
		RetryMax:     100 * time.Millisecond,
		Logger:       testLogger(),
	}
}

// start runs the watcher and returns a function that stops it and waits.
func start(t *testing.T, opts Options, h Handler, cur Cursors) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(opts, h, cur).Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run = %v after cancel, want nil", err)
				}
			case <-time.After(testTimeout):
				t.Error("Run did not return after cancel")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// ---- tests -----------------------------------------------------------------

// TestWatcher_catchUp: mail that arrived while turnmail was down is handed
// over on start, from the cursor on, in order and in batches; "N:*" matching
// the last message is not mistaken for new mail.
func TestWatcher_catchUp(t *testing.T) {
	ts := startServer(t, serverConfig{})
	var validity uint32
	for i := 1; i <= 5; i++ {
		validity, _ = ts.deliver(t, "INBOX", rawMessage(fmt.Sprintf("m%d", i)))
	}
	cur := newMemCursors()
	cur.SetCursor(context.Background(), "INBOX", validity, 2) // m1, m2 done before

	rec := newRecorder()
	rec.decide = func(Fetched) (Disposition, error) { return Keep, nil }
	opts := baseOptions(ts)
	opts.BatchSize = 2
	start(t, opts, rec.handle, cur)

	for _, want := range []string{"m3", "m4", "m5"} {
		m := rec.next(t)
		if got := subjectOf(m); got != want {
			t.Fatalf("handled %q, want %q", got, want)
		}
		if m.Mailbox != "INBOX" || m.UIDValidity != validity || m.Size != int64(len(m.Raw)) || m.Truncated || m.InternalDate.IsZero() {
			t.Errorf("Fetched = %+v", m)
		}
		if string(m.Raw) != rawMessage(want) {
			t.Errorf("Raw = %q, want %q", m.Raw, rawMessage(want))
		}
	}
	cur.waitFor(t, validity, 5)

	// All five stay (Keep). The next search, "6:*", matches m5 again; only
	// the new m6 may be handed over.
	ts.deliver(t, "INBOX", rawMessage("m6"))
	if got := subjectOf(rec.next(t)); got != "m6" {
		t.Fatalf("handled %q, want m6", got)
	}
	cur.waitFor(t, validity, 6)
	select {
	case m := <-rec.calls:
		t.Fatalf("handled %q twice", subjectOf(m))
	default:
	}
}

// TestWatcher_idle: with IDLE, a new message arrives without polling (the
// poll interval is an hour).
func TestWatcher_idle(t *testing.T) {
	ts := startServer(t, serverConfig{})
	cur := newMemCursors()
	rec := newRecorder()
	start(t, baseOptions(ts), rec.handle, cur)

	v, _ := ts.deliver(t, "INBOX", rawMessage("first"))
	if got := subjectOf(rec.next(t)); got != "first" {
		t.Fatalf("handled %q", got)
	}
	cur.waitFor(t, v, 1)
	// Once the watcher idles, only an EXISTS can wake it in time.
	for i, s := range []string{"second", "third"} {
		ts.proxy.waitSent(t, " IDLE\r\n", i+1)
		ts.deliver(t, "INBOX", rawMessage(s))
		if got := subjectOf(rec.next(t)); got != s {
			t.Fatalf("handled %q, want %q", got, s)
		}
		cur.waitFor(t, v, uint32(i+2))
	}
}

// TestWatcher_poll: a server without IDLE (hidden by the proxy), or IDLE
// disabled, is polled.
func TestWatcher_poll(t *testing.T) {
	tests := []struct {
		name        string
		stripIdle   bool
		disableIdle bool
	}{
		{"server without IDLE", true, false},
		{"DisableIdle", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, serverConfig{stripIdle: tt.stripIdle})
			cur := newMemCursors()
			rec := newRecorder()
			opts := baseOptions(ts)
			opts.PollInterval = 20 * time.Millisecond
			opts.DisableIdle = tt.disableIdle
			start(t, opts, rec.handle, cur)

			for _, s := range []string{"a", "b"} {
				ts.deliver(t, "INBOX", rawMessage(s))
				if got := subjectOf(rec.next(t)); got != s {
					t.Fatalf("handled %q, want %q", got, s)
				}
			}
			if strings.Contains(ts.proxy.clientSent(), " IDLE\r\n") {
				t.Error("the watcher sent IDLE")
			}
		})
	}
}

// TestWatcher_handlerError: a failing handler leaves the message where it is
// and the cursor where it was; the message is offered again.
func TestWatcher_handlerError(t *testing.T) {
	ts := startServer(t, serverConfig{})
	validity, _ := ts.deliver(t, "INBOX", rawMessage("m1"))
	cur := newMemCursors()

	rec := newRecorder()
	var mu sync.Mutex
	calls := 0
	retried := make(chan struct{})
	release := make(chan struct{})
	rec.decide = func(m Fetched) (Disposition, error) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		switch n {
		case 1, 2:
			return Keep, errors.New("database is locked")
		case 3:
			close(retried)
			<-release
		}
		return Processed, nil
	}
	opts := baseOptions(ts)
	opts.MoveTo = MoveTo{Processed: "Processed", Rejected: "Rejected"}
	start(t, opts, rec.handle, cur)

	select {
	case <-retried:
	case <-time.After(testTimeout):
		t.Fatal("message not offered again")
	}
	// Third attempt in progress: the failures changed nothing.
	if got := subjects(ts.contents(t, "INBOX")); !slices.Equal(got, []string{"m1"}) {
		t.Errorf("INBOX = %q after handler errors, want [m1]", got)
	}
	if got := ts.contents(t, "INBOX")[0].flags; slices.Contains(got, imap.FlagSeen) || slices.Contains(got, imap.FlagDeleted) {
		t.Errorf("flags = %v after handler errors", got)
	}
	if v, last, _ := cur.Cursor(context.Background(), "INBOX"); v != validity || last != 0 {
		t.Errorf("cursor = %d/%d after handler errors, want %d/0", v, last, validity)
	}
	close(release)
	cur.waitFor(t, validity, 1)
	if got := subjects(ts.contents(t, "Processed")); !slices.Equal(got, []string{"m1"}) {
		t.Errorf("Processed = %q, want [m1]", got)
	}
	if got := ts.contents(t, "INBOX"); len(got) != 0 {
		t.Errorf("INBOX = %v, want empty", got)
	}
}

// TestWatcher_uidValidityChange: a recreated mailbox is rescanned from UID 1.
func TestWatcher_uidValidityChange(t *testing.T) {
	ts := startServer(t, serverConfig{})
	v1, _ := ts.deliver(t, "INBOX", rawMessage("old1"))
	ts.deliver(t, "INBOX", rawMessage("old2"))
	cur := newMemCursors()
	rec := newRecorder()
	rec.decide = func(Fetched) (Disposition, error) { return Keep, nil }
	stop := start(t, baseOptions(ts), rec.handle, cur)
	rec.next(t)
	rec.next(t)
	cur.waitFor(t, v1, 2)
	stop()

	// The mailbox is recreated: new UIDVALIDITY, UIDs start again at 1.
	if err := ts.user.Delete("INBOX"); err != nil {
		t.Fatal(err)
	}
	if err := ts.user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	v2, uid := ts.deliver(t, "INBOX", rawMessage("new1"))
	if v2 == v1 || uid != 1 {
		t.Fatalf("test setup: validity %d→%d, uid %d", v1, v2, uid)
	}

	start(t, baseOptions(ts), rec.handle, cur)
	m := rec.next(t)
	if subjectOf(m) != "new1" || m.UIDValidity != v2 || m.UID != 1 {
		t.Fatalf("handled %q uid %d/%d, want new1 uid %d/1", subjectOf(m), m.UIDValidity, m.UID, v2)
	}
	cur.waitFor(t, v2, 1)
}

// TestWatcher_reconnect: after the connection drops, the watcher reconnects
// and catches up on what arrived meanwhile.
func TestWatcher_reconnect(t *testing.T) {
	ts := startServer(t, serverConfig{})
	cur := newMemCursors()
	rec := newRecorder()
	start(t, baseOptions(ts), rec.handle, cur)

	v, _ := ts.deliver(t, "INBOX", rawMessage("before"))
	if got := subjectOf(rec.next(t)); got != "before" {
		t.Fatalf("handled %q", got)
	}
	cur.waitFor(t, v, 1) // else "before" is rightly offered again
	ts.proxy.dropAll()
	ts.deliver(t, "INBOX", rawMessage("during"))
	if got := subjectOf(rec.next(t)); got != "during" {
		t.Fatalf("handled %q", got)
	}
	if n := ts.proxy.connections(); n < 2 {
		t.Errorf("%d connections, want a reconnect", n)
	}
	// And the new session is live too.
	ts.deliver(t, "INBOX", rawMessage("after"))
	if got := subjectOf(rec.next(t)); got != "after" {
		t.Fatalf("handled %q", got)
	}
}

// TestWatcher_serverDownAtStart: the watcher starts while nothing listens
// and keeps retrying until the server is there.
func TestWatcher_serverDownAtStart(t *testing.T) {
	ts := startServer(t, serverConfig{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// A listener that accepts and immediately closes: the server is "down".
	downAddr := ln.Addr().String()
	var mu sync.Mutex
	up := false
	attempts := make(chan struct{}, 100)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			isUp := up
			mu.Unlock()
			if !isUp {
				c.Close()
				attempts <- struct{}{}
				continue
			}
			s, err := net.Dial("tcp", ts.addr)
			if err != nil {
				c.Close()
				continue
			}
			go func() { io.Copy(s, c); s.Close() }()
			go func() { io.Copy(c, s); c.Close() }()
		}
	}()
	t.Cleanup(func() { ln.Close() })

	ts.deliver(t, "INBOX", rawMessage("waiting"))
	rec := newRecorder()
	opts := baseOptions(ts)
	opts.Addr = downAddr
	start(t, opts, rec.handle, newMemCursors())
	for i := 0; i < 3; i++ {
		select {
		case <-attempts:
		case <-time.After(testTimeout):
			t.Fatal("no connection attempts")
		}
	}
	mu.Lock()
	up = true
	mu.Unlock()
	if got := subjectOf(rec.next(t)); got != "waiting" {
		t.Fatalf("handled %q", got)
	}
}

func dispositionBySubject(m Fetched) (Disposition, error) {
	switch subjectOf(m) {
	case "p":
		return Processed, nil
	case "r":
		return Rejected, nil
	}
	return Keep, nil
}

// TestWatcher_moveTo: handled mail goes to Processed, rejected to Rejected,
// kept mail stays — with MOVE and with the COPY+STORE+EXPUNGE fallback. The
// folders are created on demand.
func TestWatcher_moveTo(t *testing.T) {
	tests := []struct {
		name string
		caps imap.CapSet
	}{
		{"MOVE", capsFull},
		{"COPY and UID EXPUNGE", capsUIDPlus},
		{"COPY and EXPUNGE", capsBareRev1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, serverConfig{caps: tt.caps})
			var validity uint32
			for _, s := range []string{"p", "r", "k"} {
				validity, _ = ts.deliver(t, "INBOX", rawMessage(s))
			}
			cur := newMemCursors()
			rec := newRecorder()
			rec.decide = dispositionBySubject
			opts := baseOptions(ts)
			opts.MoveTo = MoveTo{Processed: "Turnmail/Processed", Rejected: "Turnmail/Rejected"}
			start(t, opts, rec.handle, cur)
			cur.waitFor(t, validity, 3)

			for mbox, want := range map[string][]string{
				"INBOX":              {"k"},
				"Turnmail/Processed": {"p"},
				"Turnmail/Rejected":  {"r"},
			} {
				if got := subjects(ts.contents(t, mbox)); !slices.Equal(got, want) {
					t.Errorf("%s = %q, want %q", mbox, got, want)
				}
			}
			sent := ts.proxy.clientSent()
			if usesMove := strings.Contains(sent, "UID MOVE"); usesMove != tt.caps.Has(imap.CapMove) {
				t.Errorf("UID MOVE used = %v with caps %v", usesMove, tt.caps)
			}
		})
	}
}

// TestWatcher_batchedDisposal: the messages of one fetch are disposed of
// with one MOVE per folder and one cursor write; when the handler fails part
// way, the messages before the failure are disposed of and the cursor stops
// just before it, so only the failed message and those after it are offered
// again.
func TestWatcher_batchedDisposal(t *testing.T) {
	ts := startServer(t, serverConfig{})
	var validity uint32
	for _, s := range []string{"p", "r", "p", "fail", "r", "p"} {
		validity, _ = ts.deliver(t, "INBOX", rawMessage(s))
	}
	cur := newMemCursors()
	cur.SetCursor(context.Background(), "INBOX", validity, 0)
	cur.writes = 0
	rec := newRecorder()
	var mu sync.Mutex
	failed := false
	failing := make(chan struct{})
	release := make(chan struct{})
	rec.decide = func(m Fetched) (Disposition, error) {
		if subjectOf(m) != "fail" {
			return dispositionBySubject(m)
		}
		mu.Lock()
		first := !failed
		failed = true
		mu.Unlock()
		if first {
			return Keep, errors.New("database is locked")
		}
		close(failing) // the retry: check the state left by the failure
		<-release
		return Processed, nil
	}
	opts := baseOptions(ts)
	opts.MoveTo = MoveTo{Processed: "Processed", Rejected: "Rejected"}
	start(t, opts, rec.handle, cur)

	select {
	case <-failing:
	case <-time.After(testTimeout):
		t.Fatal("failed message not offered again")
	}
	if v, last, _ := cur.Cursor(context.Background(), "INBOX"); v != validity || last != 3 {
		t.Errorf("cursor after the failure = %d/%d, want %d/3", v, last, validity)
	}
	for mbox, want := range map[string][]string{
		"INBOX": {"fail", "r", "p"}, "Processed": {"p", "p"}, "Rejected": {"r"},
	} {
		if got := subjects(ts.contents(t, mbox)); !slices.Equal(got, want) {
			t.Errorf("after the failure %s = %q, want %q", mbox, got, want)
		}
	}
	close(release)
	cur.waitFor(t, validity, 6)
	for mbox, want := range map[string][]string{
		"INBOX": nil, "Processed": {"p", "p", "fail", "p"}, "Rejected": {"r", "r"},
	} {
		if got := subjects(ts.contents(t, mbox)); !slices.Equal(got, want) {
			t.Errorf("%s = %q, want %q", mbox, got, want)
		}
	}
	// Two chunks (before and after the failure): two MOVEs per folder at most,
	// one cursor write each.
	if n := strings.Count(ts.proxy.clientSent(), "UID MOVE"); n != 4 {
		t.Errorf("%d UID MOVE commands for 6 messages in 2 chunks, want 4", n)
	}
	cur.mu.Lock()
	writes := cur.writes
	cur.mu.Unlock()
	if writes != 2 {
		t.Errorf("%d cursor writes for 2 chunks, want 2", writes)
	}
}

// TestWatcher_batchHandler: a BatchHandler gets the messages of a fetch in
// one call; when it handles only some of them and fails, those are disposed
// of, and the others are offered again in a later call.
func TestWatcher_batchHandler(t *testing.T) {
	ts := startServer(t, serverConfig{})
	var validity uint32
	for _, s := range []string{"p", "r", "p", "p"} {
		validity, _ = ts.deliver(t, "INBOX", rawMessage(s))
	}
	cur := newMemCursors()
	cur.SetCursor(context.Background(), "INBOX", validity, 0)
	var mu sync.Mutex
	var calls [][]uint32
	h := func(ctx context.Context, ms []Fetched) ([]Disposition, error) {
		mu.Lock()
		defer mu.Unlock()
		var uids []uint32
		var disps []Disposition
		for _, m := range ms {
			uids = append(uids, m.UID)
			d, _ := dispositionBySubject(m)
			disps = append(disps, d)
		}
		calls = append(calls, uids)
		if len(calls) == 1 {
			return disps[:2], errors.New("database is locked") // stored two, then failed
		}
		return disps, nil
	}
	opts := baseOptions(ts)
	opts.MoveTo = MoveTo{Processed: "Processed", Rejected: "Rejected"}
	opts.RetryMin = time.Millisecond
	w := NewBatch(opts, h, cur)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	defer func() { cancel(); <-done }()
	cur.waitFor(t, validity, 4)

	mu.Lock()
	got := fmt.Sprint(calls)
	mu.Unlock()
	if want := "[[1 2 3 4] [3 4]]"; got != want {
		t.Errorf("handler calls %s, want %s", got, want)
	}
	for mbox, want := range map[string][]string{"INBOX": nil, "Processed": {"p", "p", "p"}, "Rejected": {"r"}} {
		if got := subjects(ts.contents(t, mbox)); !slices.Equal(got, want) {
			t.Errorf("%s = %q, want %q", mbox, got, want)
		}
	}
}

// TestWatcher_seenFallback: without folder names, handled mail is flagged
// \Seen and stays; kept mail is left unseen.
func TestWatcher_seenFallback(t *testing.T) {
	ts := startServer(t, serverConfig{})
	var validity uint32
	for _, s := range []string{"p", "r", "k"} {
		validity, _ = ts.deliver(t, "INBOX", rawMessage(s))
	}
	cur := newMemCursors()
	rec := newRecorder()
	rec.decide = dispositionBySubject
	start(t, baseOptions(ts), rec.handle, cur)
	cur.waitFor(t, validity, 3)

	got := ts.contents(t, "INBOX")
	if !slices.Equal(subjects(got), []string{"p", "r", "k"}) {
		t.Fatalf("INBOX = %v", got)
	}
	for _, s := range got {
		seen := slices.Contains(s.flags, imap.FlagSeen)
		if want := s.subject != "k"; seen != want {
			t.Errorf("%s: \\Seen = %v, want %v (flags %v)", s.subject, seen, want, s.flags)
		}
	}
}

// TestWatcher_largeMessage: a message over MaxSize is handed over as its
// header, marked Truncated, with its real size.
func TestWatcher_largeMessage(t *testing.T) {
	ts := startServer(t, serverConfig{})
	big := rawMessage("big") + strings.Repeat("x", 5000) + "\r\n"
	ts.deliver(t, "INBOX", big)
	ts.deliver(t, "INBOX", rawMessage("small"))
	rec := newRecorder()
	opts := baseOptions(ts)
	opts.MaxSize = 1000
	start(t, opts, rec.handle, newMemCursors())

	m := rec.next(t)
	header, _, _ := strings.Cut(big, "\r\n\r\n")
	if !m.Truncated || m.Size != int64(len(big)) || string(m.Raw) != header+"\r\n\r\n" {
		t.Errorf("big: Truncated=%v Size=%d Raw=%q", m.Truncated, m.Size, m.Raw)
	}
	m = rec.next(t)
	if m.Truncated || string(m.Raw) != rawMessage("small") {
		t.Errorf("small: Truncated=%v Raw=%q", m.Truncated, m.Raw)
	}
}

// TestWatcher_TLS connects with implicit TLS and with STARTTLS.
func TestWatcher_TLS(t *testing.T) {
	serverTLS, clientTLS := testtls.Configs(t)
	tests := []struct {
		name     string
		implicit bool
		security string
	}{
		{"implicit TLS", true, SecurityTLS},
		{"STARTTLS", false, SecuritySTARTTLS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, serverConfig{tls: serverTLS, implicit: tt.implicit, clientTLS: clientTLS})
			ts.deliver(t, "INBOX", rawMessage("secure"))
			rec := newRecorder()
			opts := baseOptions(ts)
			opts.Security = tt.security
			opts.TLSConfig = clientTLS
			start(t, opts, rec.handle, newMemCursors())
			if got := subjectOf(rec.next(t)); got != "secure" {
				t.Fatalf("handled %q", got)
			}
		})
	}
}

func TestWatcher_invalidOptions(t *testing.T) {
	h := func(context.Context, Fetched) (Disposition, error) { return Keep, nil }
	tests := []struct {
		name string
		opts Options
	}{
		{"no address", Options{}},
		{"plain to remote host", Options{Addr: "imap.example.org:143", Security: SecurityPlain}},
		{"unknown security", Options{Addr: "127.0.0.1:143", Security: "ssl"}},
		{"move to watched mailbox", Options{Addr: "127.0.0.1:993", MoveTo: MoveTo{Processed: "INBOX"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := New(tt.opts, h, newMemCursors()).Run(context.Background()); err == nil {
				t.Error("Run = nil, want an error")
			}
		})
	}
	w := New(Options{Addr: "imap.example.org:143", Security: SecurityPlain, AllowInsecure: true}, h, newMemCursors())
	if err := w.validate(); err != nil {
		t.Errorf("validate with AllowInsecure = %v", err)
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		n    int
		want time.Duration
	}{
		{1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second},
		{9, 256 * time.Second}, {10, 5 * time.Minute}, {1000, 5 * time.Minute},
	}
	for _, tt := range tests {
		if got := mailnet.Backoff(tt.n, time.Second, 5*time.Minute); got != tt.want {
			t.Errorf("backoff(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}

func TestDisposition_String(t *testing.T) {
	for d, want := range map[Disposition]string{Keep: "keep", Processed: "processed", Rejected: "rejected", 7: "Disposition(7)"} {
		if got := d.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(d), got, want)
		}
	}
}

func debugW() io.Writer {
	if os.Getenv("IMAPDEBUG") != "" {
		return os.Stderr
	}
	return nil
}
