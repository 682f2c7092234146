package smtpsend

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/turnmail/turnmail/internal/testtls"
)

// testTimeout only keeps a broken test from hanging; nothing depends on it.
const testTimeout = 20 * time.Second

// ---- recording SMTP server -------------------------------------------------

type delivery struct {
	from string
	to   []string
	data []byte
}

// backend records deliveries and fails on demand.
type backend struct {
	mu         sync.Mutex
	deliveries []delivery
	sessions   int
	resets     int
	authUser   string // when set, AUTH PLAIN with authUser/authPass is required
	authPass   string
	// Knobs: return this error from the command (nil = accept). rcptErr
	// applies only to the recipient named rcptErrFor ("" = all).
	mailErr    error
	rcptErr    error
	rcptErrFor string
	dataErr    error
	// onData, when set, is called with the delivery's number (1, 2, …) before
	// the DATA reply.
	onData func(n int)
}

func (b *backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sessions++
	return &session{b: b}, nil
}

func (b *backend) set(f func(b *backend)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f(b)
}

func (b *backend) got() []delivery {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]delivery(nil), b.deliveries...)
}

type session struct {
	b      *backend
	authed bool
	from   string
	to     []string
}

var _ smtp.AuthSession = (*session)(nil)

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		s.b.mu.Lock()
		defer s.b.mu.Unlock()
		if username != s.b.authUser || password != s.b.authPass {
			return smtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, opts *smtp.MailOptions) error {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if s.b.authUser != "" && !s.authed {
		return smtp.ErrAuthRequired
	}
	if s.b.mailErr != nil {
		return s.b.mailErr
	}
	if s.from != "" {
		// As Postfix: a transaction is open (a refused RCPT left it); the
		// client must RSET first.
		return &smtp.SMTPError{Code: 503, EnhancedCode: smtp.EnhancedCode{5, 5, 1}, Message: "Error: nested MAIL command"}
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, opts *smtp.RcptOptions) error {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if s.b.rcptErr != nil && (s.b.rcptErrFor == "" || s.b.rcptErrFor == to) {
		return s.b.rcptErr
	}
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.b.mu.Lock()
	hook, n := s.b.onData, len(s.b.deliveries)+1
	s.b.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if s.b.dataErr != nil {
		return s.b.dataErr
	}
	s.b.deliveries = append(s.b.deliveries, delivery{s.from, s.to, data})
	return nil
}

func (s *session) Reset() {
	s.b.mu.Lock()
	s.b.resets++
	s.b.mu.Unlock()
	s.from, s.to = "", nil
}

func (s *session) Logout() error { return nil }

// switchListener accepts on loopback and either hands connections to the
// SMTP server (up) or closes them at once (down: the server is "out").
type switchListener struct {
	net.Listener
	mu    sync.Mutex
	down  bool
	conns chan net.Conn
	done  chan struct{}
}

func (l *switchListener) setDown(down bool) {
	l.mu.Lock()
	l.down = down
	l.mu.Unlock()
}

func (l *switchListener) loop() {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			close(l.done)
			return
		}
		l.mu.Lock()
		down := l.down
		l.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		select {
		case l.conns <- c:
		case <-l.done:
			c.Close()
			return
		}
	}
}

// Accept serves the SMTP server.
func (l *switchListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

type testServer struct {
	be   *backend
	ln   *switchListener
	addr string
}

type serverMode int

const (
	modePlain serverMode = iota
	modeTLS
	modeSTARTTLS
)

func startServer(t *testing.T, mode serverMode, tlsConfig *tls.Config) *testServer {
	t.Helper()
	be := &backend{}
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var inner net.Listener = raw
	srv := smtp.NewServer(be)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	switch mode {
	case modeTLS:
		inner = tls.NewListener(raw, tlsConfig)
	case modeSTARTTLS:
		srv.TLSConfig = tlsConfig
	}
	ln := &switchListener{Listener: inner, conns: make(chan net.Conn), done: make(chan struct{})}
	go ln.loop()
	go srv.Serve(ln)
	t.Cleanup(func() {
		raw.Close()
		srv.Close()
	})
	return &testServer{be: be, ln: ln, addr: raw.Addr().String()}
}

// ---- in-memory queue ------------------------------------------------------

type event struct {
	kind string // "sent", "retry", "failed"
	id   int64
	at   time.Time
	text string
}

type item struct {
	m      Outgoing
	next   time.Time
	state  string // "queued", "sent", "failed"
	events []event
}

type memQueue struct {
	mu     sync.Mutex
	items  map[int64]*item
	wake   chan struct{}
	events chan event
	// marks are the IDs of each MarkSent call.
	marks [][]int64
}

func newMemQueue() *memQueue {
	return &memQueue{items: map[int64]*item{}, wake: make(chan struct{}), events: make(chan event, 1000)}
}

func (q *memQueue) add(next time.Time, ms ...Outgoing) {
	q.mu.Lock()
	for _, m := range ms {
		q.items[m.ID] = &item{m: m, next: next, state: "queued"}
	}
	q.mu.Unlock()
	q.poke()
}

// poke closes the wake channel, as the store does on commit.
func (q *memQueue) poke() {
	q.mu.Lock()
	close(q.wake)
	q.wake = make(chan struct{})
	q.mu.Unlock()
}

func (q *memQueue) Wake() <-chan struct{} {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.wake
}

func (q *memQueue) Due(ctx context.Context, now time.Time, limit int) ([]Outgoing, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []Outgoing
	for _, it := range q.items {
		if it.state == "queued" && !it.next.After(now) {
			out = append(out, it.m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (q *memQueue) record(e event, f func(it *item)) error {
	q.mu.Lock()
	it := q.items[e.id]
	if it == nil || it.state != "queued" {
		q.mu.Unlock()
		return errors.New("no such queued mail")
	}
	f(it)
	it.events = append(it.events, e)
	q.mu.Unlock()
	q.events <- e
	return nil
}

func (q *memQueue) MarkSent(ctx context.Context, sent []Sent) error {
	if err := ctx.Err(); err != nil {
		return err // as the store would
	}
	var ids []int64
	for _, m := range sent {
		ids = append(ids, m.ID)
	}
	q.mu.Lock()
	q.marks = append(q.marks, ids)
	q.mu.Unlock()
	for _, m := range sent {
		if err := q.record(event{"sent", m.ID, m.At, ""}, func(it *item) { it.state = "sent" }); err != nil {
			return err
		}
	}
	return nil
}

func (q *memQueue) MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error {
	return q.record(event{"retry", id, next, errText}, func(it *item) {
		it.next = next
		it.m.Attempts++
	})
}

func (q *memQueue) MarkFailed(ctx context.Context, id int64, errText string) error {
	return q.record(event{"failed", id, time.Time{}, errText}, func(it *item) { it.state = "failed" })
}

// wait returns the next event, failing the test after testTimeout.
func (q *memQueue) wait(t *testing.T) event {
	t.Helper()
	select {
	case e := <-q.events:
		return e
	case <-time.After(testTimeout):
		t.Fatal("timed out waiting for a queue event")
		return event{}
	}
}

// ---- fake clock ------------------------------------------------------------

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// ---- helpers ---------------------------------------------------------------

func testLogger(t *testing.T) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// run starts s.Run and stops it at the end of the test.
func run(t *testing.T, s *Sender) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v after cancel", err)
			}
		case <-time.After(testTimeout):
			t.Error("Run did not return after cancel")
		}
	})
}

func msg(id int64, to ...string) Outgoing {
	raw := "From: turnmail@example.org\r\nTo: " + strings.Join(to, ", ") + "\r\nSubject: mail " + string(rune('A'+id)) +
		"\r\n\r\nHello.\r\n.leading dot survives\r\n..two dots too\r\n.\r\nend\r\n"
	return Outgoing{ID: id, From: "turnmail@example.org", To: to, Raw: []byte(raw)}
}

func plainOpts(ts *testServer, clock *fakeClock, t *testing.T) Options {
	return Options{
		Addr:        ts.addr,
		Security:    SecurityPlain,
		Clock:       clock.Now,
		Logger:      testLogger(t),
		Connections: 1, // one session per batch; TestSender_lanes covers more
	}
}

// ---- tests -----------------------------------------------------------------

func TestSender_delivers(t *testing.T) {
	ts := startServer(t, modePlain, nil)
	clock := &fakeClock{now: t0}
	q := newMemQueue()
	m1, m2 := msg(1, "alice@example.org"), msg(2, "bob@example.org", "carol@example.org")
	q.add(t0, m1, m2)
	run(t, New(plainOpts(ts, clock, t), q))

	for _, want := range []int64{1, 2} {
		e := q.wait(t)
		if e.kind != "sent" || e.id != want || !e.at.Equal(t0) {
			t.Fatalf("event = %+v, want sent %d at %v", e, want, t0)
		}
	}
	got := ts.be.got()
	if len(got) != 2 {
		t.Fatalf("%d deliveries, want 2", len(got))
	}
	for i, m := range []Outgoing{m1, m2} {
		if got[i].from != m.From || strings.Join(got[i].to, ",") != strings.Join(m.To, ",") {
			t.Errorf("delivery %d envelope = %q -> %q, want %q -> %q", i, got[i].from, got[i].to, m.From, m.To)
		}
		if !bytes.Equal(got[i].data, m.Raw) {
			t.Errorf("delivery %d data =\n%q\nwant\n%q", i, got[i].data, m.Raw)
		}
	}
	ts.be.mu.Lock()
	sessions, resets := ts.be.sessions, ts.be.resets
	ts.be.mu.Unlock()
	if sessions != 1 {
		t.Errorf("%d SMTP sessions for one batch, want 1", sessions)
	}
	if resets == 0 {
		t.Errorf("no RSET between mails")
	}
}

// TestSender_returnPath: ReturnPath sets each mail's envelope sender; an empty
// answer keeps Outgoing.From.
func TestSender_returnPath(t *testing.T) {
	ts := startServer(t, modePlain, nil)
	q := newMemQueue()
	q.add(t0, msg(1, "alice@example.org"), msg(2, "bob@example.org"))
	opts := plainOpts(ts, &fakeClock{now: t0}, t)
	opts.ReturnPath = func(m Outgoing) string {
		if m.To[0] == "bob@example.org" {
			return ""
		}
		return fmt.Sprintf("games+bounce-%d@example.org", m.ID)
	}
	run(t, New(opts, q))
	q.wait(t)
	q.wait(t)
	got := map[string]string{}
	for _, d := range ts.be.got() {
		got[d.to[0]] = d.from
	}
	if got["alice@example.org"] != "games+bounce-1@example.org" || got["bob@example.org"] != msg(2, "bob@example.org").From {
		t.Errorf("envelope senders %q", got)
	}
}

// TestSender_lanes: a batch is spread over parallel connections by
// recipient; every mail is delivered once, and each recipient's mails arrive
// in queue order.
func TestSender_lanes(t *testing.T) {
	ts := startServer(t, modePlain, nil)
	q := newMemQueue()
	rcpts := []string{"a@example.org", "b@example.org", "c@example.org", "d@example.org", "e@example.org"}
	var ms []Outgoing
	for i := range 20 {
		ms = append(ms, msg(int64(i+1), rcpts[i%len(rcpts)]))
	}
	q.add(t0, ms...)
	opts := plainOpts(ts, &fakeClock{now: t0}, t)
	opts.Connections = 3
	run(t, New(opts, q))
	for range ms {
		if e := q.wait(t); e.kind != "sent" {
			t.Fatalf("event %+v, want sent", e)
		}
	}
	got := ts.be.got()
	if len(got) != len(ms) {
		t.Fatalf("%d deliveries, want %d", len(got), len(ms))
	}
	last := map[string]int{} // recipient -> index in ms of the last mail seen
	for _, d := range got {
		i := slices.IndexFunc(ms, func(m Outgoing) bool { return bytes.Equal(m.Raw, d.data) })
		if i < 0 {
			t.Fatalf("unknown delivery %q", d.data)
		}
		if prev, ok := last[d.to[0]]; ok && prev > i {
			t.Errorf("%s got mail %d after mail %d", d.to[0], i+1, prev+1)
		}
		last[d.to[0]] = i
	}
	ts.be.mu.Lock()
	sessions := ts.be.sessions
	ts.be.mu.Unlock()
	if sessions < 2 || sessions > 3 {
		t.Errorf("%d SMTP sessions for a batch over 3 connections, want 2 or 3", sessions)
	}
}

func TestLanesOf(t *testing.T) {
	var batch []Outgoing
	for i := range 12 {
		batch = append(batch, msg(int64(i), fmt.Sprintf("p%d@example.org", i%4)))
	}
	for _, n := range []int{1, 2, 3, 5, 50} {
		lanes := lanesOf(batch, n)
		if len(lanes) < 1 || len(lanes) > n {
			t.Errorf("n=%d: %d lanes", n, len(lanes))
		}
		seen := map[int64]bool{}
		laneOf := map[string]int{}
		for li, lane := range lanes {
			if len(lane) == 0 {
				t.Errorf("n=%d: empty lane", n)
			}
			for j, m := range lane {
				seen[m.ID] = true
				if prev, ok := laneOf[m.To[0]]; ok && prev != li {
					t.Errorf("n=%d: %s in lanes %d and %d", n, m.To[0], prev, li)
				}
				laneOf[m.To[0]] = li
				if j > 0 && lane[j-1].ID > m.ID {
					t.Errorf("n=%d: lane %d out of order", n, li)
				}
			}
		}
		if len(seen) != len(batch) {
			t.Errorf("n=%d: %d of %d mails in lanes", n, len(seen), len(batch))
		}
	}
	if got := lanesOf(nil, 4); len(got) != 0 {
		t.Errorf("lanes of an empty batch: %v", got)
	}
}

// TestSender_marksBatchOnce: the mails a batch delivered are recorded in one
// MarkSent call, also when the Sender is stopped part way through the batch:
// mail 1 was accepted and must not be sent again; mail 2, stopped while the
// server answered its DATA, usually has an unknown outcome and stays due (or,
// if the reply won the race with the stop, is recorded); mail 3 stays due.
func TestSender_marksBatchOnce(t *testing.T) {
	t.Run("whole batch", func(t *testing.T) {
		ts := startServer(t, modePlain, nil)
		q := newMemQueue()
		q.add(t0, msg(1, "a@example.org"), msg(2, "b@example.org"), msg(3, "c@example.org"))
		run(t, New(plainOpts(ts, &fakeClock{now: t0}, t), q))
		for range 3 {
			q.wait(t)
		}
		q.mu.Lock()
		defer q.mu.Unlock()
		if !reflect.DeepEqual(q.marks, [][]int64{{1, 2, 3}}) {
			t.Errorf("MarkSent calls %v, want one with [1 2 3]", q.marks)
		}
	})
	t.Run("stopped mid-batch", func(t *testing.T) {
		ts := startServer(t, modePlain, nil)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ts.be.set(func(b *backend) {
			b.onData = func(n int) {
				if n == 2 {
					cancel() // stop while the server accepts mail 2
				}
			}
		})
		q := newMemQueue()
		q.add(t0, msg(1, "a@example.org"), msg(2, "b@example.org"), msg(3, "c@example.org"))
		if err := New(plainOpts(ts, &fakeClock{now: t0}, t), q).Run(ctx); err != nil {
			t.Fatalf("Run: %v", err)
		}
		q.mu.Lock()
		defer q.mu.Unlock()
		// The stop came while the server took mail 2: that transaction is
		// finished and recorded (else mail 2 would be sent twice), mail 3 waits.
		if !reflect.DeepEqual(q.marks, [][]int64{{1, 2}}) {
			t.Errorf("MarkSent calls %v, want one with [1 2]", q.marks)
		}
		if st := q.items[3].state; st != "queued" {
			t.Errorf("mail 3 is %s, want still queued", st)
		}
	})
}

func TestSender_permanentFailure(t *testing.T) {
	ts := startServer(t, modePlain, nil)
	ts.be.set(func(b *backend) {
		b.rcptErr = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user here"}
		b.rcptErrFor = "nobody@example.org"
	})
	clock := &fakeClock{now: t0}
	q := newMemQueue()
	q.add(t0, msg(1, "nobody@example.org"), msg(2, "alice@example.org"))
	run(t, New(plainOpts(ts, clock, t), q))

	e := q.wait(t)
	if e.kind != "failed" || e.id != 1 {
		t.Fatalf("event = %+v, want failed 1", e)
	}
	if want := "550 5.1.1 No such user here"; e.text != want {
		t.Errorf("error text = %q, want %q", e.text, want)
	}
	// The refusal does not disturb the next mail on the same connection.
	if e := q.wait(t); e.kind != "sent" || e.id != 2 {
		t.Fatalf("event = %+v, want sent 2", e)
	}
	if got := ts.be.got(); len(got) != 1 || got[0].to[0] != "alice@example.org" {
		t.Errorf("deliveries = %+v", got)
	}
}

func TestSender_dataPermanentFailure(t *testing.T) {
	ts := startServer(t, modePlain, nil)
	ts.be.set(func(b *backend) {
		b.dataErr = &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Message rejected as spam"}
	})
	clock := &fakeClock{now: t0}
	q := newMemQueue()
	q.add(t0, msg(1, "alice@example.org"))
	run(t, New(plainOpts(ts, clock, t), q))
	if e := q.wait(t); e.kind != "failed" || e.text != "554 5.7.1 Message rejected as spam" {
		t.Fatalf("event = %+v, want failed with the server's text", e)
	}
}

func TestSender_temporaryFailureRetried(t *testing.T) {
	ts := startServer(t, modePlain, nil)
	ts.be.set(func(b *backend) {
		b.mailErr = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
	})
	clock := &fakeClock{now: t0}
	q := newMemQueue()
	m := msg(1, "alice@example.org")
	q.add(t0, m)
	run(t, New(plainOpts(ts, clock, t), q))

	e := q.wait(t)
	if e.kind != "retry" || !e.at.Equal(t0.Add(DefaultBackoffBase)) || e.text != "451 4.3.0 Try again later" {
		t.Fatalf("event = %+v, want retry at t0+30s with the server's text", e)
	}
	ts.be.set(func(b *backend) { b.mailErr = nil })

	// Not due yet: a wake-up before the retry time sends nothing.
	clock.Advance(DefaultBackoffBase - time.Second)
	q.poke()
	clock.Advance(time.Second)
	q.poke()
	e = q.wait(t)
	if e.kind != "sent" || !e.at.Equal(t0.Add(DefaultBackoffBase)) {
		t.Fatalf("event = %+v, want sent at t0+30s", e)
	}
	if got := ts.be.got(); len(got) != 1 || !bytes.Equal(got[0].data, m.Raw) {
		t.Errorf("deliveries = %+v", got)
	}
}

// TestSender_outageDelaysMailAndLosesNone takes the server down, queues mail,
// brings the server back and checks that every mail arrives exactly once.
func TestSender_outageDelaysMailAndLosesNone(t *testing.T) {
	ts := startServer(t, modePlain, nil)
	ts.ln.setDown(true)
	clock := &fakeClock{now: t0}
	q := newMemQueue()
	const n = 5
	var want []Outgoing
	for i := int64(1); i <= n; i++ {
		want = append(want, msg(i, "p@example.org"))
	}
	q.add(t0, want...)
	run(t, New(plainOpts(ts, clock, t), q))

	// Two rounds of outage: every mail deferred with a growing backoff.
	for round := 1; round <= 2; round++ {
		for i := 0; i < n; i++ {
			e := q.wait(t)
			wantNext := clock.Now().Add(Backoff(round, DefaultBackoffBase, DefaultBackoffCap))
			if e.kind != "retry" || !e.at.Equal(wantNext) {
				t.Fatalf("round %d: event = %+v, want retry at %v", round, e, wantNext)
			}
		}
		clock.Advance(Backoff(round, DefaultBackoffBase, DefaultBackoffCap))
		if round == 2 {
			ts.ln.setDown(false)
		}
		q.poke()
	}
	for i := 0; i < n; i++ {
		if e := q.wait(t); e.kind != "sent" {
			t.Fatalf("event = %+v, want sent", e)
		}
	}
	got := ts.be.got()
	if len(got) != n {
		t.Fatalf("%d deliveries, want %d", len(got), n)
	}
	for i := range got {
		if !bytes.Equal(got[i].data, want[i].Raw) {
			t.Errorf("delivery %d = %q, want %q", i, got[i].data, want[i].Raw)
		}
	}
}

func TestSender_retryScheduleAndGiveUp(t *testing.T) {
	ts := startServer(t, modePlain, nil)
	ts.be.set(func(b *backend) {
		b.rcptErr = &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 2, 2}, Message: "Mailbox full"}
	})
	clock := &fakeClock{now: t0}
	q := newMemQueue()
	q.add(t0, msg(1, "alice@example.org"))
	opts := plainOpts(ts, clock, t)
	opts.MaxAttempts = 9
	run(t, New(opts, q))

	// 30s, 1m, 2m, 4m, 8m, 16m, 32m, then capped at 1h.
	wantDelays := []time.Duration{
		30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute,
		8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour,
	}
	for i, d := range wantDelays {
		e := q.wait(t)
		if e.kind != "retry" || e.at.Sub(clock.Now()) != d {
			t.Fatalf("failure %d: event = %+v, want retry after %v", i+1, e, d)
		}
		clock.Advance(d)
		q.poke()
	}
	e := q.wait(t)
	if e.kind != "failed" || !strings.Contains(e.text, "after 9 attempts") || !strings.Contains(e.text, "452 4.2.2 Mailbox full") {
		t.Fatalf("event = %+v, want failed after 9 attempts", e)
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		attempts int
		want     time.Duration
	}{
		{0, 30 * time.Second},
		{1, 30 * time.Second},
		{2, time.Minute},
		{3, 2 * time.Minute},
		{7, 32 * time.Minute},
		{8, time.Hour},
		{9, time.Hour},
		{1000, time.Hour},
	}
	for _, tt := range tests {
		if got := Backoff(tt.attempts, 30*time.Second, time.Hour); got != tt.want {
			t.Errorf("Backoff(%d) = %v, want %v", tt.attempts, got, tt.want)
		}
	}
}

// TestSender_wakesAtRetryTime uses the real clock and a tiny backoff: after
// a temporary failure the sender retries on its own, without Wake.
func TestSender_wakesAtRetryTime(t *testing.T) {
	ts := startServer(t, modePlain, nil)
	ts.be.set(func(b *backend) {
		b.dataErr = &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 4, 2}, Message: "Shutting down"}
	})
	q := newMemQueue()
	q.add(time.Now(), msg(1, "alice@example.org"))
	run(t, New(Options{Addr: ts.addr, Security: SecurityPlain, BackoffBase: 10 * time.Millisecond, Logger: testLogger(t)}, q))

	if e := q.wait(t); e.kind != "retry" {
		t.Fatalf("event = %+v, want retry", e)
	}
	ts.be.set(func(b *backend) { b.dataErr = nil })
	if e := q.wait(t); e.kind != "sent" {
		t.Fatalf("event = %+v, want sent", e)
	}
}

func TestSender_auth(t *testing.T) {
	tests := []struct {
		name     string
		user     string
		pass     string
		wantKind string
	}{
		{"good credentials", "turnmail", "secret", "sent"},
		{"wrong password", "turnmail", "nope", "retry"},
		{"no credentials", "", "", "retry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, modePlain, nil)
			ts.be.set(func(b *backend) { b.authUser, b.authPass = "turnmail", "secret" })
			clock := &fakeClock{now: t0}
			q := newMemQueue()
			q.add(t0, msg(1, "alice@example.org"))
			opts := plainOpts(ts, clock, t)
			opts.Username, opts.Password = tt.user, tt.pass
			run(t, New(opts, q))
			if e := q.wait(t); e.kind != tt.wantKind {
				t.Fatalf("event = %+v, want %s", e, tt.wantKind)
			}
		})
	}
}

func TestSender_TLS(t *testing.T) {
	serverTLS, clientTLS := testtls.Configs(t)
	tests := []struct {
		name     string
		mode     serverMode
		security string
	}{
		{"implicit TLS", modeTLS, SecurityTLS},
		{"STARTTLS", modeSTARTTLS, SecuritySTARTTLS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, tt.mode, serverTLS)
			ts.be.set(func(b *backend) { b.authUser, b.authPass = "turnmail", "secret" })
			clock := &fakeClock{now: t0}
			q := newMemQueue()
			q.add(t0, msg(1, "alice@example.org"))
			run(t, New(Options{
				Addr: ts.addr, Security: tt.security, TLSConfig: clientTLS,
				Username: "turnmail", Password: "secret",
				Clock: clock.Now, Logger: testLogger(t),
			}, q))
			if e := q.wait(t); e.kind != "sent" {
				t.Fatalf("event = %+v, want sent", e)
			}
		})
	}

	// STARTTLS required but not offered: deferred, never sent in clear.
	t.Run("STARTTLS not offered", func(t *testing.T) {
		ts := startServer(t, modePlain, nil)
		clock := &fakeClock{now: t0}
		q := newMemQueue()
		q.add(t0, msg(1, "alice@example.org"))
		run(t, New(Options{Addr: ts.addr, Security: SecuritySTARTTLS, Clock: clock.Now, Logger: testLogger(t)}, q))
		if e := q.wait(t); e.kind != "retry" || !strings.Contains(e.text, "STARTTLS") {
			t.Fatalf("event = %+v, want retry mentioning STARTTLS", e)
		}
		if got := ts.be.got(); len(got) != 0 {
			t.Errorf("mail delivered without TLS")
		}
	})
}

func TestSender_invalidOptions(t *testing.T) {
	tests := []struct {
		name string
		opts Options
	}{
		{"no address", Options{}},
		{"no port", Options{Addr: "mail.example.org"}},
		{"plain to remote host", Options{Addr: "mail.example.org:25", Security: SecurityPlain}},
		{"unknown security", Options{Addr: "127.0.0.1:25", Security: "ssl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := New(tt.opts, newMemQueue()).Run(context.Background()); err == nil {
				t.Error("Run = nil, want an error")
			}
		})
	}
	// AllowInsecure lifts the loopback rule (checked without I/O).
	s := New(Options{Addr: "mail.example.org:25", Security: SecurityPlain, AllowInsecure: true}, newMemQueue())
	if err := s.validate(); err != nil {
		t.Errorf("validate with AllowInsecure = %v", err)
	}
}
