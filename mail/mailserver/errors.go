package mailserver

import (
	"errors"
	"fmt"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-smtp"
)

// Domain errors of the mailbox backend. They are turned into protocol replies
// in one place: imapError for IMAP and smtpError for SMTP. Anything else is an
// internal failure: the protocol servers log it and answer with a generic
// error, never with its text.
var (
	// ErrClosed is returned by Start and Deliver once the server is closed.
	ErrClosed = errors.New("mailserver: server closed")
	// ErrBadAddress is returned for an address that names no mailbox.
	ErrBadAddress = errors.New("mailserver: invalid address")
	// ErrTooLarge is returned for a message over Options.MaxMessageBytes.
	ErrTooLarge = errors.New("mailserver: message too large")

	errAuthFailed     = errors.New("authentication failed")
	errNoMailbox      = errors.New("no such mailbox")
	errMailboxExists  = errors.New("mailbox already exists")
	errBadMailboxName = errors.New("invalid mailbox name")
	errInbox          = errors.New("INBOX cannot be deleted or renamed")
	errSameMailbox    = errors.New("source and destination mailboxes are identical")
	errReadOnly       = errors.New("mailbox is read-only")
	errExpunged       = errors.New("message was expunged")
	errMailboxGone    = errors.New("selected mailbox was deleted")

	// Limits (see Limits).
	errLoginsWaiting    = errors.New("too many logins from this address are waiting")
	errLoginsExhausted  = errors.New("too many failed logins on this connection")
	errTooManyConns     = errors.New("too many connections to this mailbox")
	errMailboxFull      = errors.New("mailbox full")
	errMessageOverQuota = errors.New("message larger than a mailbox's quota")
	errStorageFull      = errors.New("mail storage full")
	errTooManyFolders   = errors.New("too many folders")
	errRelayDenied      = errors.New("relay denied")
	errRateLimited      = errors.New("sending rate exceeded")
)

// imapError converts a backend error into the IMAP status response the client
// gets. Errors it does not know are returned unchanged: imapserver logs them
// and replies NO [SERVERBUG].
func imapError(err error) error {
	var imapErr *imap.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &imapErr):
		return err
	case errors.Is(err, errLoginsExhausted) && errors.Is(err, errLoginsWaiting):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeUnavailable, Text: "Too many logins from your address are waiting; too many failures, closing the connection"}
	case errors.Is(err, errLoginsExhausted):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed, Text: "Authentication failed; too many failures, closing the connection"}
	case errors.Is(err, errAuthFailed):
		return imapserver.ErrAuthFailed
	case errors.Is(err, errLoginsWaiting):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeUnavailable, Text: "Too many logins from your address are waiting; try again later"}
	case errors.Is(err, errTooManyConns):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeLimit, Text: "Too many connections to this mailbox"}
	case errors.Is(err, errMailboxFull):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeOverQuota, Text: "Mailbox full"}
	case errors.Is(err, errMessageOverQuota):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeOverQuota, Text: "Message larger than the mailbox's quota"}
	case errors.Is(err, errStorageFull):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeOverQuota, Text: "Mail storage full"}
	case errors.Is(err, errTooManyFolders):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeLimit, Text: "Too many folders"}
	case errors.Is(err, errNoMailbox):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "No such mailbox"}
	case errors.Is(err, errMailboxExists):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	case errors.Is(err, errBadMailboxName):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "Invalid mailbox name"}
	case errors.Is(err, errInbox):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be deleted or renamed"}
	case errors.Is(err, errSameMailbox):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "Source and destination mailboxes are identical"}
	case errors.Is(err, errReadOnly):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: "READ-ONLY", Text: "Mailbox is selected read-only"}
	case errors.Is(err, errExpunged):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: "EXPUNGEISSUED", Text: "Some messages were expunged meanwhile"}
	case errors.Is(err, errMailboxGone):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "Selected mailbox was deleted"}
	case errors.Is(err, ErrTooLarge):
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTooBig, Text: "Message too large"}
	default:
		return err
	}
}

// tryCreate marks a missing destination mailbox (COPY, MOVE, APPEND) with the
// TRYCREATE code, so that clients offer to create it.
func tryCreate(err error) error {
	if errors.Is(err, errNoMailbox) {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	return imapError(err)
}

// SMTP replies used by the SMTP session.
var (
	smtpAuthRequired = &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	smtpBadRcpt      = &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 1, 3}, Message: "Bad recipient address syntax"}
	smtpBadSender    = &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 1, 7}, Message: "Bad sender address syntax"}
	smtpUnavailable  = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Local error in processing, try again later"}
	smtpShutdown     = &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "Server shutting down"}

	// Limits. Quotas are answered as RFC 3463 says: the mailbox full (X.2.2), the
	// system's storage full (X.3.1), temporary since room may be made; a message
	// no mailbox can hold, permanent (552 5.2.2).
	smtpLoginsExhausted  = &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "Too many failed logins, closing connection"}
	smtpLoginsWaiting    = &smtp.SMTPError{Code: 454, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "Too many logins from your address are waiting, try again later"}
	smtpTooManyConns     = &smtp.SMTPError{Code: 454, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "Too many connections to this mailbox"}
	smtpMailboxFull      = &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 2, 2}, Message: "Mailbox full"}
	smtpMessageOverQuota = &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 2, 2}, Message: "Message larger than the mailbox's quota"}
	smtpStorageFull      = &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 3, 1}, Message: "Insufficient system storage"}
	smtpRelayDenied      = &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Relay access denied: this server takes mail for its own domain only"}
	smtpRateLimited      = &smtp.SMTPError{Code: 450, EnhancedCode: smtp.EnhancedCode{4, 7, 1}, Message: "Too many messages from you in the last hour, try again later"}
)

// smtpError converts a backend error into the SMTP reply the client gets.
// Unknown errors become a temporary 451, so that the sender retries; their
// text is logged by the caller, not sent.
func smtpError(err error) error {
	var smtpErr *smtp.SMTPError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &smtpErr):
		return err
	case errors.Is(err, errLoginsExhausted):
		return smtpLoginsExhausted
	case errors.Is(err, errAuthFailed):
		return smtp.ErrAuthFailed
	case errors.Is(err, errLoginsWaiting):
		return smtpLoginsWaiting
	case errors.Is(err, errTooManyConns):
		return smtpTooManyConns
	case errors.Is(err, errMailboxFull):
		return smtpMailboxFull
	case errors.Is(err, errMessageOverQuota):
		return smtpMessageOverQuota
	case errors.Is(err, errStorageFull):
		return smtpStorageFull
	case errors.Is(err, errRelayDenied):
		return smtpRelayDenied
	case errors.Is(err, errRateLimited):
		return smtpRateLimited
	case errors.Is(err, ErrTooLarge):
		return smtp.ErrDataTooLarge
	case errors.Is(err, ErrBadAddress):
		return smtpBadRcpt
	case errors.Is(err, ErrClosed):
		return smtpShutdown
	default:
		return smtpUnavailable
	}
}

// badAddress wraps ErrBadAddress with the offending address.
func badAddress(addr, why string) error {
	return fmt.Errorf("%w %q: %s", ErrBadAddress, addr, why)
}
