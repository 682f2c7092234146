// Package imapwatch watches an IMAP mailbox and hands every new message to a
// Handler, exactly in UID order, without ever losing one.
//
// # The loop
//
// After every (re)connect the Watcher logs in, creates the MoveTo folders if
// they are missing, selects the mailbox and catches up: it searches for the
// UIDs above the cursor (UID SEARCH UID last+1:*, dropping the UIDs ≤ last
// that "N:*" always matches), fetches them in batches and hands each one to
// the Handler. Then it waits for new mail — with IDLE when the server
// advertises it (woken by EXISTS, restarted every IdleRestart), by polling
// every PollInterval otherwise — and catches up again. Any failure closes the
// connection; the Watcher reconnects with a capped exponential backoff
// (RetryMin doubling up to RetryMax, no jitter), reset after a session that
// completed a catch-up.
//
// # Delivery guarantee
//
// The Handler must persist the raw message before it returns nil. Only then
// does the Watcher dispose of the message (move it to MoveTo.Processed or
// MoveTo.Rejected, or flag it \Seen when that folder name is empty, or leave
// it for Keep) and advance the cursor to its UID, in that order. Both are
// done once per fetched chunk (one MOVE per folder, one cursor write), so a
// burst of mail costs a few round trips, not a few per message. When the
// Handler returns an error, the messages handled before it are disposed of
// and the cursor advanced past them; nothing happens to the failed message,
// and it is offered again after the backoff; later messages wait behind it. A Handler should therefore return an error only for
// transient trouble (its database is down), and a disposition — typically
// Rejected — for mail it cannot use.
//
// Delivery is at least once: a crash or a failed MOVE/STORE after the
// Handler succeeded offers the message again. When the mailbox's UIDVALIDITY
// changes (the mailbox was recreated or the server rebuilt its index), the
// cursor is meaningless and the Watcher rescans the mailbox from UID 1, so
// every message still in it is offered again. Deduplication (by Message-ID,
// or a hash of what the sender wrote: see store.DedupeKey) is the Handler's job.
//
// # Large messages
//
// A message larger than MaxSize is still handed over, but with only its
// header in Fetched.Raw and Fetched.Truncated set; Fetched.Size is always the
// full RFC822.SIZE. The Handler decides: typically it records the header and
// returns Rejected, replying that the mail was too large.
//
// # A note for servers built on go-imap's imapserver
//
// imapserver.SessionTracker.Idle only reports updates queued after it
// started, so mail delivered in the instant between the Watcher's last
// command and the server entering IDLE is reported only with the next change.
// The Watcher then notices it at the next IdleRestart at the latest. A
// server built on imapserver should poll its tracker when IDLE starts; or
// give the Watcher a short IdleRestart.
//
// # Moving without MOVE
//
// When the server lacks the MOVE extension, the Watcher copies the message,
// waits for the COPY to succeed, flags the original \Deleted and expunges it
// — with UID EXPUNGE when the server has UIDPLUS, and otherwise with a plain
// EXPUNGE, which also removes any other message flagged \Deleted in the
// mailbox.
package imapwatch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/turnmail/turnmail/mail/mailnet"
)

// Defaults for Options.
const (
	DefaultMailbox      = "INBOX"
	DefaultPollInterval = 30 * time.Second
	DefaultIdleRestart  = 25 * time.Minute
	DefaultBatchSize    = 50
	DefaultMaxSize      = 25 << 20
	DefaultRetryMin     = time.Second
	DefaultRetryMax     = 5 * time.Minute
	DefaultDialTimeout  = 30 * time.Second
)

// idleDoneTimeout bounds the wait for the server's answer to DONE.
const idleDoneTimeout = time.Minute

// fetchChunkBytes bounds how many message bytes one UID FETCH of bodies asks
// for (a single larger message is fetched alone).
const fetchChunkBytes = 16 << 20

// Security modes for Options.Security.
const (
	SecurityTLS      = mailnet.SecurityTLS      // implicit TLS (port 993)
	SecuritySTARTTLS = mailnet.SecurityStartTLS // STARTTLS, required (port 143)
	SecurityPlain    = mailnet.SecurityPlain    // no TLS; loopback only unless AllowInsecure
)

// Disposition tells the Watcher what to do with a handled message.
type Disposition int

const (
	// Keep leaves the message in the mailbox untouched. The cursor still
	// moves past it, so it is not offered again (until a rescan).
	Keep Disposition = iota
	// Processed moves the message to MoveTo.Processed, or flags it \Seen.
	Processed
	// Rejected moves the message to MoveTo.Rejected, or flags it \Seen.
	Rejected
	// Failed moves the message to MoveTo.Failed (quarantine: processing it
	// failed), or flags it \Seen.
	Failed
)

// String returns "keep", "processed" or "rejected".
func (d Disposition) String() string {
	switch d {
	case Keep:
		return "keep"
	case Processed:
		return "processed"
	case Rejected:
		return "rejected"
	case Failed:
		return "failed"
	}
	return fmt.Sprintf("Disposition(%d)", int(d))
}

// Fetched is one message handed to the Handler.
type Fetched struct {
	Mailbox     string
	UIDValidity uint32
	UID         uint32
	// Raw is the whole message, or only its header when Truncated.
	Raw          []byte
	InternalDate time.Time
	// Size is the message's RFC822.SIZE.
	Size int64
	// Truncated is set when Size exceeds Options.MaxSize and Raw holds the
	// header section only.
	Truncated bool
}

// Handler receives each new message. It must have stored m.Raw durably
// before it returns a nil error. A non-nil error means "try again later".
type Handler func(ctx context.Context, m Fetched) (Disposition, error)

// BatchHandler receives the new messages of one fetch, in UID order, so that
// it can store them together. It returns the dispositions of the first
// len(disps) messages, which it must have stored durably; the Watcher
// disposes of those and moves the cursor past them. A non-nil error means
// "try the others again later".
type BatchHandler func(ctx context.Context, ms []Fetched) (disps []Disposition, err error)

// oneByOne makes a BatchHandler of h: it stops at the first error.
func oneByOne(h Handler) BatchHandler {
	return func(ctx context.Context, ms []Fetched) ([]Disposition, error) {
		disps := make([]Disposition, 0, len(ms))
		for _, m := range ms {
			d, err := h(ctx, m)
			if err != nil {
				return disps, err
			}
			disps = append(disps, d)
		}
		return disps, nil
	}
}

// Cursors remembers, per mailbox, the UIDVALIDITY and the last UID handled.
// The store implements it. Cursor returns zeros for a mailbox it has never
// seen.
type Cursors interface {
	Cursor(ctx context.Context, mailbox string) (uidValidity, lastUID uint32, err error)
	SetCursor(ctx context.Context, mailbox string, uidValidity, lastUID uint32) error
}

// MoveTo names the folders handled mail is moved to. An empty name means the
// message is flagged \Seen and stays in the mailbox. Missing folders are
// created.
type MoveTo struct {
	Processed string
	Rejected  string
	// Failed receives quarantined mail (see Failed).
	Failed string
}

// Options configure a Watcher. Addr, Username and Password are required.
type Options struct {
	// Addr is the IMAP server, host:port.
	Addr     string
	Username string
	Password string
	// Security is SecurityTLS (the default), SecuritySTARTTLS or
	// SecurityPlain. Plain is refused for a non-loopback Addr unless
	// AllowInsecure is set.
	Security      string
	AllowInsecure bool
	// TLSConfig is used for TLS and STARTTLS; ServerName defaults to the
	// host of Addr.
	TLSConfig *tls.Config
	// Mailbox is the mailbox to watch. Default "INBOX".
	Mailbox string
	// PollInterval is the polling period when IDLE is not used. Default 30 s.
	PollInterval time.Duration
	// IdleRestart is how long one IDLE command lasts before it is restarted
	// (servers drop idle clients after 30 minutes). Default 25 min.
	IdleRestart time.Duration
	// DisableIdle polls even when the server has IDLE.
	DisableIdle bool
	// MoveTo names the folders for Processed and Rejected mail.
	MoveTo MoveTo
	// BatchSize is how many UIDs are fetched per batch. Default 50.
	BatchSize int
	// MaxSize is the largest message handed over whole; larger ones are
	// handed over as their header only (see Fetched.Truncated). Default
	// 25 MiB.
	MaxSize int64
	// RetryMin and RetryMax bound the reconnect backoff. Defaults 1 s and
	// 5 min.
	RetryMin time.Duration
	RetryMax time.Duration
	// DialTimeout bounds connecting. Default 30 s.
	DialTimeout time.Duration
	// Logger receives the watcher's logs. Default slog.Default().
	Logger *slog.Logger
	// DebugWriter, when set, receives the IMAP protocol trace (including
	// the password).
	DebugWriter io.Writer
	// Status, when set, is told how the watcher fares: nil after every
	// completed catch-up (the mailbox is read up to date), the error when a
	// session ends (login refused, server unreachable, a handler failure).
	// It is called from Run's goroutine and must not block.
	Status func(err error)
}

// Watcher watches one mailbox. Create it with New or NewBatch and start it
// with Run; Run must not be called twice at the same time. The handler is
// called from Run's goroutine, one message (or one batch) at a time.
type Watcher struct {
	opts    Options
	handler BatchHandler
	cursors Cursors
	log     *slog.Logger
}

// New returns a Watcher that hands over one message at a time. It performs no
// I/O; the options are checked by Run.
func New(opts Options, handler Handler, cursors Cursors) *Watcher {
	var bh BatchHandler
	if handler != nil {
		bh = oneByOne(handler)
	}
	return NewBatch(opts, bh, cursors)
}

// NewBatch returns a Watcher that hands over the messages of each fetch
// together (at most Options.BatchSize, and at most 16 MiB of them).
func NewBatch(opts Options, handler BatchHandler, cursors Cursors) *Watcher {
	if opts.Security == "" {
		opts.Security = SecurityTLS
	}
	if opts.Mailbox == "" {
		opts.Mailbox = DefaultMailbox
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = DefaultPollInterval
	}
	if opts.IdleRestart <= 0 {
		opts.IdleRestart = DefaultIdleRestart
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	if opts.MaxSize <= 0 {
		opts.MaxSize = DefaultMaxSize
	}
	if opts.RetryMin <= 0 {
		opts.RetryMin = DefaultRetryMin
	}
	if opts.RetryMax < opts.RetryMin {
		opts.RetryMax = max(DefaultRetryMax, opts.RetryMin)
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = DefaultDialTimeout
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Watcher{
		opts:    opts,
		handler: handler,
		cursors: cursors,
		log:     log.With("component", "imapwatch", "addr", opts.Addr, "mailbox", opts.Mailbox),
	}
}

// Run watches the mailbox until ctx is done, and then returns nil. It returns
// an error at once only for invalid options; every other failure is logged
// and retried.
func (w *Watcher) Run(ctx context.Context) error {
	if err := w.validate(); err != nil {
		return err
	}
	failures := 0
	for {
		synced, err := w.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		w.status(err)
		if synced {
			failures = 0
		}
		failures++
		d := mailnet.Backoff(failures, w.opts.RetryMin, w.opts.RetryMax)
		var herr *handlerError
		if errors.As(err, &herr) {
			w.log.Error("handler failed; will offer the message again", "uid", herr.uid, "err", herr.err, "retry_in", d)
		} else {
			w.log.Warn("session ended", "err", err, "retry_in", d)
		}
		timer := time.NewTimer(d)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case <-timer.C:
		}
	}
}

func (w *Watcher) validate() error {
	if w.handler == nil || w.cursors == nil {
		return errors.New("imapwatch: nil handler or cursors")
	}
	if w.opts.Addr == "" {
		return errors.New("imapwatch: no server address")
	}
	if err := mailnet.CheckSecurity(w.opts.Security, w.opts.Addr, w.opts.AllowInsecure); err != nil {
		return fmt.Errorf("imapwatch: %w", err)
	}
	if w.opts.MoveTo.Processed == w.opts.Mailbox || w.opts.MoveTo.Rejected == w.opts.Mailbox || w.opts.MoveTo.Failed == w.opts.Mailbox {
		return fmt.Errorf("imapwatch: cannot move mail to the watched mailbox %q", w.opts.Mailbox)
	}
	return nil
}

// handlerError is a Handler failure; the session ends and the message is
// offered again after the backoff.
type handlerError struct {
	uid uint32
	err error
}

func (e *handlerError) Error() string { return fmt.Sprintf("handler, uid %d: %v", e.uid, e.err) }
func (e *handlerError) Unwrap() error { return e.err }

// cursor is the position in the selected mailbox.
type cursor struct {
	validity uint32
	last     uint32
}

// session runs one connection until it fails or ctx is done. synced reports
// whether a full catch-up completed.
func (w *Watcher) session(ctx context.Context) (synced bool, err error) {
	updates := make(chan struct{}, 1)
	c, err := w.dial(ctx, updates)
	if err != nil {
		return false, err
	}
	defer c.Close()
	// Closing the connection is what interrupts a blocked command.
	defer context.AfterFunc(ctx, func() { c.Close() })()

	if err := c.Login(w.opts.Username, w.opts.Password).Wait(); err != nil {
		var refused *imap.Error
		if errors.As(err, &refused) {
			err = &mailnet.LoginError{Err: err}
		}
		return false, fmt.Errorf("login: %w", err)
	}
	if err := w.ensureFolders(c); err != nil {
		return false, err
	}
	sel, err := c.Select(w.opts.Mailbox, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("select %s: %w", w.opts.Mailbox, err)
	}
	if sel.UIDValidity == 0 {
		return false, fmt.Errorf("select %s: server sent no UIDVALIDITY", w.opts.Mailbox)
	}
	cur, err := w.loadCursor(ctx, sel.UIDValidity)
	if err != nil {
		return false, err
	}
	if err := w.catchUp(ctx, c, &cur); err != nil {
		return false, err
	}
	w.status(nil)

	idle := !w.opts.DisableIdle && c.Caps().Has(imap.CapIdle)
	w.log.Info("watching", "uidvalidity", cur.validity, "last_uid", cur.last, "idle", idle)
	for {
		if idle {
			err = w.idle(ctx, c, updates)
		} else {
			err = w.poll(ctx, c, updates)
		}
		if err != nil {
			return true, err
		}
		if err := w.catchUp(ctx, c, &cur); err != nil {
			return true, err
		}
		w.status(nil)
	}
}

// status reports to Options.Status.
func (w *Watcher) status(err error) {
	if w.opts.Status != nil {
		w.opts.Status(err)
	}
}

// dial connects and, for STARTTLS, upgrades the connection. updates receives
// a token whenever the server reports EXISTS.
func (w *Watcher) dial(ctx context.Context, updates chan<- struct{}) (*imapclient.Client, error) {
	host, _, _ := net.SplitHostPort(w.opts.Addr)
	tlsConfig := &tls.Config{}
	if w.opts.TLSConfig != nil {
		tlsConfig = w.opts.TLSConfig.Clone()
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName = host
	}
	copts := &imapclient.Options{
		TLSConfig:   tlsConfig,
		DebugWriter: w.opts.DebugWriter,
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					select {
					case updates <- struct{}{}:
					default:
					}
				}
			},
		},
	}

	dialer := &net.Dialer{Timeout: w.opts.DialTimeout}
	var conn net.Conn
	var err error
	if w.opts.Security == SecurityTLS {
		if tlsConfig.NextProtos == nil {
			tlsConfig.NextProtos = []string{"imap"}
		}
		conn, err = (&tls.Dialer{NetDialer: dialer, Config: tlsConfig}).DialContext(ctx, "tcp", w.opts.Addr)
	} else {
		conn, err = dialer.DialContext(ctx, "tcp", w.opts.Addr)
	}
	if err != nil {
		return nil, fmt.Errorf("dial: %w", err)
	}
	if w.opts.Security != SecuritySTARTTLS {
		return imapclient.New(conn, copts), nil
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	conn.SetDeadline(time.Now().Add(w.opts.DialTimeout))
	c, err := imapclient.NewStartTLS(conn, copts)
	if err != nil {
		return nil, fmt.Errorf("starttls: %w", err)
	}
	conn.SetDeadline(time.Time{})
	return c, nil
}

// ensureFolders creates the MoveTo folders that do not exist.
func (w *Watcher) ensureFolders(c *imapclient.Client) error {
	for _, name := range []string{w.opts.MoveTo.Processed, w.opts.MoveTo.Rejected, w.opts.MoveTo.Failed} {
		if name == "" {
			continue
		}
		l, err := c.List("", name, nil).Collect()
		if err != nil {
			return fmt.Errorf("list %s: %w", name, err)
		}
		if slices.ContainsFunc(l, func(d *imap.ListData) bool { return d.Mailbox == name }) {
			continue
		}
		err = c.Create(name, nil).Wait()
		var ierr *imap.Error
		if errors.As(err, &ierr) && ierr.Code == imap.ResponseCodeAlreadyExists {
			err = nil
		}
		if err != nil {
			return fmt.Errorf("create %s: %w", name, err)
		}
		w.log.Info("created folder", "folder", name)
	}
	return nil
}

// loadCursor returns the cursor for the selected mailbox, starting over at
// UID 0 when the UIDVALIDITY changed.
func (w *Watcher) loadCursor(ctx context.Context, validity uint32) (cursor, error) {
	v, last, err := w.cursors.Cursor(ctx, w.opts.Mailbox)
	if err != nil {
		return cursor{}, fmt.Errorf("load cursor: %w", err)
	}
	if v == validity {
		return cursor{validity, last}, nil
	}
	if v != 0 {
		w.log.Warn("UIDVALIDITY changed; rescanning the mailbox", "old", v, "new", validity, "old_last_uid", last)
	}
	if err := w.cursors.SetCursor(ctx, w.opts.Mailbox, validity, 0); err != nil {
		return cursor{}, fmt.Errorf("reset cursor: %w", err)
	}
	return cursor{validity, 0}, nil
}

// idle waits in IDLE until the server reports new mail or IdleRestart
// passes.
func (w *Watcher) idle(ctx context.Context, c *imapclient.Client, updates <-chan struct{}) error {
	cmd, err := c.Idle()
	if err != nil {
		return fmt.Errorf("idle: %w", err)
	}
	timer := time.NewTimer(w.opts.IdleRestart)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		cmd.Close()
		return ctx.Err()
	case <-c.Closed():
		return errors.New("connection closed")
	case <-updates:
	case <-timer.C:
	}
	// The client reads without a deadline while idling; if the server
	// never answers DONE, give up on the connection.
	watchdog := time.AfterFunc(idleDoneTimeout, func() { c.Close() })
	defer watchdog.Stop()
	if err := cmd.Close(); err != nil {
		return fmt.Errorf("stop idle: %w", err)
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("idle: %w", err)
	}
	return nil
}

// poll waits PollInterval (or for an EXISTS seen during earlier commands).
func (w *Watcher) poll(ctx context.Context, c *imapclient.Client, updates <-chan struct{}) error {
	timer := time.NewTimer(w.opts.PollInterval)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-c.Closed():
		return errors.New("connection closed")
	case <-updates:
	case <-timer.C:
	}
	return nil
}

// catchUp hands over every message above the cursor, until a search finds
// none.
func (w *Watcher) catchUp(ctx context.Context, c *imapclient.Client, cur *cursor) error {
	for {
		uids, err := w.newUIDs(c, cur.last)
		if err != nil {
			return err
		}
		if len(uids) == 0 {
			return nil
		}
		for len(uids) > 0 {
			n := min(len(uids), w.opts.BatchSize)
			if err := w.processBatch(ctx, c, cur, uids[:n]); err != nil {
				return err
			}
			uids = uids[n:]
		}
	}
}

// newUIDs returns the UIDs above last in ascending order.
func (w *Watcher) newUIDs(c *imapclient.Client, last uint32) ([]imap.UID, error) {
	var set imap.UIDSet
	set.AddRange(imap.UID(last+1), 0) // last+1:*
	data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{set}}, nil).Wait()
	if err != nil {
		return nil, fmt.Errorf("uid search: %w", err)
	}
	all, ok := data.All.(imap.UIDSet)
	if !ok {
		return nil, nil
	}
	nums, ok := all.Nums()
	if !ok {
		return nil, errors.New("uid search: server returned a dynamic set")
	}
	// "N:*" matches the highest UID even when it is below N.
	out := nums[:0]
	for _, u := range nums {
		if uint32(u) > last {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

type meta struct {
	size int64
	date time.Time
}

// processBatch fetches and hands over the messages of uids (ascending).
func (w *Watcher) processBatch(ctx context.Context, c *imapclient.Client, cur *cursor, uids []imap.UID) error {
	metas := make(map[imap.UID]meta, len(uids))
	bufs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
		UID: true, RFC822Size: true, InternalDate: true,
	}).Collect()
	if err != nil {
		return fmt.Errorf("fetch sizes: %w", err)
	}
	for _, b := range bufs {
		metas[b.UID] = meta{b.RFC822Size, b.InternalDate}
	}

	// Fetch bodies in chunks of bounded size, and hand them over in order.
	for len(uids) > 0 {
		var chunk []imap.UID
		var bytes int64
		for _, u := range uids {
			m, ok := metas[u]
			size := min(m.size, w.opts.MaxSize)
			if ok && len(chunk) > 0 && bytes+size > fetchChunkBytes {
				break
			}
			chunk = append(chunk, u)
			bytes += size
		}
		uids = uids[len(chunk):]
		if err := w.processChunk(ctx, c, cur, chunk, metas); err != nil {
			return err
		}
	}
	return nil
}

var (
	sectionAll    = &imap.FetchItemBodySection{Peek: true}
	sectionHeader = &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true}
)

func (w *Watcher) processChunk(ctx context.Context, c *imapclient.Client, cur *cursor, chunk []imap.UID, metas map[imap.UID]meta) error {
	var whole, headers imap.UIDSet
	for _, u := range chunk {
		if m, ok := metas[u]; ok {
			if m.size > w.opts.MaxSize {
				headers.AddNum(u)
			} else {
				whole.AddNum(u)
			}
		}
	}
	raw := make(map[imap.UID][]byte, len(chunk))
	for _, f := range []struct {
		set     imap.UIDSet
		section *imap.FetchItemBodySection
	}{{whole, sectionAll}, {headers, sectionHeader}} {
		if len(f.set) == 0 {
			continue
		}
		bufs, err := c.Fetch(f.set, &imap.FetchOptions{
			UID: true, BodySection: []*imap.FetchItemBodySection{f.section},
		}).Collect()
		if err != nil {
			return fmt.Errorf("fetch bodies: %w", err)
		}
		for _, b := range bufs {
			if body := b.FindBodySection(f.section); body != nil {
				raw[b.UID] = body
			}
		}
	}

	// Hand the messages over in order; dispose of the handled ones and advance
	// the cursor once for the chunk (one MOVE per folder, one cursor write),
	// also when the handler fails part way.
	var present []Fetched
	for _, u := range chunk {
		m, ok := metas[u]
		body, hasBody := raw[u]
		if !ok || !hasBody {
			continue
		}
		present = append(present, Fetched{
			Mailbox:      w.opts.Mailbox,
			UIDValidity:  cur.validity,
			UID:          uint32(u),
			Raw:          body,
			InternalDate: m.date,
			Size:         m.size,
			Truncated:    m.size > w.opts.MaxSize,
		})
	}
	var disps []Disposition
	var herr error
	if len(present) > 0 {
		disps, herr = w.handler(ctx, present)
		disps = disps[:min(len(disps), len(present))]
	}
	var done handled
	next := 0 // index in present of the next message handed over
	for _, u := range chunk {
		if next < len(present) && present[next].UID == uint32(u) {
			if next >= len(disps) {
				break // not handled: it and the ones after it wait
			}
			d := disps[next]
			if d < Keep || d > Failed {
				w.log.Warn("unknown disposition; keeping the message", "uid", u, "disposition", d)
				d = Keep
			}
			w.log.Debug("handled", "uid", u, "size", present[next].Size, "disposition", d)
			done.add(u, d)
			next++
			continue
		}
		// Expunged meanwhile (by another client): nothing to hand over.
		w.log.Info("message vanished before it was fetched", "uid", u)
		done.add(u, Keep)
	}
	if err := w.settle(ctx, c, cur, &done); err != nil {
		return err
	}
	if next < len(present) {
		if herr == nil {
			herr = errors.New("handler returned fewer dispositions than messages")
		}
		return &handlerError{present[next].UID, herr}
	}
	return nil
}

// handled collects the messages of a chunk the Handler has accepted, by
// disposition, until they are disposed of.
type handled struct {
	sets [Failed + 1]imap.UIDSet
	last imap.UID
}

func (h *handled) add(u imap.UID, d Disposition) {
	h.sets[d].AddNum(u)
	h.last = u
}

// settle disposes of the handled messages, then advances the cursor past the
// last of them: a crash in between offers them again, never skips one.
func (w *Watcher) settle(ctx context.Context, c *imapclient.Client, cur *cursor, h *handled) error {
	if h.last == 0 {
		return nil
	}
	for _, d := range []Disposition{Processed, Rejected, Failed} {
		if err := w.dispose(c, h.sets[d], d); err != nil {
			return err
		}
	}
	if err := w.advance(ctx, cur, h.last); err != nil {
		return err
	}
	*h = handled{}
	return nil
}

func (w *Watcher) advance(ctx context.Context, cur *cursor, u imap.UID) error {
	if err := w.cursors.SetCursor(ctx, w.opts.Mailbox, cur.validity, uint32(u)); err != nil {
		return fmt.Errorf("save cursor: %w", err)
	}
	cur.last = uint32(u)
	return nil
}

// dispose moves or flags the handled messages in set.
func (w *Watcher) dispose(c *imapclient.Client, set imap.UIDSet, d Disposition) error {
	if len(set) == 0 {
		return nil
	}
	var folder string
	switch d {
	case Processed:
		folder = w.opts.MoveTo.Processed
	case Rejected:
		folder = w.opts.MoveTo.Rejected
	case Failed:
		folder = w.opts.MoveTo.Failed
	default:
		return nil
	}
	if folder == "" {
		err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close()
		if err != nil {
			return fmt.Errorf("flag uids %v seen: %w", set, err)
		}
		return nil
	}
	caps := c.Caps()
	if caps.Has(imap.CapMove) {
		if _, err := c.Move(set, folder).Wait(); err != nil {
			return fmt.Errorf("move uids %v to %s: %w", set, folder, err)
		}
		return nil
	}
	// No MOVE: each step waits for the previous one, so a failed COPY never
	// leads to a deletion. (imapclient's own fallback pipelines them.)
	if _, err := c.Copy(set, folder).Wait(); err != nil {
		return fmt.Errorf("copy uids %v to %s: %w", set, folder, err)
	}
	err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
	if err != nil {
		return fmt.Errorf("flag uids %v deleted: %w", set, err)
	}
	if caps.Has(imap.CapUIDPlus) {
		err = c.UIDExpunge(set).Close()
	} else {
		err = c.Expunge().Close()
	}
	if err != nil {
		return fmt.Errorf("expunge uids %v: %w", set, err)
	}
	return nil
}
