package store

import (
	"crypto/rand"
	"strings"
)

// idAlphabet is Crockford's base32 in lower case: no i, l, o or u, so an id read
// aloud or retyped from paper survives. 32 symbols, so a random byte's low five bits
// pick one without bias.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// NewGameID returns a short, human-friendly game id: a prefix for the game kind, a
// dash and four random characters, like "sw-7k3p". There are about a million ids per
// kind; CreateGame reports a collision as ErrDuplicate, and the caller draws again.
func NewGameID(kind string) string {
	var b [4]byte
	rand.Read(b[:]) // never fails (crypto/rand.Read panics rather than return an error)
	id := make([]byte, len(b))
	for i, c := range b {
		id[i] = idAlphabet[c&31]
	}
	return kindPrefix(kind) + "-" + string(id)
}

// kindPrefix abbreviates a game kind: a fixed abbreviation for the games turnmail
// knows, else the initials of a multi-word kind, else its first two letters.
func kindPrefix(kind string) string {
	k := strings.ToLower(strings.TrimSpace(kind))
	switch k {
	case "smallworld", "small-world":
		return "sw"
	case "underground", "smallworld-underground", "small-world-underground":
		return "swu"
	case "necromancer", "necromancer-island", "smallworld-necromancer":
		return "swn"
	case "empire", "eight-minute-empire", "eight-minute-empire-legends", "legends":
		return "eme"
	case "dungeoneer":
		return "dn"
	}
	words := strings.FieldsFunc(k, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	var p strings.Builder
	if len(words) > 1 {
		for _, w := range words {
			if p.Len() == 4 {
				break
			}
			p.WriteByte(w[0])
		}
		return p.String()
	}
	if len(words) == 1 {
		w := words[0]
		if len(w) > 2 {
			w = w[:2]
		}
		return w
	}
	return "g"
}
