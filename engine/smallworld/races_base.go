package smallworld

import (
	"github.com/turnmail/turnmail/engine"
)

// The 14 races of the base game: one entry each, with the pieces, variables and
// commands that belong to the race. The numbers (banner, box) are the race's line in
// data/races-powers.json.
func init() {
	register(
		&ability{name: "Amazons", kind: kindRace, attackOnly: amazonsAttackOnly,
			// The +4 attack-only tokens stay in hand at the end of the redeployment
			// and are set aside until the next turn.
			keepInHand: func(*state, int, int) int { return amazonsAttackOnly },
			turnStart: func(s *state, p, slot int) {
				a := s.army(p, slot)
				if a.Aside > 0 {
					s.tell(-1, engine.HapMove, -1, "%s's Amazons take back into hand the %s set aside", s.names[p], nTokens(a.Aside))
				}
				a.Hand, a.Aside = a.Hand+a.Aside, 0
			},
			turnEnd: func(s *state, p, slot int) {
				if a := s.army(p, slot); s.count(p, slot) > 0 {
					if a.Hand > 0 {
						s.tell(-1, engine.HapMove, -1, "%s's Amazons set %s aside until their next turn (they only attack)", s.names[p], nTokens(a.Hand))
					}
					a.Aside, a.Hand = a.Hand, 0
				}
			}},
		&ability{name: "Dwarves", kind: kindRace, needs: []string{featMine}, inDecline: true, bonus: countSymbol(symMine)},
		&ability{name: "Elves", kind: kindRace, onLoss: func(*state, int, int, int, int, int) int { return 0 }},
		&ability{name: "Ghouls", kind: kindRace, keepAllInDecline: true, playsInDecline: true},
		&ability{name: "Giants", kind: kindRace, needs: []string{Mountain}, cost: func(s *state, p, _, r int) int {
			for _, n := range s.b.adj[r] {
				if s.b.class[n] == Mountain && s.owns(n, p, slotActive) {
					return -1
				}
			}
			return 0
		}},
		halflings,
		&ability{name: "Humans", kind: kindRace, needs: []string{Farmland}, bonus: countTerrain(Farmland)},
		&ability{name: "Orcs", kind: kindRace, bonus: conqueredBonus},
		&ability{name: "Ratmen", kind: kindRace},
		&ability{name: "Skeletons", kind: kindRace, reinforce: func(s *state, p, _ int) int {
			extra := s.T.NonEmpty / 2
			return max(0, min(extra, s.cat.races["Skeletons"].Box-s.inPlay("Skeletons")))
		}},
		sorcerers,
		&ability{name: "Tritons", kind: kindRace, needs: []string{featWater}, cost: func(s *state, _, _, r int) int {
			if s.b.coastal[r] {
				return -1
			}
			return 0
		}},
		&ability{name: "Trolls", kind: kindRace, pieces: []*pieceKind{trollLair},
			onConquer: func(s *state, _, _, r int) { s.setPieces(r, trollLair, 1) }},
		&ability{name: "Wizards", kind: kindRace, needs: []string{featMagic}, bonus: countSymbol(symMagic)},
	)
}

// amazonsAttackOnly is the Amazons' +4: tokens that only attack.
const amazonsAttackOnly = 4

// trollLair is placed in every region the Trolls conquer: +1 defence, and it stays
// when the Trolls decline. (The box holds 10; the engine does not limit them.)
var trollLair = &pieceKind{name: "troll_lair", order: 30, flag: true, defense: 1, title: reason("a troll's lair"),
	stays: onDecline, hash: hashFlag(1)}

// ---- Sorcerers: enchant R, a lone active enemy token replaced by one from the box ----

const nameSorcerers = "Sorcerers"

var (
	sorcerers = &ability{name: nameSorcerers, kind: kindRace, vars: []*varKind{enchanted},
		verbs: []*verb{{name: "enchant", rank: rankConquer + 11, apply: applyEnchant, legal: legalEnchant}}}
	// enchanted has a bit per player whose token the Sorcerers converted this turn.
	enchanted = &varKind{name: "enchanted", turn: true, enc: encByte, legacy: 1}
)

// enchantReason says why player p's Sorcerers cannot convert region r, or "".
func (s *state) enchantReason(p, r int) engine.Text {
	g := &s.Regions[r]
	id := s.b.id(r)
	if g.Owner < 0 || int(g.Owner) == p || g.Slot != slotActive {
		return reason("region %d holds no active enemy race", id)
	}
	q := int(g.Owner)
	switch {
	case g.Tokens != 1:
		return reason("region %d holds %d tokens: only a lone token can be converted", id, g.Tokens)
	case s.fortified(r):
		return reason("region %d is defended by an encampment, fortress or lair, which counts as a second token", id)
	case s.immune(r).Key != "":
		return reason("region %d is protected by %s", id, s.immune(r))
	case !s.mayEnter(p, slotActive, r):
		return waterReason(id, s.b.terrain[r])
	case s.atPeace(p, slotActive, r):
		return reason("you are at peace with %s (Diplomat)", s.names[q])
	case s.T.get(enchanted)&(1<<q) != 0:
		return reason("you converted a token of %s this turn already (once per opponent per turn)", s.names[q])
	case !s.adjacentTo(p, slotActive, r):
		return reason("region %d is not adjacent to your Sorcerers", id)
	}
	return engine.Text{}
}

func (s *state) enchantReady(p int) engine.Text {
	a := s.army(p, slotActive)
	switch {
	case !s.has(p, nameSorcerers):
		return reason("only active Sorcerers can convert tokens")
	case s.T.Die >= 0:
		return reason("you rolled the Berserk die: conquer a region first")
	case s.inPlay(a.Race) >= s.cat.races[a.Race].Box:
		return reason("all %d %s tokens are in play: none is left in the box to convert with", s.cat.races[a.Race].Box, engine.Term(a.Race))
	}
	return engine.Text{}
}

func legalEnchant(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || s.T.Closed || s.enchantReady(p).Key != "" {
		return out
	}
	for r := range s.Regions {
		g := &s.Regions[r]
		if g.Owner >= 0 && int(g.Owner) != p && g.Slot == slotActive && g.Tokens == 1 && s.enchantReason(p, r).Key == "" {
			out = append(out, "enchant "+s.b.ids[r])
		}
	}
	return out
}

func applyEnchant(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needConquests(p); err != nil {
		return err
	}
	if why := s.enchantReady(p); why.Key != "" {
		return engine.Illegal("%s", why)
	}
	if err := wantArgs(args, 1, syntax("enchant R")); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	if why := s.enchantReason(p, r); why.Key != "" {
		return engine.Illegal("%s", why)
	}
	q := s.Regions[r].Owner
	s.mark(r)
	s.tell(-1, engine.HapConquest, int(q), "%s's Sorcerers enchanted the lone token of %s in region %d: it is a Sorcerer now", s.names[p], s.names[q], s.b.id(r))
	// The converted token goes back to the box (Elves lose it too); the Sorcerer
	// token comes from the box, not from hand.
	s.Regions[r] = region{Owner: int8(p), Slot: slotActive, Tokens: 1, Pieces: s.keptPieces(r, onConquest)}
	if s.Scn != nil { // a token lost in a conquest (Necromancer Island's Soul Well)
		s.Scn.lost(s, int(q), slotActive, 1)
	}
	s.T.Attacked |= 1 << q
	s.T.set(enchanted, s.T.get(enchanted)|1<<q)
	s.T.NonEmpty++
	s.T.Conquered = append(s.T.Conquered, int16(r))
	s.T.Acted, s.T.ActiveActed = true, true
	return nil
}

// ---- bonuses shared by several races and powers ----

// countSymbol returns a bonus of one coin per region with sym held by the army.
func countSymbol(sym uint8) func(s *state, p, slot int) int {
	return func(s *state, p, slot int) int {
		n := 0
		for r := range s.Regions {
			if s.owns(r, p, slot) && s.b.has(r, sym) {
				n++
			}
		}
		return n
	}
}

// countTerrain returns a bonus of one coin per region of a terrain class held by the
// army.
func countTerrain(class string) func(s *state, p, slot int) int {
	return func(s *state, p, slot int) int {
		n := 0
		for r := range s.Regions {
			if s.owns(r, p, slot) && s.b.class[r] == class {
				n++
			}
		}
		return n
	}
}

// conqueredBonus is one coin per occupied region the active race conquered this turn
// and still holds (Orcs, Pillaging).
func conqueredBonus(s *state, p, slot int) int {
	n := 0
	for _, r := range s.T.Conquered {
		if s.owns(int(r), p, slot) {
			n++
		}
	}
	return n
}
