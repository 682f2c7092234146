package mailserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// smtpSession is one SMTP connection. It delivers mail locally: for
// Options.Domain from anyone, for other domains from Options.Service logged in.
// Clients on loopback may send without AUTH; others must authenticate (AUTH
// PLAIN, any address, its mailbox's password). Every recipient costs its sender
// one message of Limits.MessagesPerHour and must have room in its mailbox.
type smtpSession struct {
	srv      *Server
	conn     *smtp.Conn
	lc       *limitedConn
	loopback bool
	user     string // authenticated account, "" if none

	from  string
	rcpts []string
}

var (
	_ smtp.Session     = (*smtpSession)(nil)
	_ smtp.AuthSession = (*smtpSession)(nil)
)

func (s *Server) newSMTPSession(c *smtp.Conn) (smtp.Session, error) {
	if s.ctx.Err() != nil {
		return nil, smtpShutdown
	}
	lc, ok := c.Conn().(*limitedConn)
	if !ok {
		return nil, smtpUnavailable
	}
	return &smtpSession{srv: s, conn: c, lc: lc, loopback: isLoopback(c.Conn().RemoteAddr())}, nil
}

// AuthMechanisms offers PLAIN only.
func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

// Auth checks the mailbox's password, through the login throttle (see
// Server.login); the user name must be a valid address.
func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if identity != "" && identity != username {
			username = "" // acting as another identity is not offered: a failed login
		}
		addr, err := s.srv.login(s.lc, "smtp", username, password)
		if err != nil {
			return smtpError(err)
		}
		s.user = addr
		return nil
	}), nil
}

// Mail starts a message. The null sender <> is accepted.
func (s *smtpSession) Mail(from string, opts *smtp.MailOptions) error {
	if !s.loopback && s.user == "" {
		return smtpAuthRequired
	}
	if from != "" {
		if _, err := s.srv.accountAddress(from); err != nil || !strings.Contains(from, "@") {
			return smtpBadSender
		}
	}
	if opts != nil && opts.Size > s.srv.opts.MaxMessageBytes {
		return smtpError(ErrTooLarge)
	}
	s.from = from
	s.rcpts = s.rcpts[:0]
	return nil
}

// Rcpt adds a recipient: an address at Options.Domain, or any address for the
// service logged in; its sender must have a message left of its hourly
// allowance, and its mailbox room for one more.
func (s *smtpSession) Rcpt(to string, opts *smtp.RcptOptions) error {
	addr, err := s.srv.accountAddress(to)
	if err != nil || !strings.Contains(to, "@") {
		return smtpBadRcpt
	}
	service := s.user != "" && s.user == s.srv.opts.Service
	if !service && !s.srv.ownDomain(addr) {
		s.srv.refusals.log("smtp relay denied", "from", s.from, "rcpt", addr, "user", s.user, "client", s.lc.key)
		return smtpRelayDenied
	}
	if err := s.srv.backend.room(s.srv.ctx, addr); err != nil {
		return s.refuse(err)
	}
	if !service && !s.srv.rate.Allow(s.sender()) {
		s.srv.refusals.log("smtp sending rate exceeded", "sender", s.sender())
		return smtpRateLimited
	}
	s.rcpts = append(s.rcpts, to)
	return nil
}

// sender is who the sending rate is counted for: the logged-in mailbox, or the
// client address (an envelope sender can be anything).
func (s *smtpSession) sender() string {
	if s.user != "" {
		return "user:" + s.user
	}
	return "client:" + s.lc.key
}

// refuse turns a delivery error into the SMTP reply, logging internal ones.
func (s *smtpSession) refuse(err error) error {
	reply := smtpError(err)
	if reply == smtpUnavailable {
		s.srv.logger.Error("smtp delivery failed", "from", s.from, "rcpts", s.rcpts, "err", err)
	} else {
		s.srv.refusals.log("smtp delivery refused", "from", s.from, "rcpts", s.rcpts, "err", err)
	}
	return reply
}

// Data reads the message and delivers one copy per recipient, each with a
// Return-Path (the envelope sender), a Received and a Delivered-To header, in one transaction: either every
// recipient has it or none has.
func (s *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		var smtpErr *smtp.SMTPError
		if errors.As(err, &smtpErr) {
			return err // ErrDataTooLarge
		}
		return fmt.Errorf("read DATA: %w", err)
	}
	heads := make([][]byte, len(s.rcpts))
	for i, rcpt := range s.rcpts {
		var b bytes.Buffer
		// The final delivery records the envelope sender (RFC 5321 section 4.4).
		fmt.Fprintf(&b, "Return-Path: <%s>\r\n", s.from)
		s.writeReceived(&b, rcpt)
		heads[i] = b.Bytes()
	}
	if err := s.srv.deliver(s.srv.ctx, s.rcpts, heads, raw); err != nil {
		return s.refuse(err)
	}
	s.srv.logger.Debug("smtp delivered", "from", s.from, "rcpts", s.rcpts, "bytes", len(raw))
	return nil
}

// writeReceived writes the trace header of RFC 5321 section 4.4.
func (s *smtpSession) writeReceived(b *bytes.Buffer, rcpt string) {
	ip := ""
	if tcp, ok := s.conn.Conn().RemoteAddr().(*net.TCPAddr); ok {
		ip = tcp.IP.String()
	}
	with := "ESMTP"
	if s.user != "" {
		with = "ESMTPA"
	}
	fmt.Fprintf(b, "Received: from %s ([%s])\r\n\tby %s (turnmail) with %s\r\n\tfor <%s>; %s\r\n",
		sanitizeHeader(s.conn.Hostname()), ip, s.srv.opts.Domain, with,
		sanitizeHeader(rcpt), s.srv.now().Format("Mon, 02 Jan 2006 15:04:05 -0700"))
}

// Reset forgets the current message.
func (s *smtpSession) Reset() {
	s.from = ""
	s.rcpts = nil
}

// Logout ends the session.
func (s *smtpSession) Logout() error { return nil }

// sanitizeHeader keeps client-supplied text from breaking the header.
func sanitizeHeader(v string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == '(' || r == ')' {
			return -1
		}
		return r
	}, v)
}
