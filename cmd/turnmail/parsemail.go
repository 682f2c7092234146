package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/turnmail/turnmail/mail/parse"
)

func newParseMailCmd(a *app) *cobra.Command {
	var commands bool
	cmd := &cobra.Command{
		Use:   "parse-mail FILE",
		Short: "Print the reply text turnmail reads from a mail (\"-\" reads standard input)",
		Long: `Parse a raw mail (RFC 5322, as saved by a mail client or found in the inbox table)
the way the daemon does and print the reply text it interprets — quoted history,
signatures and everything after a line "end" removed. With --commands, print the
command lines with their line numbers instead. An operator's tool for "why was my
move not taken?".`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var raw []byte
			var err error
			if args[0] == "-" {
				raw, err = io.ReadAll(a.in)
			} else {
				raw, err = os.ReadFile(args[0])
			}
			if err != nil {
				return err
			}
			c, err := a.config()
			if err != nil {
				return err
			}
			msg, err := parse.Parse(raw, &parse.Options{MaxSize: int(c.Limits.MaxMessageBytes)})
			if err != nil {
				return err
			}
			if msg.Auto != "" {
				fmt.Fprintf(a.errw, "note: this mail counts as auto-generated (%s) and would be ignored\n", msg.Auto)
			}
			if commands {
				_, err = fmt.Fprint(a.out, parse.FormatCommands(msg.Commands))
				return err
			}
			_, err = fmt.Fprint(a.out, msg.Reply)
			return err
		},
	}
	cmd.Flags().BoolVar(&commands, "commands", false, "print the command lines with their line numbers")
	return cmd
}
