package smallworld

import (
	"strconv"

	"github.com/turnmail/turnmail/engine"
)

// Shadow Mimes (Small World Underground, Mimi ombra): right after taking them, before
// any conquest, `swap N` exchanges their power badge with the power of the combo at
// position N of the offer (one of the five others: the combo drawn to refill the
// offer after the pick was not visible when they were taken); the coins on that combo stay
// there. They then have 7 + the new badge's tokens (★ §7.19).
var (
	shadowMimes = &ability{name: "Shadow Mimes", kind: kindRace, pack: packUnderground,
		onPick: func(s *state, _ int) { s.T.set(mimesMaySwap, 1) },
		vars:   []*varKind{mimesMaySwap},
		view: func(s *state, p, _ int, marks map[string]int) {
			if s.maySwap(p) {
				marks["may_swap"] = swappable(s)
			}
		},
		verbs: []*verb{{name: "swap", rank: rankPick + 1, apply: applySwap, legal: legalSwap}},
	}
	// mimesMaySwap: the Shadow Mimes were taken this turn and have not swapped nor
	// conquered yet.
	mimesMaySwap = &varKind{name: "mimes_swap", turn: true, enc: encBool}
)

func init() { register(shadowMimes) }

func (s *state) maySwap(p int) bool {
	return s.ownTurn(p) && s.T.get(mimesMaySwap) != 0 && !s.T.ActiveActed && s.has(p, "Shadow Mimes")
}

// swappable is how many combos of the offer the Shadow Mimes may take a power from:
// the five that were visible with them.
func swappable(s *state) int { return min(len(s.Offer), offerSize-1) }

func legalSwap(s *state, p int, out []string) []string {
	if s.maySwap(p) {
		for i := range swappable(s) {
			out = append(out, "swap "+strconv.Itoa(i+1))
		}
	}
	return out
}

func applySwap(s *state, p int, args []string, _ *engine.Rand) error {
	if err := wantArgs(args, 1, syntax("swap N", reason("the position of the combo whose power your Shadow Mimes take"))); err != nil {
		return err
	}
	if !s.maySwap(p) {
		return engine.Illegal("Shadow Mimes swap their power only right after you take them, before conquering")
	}
	i, err := strconv.Atoi(args[0])
	if n := swappable(s); err != nil || i < 1 || i > n {
		return engine.Illegal("your Shadow Mimes may take the power of the combo at positions 1–%d, not %s", n, args[0])
	}
	a := s.army(p, slotActive)
	c := &s.Offer[i-1]
	a.Hand += s.comboTokens(a.Race, c.Power) - s.comboTokens(a.Race, a.Power)
	a.Power, c.Power = c.Power, a.Power
	a.abs[1] = reg.number[a.Power]
	s.tell(-1, engine.HapCombo, -1, "%s's Shadow Mimes swapped their power for %s (offer position %d): %s in hand", s.names[p], engine.Term(a.Power), i, nTokens(a.Hand))
	s.T.set(mimesMaySwap, 0)
	return nil
}
