package dungeoneer

import (
	"maps"
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Ready cards: Favors and Treasures in a hero's inventory. Some have an effect their
// hero activates by paying its cost (the rulebook's special action "attivare l'effetto
// di una carta pronta nel proprio Inventario; se si possiedono le risorse necessarie
// (Gloria o Movimento)"), at any moment, in or out of turn; some carry other Treasures.

// isReady reports whether card id is a ready Favor or Treasure of seat's hero.
func (s *state) isReady(seat int, id string) bool {
	h := &s.Seats[seat]
	return slices.Contains(h.Favors, id) || slices.Contains(h.Treasures, id)
}

// activatable lists the use commands of seat's ready cards that have an activation
// (whether their cost can be paid now or not: Legal keeps those the gate accepts).
func (s *state) activatable(seat int) []string {
	h := &s.Seats[seat]
	var out []string
	for _, id := range slices.Concat(h.Favors, h.Treasures) {
		if cards.adv[id].Activate != nil {
			out = append(out, "use "+id)
		}
	}
	return out
}

// movementOf is the Movement seat can pay a cost with now: the turn's Movement in its
// own turn before the discard phase, else its saved Movement.
func (s *state) movementOf(seat int) int {
	if seat == s.Current && s.Phase != phDiscard {
		return s.Movement
	}
	return s.Seats[seat].Saved
}

// use activates ready card id of seat: use <card>. It pays the cost (Glory, or
// Movement — out of turn the saved one), marks a once-per-turn card used until the
// next start phase, takes a charge (a card with none left is spent and discarded),
// then applies the effects.
func (s *state) use(seat int, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if len(args) != 1 {
		return engine.Illegal("say use <card>")
	}
	id := args[0]
	a := cards.adv[id]
	if a == nil || a.Activate == nil || !s.isReady(seat, id) {
		return engine.Illegal("%s is not a ready card of yours with an effect to activate", id)
	}
	act := a.Activate
	switch {
	case act.Once && slices.Contains(s.UsedOnce, id):
		return engine.Illegal("%s works once per turn: it is used until the next turn", id)
	case h.Glory < act.Glory:
		return engine.Illegal("%s costs %d Glory, you have %d", id, act.Glory, h.Glory)
	case act.Move > 0 && h.Prone:
		return engine.Illegal("your hero is knocked down: stand first")
	case s.movementOf(seat) < act.Move:
		return engine.Illegal("%s costs %d Movement, you have %d (out of your turn, the Movement you saved)", id, act.Move, s.movementOf(seat))
	}
	if rng == nil {
		return nil
	}
	h.Glory -= act.Glory
	if seat == s.Current && s.Phase != phDiscard {
		s.Movement -= act.Move
	} else {
		h.Saved -= act.Move
	}
	if act.Once {
		s.UsedOnce = append(s.UsedOnce, id)
	}
	s.logf("%s uses %s", h.Name, engine.Term(a.Name.En))
	if act.Charges > 0 {
		h.Charges[id]--
		if h.Charges[id] <= 0 {
			s.unready(seat, id)
			s.Discard = append(s.Discard, id)
			s.logf("%s is spent", engine.Term(a.Name.En))
		}
	}
	s.apply(seat, act.Effects, rng)
	return nil
}

// unready takes card id out of seat's ready Favors and Treasures; the integrations
// played on it are discarded ("Una carta Integrazione viene scartata se la carta che
// sta modificando viene scartata o ritorna in mano").
func (s *state) unready(seat int, id string) {
	h := &s.Seats[seat]
	drop := func(c string) bool { return c == id }
	h.Favors, h.Treasures = slices.DeleteFunc(h.Favors, drop), slices.DeleteFunc(h.Treasures, drop)
	delete(h.Charges, id)
	for _, x := range slices.Sorted(maps.Keys(h.Attached)) {
		if h.Attached[x] == id {
			delete(h.Attached, x)
			s.Discard = append(s.Discard, x)
		}
	}
}

// attach plays integration id from seat's hand on its ready Treasure host: play <card>
// on <treasure>, paid with Glory.
func (s *state) attach(seat int, id, host string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	a := cards.adv[id]
	if a == nil || !slices.Contains(h.Hand, id) || a.Attach == "" {
		return engine.Illegal("%s is not an integration in your hand", id)
	}
	if !slices.Contains(h.Treasures, host) || cards.adv[host].Category != a.Attach {
		return engine.Illegal("%s modifies a ready Treasure of yours of category %s", id, CategoryText(a.Attach))
	}
	if a.Cost > h.Glory {
		return engine.Illegal("%s costs %d Glory, you have %d", id, a.Cost, h.Glory)
	}
	if rng == nil {
		return nil
	}
	i := slices.Index(h.Hand, id)
	h.Hand = slices.Delete(h.Hand, i, i+1)
	h.Glory -= a.Cost
	if h.Attached == nil {
		h.Attached = map[string]string{}
	}
	h.Attached[id] = host
	s.logf("%s attaches %s to %s", h.Name, engine.Term(a.Name.En), engine.Term(cards.adv[host].Name.En))
	return nil
}

// defends reports whether activating ready card id prepares a defense against the
// Encounters and Banes played on its hero (a bonus to its rolls, or leaving the
// space): such an activation is a response.
func defends(id string) bool {
	return slices.ContainsFunc(cards.adv[id].Activate.Effects, func(e Effect) bool { return e.Op == opWard || e.Op == opTeleport })
}

// treasureRoom is how many Treasures seat's hero may have ready: its limit and what
// its carrying items carry.
func (s *state) treasureRoom(seat int) int {
	n := s.hero(seat).TreasureLimit
	for _, id := range s.Seats[seat].Treasures {
		n += cards.adv[id].Carry
	}
	return n
}

// overloaded reports whether seat's hero has more Treasures ready than it may carry
// (a carrying item was discarded).
func (s *state) overloaded(seat int) bool {
	return len(s.Seats[seat].Treasures) > s.treasureRoom(seat)
}
