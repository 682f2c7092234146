package smallworld

import "github.com/turnmail/turnmail/engine"

// scenario is the state and rules of a game of the family that the core's own fields
// do not hold: a scenario with an asymmetric role (Necromancer Island,
// variant_necromancer.go). A state of the other games has none (state.Scn is nil).
// The core calls it at these hook points; each leaves the state consistent.
type scenario interface {
	// copy returns a deep copy (Apply works on a copy).
	copy() scenario
	// canon appends the scenario's part of the canonical encoding (Hash).
	canon(s *state, buf []byte) []byte
	// acting returns the abilities that act for army (p, slot) beside its race and
	// power (the Necromancer's bought powers).
	acting(s *state, p, slot int) []*ability
	// lost receives n race tokens lost in a conquest, of army (q, slot) or of a lost
	// tribe (q is ownerLostTribe).
	lost(s *state, q, slot, n int)
	// declining runs before player p's active race goes into decline.
	declining(s *state, p int)
	// turnEnded runs when a player's turn ends, before defenders redeploy and the
	// next turn starts; it reports whether it ended the game.
	turnEnded(s *state) bool
	// competes reports whether player p's coins count for the victory at the end.
	competes(p int) bool
	// forbids returns why player p may not give the command words now (a reason),
	// or an empty Text.
	forbids(s *state, p int, words []string) engine.Text
	// mayBeEmpty reports whether a held region r may keep no token.
	mayBeEmpty(r int) bool
	// view adds the scenario's part to v.
	view(s *state, v *View)
}

// forbidden returns why the scenario forbids player p the command words, or an
// empty Text.
func (s *state) forbidden(p int, words []string) engine.Text {
	if s.Scn == nil || len(words) == 0 {
		return engine.Text{}
	}
	return s.Scn.forbids(s, p, words)
}
