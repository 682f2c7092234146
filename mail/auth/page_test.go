package auth

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

func TestPageToken_format(t *testing.T) {
	tok := PageToken(secret, "sw-7k3p", 2, 1)
	if !regexp.MustCompile(`^sw-7k3p\.2\.1\.[a-z2-7]{26}$`).MatchString(tok) {
		t.Fatalf("PageToken = %q, want sw-7k3p.2.1.<26 base32 chars>", tok)
	}
	if PageToken(secret, "sw-7k3p", 2, 1) != tok {
		t.Error("PageToken is not deterministic")
	}
	for _, other := range []string{PageToken([]byte("other secret"), "sw-7k3p", 2, 1), PageToken(secret, "sw-7k3p", 2, 2),
		PageToken(secret, "sw-7k3p", 3, 1), PageToken(secret, "sw-7k3q", 2, 1)} {
		if other[strings.LastIndexByte(other, '.'):] == tok[strings.LastIndexByte(tok, '.'):] {
			t.Errorf("%q has the MAC of %q", other, tok)
		}
	}
	// A page token is no reply token, and a reply token no page token.
	if _, _, err := Parse(secret, tok); err == nil {
		t.Errorf("Parse accepted the page token %q", tok)
	}
	if _, _, _, err := ParsePage(secret, Token(secret, "sw-7k3p", 2)); err == nil {
		t.Error("ParsePage accepted a reply token")
	}
}

func TestParsePage(t *testing.T) {
	good := PageToken(secret, "sw-7k3p", 2, 1)
	mac := good[strings.LastIndexByte(good, '.')+1:]
	tests := []struct {
		name        string
		token       string
		game        string
		seat, epoch int
		err         error
	}{
		{"valid", good, "sw-7k3p", 2, 1, nil},
		{"upper case", strings.ToUpper(good), "sw-7k3p", 2, 1, nil},
		{"epoch zero", PageToken(secret, "e8-aa11", 0, 0), "e8-aa11", 0, 0, nil},
		{"older epoch", "sw-7k3p.2.0." + mac, "", 0, 0, ErrBadMAC},
		{"other seat", "sw-7k3p.3.1." + mac, "", 0, 0, ErrBadMAC},
		{"other game", "sw-7k3q.2.1." + mac, "", 0, 0, ErrBadMAC},
		{"other secret", PageToken([]byte("x"), "sw-7k3p", 2, 1), "", 0, 0, ErrBadMAC},
		{"empty", "", "", 0, 0, ErrMalformed},
		{"three parts", "sw-7k3p.2." + mac, "", 0, 0, ErrMalformed},
		{"short mac", "sw-7k3p.2.1." + mac[1:], "", 0, 0, ErrMalformed},
		{"negative seat", "sw-7k3p.-2.1." + mac, "", 0, 0, ErrMalformed},
		{"leading zero", "sw-7k3p.02.1." + mac, "", 0, 0, ErrMalformed},
		{"huge epoch", "sw-7k3p.2.99999999999999999999." + mac, "", 0, 0, ErrMalformed},
		{"bad game id", "sw_7k3p.2.1." + mac, "", 0, 0, ErrMalformed},
		{"slash", "sw-7k3p/2.1." + mac, "", 0, 0, ErrMalformed},
		{"very long", strings.Repeat("a", 10000), "", 0, 0, ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, s, e, err := ParsePage(secret, tc.token)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil || g != tc.game || s != tc.seat || e != tc.epoch {
				t.Fatalf("= %q %d %d %v, want %q %d %d", g, s, e, err, tc.game, tc.seat, tc.epoch)
			}
		})
	}
}
