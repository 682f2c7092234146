package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/turnmail/turnmail/config"
	"github.com/turnmail/turnmail/daemon"
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
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

func serve(ctx context.Context, a *app, c *config.Config, demo bool) error {
	if err := checkDatabaseFiles(a.errw, c.Database); err != nil {
		return err
	}
	log := newLogger(a, c)
	d, err := daemon.New(ctx, c, daemon.Options{Logger: log, Problems: a.errw})
	if err != nil {
		return err
	}
	defer d.Close()
	if d.Mail != nil {
		printEmbeddedHelp(a, c, d.Mailboxes, d.Mail.IMAPAddr(), d.Mail.SMTPAddr())
	}
	if addr := d.WebAddr(); addr != "" {
		fmt.Fprintf(a.out, "turnmail: game pages at http://%s/\n", addr)
		if base := c.PageBaseURL(addr); base != "" && base != "http://"+addr+"/" {
			fmt.Fprintf(a.out, "  mails link them at %s\n", base)
		}
	}
	if demo {
		if err := createDemo(ctx, d.Service, c, a, d.WebAddr()); err != nil {
			return err
		}
	}
	return d.Run(ctx)
}

// checkDatabaseFiles refuses to serve a database that every user of the host may
// read or write: it holds the token secret, the service mailbox's password and
// every embedded mailbox. A database its group may read is served, with a loud
// warning: a group is something a host sets up on purpose (for backups, say).
// turnmail creates its files 0600; older ones may need the chmod it names.
func checkDatabaseFiles(w io.Writer, path string) error {
	exposed, err := store.ExposedFiles(path)
	if err != nil || len(exposed) == 0 {
		return err
	}
	var world, all []string
	for _, f := range exposed {
		if f.World() {
			world = append(world, fmt.Sprintf("%s (%v)", f.Path, f.Mode))
		}
		all = append(all, f.Path)
	}
	fix := "chmod 600 " + strings.Join(all, " ")
	if len(world) > 0 {
		return &exitError{code: 2, err: fmt.Errorf("refusing to serve: every user of this host may read or write %s, which holds the token secret, the service mailbox's password and every mailbox; run: %s", strings.Join(world, ", "), fix)}
	}
	fmt.Fprintf(w, "turnmail: WARNING: the group of %s may read it, and it holds the token secret, the service mailbox's password and every mailbox; unless everyone in that group may act as any player, run: %s\n", exposed[0].Path, fix)
	return nil
}

func newLogger(a *app, c *config.Config) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.LogLevel)) // validated by config
	return slog.New(slog.NewTextHandler(a.errw, &slog.HandlerOptions{Level: level}))
}

// createDemo creates a two-player Small World game at the embedded domain when the
// database has no game yet, and names its public page when the pages are served at
// web.
func createDemo(ctx context.Context, svc *service.Service, c *config.Config, a *app, web string) error {
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
	if web != "" {
		fmt.Fprintf(a.out, "  its public page: http://%s/g/%s/ (each player's mail links their own)\n", web, id)
	}
	return nil
}

func printEmbeddedHelp(a *app, c *config.Config, mb daemon.Mailboxes, imapAddr, smtpAddr string) {
	ih, ip, _ := net.SplitHostPort(imapAddr)
	sh, sp, _ := net.SplitHostPort(smtpAddr)
	fmt.Fprintf(a.out, `turnmail: embedded mail servers running
  IMAP %s port %s, SMTP %s port %s — no TLS, loopback only
  every address @%s has a mailbox; login = the full address, with its own password:
`, ih, ip, sh, sp, c.Embedded.Domain)
	for _, m := range []struct{ addr, note string }{
		{"alice@" + c.Embedded.Domain, "a demo game player"},
		{"bob@" + c.Embedded.Domain, "a demo game player"},
		{mb.Service, "the service's own: keep it to yourself"},
	} {
		fmt.Fprintf(a.out, "    %-32s password %s  (%s)\n", m.addr, mb.Password(m.addr), m.note)
	}
	fmt.Fprintf(a.out, `  any other: turnmail mailbox password ADDRESS
  mutt:        mutt -f imap://alice%%40%s@%s:%s/INBOX  (send with smtp_url=smtp://alice%%40%s@%s:%s)
  Thunderbird: add a mail account alice@%s, manual setup, IMAP %s:%s and SMTP %s:%s,
               connection security none, normal password.
`, c.Embedded.Domain, ih, ip, c.Embedded.Domain, sh, sp, c.Embedded.Domain, ih, ip, sh, sp)
}
