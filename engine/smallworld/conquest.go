package smallworld

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// cost is the number of tokens army (p, slot) needs to conquer region r: 2 + defense,
// plus the abilities' changes (discounts), at least 1.
func (s *state) cost(p, slot, r int) int {
	c := 2 + s.defense(r)
	shielded := s.shielded(p, r)
	for ab := range s.acting(p, slot) {
		if ab.cost != nil {
			if d := ab.cost(s, p, slot, r); d >= 0 || !shielded || ab == s.cat.variant.rules {
				c += d
			}
		}
	}
	return max(c, 1)
}

// shielded reports whether region r is held by another player's army with a shield
// (Gnomes): player p's abilities then cut no cost and lift no position rule there.
func (s *state) shielded(p, r int) bool {
	g := &s.Regions[r]
	if !s.cat.shields || g.Owner < 0 || int(g.Owner) == p {
		return false
	}
	for ab := range s.acting(int(g.Owner), int(g.Slot)) {
		if ab.shield {
			return true
		}
	}
	return false
}

// protected says what puts region r out of reach of player p's abilities, places
// and relics, or returns an empty Text: an immune piece (the Balrog, Lara's Ghost, the Great
// Ancient, the Black Queen; a hero, the dragon, a hole-in-the-ground) in a region p
// does not hold, or the shield of its occupant's active race (Gnomes) on p's turn.
// Every ability that acts on another player's region without conquering it by the
// core's rule asks it: Vampire and the Orb (their lone token), the Balrog, Thieving
// and the Ring (the coins they take). The Underground rulebook: an immune region "non
// subisce gli effetti delle Abilità e dei Poteri speciali avversari" nor of their
// places and relics; Gnomes: opponents may not use them "contro di te".
func (s *state) protected(p, r int) engine.Text {
	g := &s.Regions[r]
	if g.Owner >= 0 && int(g.Owner) == p {
		return engine.Text{}
	}
	if why := s.immune(r); why.Key != "" {
		return reason("region %d is protected by %s", s.b.id(r), why)
	}
	if s.shielded(p, r) {
		return reason("region %d is protected by %s's %s", s.b.id(r), s.names[g.Owner], engine.Term(s.army(int(g.Owner), int(g.Slot)).Race))
	}
	return engine.Text{}
}

// atPeace reports whether player p's active race may not attack region r because an
// ability of its owner's active race forbids it (Diplomat).
func (s *state) atPeace(p, slot, r int) bool {
	g := &s.Regions[r]
	if slot != slotActive || g.Owner < 0 || int(g.Owner) == p || g.Slot != slotActive {
		return false
	}
	q := int(g.Owner)
	for ab := range s.acting(q, slotActive) {
		if ab.peace != nil && ab.peace(s, q, p) {
			return true
		}
	}
	return false
}

// adjacentTo reports whether region r borders a region of army (p, slot), or counts
// as adjacent by an ability (Underworld's caverns).
func (s *state) adjacentTo(p, slot, r int) bool {
	for _, n := range s.b.adj[r] {
		if s.owns(n, p, slot) {
			return true
		}
	}
	if s.shielded(p, r) {
		return false
	}
	for ab := range s.acting(p, slot) {
		if ab.adjacent != nil && ab.adjacent(s, p, slot, r) {
			return true
		}
	}
	return false
}

// reachable reports whether army (p, slot) may attack region r as far as position
// goes: the border rule for a first conquest, adjacency otherwise, or an ability that
// lifts them (Flying, Halflings).
func (s *state) reachable(p, slot, r int, holds bool) bool {
	for ab := range s.acting(p, slot) {
		if ab.reach != nil && ab.reach(s, p, slot, r, holds) && !s.shielded(p, r) {
			return true
		}
	}
	if !holds {
		for ab := range s.acting(p, slot) {
			if ab.entry != nil {
				return ab.entry(s, p, slot, r)
			}
		}
		return s.b.entry[r]
	}
	return s.adjacentTo(p, slot, r)
}

// mayEnter reports whether army (p, slot) may conquer region r as far as terrain goes:
// seas and lakes need an ability (Seafaring); anyone may enter Small World
// Underground's rivers (fords), but only such an ability keeps them.
func (s *state) mayEnter(p, slot, r int) bool {
	if !s.b.water[r] || s.b.ford[r] {
		return true
	}
	for ab := range s.acting(p, slot) {
		if ab.water {
			return true
		}
	}
	return false
}

// guarded says why player p may not conquer region r by an ability of its occupant
// (guard: Liches), or returns "".
func (s *state) guarded(p, r int) engine.Text {
	g := &s.Regions[r]
	if g.Owner < 0 {
		return engine.Text{}
	}
	q, qs := int(g.Owner), int(g.Slot)
	for ab := range s.acting(q, qs) {
		if ab.guard != nil {
			if why := ab.guard(s, q, qs, p, r); why.Key != "" {
				return why
			}
		}
	}
	return engine.Text{}
}

// Why a region cannot be attacked, whatever the tokens (see block).
const (
	okTarget = iota
	blockOwn
	blockChasm
	blockWater
	blockImmune
	blockPeace
	blockGuard
	blockBorder
	blockAdjacent
)

// block tells whether army (p, slot) may attack region r whatever its tokens
// (okTarget) or why not. holds tells whether the army holds any region. It does not
// format anything: Legal calls it for every region.
func (s *state) block(p, slot, r int, holds bool) int {
	g := &s.Regions[r]
	if s.owns(r, p, slot) {
		return blockOwn
	}
	if s.b.blocked[r] {
		return blockChasm
	}
	if !s.mayEnter(p, slot, r) {
		return blockWater
	}
	// An immune piece protects an empty region too (Lara's Ghost, ★ §7.13 of Small
	// World Underground; the base game's never stay in an empty region). «Una Regione
	// resa Immune […] non può essere conquistata dagli avversari»: under rulesText the
	// player's own other race may (the Black Queen stays with a race in decline).
	if s.immune(r).Key != "" && !(s.rules >= rulesText && int(g.Owner) == p) {
		return blockImmune
	}
	if g.Owner >= 0 && s.atPeace(p, slot, r) {
		return blockPeace
	}
	if g.Owner >= 0 && s.guarded(p, r).Key != "" {
		return blockGuard
	}
	if !s.reachable(p, slot, r, holds) {
		if !holds {
			return blockBorder
		}
		return blockAdjacent
	}
	return okTarget
}

// targetReason says why army (p, slot) may not attack region r whatever its tokens,
// or returns "" when it may.
func (s *state) targetReason(p, slot, r int, holds bool) engine.Text {
	id := s.b.id(r)
	switch s.block(p, slot, r, holds) {
	case blockOwn:
		return reason("region %d is already held by your %s", id, s.raceName(p, slot))
	case blockChasm:
		return reason("region %d is a %s: nobody ever enters it; go around", id, engine.Term(s.b.terrain[r]))
	case blockWater:
		return waterReason(id, s.b.terrain[r])
	case blockImmune:
		return reason("region %d is protected by %s", id, s.immune(r))
	case blockPeace:
		return reason("region %d belongs to %s, who made peace with you (Diplomat) until their next turn", id, s.names[s.Regions[r].Owner])
	case blockGuard:
		return s.guarded(p, r)
	case blockBorder:
		return reason("region %d is not a border region: your %s enter the map through a region on the edge of the board or on the shore of a sea that touches it", id, s.raceName(p, slot))
	case blockAdjacent:
		return reason("region %d is not adjacent to your %s", id, s.raceName(p, slot))
	}
	return engine.Text{}
}

func waterReason(id int, terrain string) engine.Text {
	return reason("region %d is a %s: only a Seafaring race can conquer seas and lakes", id, engine.Term(terrain))
}

// targets lists the regions army (p, slot) may attack, ignoring tokens.
func (s *state) targets(p, slot int) []int {
	holds := s.count(p, slot) > 0
	var out []int
	for r := range s.Regions {
		if s.block(p, slot, r, holds) == okTarget {
			out = append(out, r)
		}
	}
	return out
}

// idList formats region indexes as their ids: "4, 7, 9".
func (s *state) idList(rs []int) string {
	ids := make([]string, len(rs))
	for i, r := range rs {
		ids[i] = s.b.ids[r]
	}
	return strings.Join(ids, ", ")
}

// occupy moves n tokens of army (p, slot) from hand into region r, dealing with the
// defender: a lost tribe is removed; an enemy (or the player's own declined race)
// loses one token (onLoss: Elves none) and takes the rest into hand to redeploy at the
// end of the attacker's turn; pieces go unless their kind stays on conquest.
func (s *state) occupy(p, slot, r, n int) {
	nonEmpty := s.Regions[r].Owner != ownerNone
	told := len(s.story)
	b := s.defeat(p, r, 1)
	s.tellConquest(p, slot, r, n, b)
	// The conquest is told before what it caused (a declined race leaving the map).
	if len(s.story) > told {
		last := s.story[len(s.story)-1]
		copy(s.story[told+1:], s.story[told:len(s.story)-1])
		s.story[told] = last
	}
	s.army(p, slot).Hand -= n
	s.Regions[r] = region{Owner: int8(p), Slot: int8(slot), Tokens: int16(n), Pieces: s.keptPieces(r, onConquest)}
	for ab := range s.acting(p, slot) {
		if ab.onConquer != nil {
			ab.onConquer(s, p, slot, r)
		}
	}
	s.T.Acted = true
	if slot == slotActive {
		s.T.ActiveActed = true
		if nonEmpty {
			s.T.NonEmpty++
			s.T.Conquered = append(s.T.Conquered, int16(r))
		}
	}
}

// defeat empties region r conquered by player p: an enemy (or the player's own
// declined race) loses loss tokens (onLoss: Elves none; at most those there) and
// takes the rest into hand to redeploy at the end of the attacker's turn; pieces go
// unless their kind stays on conquest.
func (s *state) defeat(p, r, loss int) beaten {
	g := s.Regions[r]
	b := beaten{owner: g.Owner, tokens: int(g.Tokens)}
	if g.Owner == ownerLostTribe && s.Scn != nil {
		s.Scn.lost(s, int(ownerLostTribe), 0, int(g.Tokens))
	}
	if g.Owner >= 0 {
		q, qs := int(g.Owner), int(g.Slot)
		for ab := range s.acting(q, qs) {
			if ab.onLoss != nil {
				loss = ab.onLoss(s, q, qs, r, p, loss)
			}
		}
		if q != p {
			for ab := range s.acting(q, slotActive) {
				if ab.attacked != nil {
					ab.attacked(s, q, p)
				}
			}
			for _, k := range reg.pieces {
				if k.taken != nil && s.pieces(r, k) > 0 {
					k.taken(s, r, p)
				}
			}
		}
		loss = min(loss, int(g.Tokens))
		b.race, b.declined, b.lost, b.back = s.army(q, qs).Race, qs != slotActive, loss, int(g.Tokens)-loss
		s.army(q, qs).Hand += int(g.Tokens) - loss
		if s.Scn != nil {
			s.Scn.lost(s, q, qs, loss)
		}
		if qs == slotActive && q != p {
			s.T.Attacked |= 1 << q
		}
		if q != p {
			s.T.Taken = append(s.T.Taken, taking{Q: int8(q), R: int16(r)})
		}
		s.Regions[r] = region{Owner: ownerNone, Pieces: s.keptPieces(r, onConquest)}
		if qs != slotActive && s.count(q, qs) == 0 {
			s.removeArmy(q, qs)
		}
	}
	return b
}

// vacate empties region r (abandon): tokens go to the owner's hand; pieces leave the
// map unless their kind stays on abandon.
func (s *state) vacate(r int) {
	g := s.Regions[r]
	if g.Owner >= 0 {
		s.army(int(g.Owner), int(g.Slot)).Hand += int(g.Tokens)
	}
	s.Regions[r] = region{Owner: ownerNone, Pieces: s.keptPieces(r, onAbandon)}
}

// removeArmy takes a declined race off the map for good: its tokens go back to the box,
// its banner to the bottom of the race stack, a Spirit badge to the used badges.
func (s *state) removeArmy(p, slot int) {
	for r := range s.Regions {
		if s.owns(r, p, slot) {
			s.mark(r)
			s.Regions[r] = region{Owner: ownerNone, Pieces: s.keptPieces(r, onRemoval)}
		}
	}
	a := s.army(p, slot)
	s.tell(-1, engine.HapDecline, p, "%s's declined %s left the map", s.names[p], engine.Term(a.Race))
	s.Races = append(slices.Clip(s.Races), a.Race)
	if a.Power != "" {
		s.Discard = append(slices.Clip(s.Discard), a.Power)
	}
	*a = army{}
}

// refill tops the offer column up to six combos from the stacks, reshuffling the used
// power badges when the power stack is empty.
func (s *state) refill(rng *engine.Rand) error {
	for len(s.Offer) < offerSize && len(s.Races) > 0 {
		if len(s.Powers) == 0 {
			if len(s.Discard) == 0 {
				return nil
			}
			sh, err := rng.Shuffle("powers", s.Discard)
			if err != nil {
				return fmt.Errorf("reshuffle the used power badges: %w", err)
			}
			s.Powers, s.Discard = sh, nil
		}
		s.Offer = append(s.Offer, combo{Race: s.Races[0], Power: s.Powers[0]})
		s.Races, s.Powers = s.Races[1:], s.Powers[1:]
	}
	return nil
}

// comboTokens is the number of tokens a combo brings: banner + badge (+ attack-only).
func (s *state) comboTokens(race, power string) int {
	n := s.cat.races[race].Banner + s.cat.powers[power].Badge
	for _, name := range [...]string{race, power} {
		if ab := abilityOf(name); ab != nil {
			n += ab.attackOnly
		}
	}
	return n
}

// notesConquer notes what each conquest listed for player p costs, and why (the
// defence of the region, the abilities' discounts).
func notesConquer(s *state, p int, notes map[string]engine.Text) {
	for _, entry := range legalConquer(s, p, nil) {
		f := strings.Fields(entry)
		if len(f) < 2 {
			continue
		}
		id, err := strconv.Atoi(f[1])
		r, ok := s.b.index[id]
		if err != nil || !ok {
			continue
		}
		slot := slotActive
		if len(f) > 2 && f[2] != "roll" {
			slot = s.ghoulSlot(p)
		}
		if slot < 0 {
			continue
		}
		notes[entry] = s.costNote(p, slot, r, f[len(f)-1] == "roll")
	}
}

// costNote says what conquering region r costs army (p, slot): "3 tokens: 2 + 1
// mountain", with the die's part when the conquest needs it. The breakdown is a
// chain of texts ("%s + %s", "%s - %s") over its parts, each a catalogue key with
// plural forms, so that it reads right in every language.
func (s *state) costNote(p, slot, r int, roll bool) engine.Text {
	breakdown := engine.Textf("%d", 2)
	base := true // nothing but the 2 tokens every conquest costs
	add := func(d int, part func(n int) engine.Text) {
		base = false
		if d < 0 {
			breakdown = engine.Textf("%s - %s", breakdown, part(-d))
		} else {
			breakdown = engine.Textf("%s + %s", breakdown, part(d))
		}
	}
	if n := int(s.Regions[r].Tokens); n > 0 {
		add(n, func(n int) engine.Text { return engine.Textf("%d defenders", n) })
	}
	for _, k := range reg.defenders {
		if n := k.defense * s.pieces(r, k); n != 0 {
			add(n, func(n int) engine.Text { return defenderPart(k, n) })
		}
	}
	shielded := s.shielded(p, r)
	for ab := range s.acting(p, slot) {
		if ab.cost == nil {
			continue
		}
		if d := ab.cost(s, p, slot, r); d != 0 && (d >= 0 || !shielded || ab == s.cat.variant.rules) {
			term := cmp.Or(ab.costTerm, ab.name)
			add(d, func(n int) engine.Text { return engine.Textf("%d (%s)", n, engine.Term(term)) })
		}
	}
	cost := engine.Textf("%d tokens", s.cost(p, slot, r))
	if slot == slotActive && s.T.Die >= 0 {
		return engine.Textf("%s: %s, less %d from your die", cost, breakdown, s.T.Die)
	}
	if roll {
		return engine.Textf("%s: %s; you have %d, the die adds 0 to 3", cost, breakdown, s.army(p, slot).Hand)
	}
	if base {
		return cost // "2 tokens", not "2 tokens: 2"
	}
	return engine.Textf("%s: %s", cost, breakdown)
}

// defenderParts are the cost note's words for the pieces that defend a region (keys
// with plural forms in the catalogues); a place that defends is named as printed.
var defenderParts = map[string]string{
	"mountain":        "%d mountain",
	"fortress":        "%d fortress",
	"troll_lair":      "%d troll lair",
	"encampments":     "%d encampments",
	"mushroom_armour": "%d mushroom armour",
}

// defenderPart is the cost note's part for n defence of pieces of kind k.
func defenderPart(k *pieceKind, n int) engine.Text {
	if key, ok := defenderParts[k.name]; ok {
		return engine.Textf(key, n)
	}
	for _, f := range foundPieces {
		if f.kind.name == k.name {
			return engine.Textf("%d %s", n, engine.Term(f.name))
		}
	}
	return engine.Textf("%d %s", n, engine.Term(strings.ReplaceAll(k.name, "_", " ")))
}
