package smallworld

import (
	"fmt"

	"github.com/turnmail/turnmail/engine"
)

// Will-o'-Wisps (Small World Underground, Fuochi fatui): before conquering a Crystal
// Grove (a magic source) or a region bordering a Crystal Grove they occupy, they may
// name it and roll the reinforcement die: `wisp R`. As with Berserk (★ §7.9, sources
// §4), the conquest then takes the cost minus the roll (at least 1) and is made at
// once if they have that many in hand; otherwise their conquests end, as after a
// failed final attempt.
var willOWisps = &ability{name: willOWispsName, kind: kindRace, pack: packUnderground, needs: []string{featMagic},
	verbs: []*verb{{name: "wisp", rank: rankConquer - 5, apply: applyWisp, legal: legalWisp}},
}

func init() { register(willOWisps) }

// wispTarget reports whether region r is a Crystal Grove or borders one that player
// p's active race occupies.
func (s *state) wispTarget(p, r int) bool {
	if s.b.has(r, symMagic) {
		return true
	}
	for _, x := range s.b.adj[r] {
		if s.b.has(x, symMagic) && s.owns(x, p, slotActive) {
			return true
		}
	}
	return false
}

// mayWisp reports whether the active Will-o'-Wisps of player p may roll for region
// r, given their tokens in hand: even a 3 must be enough.
func (s *state) mayWisp(p, r int) bool {
	hand := s.army(p, slotActive).Hand
	return s.wispTarget(p, r) && hand >= 1 && s.cost(p, slotActive, r)-3 <= hand
}

func legalWisp(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || s.T.Closed || s.T.Die >= 0 || !s.army(p, slotActive).exists() || !s.has(p, willOWispsName) {
		return out
	}
	for _, r := range s.targets(p, slotActive) {
		if s.mayWisp(p, r) {
			out = append(out, "wisp "+s.b.ids[r])
		}
	}
	return out
}

const willOWispsName = "Will-o'-Wisps"

func applyWisp(s *state, p int, args []string, rng *engine.Rand) error {
	if err := s.needConquests(p); err != nil {
		return err
	}
	if err := wantArgs(args, 1, syntax("wisp R", reason("roll the die, then conquer region R with the tokens it still takes"))); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	if s.T.Die >= 0 {
		return engine.Illegal("you rolled the Berserk die already: conquer a region first")
	}
	if why := s.targetReason(p, slotActive, r, s.count(p, slotActive) > 0); why.Key != "" {
		return engine.Illegal("%s", why)
	}
	id, hand, cost := s.b.id(r), s.army(p, slotActive).Hand, s.cost(p, slotActive, r)
	switch {
	case !s.wispTarget(p, r):
		return engine.Illegal("region %d is neither a Crystal Grove nor next to one your Will-o'-Wisps occupy", id)
	case hand < 1:
		return engine.Illegal("you have no tokens in hand")
	case cost-3 > hand:
		return engine.Illegal("region %d takes %d tokens: with %d in hand even a 3 on the die is not enough", id, cost, hand)
	}
	die, err := rng.Pick("die", dieFaces)
	if err != nil {
		return fmt.Errorf("reinforcement die: %w", err)
	}
	if need := max(1, cost-die); need <= hand {
		s.tell(-1, engine.HapOther, -1, "%s rolled %d for the Will-o'-Wisps: region %d takes %s", s.names[p], die, id, nTokens(need))
		s.occupy(p, slotActive, r, need)
		return nil
	}
	s.tell(-1, engine.HapOther, -1, "%s rolled %d for the Will-o'-Wisps: not enough for region %d, the conquests are over", s.names[p], die, id)
	s.closeConquests()
	return nil
}
