package smallworld

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Flames (Small World Underground, Fiamme): when they are taken the Volcano goes on an
// abyssal chasm with the volcano symbol — the lowest-numbered one; `volcano R`, in
// the same turn before any conquest, puts it on another. They enter the map by the
// edge as every race («Se il giocatore di turno usa per la prima volta una Razza, deve
// conquistare una Regione adiacente al bordo della mappa da gioco»; their Italian text
// says nothing of it); under the rules before rulesText they entered next to the
// Volcano (the English edition of 2018's rule, sources §4). A region next to
// the Volcano, or next to a Flames region joined to it by a chain of Flames regions,
// is conquered as if empty: its tokens and monsters do not count, its pieces do
// (★ §7.4: 2 + Black Mountain, Keep, armour …). The Volcano leaves the map when they
// decline (★ §7.11).
var (
	flames = &ability{name: "Flames", kind: kindRace, pack: packUnderground, needs: []string{featVolcano},
		onPick: func(s *state, _ int) {
			if cs := volcanoRegions(s); len(cs) > 0 {
				s.moveFlag(volcanoPiece, cs[0])
				s.T.set(flamesMayMove, 1)
			}
		},
		entry: func(s *state, p, slot, r int) bool {
			v := s.volcano()
			if v < 0 || s.rules >= rulesText {
				return s.b.entry[r]
			}
			return s.b.adjSet[v][r]
		},
		cost: func(s *state, p, slot, r int) int {
			if s.byVolcano(p, slot, r) {
				return -int(s.Regions[r].Tokens)
			}
			return 0
		},
		onDecline: func(s *state, _ int) { s.moveFlag(volcanoPiece) },
		pieces:    []*pieceKind{volcanoPiece},
		vars:      []*varKind{flamesMayMove},
		view: func(s *state, p, _ int, marks map[string]int) {
			if s.mayMoveVolcano(p) {
				marks["may_move_volcano"] = 1
			}
		},
		verbs: []*verb{{name: "volcano", rank: rankPick + 2, apply: applyVolcano, legal: legalVolcano}},
	}
	// volcanoPiece is the Flames' Volcano, on a chasm nobody holds (it stays there
	// until they decline).
	volcanoPiece = &pieceKind{name: "volcano", order: 90, flag: true, box: 1, title: reason("the Volcano"), stays: onConquest | onAbandon}
	// flamesMayMove: the Flames were taken this turn and have not conquered yet.
	flamesMayMove = &varKind{name: "volcano move", turn: true, enc: encBool}
)

func init() { register(flames) }

// volcanoRegions lists the chasms that carry the volcano symbol.
func volcanoRegions(s *state) []int {
	_, sym := undergroundSymbols()
	var out []int
	for r := range s.Regions {
		if s.b.blocked[r] && s.b.has(r, sym) {
			out = append(out, r)
		}
	}
	return out
}

// volcano returns the Volcano's region, or -1.
func (s *state) volcano() int {
	for r := range s.Regions {
		if s.Regions[r].Pieces.get(volcanoPiece) > 0 {
			return r
		}
	}
	return -1
}

// byVolcano reports whether region r borders the Volcano or a region of army (p,
// slot) joined to it through a chain of the army's regions.
func (s *state) byVolcano(p, slot, r int) bool {
	v := s.volcano()
	if v < 0 {
		return false
	}
	seen := make([]bool, len(s.Regions))
	seen[v] = true
	queue := []int{v}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, n := range s.b.adj[x] {
			if n == r {
				return true
			}
			if !seen[n] && s.owns(n, p, slot) {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	return false
}

func (s *state) mayMoveVolcano(p int) bool {
	return s.ownTurn(p) && s.T.get(flamesMayMove) != 0 && !s.T.ActiveActed && s.has(p, "Flames")
}

func legalVolcano(s *state, p int, out []string) []string {
	if !s.mayMoveVolcano(p) {
		return out
	}
	for _, r := range volcanoRegions(s) {
		if s.Regions[r].Pieces.get(volcanoPiece) == 0 {
			out = append(out, "volcano "+s.b.ids[r])
		}
	}
	return out
}

func applyVolcano(s *state, p int, args []string, _ *engine.Rand) error {
	if err := wantArgs(args, 1, syntax("volcano R", reason("the chasm with a volcano symbol where the Volcano goes"))); err != nil {
		return err
	}
	if !s.mayMoveVolcano(p) {
		return engine.Illegal("the Volcano is placed when you take the Flames, before they conquer")
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	cs := volcanoRegions(s)
	switch {
	case !slices.Contains(cs, r):
		return engine.Illegal("region %d is not a chasm with a volcano symbol; those are %s", s.b.id(r), s.idList(cs))
	case s.Regions[r].Pieces.get(volcanoPiece) > 0:
		return engine.Illegal("the Volcano is already in region %d", s.b.id(r))
	}
	s.moveFlag(volcanoPiece, r)
	return nil
}
