package service

import (
	"errors"
	"fmt"

	"github.com/turnmail/turnmail/mail/compose"
)

// recipient reads an address a command names (invite, replace, list=) with
// compose.ParseRecipient: the lower-cased address, or "" and why it cannot be
// used, in words for the person who wrote it.
func recipient(written string) (addr, why string) {
	addr, err := compose.ParseRecipient(written)
	if err == nil {
		return addr, ""
	}
	reason := err.Error()
	if ae := (*compose.AddressError)(nil); errors.As(err, &ae) {
		reason = ae.Reason
	}
	return "", fmt.Sprintf("%s cannot be used as a mail address: %s", written, reason)
}
