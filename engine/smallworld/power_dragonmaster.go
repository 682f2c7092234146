package smallworld

import "github.com/turnmail/turnmail/engine"

// Dragon Master (an example of a power in its own file): `dragon R`, once per turn,
// conquers R with one token whatever defends it; the dragon moves there and makes the
// region immune; it leaves the map when the race declines.
const nameDragonMaster = "Dragon Master"

var (
	dragonMaster = &ability{name: nameDragonMaster, kind: kindPower,
		pieces: []*pieceKind{dragon},
		vars:   []*varKind{dragonUsed},
		verbs:  []*verb{{name: "dragon", rank: rankConquer + 10, apply: applyDragon, legal: legalDragon}},
	}
	dragon     = &pieceKind{name: "dragon", order: 60, flag: true, immune: reason("the dragon"), title: reason("the dragon"), box: 1, hash: hashFlag(3)}
	dragonUsed = &varKind{name: "dragon used", turn: true, enc: encBool, legacy: 1}
)

func (s *state) dragonReady(p int) bool {
	return s.ownTurn(p) && s.has(p, nameDragonMaster) && !s.T.Closed && s.T.get(dragonUsed) == 0 && s.T.Die < 0 && s.army(p, slotActive).Hand >= 1
}

func legalDragon(s *state, p int, out []string) []string {
	if !s.dragonReady(p) {
		return out
	}
	for _, r := range s.targets(p, slotActive) {
		out = append(out, "dragon "+s.b.ids[r])
	}
	return out
}

func applyDragon(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needConquests(p); err != nil {
		return err
	}
	if err := s.needPower(p, nameDragonMaster); err != nil {
		return err
	}
	if err := wantArgs(args, 1, syntax("dragon R")); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	switch {
	case s.T.get(dragonUsed) != 0:
		return engine.Illegal("the dragon attacks once per turn")
	case s.T.Die >= 0:
		return engine.Illegal("you rolled the Berserk die: conquer a region first")
	case s.army(p, slotActive).Hand < 1:
		return engine.Illegal("the dragon needs one token in hand to conquer with")
	}
	if why := s.targetReason(p, slotActive, r, s.count(p, slotActive) > 0); why.Key != "" {
		return engine.Illegal("%s; the dragon can attack %s", why, s.idList(s.targets(p, slotActive)))
	}
	s.via, s.toldKinds = reason("the dragon"), append(s.toldKinds, dragon)
	s.moveFlag(dragon)
	s.occupy(p, slotActive, r, 1)
	s.via = engine.Text{}
	s.moveFlag(dragon, r)
	s.T.set(dragonUsed, 1)
	return nil
}
