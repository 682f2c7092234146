package smallworld

import (
	"github.com/turnmail/turnmail/engine"
)

// The Relics of Small World Underground that conquer (rulebook §5): once per turn,
// by their own verb, the active race holding the relic's region conquers with it and
// the relic moves to the region conquered (a relic stays where it was last used; it
// does not move when the attempt fails). Immune regions are never targets.
//
//	sword R    Sword of the Killer Rabbit: 2 tokens fewer than normal (at least 1)
//	socks R    Stinky Troll's Socks: as if empty (2 + fixed defences, ★ §7.4); the
//	           former owner loses no token
//	doormat R  Flying Doormat: a region not adjacent to yours, at the normal cost
//	orb R      Shiny Orb: an adjacent region held by a lone active-race token,
//	           replaced by one of your tokens from the box (from hand when the box is
//	           empty); the replaced token goes to the box, even an Immortal one
//
// The Vampire power (§4.18) conquers as the Orb does, once per turn per opponent:
//
//	vampire R

// relicsUsed records the relics (and other once-per-turn uses) used this turn, a bit
// each.
var relicsUsed = &varKind{name: "relics used", turn: true}

// Bits of relicsUsed.
const (
	usedSword = 1 << iota
	usedSocks
	usedDoormat
	usedOrb
	usedAltar
	usedReborn
	usedBalrog
	// usedVampire is shifted by the opponent's seat.
	usedVampire = 1 << 8
	// bagShift shifts a relic's bit for its copy by the Bag of Wonders.
	bagShift = 16
)

// relicConquest is one conquering relic: its verb, piece, once-per-turn bit, and
// need, which returns the tokens the conquest of region r takes or why it is not
// possible (holds: the army holds a region).
type relicConquest struct {
	name, verb, piece string // piece "": nothing moves (Vampire)
	holder            *ability
	bit               int
	// perOpponent: the bit is shifted by the defender's seat (Vampire: once per turn
	// per opponent).
	perOpponent bool
	need        func(s *state, p, r int) (int, engine.Text)
	// keepLoss: the defender loses nothing (Socks); box: the replaced token goes to
	// the box and the attacker's token comes from the box (Orb).
	keepLoss, box bool
}

var relicConquests = []*relicConquest{
	{name: "Sword of the Killer Rabbit", holder: foundRules["Sword of the Killer Rabbit"].grants, verb: "sword", piece: "sword_of_the_killer_rabbit", bit: usedSword,
		need: func(s *state, p, r int) (int, engine.Text) {
			if why := s.targetReason(p, slotActive, r, s.count(p, slotActive) > 0); why.Key != "" {
				return 0, why
			}
			return max(1, s.cost(p, slotActive, r)-2), engine.Text{}
		}},
	{name: "Stinky Troll's Socks", holder: foundRules["Stinky Troll's Socks"].grants, verb: "socks", piece: "stinky_trolls_socks", bit: usedSocks, keepLoss: true,
		need: func(s *state, p, r int) (int, engine.Text) {
			if why := s.targetReason(p, slotActive, r, s.count(p, slotActive) > 0); why.Key != "" {
				return 0, why
			}
			// As if empty: the cost without the tokens, at least one token (the core's
			// minimum may have hidden discounts larger than 2 + defences: Ogres, Commando).
			return max(1, s.cost(p, slotActive, r)-int(s.Regions[r].Tokens)), engine.Text{}
		}},
	{name: "Flying Doormat", holder: foundRules["Flying Doormat"].grants, verb: "doormat", piece: "flying_doormat", bit: usedDoormat,
		need: func(s *state, p, r int) (int, engine.Text) {
			if s.count(p, slotActive) > 0 && s.adjacentTo(p, slotActive, r) {
				return 0, reason("region %d is adjacent to your regions: conquer it", s.b.id(r))
			}
			if why := s.targetReason(p, slotActive, r, true); why.Key != "" && why.String() != s.adjacentReason(p, r).String() {
				return 0, why
			}
			return s.cost(p, slotActive, r), engine.Text{}
		}},
	{name: "Shiny Orb", holder: foundRules["Shiny Orb"].grants, verb: "orb", piece: "shiny_orb", bit: usedOrb, box: true,
		need: func(s *state, p, r int) (int, engine.Text) {
			if why := s.targetReason(p, slotActive, r, s.count(p, slotActive) > 0); why.Key != "" {
				return 0, why
			}
			return lone(s, p, r)
		}},
	{name: "Vampire", holder: vampire, verb: "vampire", bit: usedVampire, box: true, perOpponent: true,
		need: func(s *state, p, r int) (int, engine.Text) {
			if why := s.targetReason(p, slotActive, r, s.count(p, slotActive) > 0); why.Key != "" {
				return 0, why
			}
			if n, why := lone(s, p, r); why.Key != "" {
				return n, why
			}
			if s.T.get(relicsUsed)&(usedVampire<<s.Regions[r].Owner) != 0 {
				return 0, reason("you vampirized a token of %s this turn already (once per opponent)", s.names[s.Regions[r].Owner])
			}
			return 1, engine.Text{}
		}},
}

// lone returns 1 when region r holds a lone token of an opponent's active race (the
// only race token there; other pieces ignored), or why not.
func lone(s *state, p, r int) (int, engine.Text) {
	g := &s.Regions[r]
	if g.Owner < 0 || int(g.Owner) == p || g.Slot != slotActive || g.Tokens != 1 {
		return 0, reason("region %d is not held by a lone token of an opponent's active race", s.b.id(r))
	}
	if why := s.protected(p, r); why.Key != "" {
		return 0, why
	}
	return 1, engine.Text{}
}

// adjacentReason is targetReason's text for a region not adjacent to the army.
func (s *state) adjacentReason(p, r int) engine.Text {
	return reason("region %d is not adjacent to your %s", s.b.id(r), s.raceName(p, slotActive))
}

func init() {
	registerVar(relicsUsed)
	for _, rc := range relicConquests {
		rc := rc
		registerVerbs(&verb{name: rc.verb, rank: rankConquer + 20, owner: rc.owner(),
			apply: func(s *state, p int, args []string, _ *engine.Rand) error { return rc.apply(s, p, args) },
			legal: func(s *state, p int, out []string) []string { return rc.legal(s, p, out) }})
	}
}

// owner is the verb's owner: the power (Vampire); relics are checked by ready (a
// Magic race may copy them).
func (rc *relicConquest) owner() *ability {
	if rc.piece == "" {
		return rc.holder
	}
	return nil
}

func (rc *relicConquest) ready(s *state, p int) bool {
	return s.ownTurn(p) && !s.T.Closed && s.T.Die < 0 && s.army(p, slotActive).exists() && (rc.original(s, p) || rc.viaBag(s, p))
}

// original reports whether player p's active race holds the relic (has the power)
// and did not use it this turn.
func (rc *relicConquest) original(s *state, p int) bool {
	return s.has(p, rc.name) && (rc.perOpponent || s.T.get(relicsUsed)&rc.bit == 0)
}

// viaBag reports whether player p's Magic race chose this relic for the Bag of
// Wonders this turn and did not use the copy yet (power_magic.go).
func (rc *relicConquest) viaBag(s *state, p int) bool {
	return rc.piece != "" && s.T.get(bagCopy) == bagIndex(rc.verb) && s.T.get(relicsUsed)&(rc.bit<<bagShift) == 0 && s.has(p, nameMagic)
}

// available is the number of tokens the army may use with the relic: its hand, and
// one from the box for the Orb.
func (rc *relicConquest) available(s *state, p int) int {
	a := s.army(p, slotActive)
	if rc.box && s.cat.races[a.Race].Box > s.inPlay(a.Race) {
		return a.Hand + 1
	}
	return a.Hand
}

func (rc *relicConquest) legal(s *state, p int, out []string) []string {
	if !rc.ready(s, p) {
		return out
	}
	hand := rc.available(s, p)
	for r := range s.Regions {
		if n, why := rc.need(s, p, r); why.Key == "" && n <= hand {
			out = append(out, rc.verb+" "+s.b.ids[r])
		}
	}
	return out
}

func (rc *relicConquest) apply(s *state, p int, args []string) error {
	if err := s.needConquests(p); err != nil {
		return err
	}
	if err := wantArgs(args, 1, syntax(rc.verb+" R")); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	orig := rc.original(s, p)
	switch {
	case !orig && !rc.viaBag(s, p):
		return engine.Illegal("the %s works once per turn, for the active race holding its region (or a Magic race's Bag of Wonders copying it)", engine.Term(rc.name))
	case s.T.Die >= 0:
		return engine.Illegal("you rolled the Berserk die: conquer a region first")
	}
	n, why := rc.need(s, p, r)
	if why.Key != "" {
		return engine.Illegal("%s", why)
	}
	if have := rc.available(s, p); have < n {
		return engine.Illegal("region %d takes %d tokens with the %s and you have %d", s.b.id(r), n, engine.Term(rc.name), have)
	}
	a := s.army(p, slotActive)
	if rc.box && s.cat.races[a.Race].Box > s.inPlay(a.Race) {
		a.Hand++
	}
	g := s.Regions[r]
	bit := rc.bit
	switch {
	case rc.perOpponent:
		bit <<= g.Owner
	case !orig:
		bit <<= bagShift
	}
	var before int
	if g.Owner >= 0 {
		before = s.army(int(g.Owner), int(g.Slot)).Hand
	}
	s.via = reason("%#s", engine.Term(rc.name))
	s.occupy(p, slotActive, r, n)
	s.via = engine.Text{}
	if g.Owner >= 0 {
		if d := s.army(int(g.Owner), int(g.Slot)); d.exists() {
			switch {
			case rc.keepLoss:
				d.Hand = before + int(g.Tokens)
			case rc.box:
				d.Hand = before
			}
		}
	}
	if rc.piece != "" && orig {
		s.moveFlag(pieceNamed(rc.piece), r)
	}
	s.T.set(relicsUsed, s.T.get(relicsUsed)|bit)
	return nil
}

// pieceNamed returns the registered piece kind named name.
func pieceNamed(name string) *pieceKind {
	for _, k := range reg.pieces {
		if k.name == name {
			return k
		}
	}
	panic("smallworld: no piece kind " + name) // names are constants
}
