package dungeoneer

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Banes with "Sempre" ("Alcune carte Favore o Sventura hanno la caratteristica
// Sempre"; "Una carta con l'indicazione Sempre può essere giocata sia durante che al di
// fuori del proprio turno, se ci sono risorse disponibili"): besides the Dungeon Lord
// phase of their player, such a Bane is played at any moment by any player on an
// opponent, paid with that opponent's Peril. It interrupts what is going on: its
// targets may respond, it resolves, and the game goes on where it was.

// alwaysBanes lists the commands of seat's always Banes in hand, on every opponent
// (whether they can be paid for or not: Legal keeps those the gate accepts). In the
// own Dungeon Lord phase they are played as every Bane is, not listed here.
func (s *state) alwaysBanes(seat int) []string {
	if s.Phase == phLord && seat == s.Current {
		return nil
	}
	var out []string
	for _, id := range s.Seats[seat].Hand {
		if a := cards.adv[id]; a.Kind == kBane && a.Use == useAlways {
			for _, t := range s.alive() {
				if t != seat {
					out = append(out, "play "+id+" on "+s.targetOf(t))
				}
			}
		}
	}
	return out
}

// quiet reports whether nothing is being resolved, so that an always Bane may
// interrupt: no Encounter or Bane declared, no response, counter, guard or spoils step.
func (s *state) quiet() bool {
	switch s.Phase {
	case phLord:
		return len(s.Pending) == 0 && s.LordStep != "declare"
	case phBuild, phPlace, phHero, phDiscard:
		return true
	}
	return false
}

// alwaysBane plays an always Bane of seat at any moment: play <card> on <player>.
func (s *state) alwaysBane(seat int, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if len(args) != 3 || args[1] != "on" {
		return engine.Illegal("say play <card> on <player>")
	}
	id := args[0]
	a := cards.adv[id]
	if a == nil || !slices.Contains(h.Hand, id) || a.Kind != kBane || a.Use != useAlways {
		return engine.Illegal("%s is not a Bane in your hand that may be played at any moment", id)
	}
	if !s.quiet() {
		return engine.Illegal("cards are being resolved: an always Bane waits until they are")
	}
	t := s.findTarget(args[2])
	if t < 0 || t == seat || s.Seats[t].Out {
		return engine.Illegal("%s is not an opponent in the game", args[2])
	}
	if s.Seats[t].Peril < a.Cost {
		return engine.Illegal("%s has %d Peril, %s costs %d", s.Seats[t].Name, s.Seats[t].Peril, id, a.Cost)
	}
	if rng == nil {
		return nil
	}
	s.Seats[t].Peril -= a.Cost
	i := slices.Index(h.Hand, id)
	h.Hand = slices.Delete(h.Hand, i, i+1)
	s.Pending = append(s.Pending, Pending{Card: id, Target: t, By: seat, X: s.Seats[t].X, Y: s.Seats[t].Y})
	s.logf("%s plays %s on %s", h.Name, engine.Term(a.Name.En), s.Seats[t].Name)
	s.Interrupted = s.Phase
	s.openResponses(rng)
	return nil
}

// resume ends an interruption by an always Bane: the game goes on in the phase it was
// in (a current hero left with nothing to discard ends its turn).
func (s *state) resume(rng *engine.Rand) {
	s.Phase, s.Interrupted = s.Interrupted, ""
	if s.Phase == phDiscard && !s.discardDue(s.Current) {
		s.finishTurn(rng)
	}
}
