package service

import (
	"errors"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/compose"
)

// recipient reads an address a command names (invite, replace, list=) with
// compose.ParseRecipient: the lower-cased address, or an error that says, for the
// person who wrote it, why it cannot be used (see failf).
func recipient(written string) (string, error) {
	addr, err := compose.ParseRecipient(written)
	if err == nil {
		return addr, nil
	}
	reason := engine.Textf("%s", err.Error())
	if ae := (*compose.AddressError)(nil); errors.As(err, &ae) {
		reason = engine.Textf(ae.Format, ae.Args...) // in the reader's words: the mail catalogue
	}
	return "", failf("%s cannot be used as a mail address: %s", written, reason)
}
