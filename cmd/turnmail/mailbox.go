package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/turnmail/turnmail/config"
	"github.com/turnmail/turnmail/daemon"
)

// embeddedMailboxes opens the store of c for the passwords of its embedded mailboxes
// (generating the service mailbox's on first use, as serve would).
func embeddedMailboxes(ctx context.Context, c *config.Config) (daemon.Mailboxes, error) {
	if !c.EmbeddedMode() {
		return daemon.Mailboxes{}, errors.New("no embedded mail server: imap.addr and smtp.addr name a real one, whose mailboxes have the passwords it gives them")
	}
	st, err := daemon.OpenStore(ctx, c)
	if err != nil {
		return daemon.Mailboxes{}, err
	}
	defer st.Close()
	return daemon.EmbeddedMailboxes(ctx, c, st)
}

func newMailboxCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "mailbox", Short: "The embedded mail server's mailboxes"}
	cmd.AddCommand(&cobra.Command{
		Use:   "password ADDRESS...",
		Short: "Print the IMAP/SMTP password of embedded mailboxes, for the host to hand out",
		Long: `Print the password of each embedded mailbox named. Each player mailbox has its own
password (unless embedded.password sets one for all, a demo setting); the service
mailbox has its own random one. The login is the full address.`,
		Example: `  turnmail mailbox password alice@turnmail.localhost bob@turnmail.localhost`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.config()
			if err != nil {
				return err
			}
			mb, err := embeddedMailboxes(cmd.Context(), c)
			if err != nil {
				return err
			}
			for _, addr := range args {
				addr = strings.ToLower(strings.TrimSpace(addr))
				if !strings.Contains(addr, "@") {
					addr += "@" + c.Embedded.Domain
				}
				fmt.Fprintf(a.out, "%s %s\n", addr, mb.Password(addr))
			}
			return nil
		},
	})
	return cmd
}
