// Package daemon wires turnmail's parts into the running service: the store, the game
// service, the embedded mail servers (when no mail server is configured), the IMAP
// watcher, the SMTP sender and the health endpoint.
package daemon

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/turnmail/turnmail/config"
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/imapwatch"
	"github.com/turnmail/turnmail/mail/mailserver"
	"github.com/turnmail/turnmail/mail/smtpsend"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
	"github.com/turnmail/turnmail/web"
)

// Options are the parts a caller may replace (tests do). Zero fields take defaults.
type Options struct {
	// Games is the engine registry (default games.Registry()).
	Games engine.Registry
	// Clock is the service's and the deadline scheduler's clock (default time.Now).
	// Tests pass a fake clock and call Daemon.Tick after moving it.
	Clock func() time.Time
	// TickEvery is how often the scheduler looks for due deadline timers (default
	// one minute; the timers themselves are computed from Clock). A negative value
	// runs no background scheduler: only Daemon.Tick fires timers (tests).
	TickEvery time.Duration
	// OutboxPoll is how often Run looks for mail another process queued in the
	// database (default DefaultOutboxPoll; negative: never).
	OutboxPoll time.Duration
	// Logger receives the log (default slog.Default()).
	Logger *slog.Logger
	// Problems, when set, receives a plain line for the host, beside the log,
	// whenever reading or sending mail fails in a way that needs them (a login
	// refused, a server never reached) and when it works again. serve passes
	// stderr.
	Problems io.Writer
}

func (o *Options) defaults() {
	if o.Games == nil {
		o.Games = games.Registry()
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.TickEvery == 0 {
		o.TickEvery = time.Minute
	}
	if o.OutboxPoll == 0 {
		o.OutboxPoll = DefaultOutboxPoll
	}
}

// OpenStore opens the configured database, creating its directory.
func OpenStore(ctx context.Context, c *config.Config) (*store.Store, error) {
	if dir := filepath.Dir(c.Database); dir != "." {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("create database directory: %w", err)
		}
	}
	return store.Open(ctx, c.Database)
}

// Secret returns the configured token secret, or the one generated on first start and
// kept in the database.
func Secret(ctx context.Context, c *config.Config, st *store.Store) ([]byte, error) {
	if c.Secret != "" {
		return []byte(c.Secret), nil
	}
	s, err := storedRandom(ctx, st, "secret", 32)
	if err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// storedRandom returns the hex value kept in the database's meta under key, generating
// n random bytes for it on first use.
func storedRandom(ctx context.Context, st *store.Store, key string, n int) (string, error) {
	s, err := st.Meta(ctx, key)
	if !errors.Is(err, store.ErrNotFound) {
		return s, err
	}
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate %s: %w", key, err)
	}
	s = hex.EncodeToString(b)
	if err := st.SetMeta(ctx, key, s); err != nil {
		return "", err
	}
	return s, nil
}

// returnPath gives each outgoing mail to one recipient its own VERP envelope sender,
// local+bounce-<id>-<mac>@domain of the service address, so that a bounce proves
// which mail it returns (the service checks it).
func returnPath(secret []byte, address string) func(smtpsend.Outgoing) string {
	local, domain, _ := strings.Cut(address, "@")
	return func(m smtpsend.Outgoing) string {
		if len(m.To) != 1 {
			return ""
		}
		return auth.ReplyAddress(local, domain, auth.BounceToken(secret, m.ID, m.To[0]))
	}
}

// Mailboxes are the passwords of the embedded mail server's mailboxes.
type Mailboxes struct {
	// Service is the service address; ServicePassword, its mailbox's password, is
	// random, generated on first start and kept in the database. No configuration
	// gives it to another mailbox.
	Service, ServicePassword string
	// Shared is embedded.password: when set, the password of every other mailbox (a
	// demo setting); when empty, each has its own, auth.MailboxPassword of the
	// address with the token secret.
	Shared string
	secret []byte
}

// EmbeddedMailboxes returns the passwords of the embedded mailboxes of c, generating
// the service mailbox's password (and the token secret) on first start.
func EmbeddedMailboxes(ctx context.Context, c *config.Config, st *store.Store) (Mailboxes, error) {
	secret, err := Secret(ctx, c, st)
	if err != nil {
		return Mailboxes{}, err
	}
	pw, err := storedRandom(ctx, st, "embedded_service_password", 12)
	if err != nil {
		return Mailboxes{}, err
	}
	return Mailboxes{Service: strings.ToLower(c.Address), ServicePassword: pw, Shared: c.Embedded.Password, secret: secret}, nil
}

// Password returns the password of the mailbox of addr (the mailbox of
// user+detail@domain is user@domain's).
func (m Mailboxes) Password(addr string) string {
	addr = strings.ToLower(strings.TrimSpace(addr))
	if local, domain, ok := strings.Cut(addr, "@"); ok {
		if base, _, plus := strings.Cut(local, "+"); plus && base != "" {
			addr = base + "@" + domain
		}
	}
	switch {
	case addr == m.Service:
		return m.ServicePassword
	case m.Shared != "":
		return m.Shared
	}
	return auth.MailboxPassword(m.secret, addr)
}

// EmbeddedLimits are the embedded servers' limits of c.
func EmbeddedLimits(c *config.Config) mailserver.Limits {
	e := c.Embedded
	return mailserver.Limits{
		MaxConns: e.MaxConnections, MaxConnsPerAddr: e.MaxConnectionsPerAddress, MaxConnsPerAccount: e.MaxConnectionsPerMailbox,
		LoginTimeout: e.LoginTimeout, IMAPIdleTimeout: e.IMAPIdleTimeout, SMTPIdleTimeout: e.SMTPIdleTimeout,
		LoginFailures: e.LoginFailures, FailureDelay: e.FailureDelay, MaxFailureDelay: e.MaxFailureDelay,
		MessagesPerHour: e.MessagesPerHour,
		MailboxBytes:    e.MailboxBytes, MailboxMessages: e.MailboxMessages, TotalBytes: e.TotalBytes, TotalMessages: e.TotalMessages,
		MaxMailboxes: e.MaxMailboxes, MaxFolders: e.MaxFolders,
	}
}

// NewService builds the game service on an open store. Its mails link the games'
// web pages at the configured address (Config.PageBaseURL of web.addr).
func NewService(ctx context.Context, c *config.Config, st *store.Store, opts Options) (*service.Service, error) {
	return newService(ctx, c, st, opts, c.PageBaseURL(c.Web.Addr))
}

// newService is NewService linking the pages at pageURL ("" for none).
func newService(ctx context.Context, c *config.Config, st *store.Store, opts Options, pageURL string) (*service.Service, error) {
	opts.defaults()
	secret, err := Secret(ctx, c, st)
	if err != nil {
		return nil, err
	}
	tmpl, err := templates.Load()
	if err != nil {
		return nil, err
	}
	return service.New(st, opts.Games, tmpl, service.Options{
		Address: c.Address, Name: c.Name, Secret: secret,
		MaxMessageBytes: c.Limits.MaxMessageBytes, Limits: &store.Limits{
			AnswersPerHour: c.Limits.RepliesPerHour, AnswersPerDay: c.Limits.RepliesPerDay,
			IdleAnswersPerHour: c.Limits.IdleRepliesPerHour, IdleAnswersPerDay: c.Limits.IdleRepliesPerDay,
			NotificationsPerHour: c.Limits.NotificationsPerHour, ContactsPerAddressPerDay: c.Limits.ContactsPerAddressPerDay,
			FirstContactsPerWriterPerDay: c.Limits.FirstContactsPerHostPerDay, FirstContactsPerDay: c.Limits.FirstContactsPerDay,
			ChatsPerHour: c.Limits.ChatsPerHour,
		},
		MaxCommandLines: c.Limits.MaxCommandLines, MaxMailBytes: c.Limits.MaxMailBytes,
		Clock: opts.Clock, Logger: opts.Logger, Language: i18n.Lang(c.Language), PageURL: pageURL,
	})
}

// Daemon is a configured, not yet running turnmail service.
type Daemon struct {
	Config  *config.Config
	Store   *store.Store
	Service *service.Service
	// Mail is the embedded mail server, nil when a real one is configured.
	Mail *mailserver.Server
	// Mailboxes are the embedded mailboxes' passwords (zero without Mail).
	Mailboxes Mailboxes

	// Pages serve the games' web pages (nil when they are off); webLn is their
	// listener, opened by New.
	Pages *web.Server
	webLn net.Listener

	log       *slog.Logger
	health    *health
	tickEvery time.Duration
	// outboxPoll is Options.OutboxPoll.
	outboxPoll time.Duration
	imapOpts   imapwatch.Options
	smtpOpts   smtpsend.Options
}

// New opens the store, builds the service and, in embedded mode, starts the embedded
// mail servers (so that their addresses are known before Run).
func New(ctx context.Context, c *config.Config, opts Options) (*Daemon, error) {
	opts.defaults()
	st, err := OpenStore(ctx, c)
	if err != nil {
		return nil, err
	}
	d := &Daemon{Config: c, Store: st, log: opts.Logger, tickEvery: opts.TickEvery, outboxPoll: opts.OutboxPoll, health: &health{clock: opts.Clock}}
	if w := opts.Problems; w != nil {
		d.health.tell = func(line string) { fmt.Fprintf(w, "turnmail: %s\n", line) }
	}
	pageURL := d.listenWeb(opts)
	if d.Service, err = newService(ctx, c, st, opts, pageURL); err != nil {
		d.closeWeb()
		st.Close()
		return nil, err
	}
	if d.webLn != nil {
		secret, err := Secret(ctx, c, st)
		if err != nil {
			d.closeWeb()
			st.Close()
			return nil, err
		}
		if d.Pages, err = web.New(d.Service, d.Service.Bundle(), web.Options{Secret: secret, Lang: i18n.Lang(c.Language), Logger: opts.Logger}); err != nil {
			d.closeWeb()
			st.Close()
			return nil, err
		}
	}
	d.imapOpts = imapwatch.Options{
		Addr: c.IMAP.Addr, Username: c.IMAP.Username, Password: c.IMAP.Password,
		Security: c.IMAP.Security, Mailbox: c.IMAP.Mailbox, PollInterval: c.IMAP.PollInterval,
		MoveTo:  imapwatch.MoveTo{Processed: c.IMAP.Processed, Rejected: c.IMAP.Rejected, Failed: c.IMAP.Failed},
		MaxSize: 2 * c.Limits.MaxMessageBytes, Logger: opts.Logger,
		Status: d.health.watcherStatus,
	}
	d.smtpOpts = smtpsend.Options{
		Addr: c.SMTP.Addr, Security: c.SMTP.Security, Username: c.SMTP.Username, Password: c.SMTP.Password,
		MaxAttempts: c.SMTP.MaxAttempts, Connections: c.SMTP.Connections, Logger: opts.Logger,
		Status: d.health.senderStatus,
	}
	if c.SMTP.VERP {
		secret, err := Secret(ctx, c, st)
		if err != nil {
			st.Close()
			return nil, err
		}
		d.smtpOpts.ReturnPath = returnPath(secret, c.Address)
	}
	if c.EmbeddedMode() {
		if d.Mailboxes, err = EmbeddedMailboxes(ctx, c, st); err != nil {
			st.Close()
			return nil, err
		}
		srv, err := mailserver.New(st.DB(), &mailserver.Options{
			WriteTx: st.WriteTx,
			Domain:  c.Embedded.Domain, PasswordFor: d.Mailboxes.Password, Service: c.Address,
			IMAPAddr: c.Embedded.IMAPAddr, SMTPAddr: c.Embedded.SMTPAddr,
			Logger: opts.Logger, MaxMessageBytes: c.Limits.MaxMessageBytes * 4,
			Limits: EmbeddedLimits(c),
		})
		if err != nil {
			st.Close()
			return nil, err
		}
		if err := srv.Start(ctx); err != nil {
			st.Close()
			return nil, err
		}
		d.Mail = srv
		d.imapOpts.Addr, d.imapOpts.Security = srv.IMAPAddr(), "plain"
		// The watcher restarts IDLE well before the server's idle timeout.
		d.imapOpts.IdleRestart = min(imapwatch.DefaultIdleRestart, c.Embedded.IMAPIdleTimeout/2)
		d.imapOpts.Username, d.imapOpts.Password = c.Address, d.Mailboxes.ServicePassword
		// The service logs in to send: only then may it mail other domains
		// (delivered locally), without a sending rate.
		d.smtpOpts.Addr, d.smtpOpts.Security = srv.SMTPAddr(), "plain"
		d.smtpOpts.Username, d.smtpOpts.Password = c.Address, d.Mailboxes.ServicePassword
	}
	return d, nil
}

// Close stops the embedded mail servers, closes the pages' listener (when Run did
// not) and closes the store.
func (d *Daemon) Close() error {
	var err error
	d.closeWeb()
	if d.Mail != nil {
		err = d.Mail.Close()
	}
	if e := d.Store.Close(); e != nil && err == nil {
		err = e
	}
	return err
}

// Run processes mail stored before the last stop, then watches the mailbox and drains
// the outbox until ctx is done. It returns nil on a clean stop.
func (d *Daemon) Run(ctx context.Context) error {
	if n, err := d.Service.ProcessPending(ctx); err != nil {
		return err
	} else if n > 0 {
		d.log.Info("processed mail stored before the last stop", "count", n)
	}
	watcher := imapwatch.NewBatch(d.imapOpts, d.receive, d.Store)
	sender := smtpsend.New(d.smtpOpts, OutboxQueue{d.Store})

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 5)
	run := func(name string, f func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(ctx); err != nil && !errors.Is(err, context.Canceled) {
				errs <- fmt.Errorf("%s: %w", name, err)
				cancel()
			}
		}()
	}
	run("imap watcher", watcher.Run)
	run("smtp sender", sender.Run)
	if d.tickEvery > 0 {
		run("deadline scheduler", d.schedule)
	}
	if d.outboxPoll > 0 {
		run("outbox watch", func(ctx context.Context) error { return watchOutbox(ctx, d.Store, d.outboxPoll) })
	}
	health := d.Config.HTTPAddr
	if d.webLn != nil {
		pages := d.Pages.Handler()
		if health == d.Config.Web.Addr {
			pages, health = withHealth(pages, d.HealthHandler()), ""
		}
		ln := d.webLn
		run("web pages", func(ctx context.Context) error { return serveOn(ctx, ln, pages) })
	}
	if health != "" {
		run("http", func(ctx context.Context) error { return serveHTTP(ctx, health, d.HealthHandler()) })
	}
	d.log.Info("turnmail running", "address", d.Config.Address, "database", d.Config.Database)
	<-ctx.Done()
	wg.Wait()
	close(errs)
	return <-errs // nil when every part stopped because ctx ended
}

// HealthHandler serves /healthz and /metrics (see Config.HTTPAddr).
func (d *Daemon) HealthHandler() http.Handler { return d.health.handler(d.Store) }

// receive hands a batch of fetched mails to the service: stored and processed
// together, each moved to Processed when a command was applied, to Failed when it
// was quarantined and to Rejected otherwise. Of mail far over the size limit the
// watcher fetched only the header: it is stored as such, so that its writer can be
// told it was too large.
func (d *Daemon) receive(ctx context.Context, ms []imapwatch.Fetched) ([]imapwatch.Disposition, error) {
	ins := make([]store.InboxMsg, len(ms))
	for i, m := range ms {
		ins[i] = store.InboxMsg{Mailbox: m.Mailbox, UIDValidity: m.UIDValidity, UID: m.UID, Raw: m.Raw, Size: m.Size, Truncated: m.Truncated}
	}
	results, err := d.Service.ReceiveAll(ctx, ins)
	disps := make([]imapwatch.Disposition, len(results)) // the mails not stored are offered again after err
	for i, r := range results {
		switch r.Status {
		case service.StatusApplied:
			disps[i] = imapwatch.Processed
		case service.StatusFailed:
			disps[i] = imapwatch.Failed
		default:
			disps[i] = imapwatch.Rejected
		}
	}
	return disps, err
}

// Tick fires the deadline timers due at the clock's now (reminders, expired
// deadlines) and returns how many fired. The scheduler calls it every TickEvery;
// tests call it after moving a fake clock. Timers fire once, across restarts.
func (d *Daemon) Tick(ctx context.Context) (int, error) { return d.Service.Tick(ctx) }

// schedule runs Tick at start and every tickEvery until ctx is done.
func (d *Daemon) schedule(ctx context.Context) error {
	t := time.NewTicker(d.tickEvery)
	defer t.Stop()
	for first := true; ; first = false {
		start := time.Now()
		n, err := d.Tick(ctx)
		if err != nil && ctx.Err() == nil {
			d.log.Error("deadline scheduler", "err", err)
		}
		if first && err == nil {
			d.log.Info("deadline scheduler started", "fired", n, "took", time.Since(start).Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// OutboxQueue adapts the store's outbox to the sender's queue.
type OutboxQueue struct{ Store *store.Store }

// Due returns the pending mails whose next attempt is due.
func (q OutboxQueue) Due(ctx context.Context, now time.Time, limit int) ([]smtpsend.Outgoing, error) {
	rows, err := q.Store.DueOutbox(ctx, now, limit)
	if err != nil {
		return nil, err
	}
	out := make([]smtpsend.Outgoing, len(rows))
	for i, r := range rows {
		out[i] = smtpsend.Outgoing{ID: r.ID, From: r.From, To: r.To, Raw: r.Raw, Attempts: r.Attempts}
	}
	return out, nil
}

// MarkSent records delivered mails, in one transaction.
func (q OutboxQueue) MarkSent(ctx context.Context, sent []smtpsend.Sent) error {
	marks := make([]store.SentMark, len(sent))
	for i, m := range sent {
		marks[i] = store.SentMark{ID: m.ID, At: m.At}
	}
	return q.Store.MarkSentAll(ctx, marks)
}

// MarkRetry schedules another attempt.
func (q OutboxQueue) MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error {
	return q.Store.MarkRetry(ctx, id, next, errText)
}

// MarkFailed records a permanent failure.
func (q OutboxQueue) MarkFailed(ctx context.Context, id int64, errText string) error {
	return q.Store.MarkFailed(ctx, id, errText)
}

// Wake is closed when new mail is queued.
func (q OutboxQueue) Wake() <-chan struct{} { return q.Store.Notify() }
