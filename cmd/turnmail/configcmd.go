package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/turnmail/turnmail/config"
	"github.com/turnmail/turnmail/daemon"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/mailcheck"
	"github.com/turnmail/turnmail/mail/mailnet"
)

func newConfigCmd(a *app) *cobra.Command {
	cfg := &cobra.Command{Use: "config", Short: "Configuration tools"}
	var connect bool
	check := &cobra.Command{
		Use:   "check",
		Short: "Validate the configuration and print what serve would do (configured secrets hidden)",
		Long: `Validate the configuration and print what serve would do: the embedded servers and
the addresses they would listen on, or the real servers it would connect to, and the
passwords in effect. The embedded service mailbox's password is generated (on first
use) and printed; configured secrets are not. A plain-text listener or connection off
loopback is refused (exit 2); so is a key or TURNMAIL_* variable that is no
configuration key. With --connect it also logs in to the IMAP and SMTP servers (the
embedded ones of a running turnmail serve, in embedded mode) and says which step
fails: DNS, connect, TLS, greeting or login (exit 1).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.config()
			if err != nil {
				return &exitError{code: 2, err: fmt.Errorf("configuration is not valid:\n%w", err)}
			}
			var mb daemon.Mailboxes
			if c.EmbeddedMode() {
				if mb, err = embeddedMailboxes(cmd.Context(), c); err != nil {
					return err
				}
			}
			printConfig(a.out, c, mb)
			if connect {
				return checkConnect(cmd.Context(), a.out, c, mb)
			}
			return nil
		},
	}
	check.Flags().BoolVar(&connect, "connect", false, "also log in to the IMAP and SMTP servers")
	cfg.AddCommand(check)
	return cfg
}

// checkConnect logs in to the IMAP and SMTP servers serve would use and prints
// what works and which step fails; it returns an exit error 1 when one fails.
func checkConnect(ctx context.Context, w io.Writer, c *config.Config, mb daemon.Mailboxes) error {
	imapS := mailcheck.Server{Addr: c.IMAP.Addr, Security: c.IMAP.Security, Username: c.IMAP.Username, Password: c.IMAP.Password}
	smtpS := mailcheck.Server{Addr: c.SMTP.Addr, Security: c.SMTP.Security, Username: c.SMTP.Username, Password: c.SMTP.Password}
	hint := ""
	if c.EmbeddedMode() {
		imapS = mailcheck.Server{Addr: c.Embedded.IMAPAddr, Security: mailnet.SecurityPlain, Username: c.Address, Password: mb.ServicePassword}
		smtpS = mailcheck.Server{Addr: c.Embedded.SMTPAddr, Security: mailnet.SecurityPlain, Username: c.Address, Password: mb.ServicePassword}
		hint = " (embedded mode: is turnmail serve running?)"
	}
	failed := 0
	for _, x := range []struct {
		name  string
		check func(context.Context, mailcheck.Server) error
		s     mailcheck.Server
	}{{"imap", mailcheck.IMAP, imapS}, {"smtp", mailcheck.SMTP, smtpS}} {
		err := x.check(ctx, x.s)
		var ce *mailcheck.Error
		switch {
		case err == nil && x.s.Username != "":
			fmt.Fprintf(w, "  %s:      connected to %s and logged in as %s\n", x.name, x.s.Addr, x.s.Username)
		case err == nil:
			fmt.Fprintf(w, "  %s:      connected to %s (no login configured)\n", x.name, x.s.Addr)
		case errors.As(err, &ce):
			failed++
			fmt.Fprintf(w, "  %s:      FAILED at %s: %v%s\n", x.name, ce.Step, ce.Err, hint)
		default:
			failed++
			fmt.Fprintf(w, "  %s:      FAILED: %v%s\n", x.name, err, hint)
		}
	}
	if failed > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d of 2 mail servers could not be logged in to", failed)}
	}
	return nil
}

// printConfig prints what serve does with c: the servers it runs or connects to and
// the passwords in effect (mb: the embedded mailboxes', in embedded mode).
func printConfig(w io.Writer, c *config.Config, mb daemon.Mailboxes) {
	fmt.Fprintf(w, "configuration OK\n")
	if c.EmbeddedMode() {
		fmt.Fprintf(w, "  mode:      embedded IMAP and SMTP servers (plain text, loopback only)\n")
	} else {
		fmt.Fprintf(w, "  mode:      real mail server\n")
	}
	fmt.Fprintf(w, "  database:  %s\n", c.Database)
	fmt.Fprintf(w, "  address:   %s\n", c.Address)
	fmt.Fprintf(w, "  secret:    %s\n", hidden(c.Secret, "generated on first start and kept in the database"))
	if local, domain, _ := strings.Cut(c.Address, "@"); c.SMTP.VERP {
		fmt.Fprintf(w, "  bounces:   believed when they name a mail we sent, by Message-ID or VERP return path %s\n", auth.ReplyAddress(local, domain, "bounce-ID-MAC"))
	} else {
		fmt.Fprintf(w, "  bounces:   believed when they name a mail we sent, by Message-ID (smtp.verp is off)\n")
	}
	fmt.Fprintf(w, "  pages:     %s\n", pagesLine(c))
	if !c.EmbeddedMode() {
		fmt.Fprintf(w, "  imap:      %s %s as %s (password %s), mailbox %s\n", c.IMAP.Security, c.IMAP.Addr, c.IMAP.Username, hidden(c.IMAP.Password, "none"), c.IMAP.Mailbox)
		fmt.Fprintf(w, "  smtp:      %s %s as %s (password %s)\n", c.SMTP.Security, c.SMTP.Addr, c.SMTP.Username, hidden(c.SMTP.Password, "none"))
		return
	}
	fmt.Fprintf(w, "  imap:      listens on %s\n", c.Embedded.IMAPAddr)
	fmt.Fprintf(w, "  smtp:      listens on %s (loopback clients may send to @%s without login; only the service mails other domains)\n", c.Embedded.SMTPAddr, c.Embedded.Domain)
	e := c.Embedded
	fmt.Fprintf(w, "  limits:    %d connections per server, %d per client address, %d per mailbox; login within %v, idle %v (IMAP) / %v (SMTP);\n",
		e.MaxConnections, e.MaxConnectionsPerAddress, e.MaxConnectionsPerMailbox, e.LoginTimeout, e.IMAPIdleTimeout, e.SMTPIdleTimeout)
	fmt.Fprintf(w, "             %d failed logins close a connection; %d messages an hour per sender; quota %d MiB / %d messages a mailbox, %d MiB / %d in all\n",
		e.LoginFailures, e.MessagesPerHour, e.MailboxBytes>>20, e.MailboxMessages, e.TotalBytes>>20, e.TotalMessages)
	fmt.Fprintf(w, "  mailbox %s: password %s (its own, generated on first start and kept in the database)\n", mb.Service, mb.ServicePassword)
	if c.Embedded.Password != "" {
		fmt.Fprintf(w, "  other mailboxes @%s: the shared password embedded.password, %s (a demo setting)\n", c.Embedded.Domain, hidden(c.Embedded.Password, ""))
	} else {
		fmt.Fprintf(w, "  other mailboxes @%s: each its own password (turnmail mailbox password ADDRESS)\n", c.Embedded.Domain)
	}
}

// pagesLine says where serve serves the game pages and what the mails link.
func pagesLine(c *config.Config) string {
	if !c.WebEnabled() {
		return "off (web.addr)"
	}
	line := "served at http://" + c.Web.Addr + "/"
	if c.HTTPAddr == c.Web.Addr {
		line += " with /healthz and /metrics"
	}
	if base := c.PageBaseURL(c.Web.Addr); base != "" {
		return line + "; mails link " + base
	}
	return line + "; mails carry no link (set web.base_url to the address players reach them at)"
}

func hidden(secret, empty string) string {
	if secret == "" {
		return empty
	}
	return "set (hidden)"
}
