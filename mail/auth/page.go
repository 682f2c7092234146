package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
)

// Besides the tokens of mail addresses, turnmail issues page tokens: the last part of
// the address of a player's private web page (issue 25),
//
//	<gameid>.<seat>.<epoch>.<mac>
//
// for example sw-7k3p.2.0.q5w…(26 characters). The MAC (HMAC-SHA256 with the secret,
// its own domain separator, 128 bits in base32) covers the game, the seat and the
// seat's epoch: the number of times the seat was handed to another address. When a
// seat changes hands its epoch grows, and the page token of the old address stops
// working, while the new holder's mails carry a new one. A page token is the only
// credential of a page (no From address backs it), hence the longer MAC.
const pageSep = "turnmail/page-token/v1"

// PageMACLen is the length in characters of the MAC part of a page token (128 bits in
// base32).
const PageMACLen = 26

// pageMAC computes the MAC of a page token.
func pageMAC(secret []byte, gameID string, seat, epoch int) string {
	h := hmac.New(sha256.New, secret)
	for i, p := range []string{pageSep, gameID, strconv.Itoa(seat), strconv.Itoa(epoch)} {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(p))
	}
	return b32.EncodeToString(h.Sum(nil)[:16])
}

// PageToken returns the token of the private web page of a seat of a game in its
// epoch: "<gameid>.<seat>.<epoch>.<mac>". gameID should match [a-z0-9-]+, seat and
// epoch be ≥ 0.
func PageToken(secret []byte, gameID string, seat, epoch int) string {
	return gameID + "." + strconv.Itoa(seat) + "." + strconv.Itoa(epoch) + "." + pageMAC(secret, gameID, seat, epoch)
}

// ParsePage checks a page token and returns the game, seat and epoch it was issued
// for. It does no I/O: a token that does not verify is refused before anything is
// looked up. The caller must still check that the seat's epoch is the one the token
// names (else the seat changed hands and the token is revoked). The error wraps
// ErrMalformed or ErrBadMAC. The MAC comparison is constant-time.
func ParsePage(secret []byte, token string) (gameID string, seat, epoch int, err error) {
	if len(token) > 200 {
		return "", 0, 0, fmt.Errorf("%w: page token of %d bytes", ErrMalformed, len(token))
	}
	parts := strings.Split(strings.ToLower(token), ".")
	if len(parts) != 4 || !validGameID(parts[0]) || len(parts[3]) != PageMACLen {
		return "", 0, 0, fmt.Errorf("%w: not a page token", ErrMalformed)
	}
	nums := [2]int{}
	for i, s := range parts[1:3] {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || strconv.Itoa(n) != s {
			return "", 0, 0, fmt.Errorf("%w: bad number %q in a page token", ErrMalformed, s)
		}
		nums[i] = n
	}
	if !hmac.Equal([]byte(parts[3]), []byte(pageMAC(secret, parts[0], nums[0], nums[1]))) {
		return "", 0, 0, fmt.Errorf("%w: page token for %s seat %d", ErrBadMAC, parts[0], nums[0])
	}
	return parts[0], nums[0], nums[1], nil
}
