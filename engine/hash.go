package engine

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
)

// HashBytes returns HashJSON(b) without encoding/json: the digest of b's JSON
// encoding, a base64 string in quotes. Engines that hash a canonical binary encoding
// of their state (Small World) call it on every command, and it allocates only the
// digest's text.
func HashBytes(b []byte) string {
	n := base64.StdEncoding.EncodedLen(len(b)) + 2
	var small [4096]byte
	buf := small[:0]
	if n > len(small) {
		buf = make([]byte, 0, n)
	}
	buf = append(buf, '"')
	buf = base64.StdEncoding.AppendEncode(buf, b)
	buf = append(buf, '"')
	sum := sha256.Sum256(buf)
	var out [24]byte
	hex.Encode(out[:], sum[:12])
	return string(out[:])
}
