// Package smtpsend delivers turnmail's outbox over SMTP.
//
// A Sender drains a Queue: it asks for the mails that are due, spreads them
// over Options.Connections lanes by recipient, delivers each lane over one
// SMTP connection (RSET only after a refused mail), and records the outcome of
// each mail:
//
//   - accepted by the server: Queue.MarkSent, once per lane for all the mails
//     the server accepted (one store write, not one per mail);
//   - refused permanently (a 5xx reply to MAIL, RCPT or DATA): Queue.MarkFailed
//     at once, with the server's reply as the error text — except "530" and
//     "5.7.0" (authentication required), which are retried;
//   - refused temporarily (a 4xx reply) or not delivered because of a network,
//     TLS or authentication problem: Queue.MarkRetry with a capped exponential
//     backoff (BackoffBase·2^(n-1), at most BackoffCap, no jitter), and
//     Queue.MarkFailed once MaxAttempts attempts have failed.
//
// Delivery is at least once: if the server accepts a mail and MarkSent then
// fails (or the process dies before the batch is recorded), the mail is sent
// again later.
//
// A mail with several recipients is one SMTP transaction: if any recipient is
// refused, the whole mail is refused (permanently if the refusal is 5xx).
// turnmail addresses each notification to one player, so this never splits a
// delivery.
package smtpsend

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/turnmail/turnmail/mail/mailnet"
)

// Defaults for Options.
const (
	DefaultMaxAttempts  = 10
	DefaultBackoffBase  = 30 * time.Second
	DefaultBackoffCap   = time.Hour
	DefaultBatchSize    = 50
	DefaultConnections  = 4
	DefaultPollInterval = time.Minute
	DefaultTimeout      = time.Minute
	DefaultHeloName     = "localhost"
)

// Security modes for Options.Security.
const (
	SecurityTLS      = mailnet.SecurityTLS      // implicit TLS (port 465)
	SecuritySTARTTLS = mailnet.SecurityStartTLS // STARTTLS, required (port 587 or 25)
	SecurityPlain    = mailnet.SecurityPlain    // no TLS; loopback only unless AllowInsecure
)

// Outgoing is one mail to deliver.
type Outgoing struct {
	ID int64
	// From is the envelope sender (MAIL FROM); "" is the null sender.
	From string
	// To are the envelope recipients (RCPT TO).
	To []string
	// Raw is the message with CRLF line endings, as built by mail/compose.
	Raw []byte
	// Attempts is how many delivery attempts have failed so far.
	Attempts int
}

// Sent is a mail the server accepted, and when.
type Sent struct {
	ID int64
	At time.Time
}

// Queue is the outbox as the Sender sees it. The store implements it.
type Queue interface {
	// Due returns up to limit mails whose next attempt is at or before now.
	Due(ctx context.Context, now time.Time, limit int) ([]Outgoing, error)
	// MarkSent records that the mails were accepted by the server, all of
	// them or (on error) none.
	MarkSent(ctx context.Context, sent []Sent) error
	// MarkRetry records one more failed attempt and schedules the next one
	// at next. The following Due must report Attempts one higher.
	MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error
	// MarkFailed records that the mail will never be delivered.
	MarkFailed(ctx context.Context, id int64, errText string) error
	// Wake returns a channel that is closed (or receives a value) when new
	// mail is queued. It is called afresh before each drain, so a channel
	// that is closed and replaced on each commit works.
	Wake() <-chan struct{}
}

// Options configure a Sender. Only Addr is required.
type Options struct {
	// Addr is the SMTP server, host:port.
	Addr string
	// Security is SecurityTLS, SecuritySTARTTLS (the default) or
	// SecurityPlain. Plain is refused for a non-loopback Addr unless
	// AllowInsecure is set.
	Security      string
	AllowInsecure bool
	// TLSConfig is used for TLS and STARTTLS; ServerName defaults to the
	// host of Addr.
	TLSConfig *tls.Config
	// Username and Password enable AUTH PLAIN; empty Username means no AUTH.
	Username string
	Password string
	// HeloName is the EHLO name. Default "localhost".
	HeloName string
	// MaxAttempts is the number of failed attempts after which a mail is
	// marked failed. Default 10.
	MaxAttempts int
	// BackoffBase and BackoffCap shape the retry schedule: the n-th failure
	// schedules the next attempt BackoffBase·2^(n-1) later, at most
	// BackoffCap. Defaults 30 s and 1 h.
	BackoffBase time.Duration
	BackoffCap  time.Duration
	// BatchSize is the Due limit: the most mails sent per batch. Default 50.
	BatchSize int
	// Connections is how many SMTP connections a batch is spread over, in
	// parallel. The mails to one recipient always take the same connection, in
	// queue order, so a player's mails arrive in the order they were queued.
	// Default 4.
	Connections int
	// PollInterval is how often the queue is checked when neither Wake nor
	// a retry scheduled by this Sender fires; it catches retries scheduled
	// by an earlier process. Default 1 min.
	PollInterval time.Duration
	// Status, when set, is told how connecting fares: nil after every
	// connection made (logged in), the error when connecting fails (a login
	// refused is a *mailnet.LoginError). It must not block.
	Status func(err error)
	// Timeout bounds dialing and each SMTP command. Default 1 min.
	Timeout time.Duration
	// Clock returns the current time. Default time.Now.
	Clock func() time.Time
	// Logger receives the sender's logs. Default slog.Default().
	Logger *slog.Logger
	// DebugWriter, when set, receives the SMTP protocol trace (including
	// credentials).
	DebugWriter io.Writer
	// ReturnPath, when set, gives each mail its envelope sender (MAIL FROM) in
	// place of Outgoing.From when it returns a non-empty address: a VERP address
	// naming the mail, so that a bounce proves which mail it returns.
	ReturnPath func(Outgoing) string
}

// Sender delivers the mails of a Queue. Create it with New and start it with
// Run; Run must not be called twice at the same time.
type Sender struct {
	opts  Options
	queue Queue
	log   *slog.Logger

	// retries are the retry times this Sender scheduled, by mail id; the
	// earliest one bounds the next wait. retriesMu guards it: the
	// connections of a batch record their outcomes concurrently.
	retriesMu sync.Mutex
	retries   map[int64]time.Time
}

// New returns a Sender for queue. It performs no I/O; the options are checked
// by Run.
func New(opts Options, queue Queue) *Sender {
	if opts.Security == "" {
		opts.Security = SecuritySTARTTLS
	}
	if opts.HeloName == "" {
		opts.HeloName = DefaultHeloName
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = DefaultMaxAttempts
	}
	if opts.BackoffBase <= 0 {
		opts.BackoffBase = DefaultBackoffBase
	}
	if opts.BackoffCap <= 0 {
		opts.BackoffCap = DefaultBackoffCap
	}
	if opts.BackoffCap < opts.BackoffBase {
		opts.BackoffCap = opts.BackoffBase
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	if opts.Connections <= 0 {
		opts.Connections = DefaultConnections
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = DefaultPollInterval
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Sender{
		opts:    opts,
		queue:   queue,
		log:     log.With("component", "smtpsend", "addr", opts.Addr),
		retries: make(map[int64]time.Time),
	}
}

// Backoff returns the delay before the next attempt after the given number of
// failed attempts (≥ 1): base·2^(attempts-1), capped at max.
func Backoff(attempts int, base, max time.Duration) time.Duration {
	return mailnet.Backoff(attempts, base, max)
}

// Run delivers due mail until ctx is done; it returns nil then. It returns an
// error at once only for invalid options. Errors of the queue itself are
// logged and retried with backoff.
func (s *Sender) Run(ctx context.Context) error {
	if err := s.validate(); err != nil {
		return err
	}
	var storeFailures int
	for {
		wake := s.queue.Wake()
		err := s.drain(ctx)
		if ctx.Err() != nil {
			return nil
		}
		wait := s.opts.PollInterval
		if err != nil {
			storeFailures++
			wait = Backoff(storeFailures, time.Second, s.opts.BackoffCap)
			s.log.Error("outbox", "err", err, "retry_in", wait)
		} else {
			storeFailures = 0
		}
		if d, ok := s.nextRetry(); ok && d < wait {
			wait = d
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case <-wake:
		case <-timer.C:
		}
		timer.Stop()
	}
}

// nextRetry returns how long until the earliest retry this Sender scheduled,
// forgetting the ones already due (Due has returned them, or they are gone).
func (s *Sender) nextRetry() (time.Duration, bool) {
	s.retriesMu.Lock()
	defer s.retriesMu.Unlock()
	now := s.opts.Clock()
	var first time.Time
	for id, t := range s.retries {
		if !t.After(now) {
			delete(s.retries, id)
			continue
		}
		if first.IsZero() || t.Before(first) {
			first = t
		}
	}
	if first.IsZero() {
		return 0, false
	}
	return first.Sub(now), true
}

func (s *Sender) validate() error {
	if s.opts.Addr == "" {
		return errors.New("smtpsend: no server address")
	}
	if err := mailnet.CheckSecurity(s.opts.Security, s.opts.Addr, s.opts.AllowInsecure); err != nil {
		return fmt.Errorf("smtpsend: %w", err)
	}
	return nil
}

// drain sends batches until the queue has nothing due. It returns an error
// when the queue fails.
func (s *Sender) drain(ctx context.Context) error {
	for {
		batch, err := s.queue.Due(ctx, s.opts.Clock(), s.opts.BatchSize)
		if err != nil {
			return fmt.Errorf("due: %w", err)
		}
		if len(batch) == 0 {
			return nil
		}
		if s.opts.ReturnPath != nil {
			for i := range batch {
				if rp := s.opts.ReturnPath(batch[i]); rp != "" {
					batch[i].From = rp
				}
			}
		}
		if err := s.sendBatch(ctx, batch); err != nil {
			return err
		}
		if len(batch) < s.opts.BatchSize {
			return nil
		}
	}
}

// sendBatch spreads batch over up to Options.Connections lanes, one
// connection each, by recipient, and delivers them in parallel. It returns the
// first queue error of any lane.
func (s *Sender) sendBatch(ctx context.Context, batch []Outgoing) error {
	lanes := lanesOf(batch, s.opts.Connections)
	if len(lanes) == 1 {
		return s.sendLane(ctx, lanes[0])
	}
	errs := make([]error, len(lanes))
	var wg sync.WaitGroup
	for i, lane := range lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.sendLane(ctx, lane)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// lanesOf splits batch into at most n non-empty lanes, keeping the mails of a
// first recipient in one lane and in batch order.
func lanesOf(batch []Outgoing, n int) [][]Outgoing {
	n = max(1, min(n, len(batch)))
	lanes := make([][]Outgoing, n)
	for _, m := range batch {
		var rcpt string
		if len(m.To) > 0 {
			rcpt = strings.ToLower(m.To[0])
		}
		h := fnv.New32a()
		h.Write([]byte(rcpt))
		i := int(h.Sum32() % uint32(n))
		lanes[i] = append(lanes[i], m)
	}
	return slices.DeleteFunc(lanes, func(l []Outgoing) bool { return len(l) == 0 })
}

// sendLane delivers a lane over one connection and records every outcome.
// It stops at the first queue error. The accepted mails are recorded together
// when the lane ends, however it ends.
func (s *Sender) sendLane(ctx context.Context, batch []Outgoing) (err error) {
	var c *conn
	var sent []Sent
	defer func() {
		if c != nil {
			c.quit()
		}
		if len(sent) == 0 {
			return
		}
		// Record what the server accepted even when ctx was cancelled mid-batch:
		// otherwise those mails would be sent twice.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.Timeout)
		defer cancel()
		if merr := s.queue.MarkSent(rctx, sent); merr != nil && err == nil {
			err = fmt.Errorf("mark %d mails sent: %w", len(sent), merr)
		}
	}()
	// dirty: the last transaction on c ended in a refusal, so the server may
	// hold part of it; RSET clears it. (After an accepted DATA the server has
	// reset the transaction itself, RFC 5321 §4.1.1.4: no round trip needed.)
	dirty := false
	for _, m := range batch {
		if ctx.Err() != nil {
			return nil
		}
		if c != nil && dirty {
			dirty = false
			if err := c.Reset(); err != nil {
				s.log.Warn("RSET failed; reconnecting", "err", err)
				c.close()
				c = nil
			}
		}
		if c == nil {
			var err error
			c, err = s.dial(ctx)
			if ctx.Err() == nil && s.opts.Status != nil {
				s.opts.Status(err)
			}
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				s.log.Warn("connect", "err", err)
				// Nothing can be sent now: every mail left waits.
				for _, rest := range batchFrom(batch, m.ID) {
					if err := s.retry(ctx, rest, err); err != nil {
						return err
					}
				}
				return nil
			}
		}
		err := c.send(m)
		if err != nil && ctx.Err() != nil {
			// Cancelled mid-send: the outcome is unknown, leave the mail due.
			return nil
		}
		dirty = err != nil
		var smtpErr *smtp.SMTPError
		switch {
		case err == nil:
			s.forgetRetry(m.ID)
			sent = append(sent, Sent{ID: m.ID, At: s.opts.Clock()})
			s.log.Info("sent", "id", m.ID, "to", m.To, "attempt", m.Attempts+1)
		case errors.As(err, &smtpErr) && permanent(smtpErr):
			s.forgetRetry(m.ID)
			text := errText(err)
			if err := s.queue.MarkFailed(ctx, m.ID, text); err != nil {
				return fmt.Errorf("mark %d failed: %w", m.ID, err)
			}
			s.log.Warn("refused permanently", "id", m.ID, "to", m.To, "reply", text)
		default:
			if !errors.As(err, &smtpErr) {
				// Not a protocol reply: the connection is unusable.
				c.close()
				c = nil
			}
			if err := s.retry(ctx, m, err); err != nil {
				return err
			}
		}
	}
	return nil
}

// permanent reports whether a server reply refuses the mail for good: a 5xx
// reply, except the ones that mean this client must authenticate (530, or
// enhanced code 5.7.0 as go-smtp and others send for "authenticate first").
// Those are a configuration problem of the sender, not of the mail, and are
// retried like temporary failures.
func permanent(e *smtp.SMTPError) bool {
	if e.Code < 500 || e.Code == 530 {
		return false
	}
	return e.EnhancedCode != smtp.EnhancedCode{5, 7, 0}
}

// forgetRetry drops the retry this Sender scheduled for mail id, if any.
func (s *Sender) forgetRetry(id int64) {
	s.retriesMu.Lock()
	delete(s.retries, id)
	s.retriesMu.Unlock()
}

func batchFrom(batch []Outgoing, id int64) []Outgoing {
	for i, m := range batch {
		if m.ID == id {
			return batch[i:]
		}
	}
	return nil
}

// retry records a temporary failure of m: MarkRetry with backoff, or
// MarkFailed when the attempts are used up.
func (s *Sender) retry(ctx context.Context, m Outgoing, cause error) error {
	attempts := m.Attempts + 1
	text := errText(cause)
	if attempts >= s.opts.MaxAttempts {
		s.forgetRetry(m.ID)
		text = fmt.Sprintf("giving up after %d attempts: %s", attempts, text)
		if err := s.queue.MarkFailed(ctx, m.ID, text); err != nil {
			return fmt.Errorf("mark %d failed: %w", m.ID, err)
		}
		s.log.Warn("undeliverable", "id", m.ID, "to", m.To, "err", text)
		return nil
	}
	next := s.opts.Clock().Add(Backoff(attempts, s.opts.BackoffBase, s.opts.BackoffCap))
	if err := s.queue.MarkRetry(ctx, m.ID, next, text); err != nil {
		return fmt.Errorf("mark %d for retry: %w", m.ID, err)
	}
	s.retriesMu.Lock()
	s.retries[m.ID] = next
	s.retriesMu.Unlock()
	s.log.Info("delivery deferred", "id", m.ID, "to", m.To, "attempt", attempts, "next", next, "err", text)
	return nil
}

// errText renders an error for the outbox: for a server reply, the code, the
// enhanced code and the server's text.
func errText(err error) string {
	var smtpErr *smtp.SMTPError
	if errors.As(err, &smtpErr) {
		s := fmt.Sprintf("%03d", smtpErr.Code)
		if ec := smtpErr.EnhancedCode; ec != smtp.EnhancedCodeNotSet && ec != smtp.NoEnhancedCode {
			s += fmt.Sprintf(" %d.%d.%d", ec[0], ec[1], ec[2])
		}
		if smtpErr.Message != "" {
			s += " " + smtpErr.Message
		}
		return s
	}
	return err.Error()
}

// conn is one SMTP session.
type conn struct {
	*smtp.Client
}

// dial connects, says EHLO, and authenticates.
func (s *Sender) dial(ctx context.Context) (*conn, error) {
	host, _, _ := net.SplitHostPort(s.opts.Addr)
	tlsConfig := &tls.Config{}
	if s.opts.TLSConfig != nil {
		tlsConfig = s.opts.TLSConfig.Clone()
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName = host
	}

	dialer := &net.Dialer{Timeout: s.opts.Timeout}
	var nc net.Conn
	var err error
	if s.opts.Security == SecurityTLS {
		nc, err = (&tls.Dialer{NetDialer: dialer, Config: tlsConfig}).DialContext(ctx, "tcp", s.opts.Addr)
	} else {
		nc, err = dialer.DialContext(ctx, "tcp", s.opts.Addr)
	}
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", s.opts.Addr, err)
	}
	// A stop (ctx done) does not interrupt a transaction under way: one the
	// server accepted must be recorded as sent, or it would be sent twice. Every
	// command is bounded by Timeout; sendLane checks ctx between mails.
	fail := func(err error) (*conn, error) {
		nc.Close()
		return nil, err
	}

	var c *smtp.Client
	if s.opts.Security == SecuritySTARTTLS {
		// go-smtp greets with EHLO localhost before STARTTLS; HeloName is
		// used after it.
		nc.SetDeadline(time.Now().Add(s.opts.Timeout))
		c, err = smtp.NewClientStartTLS(nc, tlsConfig)
		if err != nil {
			return fail(fmt.Errorf("starttls: %w", err))
		}
		nc.SetDeadline(time.Time{})
	} else {
		c = smtp.NewClient(nc)
	}
	c.CommandTimeout = s.opts.Timeout
	c.SubmissionTimeout = s.opts.Timeout
	c.DebugWriter = s.opts.DebugWriter
	if err := c.Hello(s.opts.HeloName); err != nil {
		return fail(fmt.Errorf("helo: %w", err))
	}
	if err := c.Noop(); err != nil { // runs the EHLO now
		return fail(fmt.Errorf("ehlo: %w", err))
	}
	if s.opts.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", s.opts.Username, s.opts.Password)); err != nil {
			var refused *smtp.SMTPError
			if errors.As(err, &refused) {
				err = &mailnet.LoginError{Err: err}
			}
			return fail(fmt.Errorf("auth: %w", err))
		}
	}
	return &conn{Client: c}, nil
}

// send runs one mail transaction.
func (c *conn) send(m Outgoing) error {
	opts := &smtp.MailOptions{Size: int64(len(m.Raw))}
	if !isASCII(m.From) || !allASCII(m.To) {
		opts.UTF8 = true
	}
	if len(m.To) == 0 {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 5, 1}, Message: "no recipients"}
	}
	if err := c.Mail(m.From, opts); err != nil {
		return err
	}
	for _, to := range m.To {
		if err := c.Rcpt(to, nil); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(m.Raw); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

func (c *conn) quit() {
	if err := c.Quit(); err != nil {
		c.Client.Close()
	}
}

func (c *conn) close() {
	c.Client.Close()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func allASCII(l []string) bool {
	for _, s := range l {
		if !isASCII(s) {
			return false
		}
	}
	return true
}
