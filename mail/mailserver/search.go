package mailserver

import (
	"bytes"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
)

// searchMsg is a snapshot of one message for SEARCH. Its bytes are loaded on
// the first criterion that needs them.
type searchMsg struct {
	seq   uint32 // client view; 0 when the client does not know it yet
	uid   imap.UID
	date  time.Time
	size  int64
	flags []imap.Flag

	load func() ([]byte, error)
	raw  []byte
}

func (m *searchMsg) bytes() ([]byte, error) {
	if m.raw == nil {
		raw, err := m.load()
		if err != nil {
			return nil, err
		}
		m.raw = raw
	}
	return m.raw, nil
}

func (m *searchMsg) entity() (*gomessage.Entity, error) {
	raw, err := m.bytes()
	if err != nil {
		return nil, err
	}
	e, _ := gomessage.Read(bytes.NewReader(raw))
	if e == nil {
		e, _ = gomessage.New(gomessage.Header{}, bytes.NewReader(nil))
	}
	return e, nil
}

// match reports whether the message satisfies every criterion (RFC 3501
// section 6.4.4; the same semantics as imapmemserver).
func (m *searchMsg) match(c *imap.SearchCriteria) (bool, error) {
	for _, set := range c.SeqNum {
		if m.seq == 0 || !set.Contains(m.seq) {
			return false, nil
		}
	}
	for _, set := range c.UID {
		if !set.Contains(m.uid) {
			return false, nil
		}
	}
	if !matchDate(m.date, c.Since, c.Before) {
		return false, nil
	}
	for _, f := range c.Flag {
		if !hasFlag(m.flags, f) {
			return false, nil
		}
	}
	for _, f := range c.NotFlag {
		if hasFlag(m.flags, f) {
			return false, nil
		}
	}
	if c.Larger != 0 && m.size <= c.Larger {
		return false, nil
	}
	if c.Smaller != 0 && m.size >= c.Smaller {
		return false, nil
	}

	if len(c.Header) > 0 || !c.SentSince.IsZero() || !c.SentBefore.IsZero() {
		e, err := m.entity()
		if err != nil {
			return false, err
		}
		h := mail.Header{Header: e.Header}
		for _, hc := range c.Header {
			if !matchHeaderFields(h.FieldsByKey(hc.Key), hc.Value) {
				return false, nil
			}
		}
		if !c.SentSince.IsZero() || !c.SentBefore.IsZero() {
			t, err := h.Date()
			if err != nil || !matchDate(t, c.SentSince, c.SentBefore) {
				return false, nil
			}
		}
	}
	for _, text := range c.Text {
		e, err := m.entity()
		if err != nil {
			return false, err
		}
		if !matchEntity(e, text, true) {
			return false, nil
		}
	}
	for _, body := range c.Body {
		e, err := m.entity()
		if err != nil {
			return false, err
		}
		if !matchEntity(e, body, false) {
			return false, nil
		}
	}

	for i := range c.Not {
		ok, err := m.match(&c.Not[i])
		if err != nil || ok {
			return false, err
		}
	}
	for i := range c.Or {
		ok, err := m.match(&c.Or[i][0])
		if err != nil {
			return false, err
		}
		if !ok {
			if ok, err = m.match(&c.Or[i][1]); err != nil || !ok {
				return false, err
			}
		}
	}
	return true, nil
}

// matchDate compares dates only, ignoring time and zone, as RFC 3501 asks.
func matchDate(t, since, before time.Time) bool {
	t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if !since.IsZero() && t.Before(since) {
		return false
	}
	if !before.IsZero() && !t.Before(before) {
		return false
	}
	return true
}

func matchHeaderFields(fields gomessage.HeaderFields, pattern string) bool {
	if pattern == "" {
		return fields.Len() > 0
	}
	pattern = strings.ToLower(pattern)
	for fields.Next() {
		v, _ := fields.Text()
		if strings.Contains(strings.ToLower(v), pattern) {
			return true
		}
	}
	return false
}

// matchEntity searches the text parts of a message (and its header when
// includeHeader is set) for a case-insensitive substring.
func matchEntity(e *gomessage.Entity, pattern string, includeHeader bool) bool {
	if pattern == "" {
		return true
	}
	if includeHeader && matchHeaderFields(e.Header.Fields(), pattern) {
		return true
	}
	if mr := e.MultipartReader(); mr != nil {
		for {
			part, err := mr.NextPart()
			if err != nil {
				return false
			}
			if matchEntity(part, pattern, includeHeader) {
				return true
			}
		}
	}
	t, _, err := e.Header.ContentType()
	if err != nil {
		t = "text/plain"
	}
	if !strings.HasPrefix(t, "text/") && !strings.HasPrefix(t, "message/") {
		return false
	}
	buf, err := io.ReadAll(e.Body)
	if err != nil {
		return false
	}
	return bytes.Contains(bytes.ToLower(buf), bytes.ToLower([]byte(pattern)))
}
