package mailserver

import "time"

// Defaults of the Limits fields left zero. They hold a friendly group's play many
// times over and keep a flood from the same host within a few hundred megabytes of
// memory and a few gigabytes of disk.
const (
	DefaultMaxConns           = 100
	DefaultMaxConnsPerAddr    = 50
	DefaultMaxConnsPerAccount = 10
	DefaultLoginTimeout       = 30 * time.Second
	// DefaultIMAPIdleTimeout is RFC 9051's minimum autologout timer; clients
	// restart IDLE well within it.
	DefaultIMAPIdleTimeout = 30 * time.Minute
	// DefaultSMTPIdleTimeout is RFC 5321's server timeout.
	DefaultSMTPIdleTimeout  = 5 * time.Minute
	DefaultLoginFailures    = 3
	DefaultFailureDelay     = 250 * time.Millisecond
	DefaultMaxFailureDelay  = 8 * time.Second
	DefaultMessagesPerHour  = 120
	DefaultMailboxBytes     = 256 << 20
	DefaultMailboxMessages  = 20000
	DefaultTotalBytes       = 2 << 30
	DefaultTotalMessages    = 200000
	DefaultMaxMailboxes     = 10000
	DefaultMaxFolders       = 100
	defaultFailureWindow    = 15 * time.Minute
	defaultTrackedAddresses = 4096
	// defaultPendingLogins is how many login attempts of one address that has
	// failed recently may wait for their answer at once.
	defaultPendingLogins = 4
)

// Limits bound what the clients of the embedded servers can hold and store. A zero
// field takes its Default* value.
//
// A client address is an IPv4 address or an IPv6 /64; every loopback address
// (127.0.0.0/8, ::1) counts as one, since a user of the same host can pick any of
// them.
type Limits struct {
	// MaxConns is the most connections each server (IMAP and SMTP) holds at once.
	MaxConns int
	// MaxConnsPerAddr is the most connections one client address holds on each
	// server.
	MaxConnsPerAddr int
	// MaxConnsPerAccount is the most logged-in connections of one mailbox on each
	// server.
	MaxConnsPerAccount int
	// When a new connection finds a cap reached, the oldest connection that has
	// not logged in (of that address, for the per-address cap) is closed to make
	// room; when every one has logged in, the new connection is refused.

	// LoginTimeout is how long a connection may stay without logging in. An SMTP
	// session that sends without AUTH has that long in all.
	LoginTimeout time.Duration
	// IMAPIdleTimeout and SMTPIdleTimeout close a connection whose client has
	// sent nothing for that long.
	IMAPIdleTimeout, SMTPIdleTimeout time.Duration

	// LoginFailures is how many failed logins close a connection.
	LoginFailures int
	// FailureDelay is how long the answer to a login waits once its client
	// address has failed to log in recently (in the last 15 minutes): it doubles
	// with each failure, up to MaxFailureDelay, and applies to every login of
	// that address, right or wrong, so that a quick answer tells nothing. At most
	// 4 logins of such an address wait at once; more are refused unchecked.
	FailureDelay, MaxFailureDelay time.Duration

	// MessagesPerHour is how many messages (one per recipient) one sender may
	// deliver over SMTP in an hour, in bursts of as many: a logged-in mailbox,
	// or a client address for mail sent without login. Options.Service is not
	// limited.
	MessagesPerHour int
	// MailboxBytes and MailboxMessages are the quota of one mailbox (all its
	// folders); TotalBytes and TotalMessages that of all mailboxes together.
	MailboxBytes, MailboxMessages int64
	TotalBytes, TotalMessages     int64
	// MaxMailboxes is the most mailboxes (addresses) there may be; MaxFolders
	// the most folders in one mailbox.
	MaxMailboxes, MaxFolders int
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def64 := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	dur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxConns, DefaultMaxConns)
	def(&l.MaxConnsPerAddr, DefaultMaxConnsPerAddr)
	def(&l.MaxConnsPerAccount, DefaultMaxConnsPerAccount)
	dur(&l.LoginTimeout, DefaultLoginTimeout)
	dur(&l.IMAPIdleTimeout, DefaultIMAPIdleTimeout)
	dur(&l.SMTPIdleTimeout, DefaultSMTPIdleTimeout)
	def(&l.LoginFailures, DefaultLoginFailures)
	dur(&l.FailureDelay, DefaultFailureDelay)
	dur(&l.MaxFailureDelay, DefaultMaxFailureDelay)
	def(&l.MessagesPerHour, DefaultMessagesPerHour)
	def64(&l.MailboxBytes, DefaultMailboxBytes)
	def64(&l.MailboxMessages, DefaultMailboxMessages)
	def64(&l.TotalBytes, DefaultTotalBytes)
	def64(&l.TotalMessages, DefaultTotalMessages)
	def(&l.MaxMailboxes, DefaultMaxMailboxes)
	def(&l.MaxFolders, DefaultMaxFolders)
	return l
}
