package smallworld

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// startTurn begins player p's turn: peace made by p ends, and troops are readied —
// all active tokens but one per region go back to hand (declined Ghouls too, since
// they play as if active), then the abilities' turn starts run (Amazons' tokens set
// aside come back, a Diplomat's peace ends).
func (s *state) startTurn(p int) {
	s.Cur = p
	s.T = turnInfo{Die: -1}
	pl := &s.Players[p]
	for slot := range nSlots {
		a := &pl.Armies[slot]
		if !a.exists() || (slot != slotActive && slot != s.ghoulSlot(p)) {
			continue
		}
		for r := range s.Regions {
			g := &s.Regions[r]
			if s.owns(r, p, slot) && g.Tokens > 1 {
				n := g.Tokens - 1
				a.Hand += int(n)
				g.Tokens = 1
				s.T.Readied = append(s.T.Readied, readied{R: int16(r), Slot: int8(slot), N: n})
			}
		}
	}
	for slot := range nSlots {
		for ab := range s.acting(p, slot) {
			if ab.turnStart != nil {
				ab.turnStart(s, p, slot)
			}
		}
	}
	s.tellTurnStart(p)
}

// closeConquests ends the conquest phase of the current turn (first redeployment-phase
// command, the reinforcement roll, `done`); abilities reinforce (Skeletons).
func (s *state) closeConquests() {
	if s.T.Closed {
		return
	}
	s.T.Closed = true
	s.T.Acted = true
	s.T.ActiveActed = true
	s.T.Die = -1
	for ab := range s.acting(s.Cur, slotActive) {
		if ab.conquestsEnd != nil {
			ab.conquestsEnd(s, s.Cur, slotActive)
		}
	}
	s.army(s.Cur, slotActive).Hand += s.reinforcement(s.Cur)
}

// reinforcement is the number of tokens player p's active race gets from the box when
// its conquests end.
func (s *state) reinforcement(p int) int {
	n := 0
	for ab := range s.acting(p, slotActive) {
		if ab.reinforce != nil {
			n += ab.reinforce(s, p, slotActive)
		}
	}
	return n
}

// handTarget is how many tokens army (p, slot) keeps in hand after redeployment: the
// active race at the end of its own turn's redeployment what its abilities keep
// (Amazons' attack-only tokens), as many as it can while leaving one per region;
// everyone else places everything.
func (s *state) handTarget(p, slot int) int {
	if slot != slotActive || len(s.Pending) > 0 || p != s.Cur {
		return 0
	}
	keep := 0
	for ab := range s.acting(p, slot) {
		if ab.keepInHand != nil {
			keep += ab.keepInHand(s, p, slot)
		}
	}
	if keep == 0 {
		return 0
	}
	k := s.count(p, slot)
	if k == 0 {
		return 0
	}
	return min(keep, s.army(p, slot).Hand+s.boardTokens(p, slot)-k)
}

// autoPlace brings army (p, slot)'s hand to target without asking: tokens first go
// back to the regions they were readied from at the start of the turn, then one at a
// time to the region with the fewest tokens (lowest id first); when the hand is below
// target (Amazons), tokens are taken from the regions with the most (highest id first),
// never the last one of a region. Without regions the hand stays as it is.
func (s *state) autoPlace(p, slot, target int) {
	a := s.army(p, slot)
	held := s.held(p, slot)
	if len(held) == 0 || a.Hand == target {
		return
	}
	if !s.quiet { // what was placed is told against the regions before
		before, back := slices.Clone(s.Regions), a.Hand < target
		defer func() { s.tellPlaced(p, before, back) }()
	}
	if p == s.Cur && len(s.Pending) == 0 {
		for _, e := range s.T.Readied {
			if a.Hand <= target {
				break
			}
			if int(e.Slot) == slot && s.owns(int(e.R), p, slot) {
				n := min(int(e.N), a.Hand-target)
				s.Regions[e.R].Tokens += int16(n)
				a.Hand -= n
			}
		}
	}
	for a.Hand > target {
		best := held[0]
		for _, r := range held[1:] {
			if s.Regions[r].Tokens < s.Regions[best].Tokens {
				best = r
			}
		}
		s.Regions[best].Tokens++
		a.Hand--
	}
	for a.Hand < target {
		best := -1
		for _, r := range held {
			if s.Regions[r].Tokens > 1 && (best < 0 || s.Regions[r].Tokens >= s.Regions[best].Tokens) {
				best = r
			}
		}
		if best < 0 {
			return
		}
		s.Regions[best].Tokens--
		a.Hand++
	}
}

// finishTurn ends player p's normal turn (`done`, or Stout's `decline`): tokens left
// in hand are placed automatically, the abilities' turn ends run (Amazons set their
// tokens aside), coins are scored, and a Stout race then goes into decline.
func (s *state) finishTurn(p int, thenDecline bool) {
	s.tellBut(p, -1, engine.HapOther, -1, "%s ended the turn", s.names[p])
	s.closeConquests()
	for slot := range nSlots {
		if a := s.army(p, slot); a.exists() {
			if t := s.handTarget(p, slot); a.Hand != t {
				s.autoPlace(p, slot, t)
			}
		}
	}
	for slot := range nSlots {
		for ab := range s.acting(p, slot) {
			if ab.turnEnd != nil {
				ab.turnEnd(s, p, slot)
			}
		}
	}
	s.score(p)
	if thenDecline {
		s.declineActive(p)
	}
	s.endTurn()
}

// declineTurn is the decline that takes the whole turn: readied tokens go back where
// they were, the race goes into decline, and the player scores.
func (s *state) declineTurn(p int) {
	for _, e := range s.T.Readied {
		s.Regions[e.R].Tokens += e.N
		s.army(p, int(e.Slot)).Hand -= int(e.N)
	}
	s.T.Readied = nil
	power := abilityOf(s.army(p, slotActive).Power)
	s.declineActive(p)
	if power != nil && power.lastRedeploy && s.openLastRedeploy(p) {
		return // the player redeploys, then ends the turn with done (endDeclineTurn)
	}
	s.endDeclineTurn(p)
}

// endDeclineTurn scores the turn of player p's decline and ends it.
func (s *state) endDeclineTurn(p int) {
	s.score(p)
	s.endTurn()
}

// declineActive puts player p's active race into decline: one token stays in each
// region (Ghouls keep all), the rest and any tokens set aside go back to the box;
// the badge is discarded (Spirit stays with its race); pieces leave the map unless
// their kind stays on decline (lairs, fortresses). The abilities' decline hooks run
// first (a Diplomat's peace ends). A previous declined race (not the Spirit one)
// leaves the map first.
func (s *state) declineActive(p int) {
	pl := &s.Players[p]
	if s.Scn != nil {
		s.Scn.declining(s, p)
	}
	for ab := range s.acting(p, slotActive) {
		if ab.onDecline != nil {
			ab.onDecline(s, p)
		}
	}
	a := pl.Armies[slotActive]
	s.mark(s.held(p, slotActive)...)
	if a.Power == "" {
		s.tell(-1, engine.HapDecline, -1, "%s put %#s into decline", s.names[p], engine.Term(a.Race))
	} else {
		s.tell(-1, engine.HapDecline, -1, "%[1]s put %#[3]s %[2]s into decline", s.names[p], engine.Term(a.Race), engine.Term(a.Power))
	}
	race, power := abilityOf(a.Race), abilityOf(a.Power)
	spirit := (race != nil && race.spirit) || (power != nil && power.spirit)
	dest := slotDeclined
	if spirit {
		dest = slotSpirit
	}
	if pl.Armies[dest].exists() {
		s.removeArmy(p, dest)
	}
	keepAll := (race != nil && race.keepAllInDecline) || (power != nil && power.keepAllInDecline)
	for r := range s.Regions {
		g := &s.Regions[r]
		if !s.owns(r, p, slotActive) {
			continue
		}
		g.Slot = int8(dest)
		if !keepAll {
			g.Tokens = 1
		}
		s.clearPieces(r, onDecline)
	}
	a.Hand, a.Aside = 0, 0
	a.declineVars()
	if !spirit && (power == nil || !power.keepBadge) {
		if a.Power != "" {
			s.Discard = append(slices.Clip(s.Discard), a.Power)
		}
		a.Power, a.abs[1] = "", 0
	}
	pl.Armies[dest] = a
	pl.Armies[slotActive] = army{}
	if s.count(p, dest) == 0 {
		s.removeArmy(p, dest)
	}
}

// endTurn runs after the current player's turn: defenders with tokens in hand and one
// region get them placed there, those with more regions must redeploy (ToAct), and
// then the next turn starts — or the game ends after the last turn.
func (s *state) endTurn() {
	if s.Scn != nil && s.Scn.turnEnded(s) {
		return
	}
	p := s.Cur
	n := len(s.Players)
	s.Pending = nil
	for i := 1; i < n; i++ {
		q := (p + i) % n
		if s.needsRedeploy(q) {
			s.Pending = append(s.Pending, int8(q))
		}
	}
	if p == n-1 && s.TurnNo >= s.b.turns {
		s.finish()
		return
	}
	if len(s.Pending) == 0 {
		s.advance()
		return
	}
	s.tellDefenders()
}

// needsRedeploy places what needs no decision for player q (one region) and reports
// whether q still has tokens in hand to place on several regions, or pieces its
// abilities must place (settle).
func (s *state) needsRedeploy(q int) bool {
	needs := false
	for slot := range nSlots {
		a := s.army(q, slot)
		if !a.exists() || a.Hand == 0 {
			continue
		}
		switch s.count(q, slot) {
		case 0: // active race without regions: keeps them for its next first conquest
		case 1:
			s.autoPlace(q, slot, 0)
		default:
			needs = true
		}
	}
	return s.settle(q, false) || needs
}

// settle runs the settle hooks of player q's active race (see ability.settle) and
// reports whether q still has something to place.
func (s *state) settle(q int, force bool) bool {
	due := false
	for ab := range s.acting(q, slotActive) {
		if ab.settle != nil && ab.settle(s, q, force) {
			due = true
		}
	}
	return due
}

// defenderDone removes q from the pending defenders once everything is placed, and
// starts the next turn when nobody is left.
func (s *state) defenderDone(q int) {
	if s.needsRedeploy(q) {
		return
	}
	s.Pending = slices.DeleteFunc(s.Pending, func(x int8) bool { return int(x) == q })
	if len(s.Pending) == 0 {
		s.advance()
	}
}

func (s *state) advance() {
	next := (s.Cur + 1) % len(s.Players)
	if next == 0 {
		s.TurnNo++
	}
	s.startTurn(next)
}

// finish ends the game: tokens (and pieces, settle) defenders still hold are placed
// automatically (they
// only matter for the tie-break), and the winners are those with the most coins, ties
// broken by the most race tokens on the map (active and declined).
func (s *state) finish() {
	for _, q := range s.Pending {
		for slot := range nSlots {
			if a := s.army(int(q), slot); a.exists() && a.Hand > 0 {
				s.autoPlace(int(q), slot, 0)
			}
		}
		s.settle(int(q), true)
	}
	s.Pending = nil
	s.Over = true
	s.T = turnInfo{Die: -1}
	best, bestTokens := -1, -1
	s.Win = nil
	for p := range s.Players {
		if s.Scn != nil && !s.Scn.competes(p) {
			continue
		}
		c, t := s.Players[p].Coins, s.mapTokens(p)
		switch {
		case c > best || (c == best && t > bestTokens):
			best, bestTokens = c, t
			s.Win = []string{s.names[p]}
		case c == best && t == bestTokens:
			s.Win = append(s.Win, s.names[p])
		}
	}
}

// mapTokens counts player p's race tokens on the map, active and declined (the
// tie-break); lost tribes, tokens in hand and Amazons set aside do not count.
func (s *state) mapTokens(p int) int {
	n := 0
	for slot := range nSlots {
		n += s.boardTokens(p, slot)
	}
	return n
}

// score pays player p at the end of their turn: one coin per region of every race they
// have on the map, plus the bonuses of the abilities that act (active race and power,
// declined ones where the banner says so).
func (s *state) score(p int) {
	regions := 0
	for r := range s.Regions {
		if int(s.Regions[r].Owner) == p && !s.barren(r) {
			regions++
		}
	}
	total := regions
	t := &s.Players[p].tally
	t.Regions += regions
	var parts []engine.Text
	for slot := range nSlots {
		for ab := range s.acting(p, slot) {
			if ab.bonus == nil {
				continue
			}
			n := ab.bonus(s, p, slot)
			if n == 0 {
				continue
			}
			total += n
			switch ab.kind {
			case kindRace:
				t.Race += n
			case kindPower:
				t.Power += n
			default:
				t.Places += n
			}
			if !s.quiet {
				parts = append(parts, engine.Textf("%s: %d", engine.Term(ab.name), n))
			}
		}
	}
	s.Players[p].Coins += total
	s.Players[p].Scored = total
	s.tellScore(p, regions, parts, total)
}
