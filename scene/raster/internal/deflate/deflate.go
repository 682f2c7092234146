// Package deflate writes a deflate stream (RFC 1951) in bands that are compressed one
// by one and joined, for the image data of a PNG that is mostly the same from one
// picture to the next.
//
// A band is a range of the stream's bytes compressed as one block and ended by a sync
// flush (an empty stored block), so that it ends on a byte and bands join by
// concatenation; its matches reach back into the bytes before it (the window the
// caller names), which must be the same when the bands are joined. A band's LZ77
// parse (its tokens) is kept: when a later picture changes a few of its bytes, Splice
// keeps every token whose bytes and source are unchanged and parses only the rest,
// which costs a small part of a whole parse.
package deflate

import (
	"encoding/binary"
	"math/bits"
)

// Token is one step of an LZ77 parse: a literal byte, or a match that copies Len
// bytes from Dist bytes back.
type Token uint32

const (
	matchFlag = 1 << 31
	// MinMatch and MaxMatch bound a match's length, MaxDist its distance.
	MinMatch = 3
	MaxMatch = 258
	MaxDist  = 1 << 15
)

// Literal is the token of byte b.
func Literal(b byte) Token { return Token(b) }

// Match is the token that copies length bytes (MinMatch to MaxMatch) from dist bytes
// back (1 to MaxDist).
func Match(length, dist int) Token {
	return matchFlag | Token(length-MinMatch)<<15 | Token(dist-1)
}

// IsMatch reports whether t is a match.
func (t Token) IsMatch() bool { return t&matchFlag != 0 }

// Len is the number of bytes t stands for.
func (t Token) Len() int {
	if t&matchFlag == 0 {
		return 1
	}
	return int(t>>15&0xff) + MinMatch
}

// Dist is a match's distance (0 for a literal).
func (t Token) Dist() int {
	if t&matchFlag == 0 {
		return 0
	}
	return int(t&0x7fff) + 1
}

// The length and distance codes of RFC 1951 (3.2.5): the first length or distance
// of each code and its number of extra bits.
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	// lengthCode maps a match length less MinMatch to its code less 257.
	lengthCode = func() (t [256]uint8) {
		for c := range 28 {
			for l := lengthBase[c]; l < lengthBase[c+1]; l++ {
				t[l-MinMatch] = uint8(c)
			}
		}
		t[MaxMatch-MinMatch] = 28
		return t
	}()
)

// distCode returns the code of distance d.
func distCode(d int) int {
	x := uint32(d - 1)
	if x < 4 {
		return int(x)
	}
	nb := bits.Len32(x) - 2 // extra bits
	return 2*nb + 2 + int(x>>uint(nb)&1)
}

// matchLen returns how many bytes from a equal those from b, up to limit (a < b,
// both within buf, b+limit <= len(buf)).
func matchLen(buf []byte, a, b, limit int) int {
	n := 0
	for n+8 <= limit {
		x := binary.LittleEndian.Uint64(buf[a+n:]) ^ binary.LittleEndian.Uint64(buf[b+n:])
		if x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		n += 8
	}
	for n < limit && buf[a+n] == buf[b+n] {
		n++
	}
	return n
}
