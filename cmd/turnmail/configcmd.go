package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newConfigCmd(a *app) *cobra.Command {
	cfg := &cobra.Command{Use: "config", Short: "Configuration tools"}
	cfg.AddCommand(&cobra.Command{
		Use:   "check",
		Short: "Validate the configuration and print the effective settings (secrets hidden)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.config()
			if err != nil {
				return &exitError{code: 2, err: fmt.Errorf("configuration is not valid:\n%w", err)}
			}
			mode := "real mail server"
			if c.EmbeddedMode() {
				mode = "embedded IMAP and SMTP servers on loopback"
			}
			w := a.out
			fmt.Fprintf(w, "configuration OK\n")
			fmt.Fprintf(w, "  mode:      %s\n", mode)
			fmt.Fprintf(w, "  database:  %s\n", c.Database)
			fmt.Fprintf(w, "  address:   %s\n", c.Address)
			fmt.Fprintf(w, "  secret:    %s\n", hidden(c.Secret, "generated on first start and kept in the database"))
			if c.EmbeddedMode() {
				fmt.Fprintf(w, "  imap:      %s (login: any address @%s, password %s)\n", c.Embedded.IMAPAddr, c.Embedded.Domain, hidden(c.Embedded.Password, ""))
				fmt.Fprintf(w, "  smtp:      %s\n", c.Embedded.SMTPAddr)
			} else {
				fmt.Fprintf(w, "  imap:      %s %s as %s (password %s), mailbox %s\n", c.IMAP.Security, c.IMAP.Addr, c.IMAP.Username, hidden(c.IMAP.Password, "none"), c.IMAP.Mailbox)
				fmt.Fprintf(w, "  smtp:      %s %s as %s (password %s)\n", c.SMTP.Security, c.SMTP.Addr, c.SMTP.Username, hidden(c.SMTP.Password, "none"))
			}
			return nil
		},
	})
	return cfg
}

func hidden(secret, empty string) string {
	if secret == "" {
		return empty
	}
	return "set (hidden)"
}
