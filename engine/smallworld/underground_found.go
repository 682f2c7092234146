package smallworld

import (
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// The places and relics of Small World Underground as piece kinds: one of each in
// the box; a place never moves, and a relic stays where it was last used, so both
// stay on the map whatever happens to their region (conquest, abandon, decline). They
// are revealed face up on conquered monster regions (revealFound).
//
// Their abilities (foundRules) are given to the army holding their region
// (pieceKind.grants); those not implemented yet grant nothing (docs/underground.md).
type found struct {
	name  string // as printed in English (races-powers.json of the shared data)
	relic bool
	kind  *pieceKind
}

var foundPieces = func() []found {
	places := []string{"Altar of Souls", "Crypt of the Tomb-raider", "Diamond Fields", "Great Brass Pipe",
		"Fountain of Youth", "Keep on the Motherland", "Mine of the Lost Dwarf", "Stonehedge", "Wickedest Pentacle"}
	relics := []string{"Flying Doormat", "Froggy's Ring", "Stinky Troll's Socks", "Scepter of Avarice", "Shiny Orb", "Sword of the Killer Rabbit"}
	var out []found
	for i, n := range append(places, relics...) {
		rule := foundRules[n]
		out = append(out, found{name: n, relic: i >= len(places), kind: &pieceKind{
			name: pieceName(n), order: 200 + i, flag: true, box: 1, title: reason("%#s", engine.Term(n)), defense: rule.defense, grants: rule.grants, grantsOf: rule.grantsOf, taken: rule.taken,
			stays: onConquest | onAbandon | onDecline | onRemoval,
		}})
	}
	return out
}()

// pieceName is the view key of a place or relic: "froggys_ring".
func pieceName(name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		switch {
		case c >= 'a' && c <= 'z':
			b.WriteRune(c)
		case c == ' ' || c == '-':
			b.WriteByte('_')
		}
	}
	return b.String()
}

// foundNames lists the places and relics, places first.
func foundNames() []string {
	out := make([]string, len(foundPieces))
	for i, f := range foundPieces {
		out[i] = f.name
	}
	return out
}

// foundPiece returns the piece kind of the place or relic named name.
func foundPiece(name string) *pieceKind {
	for _, f := range foundPieces {
		if f.name == name {
			return f.kind
		}
	}
	panic("smallworld: no place or relic " + name) // names come from foundNames
}

func init() {
	for _, f := range foundPieces {
		registerPieces(f.kind)
	}
}

// foundHeld counts the places (relic false) or relics in the regions of army (p, slot).
func (s *state) foundHeld(p, slot int, relic bool) int {
	n := 0
	for _, r := range s.held(p, slot) {
		for _, f := range foundPieces {
			if f.relic == relic && s.pieces(r, f.kind) > 0 {
				n++
			}
		}
	}
	return n
}
