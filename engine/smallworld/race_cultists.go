package smallworld

import (
	"github.com/turnmail/turnmail/engine"
)

// Cultists (Small World Underground, Cultisti): the Great Ancient goes in the first
// region they conquer (choice: also when they enter the map again after leaving it
// with the Great Ancient off the map), which it makes immune. «Conquistare una Regione
// adiacente a quella che contiene il Grande Antico (alcune Regioni possono essere
// adiacenti grazie a un'Abilità di Razza, a un Potere speciale, a un Luogo mitico o a
// una Reliquia) ti costa un segnalino Cultista in meno»: a region bordering the Great
// Ancient's, or adjacent to it by an ability, place or relic of the army (ability.linked:
// Underworld's caverns, Spiderines, Lizardmen, the Great Brass Pipe), costs one token
// fewer (at least one); under the rules before rulesText only bordering regions did.
// At the start of a later turn, before conquering, `ancient R` moves it to another
// region of theirs (or puts it back after they abandoned its region). It leaves the
// map when they decline (★ §7.11) or abandon its region.
var (
	cultists = &ability{name: "Cultists", kind: kindRace, pack: packUnderground,
		cost: func(s *state, p, slot, r int) int {
			if g := s.ancientRegion(p, slot); g >= 0 && (s.b.adjSet[g][r] || s.rules >= rulesText && s.linkedTo(p, slot, r, g)) {
				return -1
			}
			return 0
		},
		onConquer: func(s *state, p, slot, r int) {
			if s.count(p, slot) == 1 && s.onMap(greatAncient, -1) == 0 {
				s.setPieces(r, greatAncient, 1)
			}
		},
		pieces: []*pieceKind{greatAncient},
		verbs:  []*verb{{name: "ancient", rank: rankConquer - 8, apply: applyAncient, legal: legalAncient}},
	}
	// greatAncient is the Cultists' Great Ancient: the region is immune.
	greatAncient = &pieceKind{name: "great_ancient", order: 80, flag: true, immune: reason("the Great Ancient"), title: reason("the Great Ancient"), box: 1}
)

func init() { register(cultists) }

// ancientRegion returns the region of army (p, slot) with the Great Ancient, or -1.
func (s *state) ancientRegion(p, slot int) int {
	for r := range s.Regions {
		if s.owns(r, p, slot) && s.Regions[r].Pieces.get(greatAncient) > 0 {
			return r
		}
	}
	return -1
}

// mayMoveAncient reports whether player p's Cultists may move the Great Ancient now:
// their own turn, before the active race acts.
func (s *state) mayMoveAncient(p int) bool {
	return s.ownTurn(p) && !s.T.ActiveActed && !s.T.Closed && s.has(p, "Cultists")
}

func legalAncient(s *state, p int, out []string) []string {
	if !s.mayMoveAncient(p) {
		return out
	}
	for _, r := range s.held(p, slotActive) {
		if s.Regions[r].Pieces.get(greatAncient) == 0 {
			out = append(out, "ancient "+s.b.ids[r])
		}
	}
	return out
}

func applyAncient(s *state, p int, args []string, _ *engine.Rand) error {
	if err := wantArgs(args, 1, syntax("ancient R", reason("the region of your Cultists the Great Ancient moves to"))); err != nil {
		return err
	}
	if !s.mayMoveAncient(p) {
		return engine.Illegal("the Great Ancient moves at the start of your turn, before your Cultists conquer or redeploy")
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	switch {
	case !s.owns(r, p, slotActive):
		return engine.Illegal("region %d is not held by your Cultists; the Great Ancient moves to one of theirs: %s", s.b.id(r), s.idList(s.held(p, slotActive)))
	case s.Regions[r].Pieces.get(greatAncient) > 0:
		return engine.Illegal("the Great Ancient is already in region %d", s.b.id(r))
	}
	s.moveFlag(greatAncient, r)
	s.T.Acted, s.T.ActiveActed = true, true
	return nil
}

// linkedTo reports whether region r counts as adjacent to region x by an ability of
// army (p, slot) (ability.linked), unless r is another player's shielded region.
func (s *state) linkedTo(p, slot, r, x int) bool {
	if s.shielded(p, r) {
		return false
	}
	for ab := range s.acting(p, slot) {
		if ab.linked != nil && ab.linked(s, p, slot, r, x) {
			return true
		}
	}
	return false
}
