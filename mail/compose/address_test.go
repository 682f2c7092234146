package compose

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckAddress(t *testing.T) {
	tests := []struct {
		addr string
		why  string // "" means usable
	}{
		{"alice@example.org", ""},
		{"alice@localhost", ""},
		{"turnmail+sw-7k3p.1.abcdefgh@example.org", ""},
		{"o'brien.x!#$%&*/=?^_`{|}~-@xn--bcher-kva.example", ""},
		{strings.Repeat("a", 64) + "@example.org", ""},
		{"a b@evil.test", "it contains a space"},
		{"a,b@evil.test", `the part before the @ contains ','`},
		{`a"b@evil.test`, `the part before the @ contains '"'`},
		{"a\x01b@evil.test", "control character"},
		{"a\x7fb@evil.test", "control character"},
		{"zoë@evil.test", "it contains 'ë'"},
		{"alice@bücher.example", "it contains 'ü'"},
		{"alice", "it has no @"},
		{"@evil.test", "nothing comes before the @"},
		{"alice@", "nothing comes after the @"},
		{".alice@evil.test", "dot"},
		{"al..ice@evil.test", "dot"},
		{"a@b@evil.test", `contains '@'`},
		{"alice@[127.0.0.1]", "is not a host name"},
		{"alice@evil..test", "is not a host name"},
		{"alice@-evil.test", "is not a host name"},
		{"alice@evil.test.", "is not a host name"},
		{"alice@evil_x.test", "is not a host name"},
		{"alice<x>@evil.test", `contains '<'`},
		{strings.Repeat("a", 65) + "@example.org", "longer than 64"},
		{"a@" + strings.Repeat("b.", 130) + "org", "longer than 254"},
	}
	for _, tt := range tests {
		err := CheckAddress(tt.addr)
		var ae *AddressError
		switch {
		case tt.why == "" && err != nil:
			t.Errorf("CheckAddress(%q) = %v, want usable", tt.addr, err)
		case tt.why != "" && (!errors.As(err, &ae) || !errors.Is(err, ErrInvalid) || !strings.Contains(ae.Reason, tt.why)):
			t.Errorf("CheckAddress(%q) = %v, want an AddressError saying %q", tt.addr, err, tt.why)
		}
	}
}

func TestParseRecipient(t *testing.T) {
	tests := []struct{ in, want, why string }{
		{"Carol@Example.ORG", "carol@example.org", ""},
		{"Carol Smith <carol@example.org>", "carol@example.org", ""},
		{`"Smith, Carol" <carol@example.org>`, "carol@example.org", ""},
		{`"a b"@victim.test`, "", "quoted local parts"},
		{`"a,b"@victim.test`, "", "quoted local parts"},
		{`"ab"@victim.test`, "", "quoted local parts"},
		{"a,b@victim.test", "", "not a mail address"},
		{"carol@[127.0.0.1]", "", "is not a host name"},
		{"", "", "not a mail address"},
	}
	for _, tt := range tests {
		got, err := ParseRecipient(tt.in)
		var ae *AddressError
		if tt.why == "" {
			if err != nil || got != tt.want {
				t.Errorf("ParseRecipient(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			continue
		}
		if !errors.As(err, &ae) || !strings.Contains(ae.Reason, tt.why) || ae.Address != tt.in {
			t.Errorf("ParseRecipient(%q) = %q, %v; want an AddressError saying %q", tt.in, got, err, tt.why)
		}
	}
}

func TestValidMessageID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"<a@b>", true},
		{"a@b", true},
		{"<CAHk-=wg+x_y.z$%/@mail.gmail.com>", true},
		{"<sw-7k3p.0123456789abcdef@games.example>", true},
		{"<" + strings.Repeat("x", 248) + "@b>", true},
		{"<" + strings.Repeat("x", 249) + "@b>", false},
		{"<a b@evil.test>", false},
		{"<a\tb@evil.test>", false},
		{"<a\x01b@evil.test>", false},
		{"<a@b\r\nBcc: x@y>", false},
		{"<ab>", false},
		{"<@b>", false},
		{"<a@>", false},
		{"<a@b@c>", false},
		{"<a<b@c>", false},
		{`<"a"@b>`, false},
		{"<a@[127.0.0.1]>", false},
		{"<zoë@b>", false},
		{"", false},
		{"<>", false},
	}
	for _, tt := range tests {
		if got := ValidMessageID(tt.id); got != tt.want {
			t.Errorf("ValidMessageID(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}

// FuzzHeaders builds answers to random header values as the service does: an
// address is a recipient only when CheckAddress accepts it, a message id is
// echoed only when ValidMessageID accepts it, names and subjects are one line.
// Build never fails on such validated input, and what it writes reads back.
func FuzzHeaders(f *testing.F) {
	for _, s := range [][4]string{
		{"alice@example.org", "<a@b>", "Alice", "Your move"},
		{`"a b"@evil.test`, "<a b@evil.test>", "Évil\x1b[2J", "Re: \x00"},
		{"a,b@victim.test", "<" + strings.Repeat("x", 300) + "@y>", "Smith, \"Al\"", "=?utf-8?q?x?="},
		{"zoë@evil.test", "<a@b@c>", "", "🎲 roll"},
		{"a@b", "<a@b>", strings.Repeat("=?", 300), strings.Repeat("=?é ", 300)},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, addr, id, name, subject string) {
		if !utf8.ValidString(name) || !utf8.ValidString(subject) {
			return // templates and parse produce UTF-8 text
		}
		m := base()
		m.Subject = strings.Join(strings.Fields(subject), " ") // as templates.Set.Subject
		m.To = []Address{{Name: strings.Join(strings.Fields(name), " "), Address: "p@example.org"}}
		if CheckAddress(addr) == nil {
			m.To = append(m.To, Address{Address: addr})
		}
		if ValidMessageID(id) {
			m.InReplyTo = id
			m.References = []string{"<root@example.org>", id}
		}
		raw, err := Build(m)
		if err != nil {
			t.Fatalf("Build of validated input: %v", err)
		}
		h, _, _ := parse(t, raw)
		to := addrs(t, h, "To")
		if len(to) != len(m.To) || to[len(to)-1].Address != m.To[len(m.To)-1].Address {
			t.Errorf("To = %v, want %v", to, m.To)
		}
		if got, err := h.Subject(); err != nil || got != m.Subject {
			t.Errorf("Subject = %q, %v; want %q", got, err, m.Subject)
		}
		if m.InReplyTo != "" {
			if got, err := h.MsgIDList("In-Reply-To"); err != nil || len(got) != 1 || got[0] != trimID(m.InReplyTo) {
				t.Errorf("In-Reply-To = %q, %v; want %q", got, err, m.InReplyTo)
			}
		}
	})
}
