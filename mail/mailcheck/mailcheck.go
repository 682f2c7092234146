// Package mailcheck logs in to an IMAP or SMTP server once, the way turnmail's mail
// clients do, and says which step failed: the name lookup, the connection, TLS, the
// greeting or the login (turnmail config check --connect).
package mailcheck

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/turnmail/turnmail/mail/mailnet"
)

// Steps of a check, in order.
const (
	StepDNS      = "DNS"      // the host name does not resolve
	StepConnect  = "connect"  // no TCP connection
	StepTLS      = "TLS"      // the TLS handshake (or STARTTLS) failed
	StepGreeting = "greeting" // the server did not speak the protocol
	StepLogin    = "login"    // the server refused the username and password
)

// Server is what to check.
type Server struct {
	// Addr is host:port; Security is mailnet.SecurityTLS, SecurityStartTLS or
	// SecurityPlain.
	Addr, Security string
	// Username and Password log in; an empty Username skips the SMTP login (the
	// embedded server lets loopback clients send without one).
	Username, Password string
	// TLSConfig is cloned for the handshake (nil: the system's roots).
	TLSConfig *tls.Config
	// Timeout bounds the whole check (default 15 s).
	Timeout time.Duration
}

// Error is a failed check: the step, the server and the cause.
type Error struct {
	Step, Addr string
	Err        error
}

func (e *Error) Error() string { return fmt.Sprintf("%s %s failed: %v", e.Addr, e.Step, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// IMAP connects to s, logs in and logs out. The error is an *Error.
func IMAP(ctx context.Context, s Server) error {
	conn, tlsConfig, cancel, err := dial(ctx, &s)
	if err != nil {
		return err
	}
	defer cancel()
	defer conn.Close()
	opts := &imapclient.Options{TLSConfig: tlsConfig}
	var c *imapclient.Client
	if s.Security == mailnet.SecurityStartTLS {
		if c, err = imapclient.NewStartTLS(conn, opts); err != nil {
			return &Error{StepTLS, s.Addr, fmt.Errorf("STARTTLS: %w", err)}
		}
	} else {
		c = imapclient.New(conn, opts)
	}
	defer c.Close()
	if err := c.WaitGreeting(); err != nil {
		return &Error{StepGreeting, s.Addr, err}
	}
	if err := c.Login(s.Username, s.Password).Wait(); err != nil {
		var refused *imap.Error
		if errors.As(err, &refused) {
			return &Error{StepLogin, s.Addr, fmt.Errorf("as %s: %w", s.Username, err)}
		}
		return &Error{StepGreeting, s.Addr, err}
	}
	_ = c.Logout().Wait()
	return nil
}

// SMTP connects to s, says EHLO, logs in (when s.Username is set) and quits. The
// error is an *Error.
func SMTP(ctx context.Context, s Server) error {
	conn, tlsConfig, cancel, err := dial(ctx, &s)
	if err != nil {
		return err
	}
	defer cancel()
	defer conn.Close()
	var c *smtp.Client
	if s.Security == mailnet.SecurityStartTLS {
		if c, err = smtp.NewClientStartTLS(conn, tlsConfig); err != nil {
			return &Error{StepTLS, s.Addr, fmt.Errorf("STARTTLS: %w", err)}
		}
	} else {
		c = smtp.NewClient(conn)
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return &Error{StepGreeting, s.Addr, err}
	}
	if err := c.Noop(); err != nil { // runs the greeting and EHLO now
		return &Error{StepGreeting, s.Addr, err}
	}
	if s.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", s.Username, s.Password)); err != nil {
			var refused *smtp.SMTPError
			if errors.As(err, &refused) {
				return &Error{StepLogin, s.Addr, fmt.Errorf("as %s: %w", s.Username, err)}
			}
			return &Error{StepGreeting, s.Addr, err}
		}
	}
	_ = c.Quit()
	return nil
}

// dial resolves the host, connects and, for implicit TLS, shakes hands. The
// connection's deadline is the check's; cancel releases the timer.
func dial(ctx context.Context, s *Server) (net.Conn, *tls.Config, context.CancelFunc, error) {
	if s.Timeout <= 0 {
		s.Timeout = 15 * time.Second
	}
	host, _, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return nil, nil, nil, &Error{StepConnect, s.Addr, err}
	}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	fail := func(step string, err error) (net.Conn, *tls.Config, context.CancelFunc, error) {
		cancel()
		return nil, nil, nil, &Error{step, s.Addr, err}
	}
	if net.ParseIP(host) == nil {
		if _, err := net.DefaultResolver.LookupHost(ctx, host); err != nil {
			return fail(StepDNS, err)
		}
	}
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", s.Addr)
	if err != nil {
		return fail(StepConnect, err)
	}
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	tlsConfig := &tls.Config{}
	if s.TLSConfig != nil {
		tlsConfig = s.TLSConfig.Clone()
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName = host
	}
	if s.Security == mailnet.SecurityTLS {
		tc := tls.Client(conn, tlsConfig)
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return fail(StepTLS, err)
		}
		conn = tc
	}
	return conn, tlsConfig, cancel, nil
}
