package smallworld

import "github.com/turnmail/turnmail/engine"

// Halflings (an example of a race in its own file): they may enter the map anywhere,
// and the first two regions they conquer get a hole-in-the-ground, which makes the
// region immune while they are active. `hole` only explains that holes are automatic.
var (
	halflings = &ability{name: "Halflings", kind: kindRace,
		reach: func(_ *state, _, _, _ int, holds bool) bool { return !holds },
		onConquer: func(s *state, p, slot, r int) {
			if a := s.army(p, slot); a.get(holesPlaced) < hole.box {
				s.setPieces(r, hole, 1)
				a.set(holesPlaced, a.get(holesPlaced)+1)
			}
		},
		pieces: []*pieceKind{hole},
		vars:   []*varKind{holesPlaced},
		verbs: []*verb{{name: "hole", rank: rankConquer + 12, open: true, explains: true, apply: applyHole,
			legal: func(_ *state, _ int, out []string) []string { return out }}},
	}
	// hole is a hole-in-the-ground: immune; it leaves the map when the Halflings decline.
	hole = &pieceKind{name: "hole", order: 70, flag: true, immune: reason("a hole-in-the-ground"), title: reason("a hole-in-the-ground"), box: 2, hash: hashFlag(4)}
	// holesPlaced counts the holes the Halflings placed (two in all, even if lost).
	holesPlaced = &varKind{name: "holes", enc: encVarint, legacy: 1}
)

func applyHole(*state, int, []string, *engine.Rand) error {
	return engine.Illegal("holes-in-the-ground are placed automatically in the first two regions your Halflings conquer; there is no choice to make")
}
