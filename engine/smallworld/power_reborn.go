package smallworld

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Reborn (Rinati, Small World Underground §4.12): while the Reborn race is in
// decline (the badge stays with it), once per turn before conquests end, `reborn R
// [R]` empties one or two of its regions and puts in each one token of the player's
// active race, from the box (from hand when the box is empty) — not a sea or lake
// the active race could not enter (a declined Kraken's, on a surface board).
// nameReborn is the power's name (its verb looks for it on the declined race).
const nameReborn = "Reborn"

var reborn = &ability{name: nameReborn, kind: kindPower, pack: packUnderground, inDecline: true, keepBadge: true,
	verbs: []*verb{{name: "reborn", rank: rankConquer - 20, open: true, apply: applyReborn, legal: legalReborn, notes: notesReborn}}}

func init() { register(reborn) }

// rebornSlot returns the slot of player p's declined Reborn race, or -1.
func (s *state) rebornSlot(p int) int {
	for slot := range nSlots {
		if slot != slotActive && s.army(p, slot).Power == nameReborn {
			return slot
		}
	}
	return -1
}

// rebornTokens is how many active tokens player p can put in declined regions now.
func (s *state) rebornTokens(p int) int {
	a := s.army(p, slotActive)
	return a.Hand + max(0, s.cat.races[a.Race].Box-s.inPlay(a.Race))
}

func (s *state) rebornReady(p int) bool {
	return s.ownTurn(p) && !s.T.Closed && s.T.Die < 0 && s.T.get(relicsUsed)&usedReborn == 0 &&
		s.army(p, slotActive).exists() && s.rebornSlot(p) >= 0 && s.rebornTokens(p) > 0
}

// rebornRegions lists the regions of player p's declined Reborn race that may take a
// token of the active race.
func (s *state) rebornRegions(p int) []int {
	var out []int
	for _, r := range s.held(p, s.rebornSlot(p)) {
		if s.mayEnter(p, slotActive, r) {
			out = append(out, r)
		}
	}
	return out
}

// rebornPattern is the Legal entry of the two-region form of reborn; its note
// (notesReborn) lists the regions.
const rebornPattern = "reborn <region> <region>"

// legalReborn lists `reborn R` for each region, and the two-region form as a pattern
// when there are two regions and two tokens for them.
func legalReborn(s *state, p int, out []string) []string {
	if !s.rebornReady(p) {
		return out
	}
	regs := s.rebornRegions(p)
	for _, r := range regs {
		out = append(out, "reborn "+s.b.ids[r])
	}
	if len(regs) >= 2 && s.rebornTokens(p) >= 2 {
		out = append(out, rebornPattern)
	}
	return out
}

// notesReborn notes the two-region pattern: two different regions of those listed.
func notesReborn(s *state, p int, notes map[string]engine.Text) {
	if !s.rebornReady(p) || s.rebornTokens(p) < 2 {
		return
	}
	if regs := s.rebornRegions(p); len(regs) >= 2 {
		notes[rebornPattern] = text("two different regions of %s", regionIDs(s, regs))
	}
}

func applyReborn(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needConquests(p); err != nil {
		return err
	}
	slot := s.rebornSlot(p)
	switch {
	case slot < 0:
		return engine.Illegal("only a Reborn race in decline can do that")
	case s.T.get(relicsUsed)&usedReborn != 0:
		return engine.Illegal("you used Reborn this turn already")
	case s.T.Die >= 0:
		return engine.Illegal("you rolled the Berserk die: conquer a region first")
	}
	if len(args) < 1 || len(args) > 2 {
		return engine.Illegal("usage: reborn R [R] (one or two regions of your Reborn race in decline)")
	}
	var rs []int
	for _, w := range args {
		r, err := s.regionIndex(w)
		if err != nil {
			return err
		}
		if !s.owns(r, p, slot) || slices.Contains(rs, r) {
			return engine.Illegal("region %d is not one more region of your Reborn %s", s.b.id(r), engine.Term(s.army(p, slot).Race))
		}
		if !s.mayEnter(p, slotActive, r) { // a sea the declined Kraken kept (surface boards)
			return engine.Illegal("%s", waterReason(s.b.id(r), s.b.terrain[r]))
		}
		rs = append(rs, r)
	}
	if s.rebornTokens(p) < len(rs) {
		return engine.Illegal("you have %d tokens of your active race in hand and box", s.rebornTokens(p))
	}
	a := s.army(p, slotActive)
	for _, r := range rs {
		if s.cat.races[a.Race].Box <= s.inPlay(a.Race) {
			a.Hand--
		}
		s.Regions[r] = region{Owner: int8(p), Slot: slotActive, Tokens: 1, Pieces: s.keptPieces(r, onConquest)}
	}
	s.mark(rs...)
	s.tell(-1, engine.HapMove, -1, "%s's %s are reborn in %s: one active token in each", s.names[p], engine.Term(a.Race), s.regionsText(rs))
	if s.count(p, slot) == 0 {
		s.removeArmy(p, slot)
	}
	s.T.set(relicsUsed, s.T.get(relicsUsed)|usedReborn)
	s.T.Acted, s.T.ActiveActed = true, true
	return nil
}
