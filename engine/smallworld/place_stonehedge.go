package smallworld

// Stonehedge (Small World Underground §5, ★ §7.15): when it is found, the top badge
// of the power stack (or of the used badges, when the stack is empty) is drawn and
// belongs to Stonehedge for the rest of the game; its number is ignored (no tokens).
// Whoever holds Stonehedge's region has that power as if it were theirs (hooks and
// verbs; a later conqueror inherits it); powers acting in decline act for a race in
// decline holding it. (Reborn, which looks for its badge on the declined race, does
// nothing there.) The drawn power is kept in the region as the count of the piece
// stonehedge_power: 1 + its number in the catalogue.
var (
	stonehedge      = &ability{name: "Stonehedge", kind: kindPlace, pack: packUnderground}
	stonehedgeDrawn = &pieceKind{name: "stonehedge_power", order: 84, box: 0, hidden: true,
		stays: onConquest | onAbandon | onDecline | onRemoval}
)

func init() { registerPieces(stonehedgeDrawn) }

// stonehedgePower returns the ability of the power drawn for the Stonehedge in
// region r, or nil.
func stonehedgePower(s *state, r int) *ability {
	n := s.pieces(r, stonehedgeDrawn)
	if n <= 0 {
		return nil
	}
	if n >= len(s.cat.byIndex) {
		return nil
	}
	return abilityOf(s.cat.byIndex[n])
}

// stonehedgeName is the name of the power drawn for the Stonehedge in region r, or
// "".
func stonehedgeName(s *state, r int) string {
	if ab := stonehedgePower(s, r); ab != nil {
		return ab.name
	}
	return ""
}

// drawStonehedge draws the power of the Stonehedge found in region r.
func (s *state) drawStonehedge(r int) {
	var name string
	switch {
	case len(s.Powers) > 0:
		name, s.Powers = s.Powers[0], s.Powers[1:]
	case len(s.Discard) > 0:
		name, s.Discard = s.Discard[0], s.Discard[1:]
	default:
		return
	}
	s.setPieces(r, stonehedgeDrawn, int(s.cat.nameIndex[name]))
}
