// Package auth creates and checks the reply-address tokens that authenticate
// players' mail.
//
// Every mail turnmail sends carries a Reply-To of the form
//
//	<local>+<gameid>.<seat>.<mac>@<domain>
//
// for example turnmail+sw-7k3p.2.z66fv3fpjj5pukoc@example.org. The part after
// the "+" is the token. It names the game and the seat in the clear, so the
// game is found without a lookup, and carries a MAC (HMAC-SHA256 with the
// server secret, truncated to 80 bits, base32) that proves turnmail issued it.
//
// The token contains only the characters [a-z0-9.-], so it survives mail
// systems that lowercase local parts; everything that reads a token lowercases
// it first. Game ids must therefore be lowercase ([a-z0-9-], as "sw-7k3p");
// a token issued for an id with uppercase letters never verifies.
//
// A valid token is necessary but not sufficient: the caller must also check
// that the From address is the player's who holds the seat.
package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
)

// MACLen is the length in characters of the MAC part of a token
// (80 bits in base32).
const MACLen = 16

// macBytes is the number of HMAC bytes kept: 10 bytes = 80 bits = 16 base32
// characters without padding.
const macBytes = 10

// domainSep separates the MAC input from other uses of the same secret.
const domainSep = "turnmail/reply-token/v1"

// Errors returned by Parse. Both are wrapped; test with errors.Is.
var (
	// ErrMalformed means the detail is not of the form gameid.seat.mac.
	ErrMalformed = errors.New("auth: malformed reply token")
	// ErrBadMAC means the token is well-formed but was not issued with this
	// secret for this game and seat (tampered, forged or stale secret).
	ErrBadMAC = errors.New("auth: reply token does not verify")
)

var b32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// mailboxSep separates mailbox passwords from the other uses of the secret.
const mailboxSep = "turnmail/mailbox-password/v1"

// keyed computes the lowercase base32 MAC (macBytes of HMAC-SHA256) of parts,
// each followed by a NUL byte but the last.
func keyed(secret []byte, parts ...string) string {
	h := hmac.New(sha256.New, secret)
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(p))
	}
	return b32.EncodeToString(h.Sum(nil)[:macBytes])
}

// mac computes the lowercase base32 MAC of a game id and seat.
func mac(secret []byte, gameID string, seat int) string {
	return keyed(secret, domainSep, gameID, strconv.Itoa(seat))
}

// MailboxPassword returns the password of the embedded server's mailbox of addr:
// an HMAC-SHA256 of the lower-cased address with the secret (domain-separated from
// the reply tokens), 80 bits in lowercase base32, MACLen characters. Whoever holds
// the secret can tell it to the mailbox's owner; nobody else can compute it.
func MailboxPassword(secret []byte, addr string) string {
	return keyed(secret, mailboxSep, strings.ToLower(strings.TrimSpace(addr)))
}

// Token returns the reply token for a seat of a game: "<gameid>.<seat>.<mac>",
// e.g. "sw-7k3p.2.k5t2xq7mhy4bd2aa". It is the +detail of the reply address
// (see ReplyAddress). gameID should match [a-z0-9-]+ and seat be ≥ 0.
func Token(secret []byte, gameID string, seat int) string {
	return gameID + "." + strconv.Itoa(seat) + "." + mac(secret, gameID, seat)
}

// bounceSep separates the MACs of return paths from the other uses of the secret.
const bounceSep = "turnmail/return-path/v1"

// bouncePrefix starts every return-path token.
const bouncePrefix = "bounce-"

// BounceToken returns the token of the VERP return path (envelope sender) of the
// outbox mail id to rcpt: "bounce-<id>-<mac>", the MAC over the id and the
// lower-cased recipient. A bounce comes back to ReplyAddress(local, domain, token),
// and so names the mail it returns, in a way only the recipient (who sees the
// return path) and turnmail can.
func BounceToken(secret []byte, id int64, rcpt string) string {
	n := strconv.FormatInt(id, 10)
	return bouncePrefix + n + "-" + keyed(secret, bounceSep, n, strings.ToLower(strings.TrimSpace(rcpt)))
}

// BounceID reads the outbox mail id of a return-path token; ok is false when token
// is not of that form. It proves nothing: check the token with VerifyBounce against
// that mail's recipient.
func BounceID(token string) (id int64, ok bool) {
	rest, found := strings.CutPrefix(strings.ToLower(token), bouncePrefix)
	n, mac, found2 := strings.Cut(rest, "-")
	if !found || !found2 || len(mac) != MACLen || len(n) > 18 {
		return 0, false
	}
	id, err := strconv.ParseInt(n, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != n {
		return 0, false
	}
	return id, true
}

// VerifyBounce reports whether token is the return-path token of the outbox mail id
// to rcpt. The MAC comparison is constant-time.
func VerifyBounce(secret []byte, token string, id int64, rcpt string) bool {
	return hmac.Equal([]byte(strings.ToLower(token)), []byte(BounceToken(secret, id, rcpt)))
}

// ReplyAddress returns "local+token@domain".
func ReplyAddress(local, domain, token string) string {
	return local + "+" + token + "@" + domain
}

// TokenFrom extracts the token (the +detail) from addr when addr is
// local+detail@domain. The comparison of local part and domain ignores case
// and the returned token is lowercased. addr may be a bare address or a
// name-addr ("Game <local+detail@domain>"). ok is false when addr is another
// address or has no detail.
func TokenFrom(addr, local, domain string) (token string, ok bool) {
	addr = strings.TrimSpace(addr)
	if strings.ContainsAny(addr, "<\"") {
		a, err := mail.ParseAddress(addr)
		if err != nil {
			return "", false
		}
		addr = a.Address
	}
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || !strings.EqualFold(addr[at+1:], domain) {
		return "", false
	}
	lp := strings.ToLower(addr[:at])
	prefix := strings.ToLower(local) + "+"
	if !strings.HasPrefix(lp, prefix) || len(lp) == len(prefix) {
		return "", false
	}
	return lp[len(prefix):], true
}

// Parse checks a token (the +detail of a reply address) and returns the game
// id and seat it was issued for. The token is lowercased first. The error
// wraps ErrMalformed or ErrBadMAC.
func Parse(secret []byte, token string) (gameID string, seat int, err error) {
	token = strings.ToLower(strings.TrimSpace(token))
	i := strings.LastIndexByte(token, '.')
	if i < 0 {
		return "", 0, fmt.Errorf("%w: %q has no mac", ErrMalformed, token)
	}
	rest, gotMAC := token[:i], token[i+1:]
	j := strings.LastIndexByte(rest, '.')
	if j < 0 {
		return "", 0, fmt.Errorf("%w: %q has no seat", ErrMalformed, token)
	}
	gameID, seatText := rest[:j], rest[j+1:]
	if !validGameID(gameID) {
		return "", 0, fmt.Errorf("%w: bad game id in %q", ErrMalformed, token)
	}
	seat, err = strconv.Atoi(seatText)
	if err != nil || seat < 0 || strconv.Itoa(seat) != seatText {
		return "", 0, fmt.Errorf("%w: bad seat in %q", ErrMalformed, token)
	}
	if len(gotMAC) != MACLen {
		return "", 0, fmt.Errorf("%w: bad mac length in %q", ErrMalformed, token)
	}
	if !hmac.Equal([]byte(gotMAC), []byte(mac(secret, gameID, seat))) {
		return "", 0, fmt.Errorf("%w: game %s seat %d", ErrBadMAC, gameID, seat)
	}
	return gameID, seat, nil
}

// Verify reports whether token was issued for exactly this game and seat. The
// MAC comparison is constant-time.
func Verify(secret []byte, gameID string, seat int, token string) bool {
	g, s, err := Parse(secret, token)
	if err != nil {
		return false
	}
	// Compare the game id in constant time too, though it is not secret.
	return hmac.Equal([]byte(g), []byte(gameID)) && s == seat
}

// ValidGameID reports whether s can be a game id: a non-empty run of [a-z0-9-].
func ValidGameID(s string) bool { return validGameID(s) }

// validGameID reports whether s is a non-empty run of [a-z0-9-].
func validGameID(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Besides seat tokens, turnmail issues two other kinds of token, told apart by
// their middle part, which is never a seat number:
//
//	<gameid>.host.<mac>     the host reply address of a game (HostToken)
//	<code>.confirm.<mac>    a one-time confirmation address (ConfirmToken)
//
// Each kind's MAC has its own domain separator, so no token of one kind is ever
// valid as another: a seat token's middle part is digits, and Parse refuses
// "host" and "confirm" as seats.
const (
	hostSep    = "turnmail/host-token/v1"
	confirmSep = "turnmail/confirm-token/v1"
	// KindHost and KindConfirm are the middle parts of host and confirmation tokens.
	KindHost    = "host"
	KindConfirm = "confirm"
)

// kindMAC computes the MAC of a host or confirmation token's subject.
func kindMAC(secret []byte, sep, subject string) string {
	h := hmac.New(sha256.New, secret)
	h.Write([]byte(sep))
	h.Write([]byte{0})
	h.Write([]byte(subject))
	return b32.EncodeToString(h.Sum(nil)[:macBytes])
}

// HostToken returns the host token of a game: "<gameid>.host.<mac>". Mail to its
// reply address from the host's address proves the host wrote it.
func HostToken(secret []byte, gameID string) string {
	return gameID + "." + KindHost + "." + kindMAC(secret, hostSep, gameID)
}

// ConfirmToken returns the confirmation token for a one-time code:
// "<code>.confirm.<mac>". code should match [a-z0-9-]+ (see NewCode); the caller
// stores it and honours it once.
func ConfirmToken(secret []byte, code string) string {
	return code + "." + KindConfirm + "." + kindMAC(secret, confirmSep, code)
}

// ParseKind checks a host or confirmation token and returns its kind (KindHost
// or KindConfirm) and subject (the game id, or the code). A seat token gives an
// error wrapping ErrMalformed: read those with Parse. The error wraps
// ErrMalformed or ErrBadMAC.
func ParseKind(secret []byte, token string) (kind, subject string, err error) {
	token = strings.ToLower(strings.TrimSpace(token))
	parts := strings.Split(token, ".")
	if len(parts) != 3 || !validGameID(parts[0]) || len(parts[2]) != MACLen {
		return "", "", fmt.Errorf("%w: %q is not a host or confirmation token", ErrMalformed, token)
	}
	sep := ""
	switch parts[1] {
	case KindHost:
		sep = hostSep
	case KindConfirm:
		sep = confirmSep
	default:
		return "", "", fmt.Errorf("%w: %q is not a host or confirmation token", ErrMalformed, token)
	}
	if !hmac.Equal([]byte(parts[2]), []byte(kindMAC(secret, sep, parts[0]))) {
		return "", "", fmt.Errorf("%w: %s token for %s", ErrBadMAC, parts[1], parts[0])
	}
	return parts[1], parts[0], nil
}

// IsKinded reports whether a token has the form of a host or confirmation token
// (without checking its MAC).
func IsKinded(token string) bool {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(token)), ".")
	return len(parts) == 3 && (parts[1] == KindHost || parts[1] == KindConfirm)
}

// NewCode returns a random one-time code for ConfirmToken: 16 base32 characters
// (80 bits).
func NewCode() string {
	var b [macBytes]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	return b32.EncodeToString(b[:])
}
