package auth

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

var secret = []byte("test secret, not for production")

func TestToken_format(t *testing.T) {
	tok := Token(secret, "sw-7k3p", 2)
	if !regexp.MustCompile(`^sw-7k3p\.2\.[a-z2-7]{16}$`).MatchString(tok) {
		t.Fatalf("Token = %q, want sw-7k3p.2.<16 base32 chars>", tok)
	}
	if tok != strings.ToLower(tok) {
		t.Errorf("Token %q is not lowercase", tok)
	}
	if again := Token(secret, "sw-7k3p", 2); again != tok {
		t.Errorf("Token not deterministic: %q vs %q", again, tok)
	}
	if other := Token([]byte("other secret"), "sw-7k3p", 2); other == tok {
		t.Errorf("Token does not depend on the secret")
	}
}

func TestReplyAddress(t *testing.T) {
	got := ReplyAddress("turnmail", "example.org", "sw-7k3p.2.abcdefghijklmnop")
	if want := "turnmail+sw-7k3p.2.abcdefghijklmnop@example.org"; got != want {
		t.Errorf("ReplyAddress = %q, want %q", got, want)
	}
}

func TestParse(t *testing.T) {
	good := Token(secret, "sw-7k3p", 2)
	mac := good[strings.LastIndexByte(good, '.')+1:]
	tampered := []byte(good)
	if tampered[len(tampered)-1] == 'a' {
		tampered[len(tampered)-1] = 'b'
	} else {
		tampered[len(tampered)-1] = 'a'
	}

	tests := []struct {
		name     string
		token    string
		wantGame string
		wantSeat int
		wantErr  error
	}{
		{"valid", good, "sw-7k3p", 2, nil},
		{"uppercase mangled", strings.ToUpper(good), "sw-7k3p", 2, nil},
		{"surrounding space", "  " + good + " ", "sw-7k3p", 2, nil},
		{"seat zero", Token(secret, "e8-aa11", 0), "e8-aa11", 0, nil},
		{"tampered mac", string(tampered), "", 0, ErrBadMAC},
		{"wrong game", "sw-7k3q.2." + mac, "", 0, ErrBadMAC},
		{"wrong seat", "sw-7k3p.3." + mac, "", 0, ErrBadMAC},
		{"other secret", Token([]byte("x"), "sw-7k3p", 2), "", 0, ErrBadMAC},
		{"empty", "", "", 0, ErrMalformed},
		{"no dots", "sw-7k3p", "", 0, ErrMalformed},
		{"no seat", "sw-7k3p." + mac, "", 0, ErrMalformed},
		{"empty game", ".2." + mac, "", 0, ErrMalformed},
		{"bad game chars", "sw_7k3p.2." + mac, "", 0, ErrMalformed},
		{"negative seat", "sw-7k3p.-1." + mac, "", 0, ErrMalformed},
		{"seat with leading zero", "sw-7k3p.02." + mac, "", 0, ErrMalformed},
		{"seat with plus", "sw-7k3p.+2." + mac, "", 0, ErrMalformed},
		{"short mac", "sw-7k3p.2." + mac[:15], "", 0, ErrMalformed},
		{"long mac", "sw-7k3p.2." + mac + "a", "", 0, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			game, seat, err := Parse(secret, tt.token)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Parse(%q) error = %v, want %v", tt.token, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q) error = %v", tt.token, err)
			}
			if game != tt.wantGame || seat != tt.wantSeat {
				t.Errorf("Parse(%q) = %q, %d; want %q, %d", tt.token, game, seat, tt.wantGame, tt.wantSeat)
			}
		})
	}
}

func TestVerify(t *testing.T) {
	tok := Token(secret, "sw-7k3p", 2)
	tests := []struct {
		name  string
		game  string
		seat  int
		token string
		want  bool
	}{
		{"valid", "sw-7k3p", 2, tok, true},
		{"uppercase", "sw-7k3p", 2, strings.ToUpper(tok), true},
		{"wrong game", "sw-7k3q", 2, tok, false},
		{"wrong seat", "sw-7k3p", 1, tok, false},
		{"tampered", "sw-7k3p", 2, tok[:len(tok)-1] + "x", false},
		{"empty", "sw-7k3p", 2, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Verify(secret, tt.game, tt.seat, tt.token); got != tt.want {
				t.Errorf("Verify(%q, %d, %q) = %v, want %v", tt.game, tt.seat, tt.token, got, tt.want)
			}
		})
	}
}

func TestTokenFrom(t *testing.T) {
	tok := Token(secret, "sw-7k3p", 2)
	tests := []struct {
		name   string
		addr   string
		want   string
		wantOK bool
	}{
		{"bare", "turnmail+" + tok + "@example.org", tok, true},
		{"name-addr", `"Small World" <turnmail+` + tok + `@example.org>`, tok, true},
		{"uppercase mangled", strings.ToUpper("turnmail+" + tok + "@example.org"), tok, true},
		{"missing detail", "turnmail@example.org", "", false},
		{"empty detail", "turnmail+@example.org", "", false},
		{"other local", "alice+" + tok + "@example.org", "", false},
		{"local prefix only", "turnmailx+" + tok + "@example.org", "", false},
		{"other domain", "turnmail+" + tok + "@example.com", "", false},
		{"no at", "turnmail+" + tok, "", false},
		{"garbage", "<<<", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := TokenFrom(tt.addr, "turnmail", "example.org")
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("TokenFrom(%q) = %q, %v; want %q, %v", tt.addr, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// TestRoundTrip follows a token through the whole path: address built,
// mangled to uppercase by a mail system, extracted and parsed.
func TestRoundTrip(t *testing.T) {
	addr := ReplyAddress("turnmail", "example.org", Token(secret, "sw-7k3p", 3))
	mangled := strings.ToUpper(addr)
	tok, ok := TokenFrom(mangled, "turnmail", "example.org")
	if !ok {
		t.Fatalf("TokenFrom(%q) not ok", mangled)
	}
	game, seat, err := Parse(secret, tok)
	if err != nil || game != "sw-7k3p" || seat != 3 {
		t.Fatalf("Parse = %q, %d, %v; want sw-7k3p, 3, nil", game, seat, err)
	}
	if !regexp.MustCompile(`^[a-z0-9.-]+$`).MatchString(tok) {
		t.Errorf("token %q has characters outside [a-z0-9.-]", tok)
	}
}

// TestMailboxPassword: each address has its own password, the same however the
// address is cased, another under another secret, and none equals a reply token's MAC.
func TestMailboxPassword(t *testing.T) {
	alice := MailboxPassword(secret, "alice@turnmail.localhost")
	if !regexp.MustCompile(`^[a-z2-7]{16}$`).MatchString(alice) {
		t.Fatalf("MailboxPassword = %q, want 16 base32 characters", alice)
	}
	tests := []struct {
		name   string
		secret []byte
		addr   string
		same   bool
	}{
		{"same address", secret, "alice@turnmail.localhost", true},
		{"other case and spaces", secret, " Alice@TurnMail.localhost ", true},
		{"other address", secret, "bob@turnmail.localhost", false},
		{"other secret", []byte("another secret"), "alice@turnmail.localhost", false},
	}
	for _, tt := range tests {
		if got := MailboxPassword(tt.secret, tt.addr); (got == alice) != tt.same {
			t.Errorf("%s: %q, same as alice's %v, want %v", tt.name, got, got == alice, tt.same)
		}
	}
	if strings.HasSuffix(Token(secret, "alice@turnmail.localhost", 0), alice) {
		t.Error("a mailbox password equals a reply token MAC")
	}
}

// TestBounceToken: a return-path token names its mail and verifies only for that
// mail's recipient under the same secret; anything else is not a token.
func TestBounceToken(t *testing.T) {
	tok := BounceToken(secret, 42, "Bob@Example.org")
	if !regexp.MustCompile(`^bounce-42-[a-z2-7]{16}$`).MatchString(tok) {
		t.Fatalf("BounceToken = %q", tok)
	}
	tests := []struct {
		name   string
		token  string
		id     int64 // 0: not a token
		secret []byte
		rcpt   string
		valid  bool
	}{
		{"genuine", tok, 42, secret, "bob@example.org", true},
		{"upper-cased by a mail system", strings.ToUpper(tok), 42, secret, "bob@example.org", true},
		{"another recipient", tok, 42, secret, "ann@example.org", false},
		{"another secret", tok, 42, []byte("other"), "bob@example.org", false},
		{"another id", "bounce-43-" + tok[len("bounce-42-"):], 43, secret, "bob@example.org", false},
		{"leading zero", "bounce-042-" + tok[len("bounce-42-"):], 0, secret, "", false},
		{"no mac", "bounce-42", 0, secret, "", false},
		{"short mac", "bounce-42-abc", 0, secret, "", false},
		{"negative id", "bounce--42-" + tok[len("bounce-42-"):], 0, secret, "", false},
		{"a reply token", Token(secret, "sw-7k3p", 2), 0, secret, "", false},
		{"huge id", "bounce-99999999999999999999-" + tok[len("bounce-42-"):], 0, secret, "", false},
	}
	for _, tt := range tests {
		id, ok := BounceID(tt.token)
		if ok != (tt.id != 0) || id != tt.id {
			t.Errorf("%s: BounceID(%q) = %d, %v; want %d", tt.name, tt.token, id, ok, tt.id)
			continue
		}
		if ok && VerifyBounce(tt.secret, tt.token, id, tt.rcpt) != tt.valid {
			t.Errorf("%s: VerifyBounce = %v, want %v", tt.name, !tt.valid, tt.valid)
		}
	}
}

// TestParseKind: host and confirmation tokens verify as their own kind only; a
// seat token, a token of one kind with the other kind's middle part, a tampered
// MAC or another secret's token do not.
func TestParseKind(t *testing.T) {
	secret, other := []byte("0123456789abcdef0123"), []byte("another secret 0123456")
	host, confirm := HostToken(secret, "sw-7k3p"), ConfirmToken(secret, "abcdefgh23456789")
	swap := func(tok, from, to string) string { return strings.Replace(tok, "."+from+".", "."+to+".", 1) }
	tests := []struct {
		name, token, kind, subject string
		err                        error
	}{
		{"host", host, KindHost, "sw-7k3p", nil},
		{"confirmation", confirm, KindConfirm, "abcdefgh23456789", nil},
		{"upper case", strings.ToUpper(host), KindHost, "sw-7k3p", nil},
		{"a seat token", Token(secret, "sw-7k3p", 0), "", "", ErrMalformed},
		{"host as confirmation", swap(host, KindHost, KindConfirm), "", "", ErrBadMAC},
		{"confirmation as host", swap(confirm, KindConfirm, KindHost), "", "", ErrBadMAC},
		{"another game's host mac", "sw-zzzz.host." + strings.Split(host, ".")[2], "", "", ErrBadMAC},
		{"another secret", HostToken(other, "sw-7k3p"), "", "", ErrBadMAC},
		{"four parts", "a.b.host." + strings.Split(host, ".")[2], "", "", ErrMalformed},
		{"empty", "", "", "", ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind, subject, err := ParseKind(secret, tt.token)
			if !errors.Is(err, tt.err) || kind != tt.kind || subject != tt.subject {
				t.Errorf("ParseKind(%q) = %q, %q, %v; want %q, %q, %v", tt.token, kind, subject, err, tt.kind, tt.subject, tt.err)
			}
		})
	}
	// Neither kind is ever a seat token.
	for _, tok := range []string{host, confirm} {
		if _, _, err := Parse(secret, tok); !errors.Is(err, ErrMalformed) {
			t.Errorf("Parse(%q) = %v, want ErrMalformed", tok, err)
		}
		if !IsKinded(tok) || IsKinded(Token(secret, "sw-7k3p", 3)) {
			t.Errorf("IsKinded(%q) is wrong", tok)
		}
	}
	if a, b := NewCode(), NewCode(); a == b || len(a) != MACLen {
		t.Errorf("NewCode: %q, %q", a, b)
	}
}
