// Package mailserver is turnmail's embedded mail system: an IMAP server and
// an SMTP server on loopback, with the mailboxes persisted in the SQLite file
// of the game store. `turnmail serve` runs it when no real mail server is
// configured, so that one command gives a working mail loop that a real mail
// client (Thunderbird, mutt, aerc) can connect to.
//
// It is a loopback sandbox, not a mail transfer agent: SMTP delivers every
// message locally; nothing is ever relayed. Mail for Options.Domain is taken
// from anyone; mail for any other domain only from Options.Service, logged in
// (the service's invitations reach their addresses' mailboxes here).
// user+detail@domain is delivered to the INBOX of user@domain (so the game
// address turnmail+TOKEN@domain lands in turnmail@domain). Each mailbox's
// password comes from Options.PasswordFor (turnmail gives the service mailbox
// and every player mailbox their own), or all share Options.Password. SMTP
// clients on loopback may send without AUTH; others must AUTH PLAIN first.
// There is no TLS, so the servers belong on loopback; on another interface,
// IMAP and SMTP AUTH send passwords in clear text.
//
// Options.Limits bound what clients can hold and store: connections (in total,
// per client address, per mailbox), login and idle timeouts, failed logins
// (slowed, then the connection closed), the messages a sender delivers an hour,
// and quotas per mailbox and in total, answered with SMTP's 452/552 and IMAP's
// [OVERQUOTA].
//
// The IMAP server is IMAP4rev1 with IDLE, MOVE, UIDPLUS, NAMESPACE, UNSELECT,
// ESEARCH, SEARCHRES, STATUS=SIZE, CHILDREN, LITERAL+, APPENDLIMIT and
// AUTH=PLAIN; the hierarchy delimiter is "/".
//
// Only one Server may use a database at a time: it keeps an index of the
// mailboxes in memory and writes every change through to SQLite.
package mailserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-smtp"
	"github.com/turnmail/turnmail/internal/ratelimit"
)

// Defaults for Options fields left zero.
const (
	DefaultDomain          = "turnmail.localhost"
	DefaultPassword        = "turnmail"
	DefaultIMAPAddr        = "127.0.0.1:1143"
	DefaultSMTPAddr        = "127.0.0.1:2525"
	DefaultMaxMessageBytes = 25 << 20
)

// Options configures a Server. A nil *Options is the same as a zero Options;
// zero fields take the Default* values.
type Options struct {
	// Domain is the mail domain of the embedded system. Addresses without
	// a domain (an IMAP login "alice") belong to it.
	Domain string
	// Password is the password of every mailbox, for IMAP LOGIN and
	// AUTHENTICATE PLAIN and for SMTP AUTH PLAIN, when PasswordFor is nil.
	Password string
	// PasswordFor, when set, returns the password of one mailbox, given its
	// account address (lower-cased "user@domain", any +detail removed); ""
	// means nobody may log in to it. It replaces Password.
	PasswordFor func(addr string) string
	// IMAPAddr and SMTPAddr are the TCP addresses to listen on; a port of
	// 0 picks a free one (see Server.IMAPAddr and Server.SMTPAddr).
	IMAPAddr, SMTPAddr string
	// Logger receives the servers' logs. nil means slog.Default().
	Logger *slog.Logger
	// MaxMessageBytes limits the size of a message over SMTP and APPEND.
	MaxMessageBytes int64
	// DebugWriter, if set, receives a trace of both protocols, passwords
	// included.
	DebugWriter io.Writer
	// Service is the service's own address. Logged in, it may send to any
	// address (delivered locally) and is not limited by MessagesPerHour.
	Service string
	// Limits bound connections, logins, sending and storage; zero fields take
	// the Default* values.
	Limits Limits
	// WriteTx, if set, runs every write transaction of the server (f, then
	// commit; rollback when f fails). Give it the Store's WriteTx when the
	// server shares the Store's database, so that the two take turns inside
	// the process instead of meeting SQLite's sleeping busy handler. nil: a
	// plain transaction on the database.
	WriteTx func(ctx context.Context, f func(*sql.Tx) error) error
}

func (o *Options) withDefaults() Options {
	var opts Options
	if o != nil {
		opts = *o
	}
	if opts.Domain == "" {
		opts.Domain = DefaultDomain
	}
	opts.Domain = strings.ToLower(opts.Domain)
	if opts.Password == "" {
		opts.Password = DefaultPassword
	}
	if opts.IMAPAddr == "" {
		opts.IMAPAddr = DefaultIMAPAddr
	}
	if opts.SMTPAddr == "" {
		opts.SMTPAddr = DefaultSMTPAddr
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = DefaultMaxMessageBytes
	}
	opts.Service = strings.ToLower(opts.Service)
	opts.Limits = opts.Limits.withDefaults()
	return opts
}

// Server is the embedded IMAP and SMTP server pair. Create it with New, then
// Start it; Close stops it. Deliver works from New on.
type Server struct {
	opts     Options
	limits   Limits
	logger   *slog.Logger
	store    *store
	backend  *backend
	throttle *loginThrottle
	rate     *ratelimit.Buckets // each sender's messages an hour (a token bucket)
	refusals *rareLog
	// imapConns and smtpConns count the connections of each server.
	imapConns, smtpConns *connLimiter

	// ctx lives until Close; IMAP and SMTP sessions run their database
	// work under it, since their interfaces carry no context.
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	started  bool
	closed   bool
	ops      sync.WaitGroup // IMAP sessions and deliveries in progress
	imapSrv  *imapserver.Server
	smtpSrv  *smtp.Server
	imapAddr net.Addr
	smtpAddr net.Addr
	wg       sync.WaitGroup
}

// New creates the mailbox tables in db if they are missing (CREATE TABLE IF
// NOT EXISTS, all named mbox_*) and returns a server that is not listening
// yet. It does no network I/O. The caller keeps ownership of db.
func New(db *sql.DB, opts *Options) (*Server, error) {
	if db == nil {
		return nil, errors.New("mailserver: nil database")
	}
	o := opts.withDefaults()
	st := &store{db: db, writeTx: o.WriteTx}
	ctx, cancel := context.WithCancel(context.Background())
	migrateCtx, cancelMigrate := context.WithTimeout(ctx, 30*time.Second)
	defer cancelMigrate()
	if err := st.migrate(migrateCtx); err != nil {
		cancel()
		return nil, fmt.Errorf("mailserver: %w", err)
	}
	q, err := loadQuota(migrateCtx, st, o.Limits)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("mailserver: %w", err)
	}
	logger := o.Logger.With("component", "mailserver")
	refusals := newRareLog(logger)
	return &Server{
		opts:      o,
		limits:    o.Limits,
		logger:    logger,
		store:     st,
		backend:   &backend{store: st, quota: q, accounts: make(map[string]*account)},
		throttle:  newLoginThrottle(o.Limits),
		rate:      ratelimit.PerHour(o.Limits.MessagesPerHour, defaultTrackedAddresses, nil),
		refusals:  refusals,
		imapConns: newConnLimiter(o.Limits, o.Limits.IMAPIdleTimeout, imapFarewells, newRareLog(logger.With("proto", "imap"))),
		smtpConns: newConnLimiter(o.Limits, o.Limits.SMTPIdleTimeout, smtpFarewells, newRareLog(logger.With("proto", "smtp"))),
		ctx:       ctx,
		cancel:    cancel,
	}, nil
}

// Start listens on the IMAP and SMTP addresses and serves them in the
// background until Close. ctx bounds the listening only.
func (s *Server) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return ErrClosed
	case s.started:
		return errors.New("mailserver: already started")
	}

	var lc net.ListenConfig
	imapLn, err := lc.Listen(ctx, "tcp", s.opts.IMAPAddr)
	if err != nil {
		return fmt.Errorf("mailserver: listen IMAP: %w", err)
	}
	smtpLn, err := lc.Listen(ctx, "tcp", s.opts.SMTPAddr)
	if err != nil {
		imapLn.Close()
		return fmt.Errorf("mailserver: listen SMTP: %w", err)
	}
	for _, ln := range []net.Listener{imapLn, smtpLn} {
		if !isLoopback(ln.Addr()) {
			s.logger.Warn("mail server listens beyond loopback without TLS; passwords travel in clear text", "addr", ln.Addr().String())
		}
	}

	s.imapSrv = imapserver.New(&imapserver.Options{
		NewSession: func(c *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			lc, ok := c.NetConn().(*limitedConn)
			if !ok {
				return nil, nil, errors.New("mailserver: connection not counted")
			}
			done, ok := s.hold()
			if !ok {
				return nil, nil, &imap.Error{Type: imap.StatusResponseTypeBye, Text: "Server shutting down"}
			}
			return &session{srv: s, conn: lc, done: done}, nil, nil
		},
		Caps:         imapCaps,
		Logger:       printfLogger{s.logger.With("proto", "imap")},
		InsecureAuth: true,
		DebugWriter:  s.opts.DebugWriter,
	})
	s.smtpSrv = smtp.NewServer(smtp.BackendFunc(s.newSMTPSession))
	s.smtpSrv.Domain = s.opts.Domain
	s.smtpSrv.MaxMessageBytes = s.opts.MaxMessageBytes
	s.smtpSrv.MaxRecipients = 100
	s.smtpSrv.AllowInsecureAuth = true
	s.smtpSrv.ReadTimeout = s.limits.SMTPIdleTimeout
	s.smtpSrv.WriteTimeout = time.Minute
	s.smtpSrv.ErrorLog = printfLogger{s.logger.With("proto", "smtp")}
	s.smtpSrv.Debug = s.opts.DebugWriter

	s.imapAddr, s.smtpAddr = imapLn.Addr(), smtpLn.Addr()
	s.started = true
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		if err := s.imapSrv.Serve(&limitListener{Listener: imapLn, l: s.imapConns}); err != nil {
			s.logger.Error("IMAP server stopped", "err", err)
		}
	}()
	go func() {
		defer s.wg.Done()
		if err := s.smtpSrv.Serve(&limitListener{Listener: smtpLn, l: s.smtpConns}); err != nil {
			s.logger.Error("SMTP server stopped", "err", err)
		}
	}()
	s.logger.Info("embedded mail servers started", "imap", s.imapAddr.String(), "smtp", s.smtpAddr.String(), "domain", s.opts.Domain)
	return nil
}

// IMAPAddr is the address the IMAP server listens on ("" before Start).
func (s *Server) IMAPAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.imapAddr == nil {
		return ""
	}
	return s.imapAddr.String()
}

// SMTPAddr is the address the SMTP server listens on ("" before Start).
func (s *Server) SMTPAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.smtpAddr == nil {
		return ""
	}
	return s.smtpAddr.String()
}

// Domain is the mail domain of the embedded system.
func (s *Server) Domain() string { return s.opts.Domain }

// Close stops both servers, cutting open connections, and waits for them.
// Everything delivered is already in the database. Calling Close again
// returns ErrClosed.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.closed = true
	s.cancel()
	var err error
	if s.started {
		if e := s.imapSrv.Close(); e != nil {
			err = fmt.Errorf("mailserver: close IMAP: %w", e)
		}
		if e := s.smtpSrv.Close(); e != nil && err == nil {
			err = fmt.Errorf("mailserver: close SMTP: %w", e)
		}
	}
	s.mu.Unlock()
	s.wg.Wait()
	// The connections are closed and the context is cancelled, so the
	// remaining sessions and deliveries end promptly; once they have, the
	// caller may close the database.
	s.ops.Wait()
	return err
}

// hold registers work that Close must wait for. It fails once Close has
// begun. The returned function, which may be called more than once, ends it.
func (s *Server) hold() (done func(), ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	s.ops.Add(1)
	return sync.OnceFunc(s.ops.Done), true
}

// Deliver stores raw in the INBOX of rcpt's mailbox, as the local delivery
// agent of a real server would: it prepends "Delivered-To: rcpt" (the address
// as given, +detail included) and turns bare LF line ends into CRLF; the
// bytes are otherwise kept as they are. rcpt may be at any domain;
// user+detail@domain is delivered to user@domain, which is created if needed.
// The quotas of Options.Limits apply. An IDLE client watching that INBOX is
// woken at once.
func (s *Server) Deliver(ctx context.Context, rcpt string, raw []byte) error {
	return s.deliver(ctx, []string{rcpt}, nil, raw)
}

// deliver stores raw for every recipient, each copy after its Delivered-To
// header and its heads[i] (when heads is not nil), all or nothing.
func (s *Server) deliver(ctx context.Context, rcpts []string, heads [][]byte, raw []byte) error {
	done, ok := s.hold()
	if !ok {
		return ErrClosed
	}
	defer done()
	// Close cancels deliveries too, whatever context they came with.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.ctx, cancel)()

	if int64(len(raw)) > s.opts.MaxMessageBytes {
		return ErrTooLarge
	}
	body := crlf(raw)
	ds := make([]delivery, len(rcpts))
	for i, rcpt := range rcpts {
		addr, err := s.accountAddress(rcpt)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "Delivered-To: %s\r\n", strings.TrimSpace(strings.Trim(strings.TrimSpace(rcpt), "<>")))
		if heads != nil {
			b.Write(heads[i])
		}
		ds[i] = delivery{addr: addr, head: b.Bytes(), body: body}
	}
	if err := s.backend.deliver(ctx, ds); err != nil {
		return fmt.Errorf("mailserver: deliver: %w", err)
	}
	return nil
}

// accountAddress maps an address (or a bare local part, which is at Domain)
// to the account that receives its mail: lower case, without +detail.
func (s *Server) accountAddress(addr string) (string, error) {
	a := strings.TrimSpace(addr)
	if strings.HasPrefix(a, "<") && strings.HasSuffix(a, ">") {
		a = strings.TrimSpace(a[1 : len(a)-1])
	}
	local, domain := a, s.opts.Domain
	if at := strings.LastIndexByte(a, '@'); at >= 0 {
		local, domain = a[:at], a[at+1:]
	}
	if local == "" || domain == "" {
		return "", badAddress(addr, "empty local part or domain")
	}
	if strings.ContainsFunc(a, func(r rune) bool { return r <= ' ' || r == 0x7f || strings.ContainsRune(`<>()[]\,;:"`, r) }) {
		return "", badAddress(addr, "unsupported character")
	}
	if strings.Contains(local, "@") {
		return "", badAddress(addr, "more than one @")
	}
	if plus := strings.IndexByte(local, '+'); plus > 0 {
		local = local[:plus]
	}
	return strings.ToLower(local) + "@" + strings.ToLower(domain), nil
}

// ownDomain reports whether addr, an account address, is at Options.Domain.
func (s *Server) ownDomain(addr string) bool {
	return strings.HasSuffix(addr, "@"+s.opts.Domain)
}

// login checks a login on connection lc (proto names the protocol in the log):
// it waits as the login throttle says for the client address, checks the
// password, counts a failure (the last one allowed closes the connection after
// its reply) and counts the connection as the mailbox's. It returns the account
// address, or errAuthFailed, errLoginsExhausted, errLoginsWaiting (refused
// unchecked) or errTooManyConns.
func (s *Server) login(lc *limitedConn, proto, username, password string) (string, error) {
	wait, ok := s.throttle.begin(lc.key)
	if !ok {
		return "", s.loginFailed(lc, proto, username, errLoginsWaiting)
	}
	if wait > 0 && !lc.sleep(s.ctx, wait) {
		// The connection or the server closed meanwhile: nobody reads the reply.
		s.throttle.end(lc.key, true, false)
		return "", errLoginsWaiting
	}
	addr, err := s.accountAddress(username)
	good := err == nil && s.passwordOK(addr, password)
	s.throttle.end(lc.key, wait > 0, !good)
	if !good {
		return "", s.loginFailed(lc, proto, username, errAuthFailed)
	}
	if !lc.login(addr) {
		s.refusals.log("login refused: too many connections to the mailbox", "proto", proto, "user", addr, "client", lc.key)
		return "", errTooManyConns
	}
	return addr, nil
}

// loginFailed counts a failed login on lc and returns the error its reply
// gives: errLoginsExhausted (wrapping why) for the last one allowed.
func (s *Server) loginFailed(lc *limitedConn, proto, username string, why error) error {
	last := lc.failedLogin()
	s.refusals.log("login failed", "proto", proto, "user", username, "client", lc.key, "reason", why, "closing", last)
	if last {
		return fmt.Errorf("%w (%w)", errLoginsExhausted, why)
	}
	return why
}

// passwordOK reports whether password opens the mailbox of the account address
// addr; the comparison is constant-time.
func (s *Server) passwordOK(addr, password string) bool {
	want := s.opts.Password
	if s.opts.PasswordFor != nil {
		want = s.opts.PasswordFor(addr)
	}
	return want != "" && subtle.ConstantTimeCompare([]byte(password), []byte(want)) == 1
}

func (s *Server) now() time.Time { return time.Now() }

// crlf turns bare LF line ends into CRLF, as IMAP clients expect.
func crlf(b []byte) []byte {
	n := 0
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			n++
		}
	}
	if n == 0 {
		return b
	}
	out := make([]byte, 0, len(b)+n)
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}

func isLoopback(addr net.Addr) bool {
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP.IsLoopback()
	}
	return false
}

// printfLogger adapts slog to the Printf loggers of imapserver and go-smtp. A
// connection the client or the limiter closed is logged at debug level only: a
// flood of connections must not become a flood of log lines.
type printfLogger struct{ l *slog.Logger }

func (p printfLogger) Printf(format string, v ...any) { p.log(fmt.Sprintf(format, v...)) }
func (p printfLogger) Println(v ...any)               { p.log(strings.TrimSuffix(fmt.Sprintln(v...), "\n")) }

func (p printfLogger) log(msg string) {
	for _, gone := range []string{"use of closed network connection", "connection reset by peer", "broken pipe", "i/o timeout"} {
		if strings.Contains(msg, gone) {
			p.l.Debug(msg)
			return
		}
	}
	p.l.Warn(msg)
}
