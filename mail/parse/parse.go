// Package parse turns the raw bytes of an incoming mail into what turnmail acts on:
// the threading and addressing headers the authentication layer inspects, whether
// the mail was generated automatically (and so must never be answered), the reply
// text the player wrote, and the command lines taken from it.
//
// Parsing never fails on malformed mail: a broken MIME structure, an unknown charset
// or a bad transfer encoding degrades to the best text that can be recovered, and a
// mail without any text yields a Message with an empty Reply. Only a mail larger than
// Options.MaxSize is refused, with ErrTooLarge.
package parse

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-message/mail"
)

// DefaultMaxSize is the largest mail Parse accepts when Options.MaxSize is not set.
const DefaultMaxSize = 1 << 20

// ErrTooLarge is returned (wrapped) by Parse for a mail larger than Options.MaxSize.
var ErrTooLarge = errors.New("parse: mail too large")

// Options tune Parse. The zero value and nil mean the defaults.
type Options struct {
	// MaxSize is the largest raw mail accepted, in bytes; 0 or less means
	// DefaultMaxSize.
	MaxSize int
}

// Address is a mailbox from an address header.
type Address struct {
	// Name is the display name, decoded; it may be empty.
	Name string
	// Address is the addr-spec. The domain is always lower-cased; the local part
	// is lower-cased for senders (From, Reply-To, Return-Path) and kept as sent
	// for recipients, whose local part may carry a case-sensitive reply token.
	Address string
}

// String formats the address as `Name <address>`, or the bare address.
func (a Address) String() string {
	if a.Name == "" {
		return a.Address
	}
	return fmt.Sprintf("%q <%s>", a.Name, a.Address)
}

// Message is a parsed incoming mail.
type Message struct {
	// Header is the mail's top-level header, for anything not lifted into a field.
	Header mail.Header

	// MessageID is the Message-ID without angle brackets; empty if missing.
	MessageID string
	// InReplyTo is the first message id of In-Reply-To, without angle brackets.
	InReplyTo string
	// References are the message ids of References, oldest first.
	References []string

	// From is the author. Its Address is empty if the header is missing or holds
	// no address.
	From Address
	// ReplyTo holds the Reply-To addresses.
	ReplyTo []Address
	// To and Cc hold the visible recipients.
	To, Cc []Address
	// DeliveredTo holds every Delivered-To address, top (latest) first: where a
	// server rewrote the recipient, the original plus-address is here. Domains are
	// lower-cased, local parts kept as sent.
	DeliveredTo []string
	// OriginalTo holds every X-Original-To address, like DeliveredTo.
	OriginalTo []string
	// ReturnPath is the Return-Path address (lower-cased), "<>" for the null
	// reverse path of bounces, empty if the header is missing.
	ReturnPath string

	// Subject is the decoded subject.
	Subject string
	// Date is the Date header; zero if missing or unparseable.
	Date time.Time

	// Auto is why the mail is considered automatically generated (an
	// Auto-Submitted header, Precedence bulk or junk, a MAILER-DAEMON sender, a
	// delivery report, an out-of-office subject …); empty when a person wrote it.
	// Such mail must never be answered.
	Auto string
	// Precedence is the lower-cased Precedence header ("bulk", "list" …).
	Precedence string
	// ListID is the List-Id identifier without angle brackets
	// ("game7.lists.example.org"); mail through a mailing list has one. It does
	// not make the mail automatic.
	ListID string
	// IsDSN reports a delivery status notification (bounce): multipart/report
	// with report-type delivery-status, or a message/delivery-status part.
	IsDSN bool
	// DSN is what the delivery status notification says; nil unless IsDSN.
	DSN *DSN

	// Body is the text the reply was taken from: the text/plain part, or the
	// text/html part converted to text when there is no plain text. Line ends are
	// "\n".
	Body string
	// BodyHTML reports that Body was converted from HTML.
	BodyHTML bool

	// Reply is the text the sender wrote, as written: quoted history,
	// attributions, header blocks, signatures and everything from a line "end" on
	// are removed; interior blank lines and comments are kept; trailing white
	// space is trimmed from every line and blank lines from both ends.
	Reply string
	// Commands are the command lines of Reply (see CommandLines).
	Commands []Line
}

// Recipients returns every recipient-ish address the mail carries — To, Cc,
// Delivered-To and X-Original-To — without duplicates, in that order (domains
// lower-cased, local parts as sent).
// The authentication layer looks for its reply token among them.
func (m *Message) Recipients() []string {
	var out []string
	seen := map[string]bool{}
	add := func(a string) {
		if a != "" && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	for _, a := range m.To {
		add(a.Address)
	}
	for _, a := range m.Cc {
		add(a.Address)
	}
	for _, a := range m.DeliveredTo {
		add(a)
	}
	for _, a := range m.OriginalTo {
		add(a)
	}
	return out
}

// Parse parses a raw mail (RFC 5322, with MIME). opts may be nil. The only error is
// ErrTooLarge (wrapped); malformed mail is parsed as well as it can be.
func Parse(raw []byte, opts *Options) (*Message, error) {
	max := DefaultMaxSize
	if opts != nil && opts.MaxSize > 0 {
		max = opts.MaxSize
	}
	if len(raw) > max {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, len(raw), max)
	}

	h, body := readHeader(raw)
	m := &Message{Header: mail.Header{Header: messageHeader(h)}}
	m.readHeaders()

	content := walk(h, body, 0, &walkState{})
	if content.dsn {
		m.IsDSN = true
		m.DSN = readDSN(&m.Header, content.dsnParts)
	}
	if text := strings.Join(content.plain, "\n"); strings.TrimSpace(text) != "" {
		m.Body = cleanText(text)
	} else if len(content.html) > 0 {
		m.Body = cleanText(HTMLToText(strings.Join(content.html, "\n")))
		m.BodyHTML = true
	} else {
		m.Body = cleanText(text)
	}
	m.Auto = autoReason(m, content)
	m.Reply = ExtractReply(m.Body)
	m.Commands = CommandLines(m.Reply)
	return m, nil
}

// readHeaders fills the header fields of m from m.Header.
func (m *Message) readHeaders() {
	h := &m.Header
	if id, err := h.MessageID(); err == nil {
		m.MessageID = id
	} else {
		m.MessageID = looseMsgID(h.Get("Message-Id"))
	}
	if ids := msgIDList(h, "In-Reply-To"); len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	m.References = msgIDList(h, "References")

	if from := addressList(h, "From", true); len(from) > 0 {
		m.From = from[0]
	}
	m.ReplyTo = addressList(h, "Reply-To", true)
	m.To = addressList(h, "To", false)
	m.Cc = addressList(h, "Cc", false)
	m.DeliveredTo = bareAddresses(h, "Delivered-To", false)
	m.OriginalTo = bareAddresses(h, "X-Original-To", false)
	if rp := strings.TrimSpace(h.Get("Return-Path")); rp != "" {
		if strings.ReplaceAll(rp, " ", "") == "<>" {
			m.ReturnPath = "<>"
		} else if a := bareAddresses(h, "Return-Path", true); len(a) > 0 {
			m.ReturnPath = a[0]
		}
	}

	if s, err := h.Subject(); err == nil {
		m.Subject = s
	} else {
		m.Subject = h.Get("Subject")
	}
	m.Subject = strings.Join(strings.Fields(toUTF8([]byte(m.Subject), "")), " ")
	if d, err := h.Date(); err == nil {
		m.Date = d
	}
	m.Precedence = strings.ToLower(strings.TrimSpace(h.Get("Precedence")))
	m.ListID = listID(h.Get("List-Id"))
}

// listID extracts the identifier from a List-Id value (`Game 7 <game7.example.org>`).
func listID(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.LastIndexByte(v, '<'); i >= 0 {
		if j := strings.IndexByte(v[i:], '>'); j > 0 {
			return strings.TrimSpace(v[i+1 : i+j])
		}
	}
	return v
}

// msgIDList parses a list of message ids, falling back to anything between angle
// brackets (or whitespace-separated words) when the strict parser fails.
func msgIDList(h *mail.Header, key string) []string {
	if ids, err := h.MsgIDList(key); err == nil {
		return ids
	}
	v := h.Get(key)
	var ids []string
	for _, f := range strings.FieldsFunc(v, func(r rune) bool {
		return r == '<' || r == '>' || r == ' ' || r == '\t' || r == ',' || r == '\r' || r == '\n'
	}) {
		if strings.Contains(f, "@") {
			ids = append(ids, f)
		}
	}
	return ids
}

// looseMsgID returns a Message-ID value without brackets and white space.
func looseMsgID(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, '<'); i >= 0 {
		v = v[i+1:]
		if j := strings.IndexByte(v, '>'); j >= 0 {
			v = v[:j]
		}
	}
	return strings.TrimSpace(v)
}

// addressList parses every field named key as an address list. When the strict
// parser fails, addresses are picked out of the decoded text. lower lower-cases
// the local parts too.
func addressList(h *mail.Header, key string, lower bool) []Address {
	var out []Address
	fields := h.FieldsByKey(key)
	for fields.Next() {
		v := fields.Value()
		if list, err := mail.ParseAddressList(v); err == nil {
			for _, a := range list {
				if a.Address == "" {
					continue
				}
				out = append(out, Address{
					Name:    strings.TrimSpace(toUTF8([]byte(a.Name), "")),
					Address: canonicalAddress(toUTF8([]byte(a.Address), ""), lower),
				})
			}
			continue
		}
		text, err := fields.Text()
		if err != nil {
			text = v
		}
		for _, a := range looseAddresses(text, lower) {
			out = append(out, Address{Address: a})
		}
	}
	return out
}

// bareAddresses parses every field named key as one addr-spec each (Delivered-To,
// X-Original-To, Return-Path, Sender).
func bareAddresses(h *mail.Header, key string, lower bool) []string {
	var out []string
	fields := h.FieldsByKey(key)
	for fields.Next() {
		v := fields.Value()
		if a, err := mail.ParseAddress(v); err == nil && a.Address != "" {
			out = append(out, canonicalAddress(a.Address, lower))
			continue
		}
		out = append(out, looseAddresses(v, lower)...)
	}
	return out
}

// canonicalAddress lower-cases the domain of addr, and its local part when lower.
func canonicalAddress(addr string, lower bool) string {
	if lower {
		return strings.ToLower(addr)
	}
	i := strings.LastIndexByte(addr, '@')
	if i < 0 {
		return addr
	}
	return addr[:i+1] + strings.ToLower(addr[i+1:])
}

// looseAddresses picks everything that looks like local@domain out of s.
func looseAddresses(s string, lower bool) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return strings.ContainsRune(" \t\r\n<>,;\"'()[]", r)
	}) {
		if i := strings.IndexByte(f, '@'); i > 0 && i < len(f)-1 {
			out = append(out, canonicalAddress(strings.TrimSuffix(f, "."), lower))
		}
	}
	return out
}

// cleanText normalises line ends to LF and removes control characters other than
// tab and newline, invisible zero-width characters (byte-order marks, zero-width
// spaces) that would split a command word, and bidirectional formatting characters
// (marks, embeddings, overrides, isolates), which clients of right-to-left scripts
// insert around text and which would both break a command and be echoed back.
func cleanText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r < 0x20 && r != '\t' && r != '\n', r == 0x7f:
			return -1
		case r == '\ufeff', r == '\u200b', r == '\u200c', r == '\u200d', r == '\u2060':
			return -1
		case r == '\u200e', r == '\u200f', r == '\u061c', r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
			return -1
		}
		return r
	}, normalizeNewlines(s))
}

// normalizeNewlines turns CRLF and CR line ends into LF.
func normalizeNewlines(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}
