package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/turnmail/turnmail/config"
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/mail/imapwatch"
	"github.com/turnmail/turnmail/mail/mailserver"
	"github.com/turnmail/turnmail/mail/smtpsend"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

func newServeCmd(a *app) *cobra.Command {
	var demo bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the daemon: watch the mailbox, apply moves, send the mails",
		Long: `Run the daemon. Without a configured mail server it starts the embedded IMAP and
SMTP servers on loopback (every address at the embedded domain has a mailbox).
With --demo, a demo game between alice and bob is created when there is no game yet.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.config()
			if err != nil {
				return err
			}
			return serve(cmd.Context(), a, c, demo)
		},
	}
	cmd.Flags().BoolVar(&demo, "demo", false, "create a demo game when the database has none")
	return cmd
}

// openStore opens the configured database, creating its directory.
func openStore(ctx context.Context, c *config.Config) (*store.Store, error) {
	if dir := filepath.Dir(c.Database); dir != "." {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("create database directory: %w", err)
		}
	}
	return store.Open(ctx, c.Database)
}

// secretOf returns the configured token secret, or the one generated on first start
// and kept in the database.
func secretOf(ctx context.Context, c *config.Config, st *store.Store) ([]byte, error) {
	if c.Secret != "" {
		return []byte(c.Secret), nil
	}
	s, err := st.Meta(ctx, "secret")
	if errors.Is(err, store.ErrNotFound) {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, fmt.Errorf("generate secret: %w", err)
		}
		s = hex.EncodeToString(b[:])
		if err := st.SetMeta(ctx, "secret", s); err != nil {
			return nil, err
		}
		return []byte(s), nil
	}
	if err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// newService builds the game service on an open store.
func newService(ctx context.Context, c *config.Config, st *store.Store, log *slog.Logger, clock func() time.Time) (*service.Service, error) {
	secret, err := secretOf(ctx, c, st)
	if err != nil {
		return nil, err
	}
	tmpl, err := templates.Load()
	if err != nil {
		return nil, err
	}
	return service.New(st, games.Registry(), tmpl, service.Options{
		Address: c.Address, Name: c.Name, Secret: secret,
		MaxMessageBytes: c.Limits.MaxMessageBytes, RepliesPerHour: c.Limits.RepliesPerHour,
		Clock: clock, Logger: log,
	})
}

func newLogger(a *app, c *config.Config) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.LogLevel)) // validated by config
	return slog.New(slog.NewTextHandler(a.errw, &slog.HandlerOptions{Level: level}))
}

func serve(ctx context.Context, a *app, c *config.Config, demo bool) error {
	log := newLogger(a, c)
	st, err := openStore(ctx, c)
	if err != nil {
		return err
	}
	defer st.Close()
	svc, err := newService(ctx, c, st, log, time.Now)
	if err != nil {
		return err
	}

	imapOpts := imapwatch.Options{
		Addr: c.IMAP.Addr, Username: c.IMAP.Username, Password: c.IMAP.Password,
		Security: c.IMAP.Security, Mailbox: c.IMAP.Mailbox, PollInterval: c.IMAP.PollInterval,
		MoveProcessed: c.IMAP.Processed, MoveRejected: c.IMAP.Rejected, Logger: log,
	}
	smtpOpts := smtpsend.Options{
		Addr: c.SMTP.Addr, Security: c.SMTP.Security, Username: c.SMTP.Username, Password: c.SMTP.Password,
		MaxAttempts: c.SMTP.MaxAttempts, Logger: log,
	}
	if c.EmbeddedMode() {
		srv, err := mailserver.New(st.DB(), &mailserver.Options{
			Domain: c.Embedded.Domain, Password: c.Embedded.Password,
			IMAPAddr: c.Embedded.IMAPAddr, SMTPAddr: c.Embedded.SMTPAddr,
			Logger: log, MaxMessageBytes: c.Limits.MaxMessageBytes * 4,
		})
		if err != nil {
			return err
		}
		if err := srv.Start(ctx); err != nil {
			return err
		}
		defer srv.Close()
		imapOpts.Addr, imapOpts.Security = srv.IMAPAddr(), "plain"
		imapOpts.Username, imapOpts.Password = c.Address, c.Embedded.Password
		smtpOpts.Addr, smtpOpts.Security = srv.SMTPAddr(), "plain"
		printEmbeddedHelp(a, c, srv.IMAPAddr(), srv.SMTPAddr())
	}

	if n, err := svc.ProcessPending(ctx); err != nil {
		return err
	} else if n > 0 {
		log.Info("processed mail stored before the last stop", "count", n)
	}
	if demo {
		if err := createDemo(ctx, svc, c, a); err != nil {
			return err
		}
	}

	handler := func(ctx context.Context, m imapwatch.Fetched) (imapwatch.Disposition, error) {
		res, err := svc.Receive(ctx, store.InboxMsg{Mailbox: m.Mailbox, UIDValidity: m.UIDValidity, UID: m.UID, Raw: m.Raw})
		if err != nil {
			return imapwatch.Keep, err
		}
		if res.Status == service.StatusApplied {
			return imapwatch.Processed, nil
		}
		return imapwatch.Rejected, nil
	}
	watcher := imapwatch.New(imapOpts, handler, st)
	sender := smtpsend.New(smtpOpts, outboxQueue{st})

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
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
	if c.HTTPAddr != "" {
		run("http", func(ctx context.Context) error { return serveHTTP(ctx, c.HTTPAddr, st) })
	}
	log.Info("turnmail running", "address", c.Address, "database", c.Database)
	<-ctx.Done()
	wg.Wait()
	close(errs)
	return <-errs // nil when every part stopped because of the signal
}

// outboxQueue adapts the store's outbox to the sender's queue.
type outboxQueue struct{ st *store.Store }

func (q outboxQueue) Due(ctx context.Context, now time.Time, limit int) ([]smtpsend.Outgoing, error) {
	rows, err := q.st.DueOutbox(ctx, now, limit)
	if err != nil {
		return nil, err
	}
	out := make([]smtpsend.Outgoing, len(rows))
	for i, r := range rows {
		out[i] = smtpsend.Outgoing{ID: r.ID, From: r.From, To: r.To, Raw: r.Raw, Attempts: r.Attempts}
	}
	return out, nil
}
func (q outboxQueue) MarkSent(ctx context.Context, id int64, at time.Time) error {
	return q.st.MarkSent(ctx, id, at)
}
func (q outboxQueue) MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error {
	return q.st.MarkRetry(ctx, id, next, errText)
}
func (q outboxQueue) MarkFailed(ctx context.Context, id int64, errText string) error {
	return q.st.MarkFailed(ctx, id, errText)
}
func (q outboxQueue) Wake() <-chan struct{} { return q.st.Notify() }

func serveHTTP(ctx context.Context, addr string, st *store.Store) error {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := st.DB().PingContext(r.Context()); err != nil {
			http.Error(w, "database: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		m, err := st.Metrics(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		for _, k := range m.Keys() {
			fmt.Fprintf(w, "turnmail_%s %d\n", k, m[k])
		}
	})
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", addr, err)
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// createDemo creates a two-player Small World game at the embedded domain when the
// database has no game yet.
func createDemo(ctx context.Context, svc *service.Service, c *config.Config, a *app) error {
	list, err := svc.Games(ctx)
	if err != nil {
		return err
	}
	if len(list) > 0 {
		return nil
	}
	domain := c.Embedded.Domain
	id, err := svc.CreateGame(ctx, service.NewGame{
		Kind:    "smallworld",
		Players: []engine.Player{{Name: "alice", Email: "alice@" + domain}, {Name: "bob", Email: "bob@" + domain}},
		Seed:    time.Now().UnixNano() % 1_000_000,
		Host:    "alice@" + domain,
	})
	if err != nil {
		return fmt.Errorf("demo game: %w", err)
	}
	fmt.Fprintf(a.out, "Created demo game %s (Small World, alice vs bob); both have mail waiting.\n", id)
	return nil
}

func printEmbeddedHelp(a *app, c *config.Config, imapAddr, smtpAddr string) {
	ih, ip, _ := net.SplitHostPort(imapAddr)
	sh, sp, _ := net.SplitHostPort(smtpAddr)
	fmt.Fprintf(a.out, `turnmail: embedded mail servers running
  IMAP %s port %s, SMTP %s port %s — no TLS, loopback only
  every address @%s has a mailbox; login = the full address, password %q
  e.g. alice@%s and bob@%s play the demo game.
  mutt:        mutt -f imap://alice%%40%s@%s:%s/INBOX  (send with smtp_url=smtp://alice%%40%s@%s:%s)
  Thunderbird: add a mail account alice@%s, manual setup, IMAP %s:%s and SMTP %s:%s,
               connection security none, normal password.
`, ih, ip, sh, sp, c.Embedded.Domain, c.Embedded.Password, c.Embedded.Domain, c.Embedded.Domain,
		c.Embedded.Domain, ih, ip, c.Embedded.Domain, sh, sp, c.Embedded.Domain, ih, ip, sh, sp)
}
