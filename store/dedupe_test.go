package store

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// noIDMail is a mail without Message-ID as a server delivers it: trace fields
// first, then what the sender wrote.
func noIDMail(trace, from, subject, body string) []byte {
	return []byte(trace + "From: " + from + "\r\nTo: turnmail+g.0.x@games.example\r\nDate: Sun, 22 Nov 2026 12:00:00 +0000\r\nSubject: " + subject + "\r\n\r\n" + body)
}

func TestDedupeKey_content(t *testing.T) {
	base := noIDMail("Received: from a by b; Sun, 22 Nov 2026 12:00:01 +0000\r\nDelivered-To: turnmail@games.example\r\n", "alice@example.org", "Re: move", "add 1\r\n")
	key := DedupeKey("", base)
	if !strings.HasPrefix(key, "content:") {
		t.Fatalf("key %q, want a content key", key)
	}
	tests := []struct {
		name string
		raw  []byte
		same bool
	}{
		{"other trace fields", noIDMail("Return-Path: <alice@example.org>\r\nReceived: from c by d; Sun, 22 Nov 2026 12:00:09 +0000\r\nReceived: from e\r\n\tby f; Sun, 22 Nov 2026 12:00:08 +0000\r\nDelivered-To: x@games.example\r\nX-Original-To: turnmail+g.0.x@games.example\r\n", "alice@example.org", "Re: move", "add 1\r\n"), true},
		{"no trace fields", noIDMail("", "alice@example.org", "Re: move", "add 1\r\n"), true},
		{"line ends rewritten", []byte(strings.ReplaceAll(string(noIDMail("", "alice@example.org", "Re: move", "add 1\r\n")), "\r\n", "\n")), true},
		{"a trailing blank line added", noIDMail("", "alice@example.org", "Re: move", "add 1\r\n\r\n"), true},
		{"other body", noIDMail("", "alice@example.org", "Re: move", "add 2\r\n"), false},
		{"other sender", noIDMail("", "bob@example.org", "Re: move", "add 1\r\n"), false},
		{"other subject", noIDMail("", "alice@example.org", "Re: move 2", "add 1\r\n"), false},
		{"other date", []byte(strings.Replace(string(base), "12:00:00", "12:00:01", 1)), false},
		{"a Cc", []byte(strings.Replace(string(base), "Subject:", "Cc: bob@example.org\r\nSubject:", 1)), false},
	}
	for _, tt := range tests {
		if got := DedupeKey("", tt.raw); (got == key) != tt.same {
			t.Errorf("%s: key %q, base %q; same = %v, want %v", tt.name, got, key, got == key, tt.same)
		}
	}
	if got := DedupeKey("<a@b>", base); got != "<a@b>" {
		t.Errorf("with a Message-ID: key %q, want <a@b>", got)
	}
	if got := DedupeKey("", []byte("no header\x00")); got != rawDedupeKey([]byte("no header\x00")) {
		t.Errorf("unreadable header: key %q, want the raw key", got)
	}
}

// TestInboxOf_rawKeyedRow: a mail stored under the raw key (before content keys)
// is found when the same bytes come again, by InboxOf and by AddInbox.
func TestInboxOf_rawKeyedRow(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	raw := noIDMail("Received: from a by b\r\n", "alice@example.org", "Re: move", "add 1\r\n")
	id, _, err := s.AddInbox(ctx, InboxMsg{DedupeKey: rawDedupeKey(raw), Raw: raw})
	if err != nil {
		t.Fatal(err)
	}
	m := InboxMsg{DedupeKey: DedupeKey("", raw), Raw: raw}
	if got, err := s.InboxOf(ctx, m); err != nil || got.ID != id {
		t.Fatalf("InboxOf = %d, %v; want %d", got.ID, err, id)
	}
	if got, dup, err := s.AddInbox(ctx, InboxMsg{Raw: raw}); err != nil || !dup || got != id {
		t.Fatalf("AddInbox = %d, %v, %v; want the duplicate %d", got, dup, err, id)
	}
	other := InboxMsg{DedupeKey: DedupeKey("", append(raw, "x"...)), Raw: append(raw, "x"...)}
	if _, err := s.InboxOf(ctx, other); !errors.Is(err, ErrNotFound) {
		t.Fatal("InboxOf found another mail")
	}
}
