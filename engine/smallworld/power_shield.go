package smallworld

import "github.com/turnmail/turnmail/engine"

// Shield (Corazzati, Small World Underground §4.14): when conquests end the race
// takes one Mushroom Armour per Mushroom Forest it holds (8 in the box); `armour R`
// puts one in a region of yours during the turn; those not placed go to your first
// region at the end of the turn. Each adds one to its region's defence, in decline
// too; they are not race tokens (a lone token with armour is still lone); they leave
// with their region (conquest, abandon) or the race. Armours on the map never move
// (★ [?] §4.14).
// nameShield is the power's name (its verb checks it).
const nameShield = "Shield"

var (
	shield = &ability{name: nameShield, kind: kindPower, pack: packUnderground, needs: []string{Forest}, pieces: []*pieceKind{armour}, vars: []*varKind{armourDue},
		conquestsEnd: func(s *state, p, slot int) {
			n := 0
			for _, r := range s.held(p, slot) {
				if s.b.class[r] == Forest {
					n++
				}
			}
			s.T.set(armourDue, min(n, armour.box-s.onMap(armour, -1)))
		},
		turnEnd: func(s *state, p, slot int) {
			if rs := s.held(p, slot); len(rs) > 0 && s.T.get(armourDue) > 0 {
				s.setPieces(rs[0], armour, s.pieces(rs[0], armour)+s.T.get(armourDue))
			}
			s.T.set(armourDue, 0)
		},
		view: func(s *state, p, slot int, marks map[string]int) {
			if slot == slotActive && s.ownTurn(p) {
				marks["armours_to_place"] = s.T.get(armourDue)
			}
		},
		verbs: []*verb{{name: "armour", rank: rankRedeploy + 22, apply: applyArmour, legal: legalArmour}}}
	armour    = &pieceKind{name: "mushroom_armour", order: 82, defense: 1, box: 8, many: "%d mushroom armour", stays: onDecline}
	armourDue = &varKind{name: "armour due", turn: true}
)

func init() { register(shield) }

func legalArmour(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || !s.has(p, nameShield) || !s.T.Closed || s.T.get(armourDue) == 0 {
		return out
	}
	for _, r := range s.held(p, slotActive) {
		out = append(out, "armour "+s.b.ids[r])
	}
	return out
}

func applyArmour(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if !s.T.Closed {
		return engine.Illegal("armours come when your conquests end: redeploy or done first")
	}
	if s.T.get(armourDue) == 0 {
		return engine.Illegal("you have no Mushroom Armour to place this turn (one per Mushroom Forest you hold)")
	}
	if err := wantArgs(args, 1, syntax("armour R")); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	if !s.owns(r, p, slotActive) {
		return engine.Illegal("region %d is not held by your %s", s.b.id(r), engine.Term(s.army(p, slotActive).Race))
	}
	s.setPieces(r, armour, s.pieces(r, armour)+1)
	s.T.set(armourDue, s.T.get(armourDue)-1)
	return nil
}
