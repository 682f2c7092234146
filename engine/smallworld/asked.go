package smallworld

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// A defender who must redeploy tokens lost in an attack at the end of the attacker's
// turn is asked out of turn: the next turn waits for them. They are a responder
// (engine.Responder), so the service gives them the game's short response deadline
// and their standing order, and their mail says why they are asked and what is done
// for them if they do not answer (engine.Asker): `done`, the tokens placed
// automatically.
var (
	_ engine.Responder = (*state)(nil)
	_ engine.Asker     = (*state)(nil)
)

// Responding implements engine.Responder: player is a defender who must place tokens
// (or encampments) lost in an attack before the next turn.
func (s *state) Responding(player string) bool {
	p := s.playerIndex(player)
	return p >= 0 && s.defending(p)
}

// Asked implements engine.Asker for a defender: who took which of their regions and
// what they have to place; otherwise, where `done` puts it.
func (s *state) Asked(player string) (why, otherwise engine.Text) {
	p := s.playerIndex(player)
	if p < 0 || !s.defending(p) {
		return engine.Text{}, engine.Text{}
	}
	var lost []int
	for _, t := range s.T.Taken {
		if int(t.Q) == p && !slices.Contains(lost, int(t.R)) {
			lost = append(lost, int(t.R))
		}
	}
	slices.Sort(lost)
	hand := s.defenderHand(p)
	var holds []int
	for slot := range nSlots {
		holds = append(holds, s.held(p, slot)...)
	}
	slices.Sort(holds)
	who := s.names[s.Cur]
	switch {
	case len(lost) == 1:
		why = text("%s conquered your region %d: redeploy the %s you have in hand on the regions you still hold (%s)", who, s.b.id(lost[0]), nTokens(hand), s.idList(holds))
	case len(lost) > 1:
		why = text("%s conquered your regions %s: redeploy the %s you have in hand on the regions you still hold (%s)", who, s.idList(lost), nTokens(hand), s.idList(holds))
	default:
		why = text("you lost tokens in an attack: redeploy the %s you have in hand on the regions you still hold (%s)", nTokens(hand), s.idList(holds))
	}
	if moves, ok := s.donePlacements(p); ok {
		otherwise = text("they are placed automatically: %s", moves)
	} else {
		otherwise = text("what you have to place is placed automatically")
	}
	return why, otherwise
}

// defenderHand is the tokens defender p holds in hand, to place on regions.
func (s *state) defenderHand(p int) int {
	n := 0
	for slot := range nSlots {
		if a := s.army(p, slot); a.exists() && s.count(p, slot) > 0 {
			n += a.Hand
		}
	}
	return n
}

// donePlacements is what `done` would place of player p's tokens in hand, region by
// region ("+1 in region 3 (2 now), …"), and whether it places any.
func (s *state) donePlacements(p int) (engine.Text, bool) {
	n := s.clone()
	n.story = nil
	before := slices.Clone(n.Regions)
	if n.defending(p) {
		for slot := range nSlots {
			if a := n.army(p, slot); a.exists() && a.Hand > 0 {
				n.autoPlace(p, slot, 0)
			}
		}
	} else {
		n.closeConquests()
		for slot := range nSlots {
			if a := n.army(p, slot); a.exists() {
				n.autoPlace(p, slot, n.handTarget(p, slot))
			}
		}
	}
	moves, rs := n.placements(p, before)
	return moves, len(rs) > 0
}

// notesDone notes `done` when it does more than end the turn: the tokens in hand it
// places automatically (a defender's, or what is left in hand at the end of a turn),
// or that they stay in hand when the race holds no region.
func notesDone(s *state, p int, notes map[string]engine.Text) {
	if s.defending(p) {
		if moves, ok := s.donePlacements(p); ok {
			notes["done"] = text("your %s in hand go to your regions automatically: %s", nTokens(s.defenderHand(p)), moves)
		}
		return
	}
	a := s.army(p, slotActive)
	if !s.ownTurn(p) || !a.exists() {
		return
	}
	if moves, ok := s.donePlacements(p); ok {
		notes["done"] = text("ends your turn; the tokens left in hand go to your regions automatically: %s", moves)
		return
	}
	if hand := a.Hand + s.reinforcement(p); hand > 0 && s.count(p, slotActive) == 0 {
		notes["done"] = text("ends your turn; your %s stay in hand for your next turn (your race holds no region)", nTokens(hand))
	}
}

// notesDecline notes `decline`: what goes back to the box (all the active race's
// tokens but one per region, and those in hand) and that it takes the turn.
func notesDecline(s *state, p int, notes map[string]engine.Text) {
	if !s.ownTurn(p) || !s.army(p, slotActive).exists() {
		return
	}
	a := s.army(p, slotActive)
	before := a.Hand + a.Aside + s.boardTokens(p, slotActive)
	n := s.clone()
	n.story = nil
	var dest int
	if n.declineEndsTurn(p) && n.T.Acted {
		n.finishTurn(p, true)
	} else {
		n.declineTurn(p)
	}
	for slot := range nSlots {
		if d := n.army(p, slot); d.exists() && d.Race == a.Race && slot != slotActive {
			dest = n.boardTokens(p, slot)
		}
	}
	if lost := before - dest; lost > 0 {
		notes["decline"] = text("your %s go into decline and your turn ends: one token stays in each region, %s go back to the box", engine.Term(a.Race), nTokens(lost))
	} else {
		notes["decline"] = text("your %s go into decline and your turn ends", engine.Term(a.Race))
	}
}
