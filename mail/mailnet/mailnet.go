// Package mailnet holds what turnmail's mail clients share about connecting: the
// transport security choices, the loopback rule for plain text, and the retry backoff.
package mailnet

import (
	"fmt"
	"net"
	"strings"
	"time"
)

// Transport security of a connection.
const (
	SecurityTLS      = "tls"      // implicit TLS
	SecurityStartTLS = "starttls" // plain connect, then STARTTLS (required)
	SecurityPlain    = "plain"    // no TLS: loopback only unless explicitly allowed
)

// CheckSecurity validates a security choice for a server address (host:port). Plain
// text is refused to a non-loopback host unless allowInsecure is set, so that a
// password never crosses a network in clear by accident.
func CheckSecurity(security, addr string, allowInsecure bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("server address: %w", err)
	}
	switch security {
	case SecurityTLS, SecurityStartTLS:
		return nil
	case SecurityPlain:
		if !allowInsecure && !IsLoopbackHost(host) {
			return fmt.Errorf("security %q to non-loopback host %s needs AllowInsecure", SecurityPlain, host)
		}
		return nil
	default:
		return fmt.Errorf("unknown security %q (want tls, starttls or plain)", security)
	}
}

// IsLoopbackHost reports whether host is "localhost" or a loopback IP address.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Backoff returns the delay before the next attempt after the given number of failed
// attempts (≥ 1): base·2^(attempts-1), capped at max. No jitter: schedules are
// reproducible in tests.
func Backoff(attempts int, base, max time.Duration) time.Duration {
	d := base
	for i := 1; i < attempts; i++ {
		if d >= max/2 {
			return max
		}
		d *= 2
	}
	if d > max {
		return max
	}
	return d
}

// LoginError is a server's refusal of the configured username and password (an
// IMAP NO to LOGIN, an SMTP error reply to AUTH): retrying will not help until the
// configuration changes. Its text is the server's.
type LoginError struct{ Err error }

func (e *LoginError) Error() string { return e.Err.Error() }
func (e *LoginError) Unwrap() error { return e.Err }
