// Package lookalike tells whether two names would read as the same name: they
// differ only by case, width, accents, invisible characters or characters that
// look alike (Cyrillic а and Latin a, 1 and l, 0 and o, rn and m …). The lobby
// refuses a player name that looks like another player's or the service's.
//
// The comparison is by skeleton, after Unicode's confusable detection (UTS #39)
// but with a small table of the look-alikes that matter in short names rather
// than the whole confusables list.
package lookalike

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"
)

// Same reports whether a and b would read as the same name: their skeletons are
// equal, or would be with every capital I read as l (in most fonts of mail
// clients the two are one stroke; Skeleton itself folds I to i).
func Same(a, b string) bool {
	if Skeleton(a) == Skeleton(b) {
		return true
	}
	capitalI := strings.NewReplacer("I", "l")
	return Skeleton(capitalI.Replace(a)) == Skeleton(capitalI.Replace(b))
}

// Skeleton maps a name to the form it is compared in: width folded (Ａ is A),
// case folded, compatibility-decomposed (ﬁ is fi, ² is 2), accents and
// invisible (format) characters removed, each look-alike replaced by the
// character it imitates, and the separators - and _ made one.
func Skeleton(name string) string {
	t := transform.Chain(width.Fold, cases.Fold(), norm.NFKD, runes.Remove(runes.In(unicode.Mn)), runes.Remove(runes.In(unicode.Cf)), norm.NFC)
	s, _, err := transform.String(t, name)
	if err != nil { // only on invalid input the transformers cannot carry
		s = strings.ToLower(name)
	}
	s = strings.Map(func(r rune) rune {
		if to, ok := single[r]; ok {
			return to
		}
		return r
	}, s)
	return multi.Replace(s)
}

// single maps a (case-folded, unaccented) character to the Latin letter or digit
// it imitates in the usual fonts of mail clients.
var single = map[rune]rune{
	// Cyrillic.
	'а': 'a', 'в': 'b', 'е': 'e', 'һ': 'h', 'і': 'i', 'ӏ': 'l', 'ј': 'j', 'к': 'k', 'м': 'm', 'н': 'h',
	'о': 'o', 'р': 'p', 'ԛ': 'q', 'ѕ': 's', 'с': 'c', 'т': 't', 'у': 'y', 'ԝ': 'w', 'х': 'x', 'ԁ': 'd',
	// Greek.
	'α': 'a', 'β': 'b', 'ε': 'e', 'η': 'n', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't',
	'υ': 'u', 'χ': 'x', 'ω': 'w',
	// Latin letters and digits that pass for others.
	'ı': 'i', 'ɡ': 'g', 'ɩ': 'i', 'ʟ': 'l', '1': 'l', '|': 'l', '0': 'o',
	// Separators.
	'_': '-', '‐': '-', '‑': '-', '–': '-', '—': '-',
}

// multi replaces letter pairs that read as one letter.
var multi = strings.NewReplacer("rn", "m", "vv", "w", "cl", "d")
