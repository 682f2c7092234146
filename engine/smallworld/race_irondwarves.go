package smallworld

// Iron Dwarves (Small World Underground, Nani di ferro): at the end of their
// redeployment they take a silver hammer per Mine they hold (7 in the box). From
// their next turn on, the hammers join the tokens in hand when the turn starts and
// conquer like Dwarves; at the end of the redeployment they come off the map again
// (never a region's last token; a region only a hammer holds is abandoned, highest
// id first — a choice: the rule keeps a Dwarf in every region) and wait for the next
// turn, so they never defend. They are discarded when the Dwarves decline (★ §7.11).
var (
	ironDwarves = &ability{name: "Iron Dwarves", kind: kindRace, pack: packUnderground, needs: []string{featMine},
		turnStart: func(s *state, p, slot int) {
			a := s.army(p, slot)
			a.Hand += a.get(hammers)
			s.T.set(hammersOut, a.get(hammers))
		},
		borrowed:   func(s *state, p, _ int) int { return s.hammersOut(p) },
		keepInHand: func(s *state, p, _ int) int { return s.hammersOut(p) },
		turnEnd: func(s *state, p, slot int) {
			a := s.army(p, slot)
			out := s.hammersOut(p)
			held := s.held(p, slot)
			for i := len(held) - 1; i >= 0 && a.Hand < out; i-- {
				if s.Regions[held[i]].Tokens == 1 {
					s.vacate(held[i])
				}
			}
			a.Hand -= min(out, a.Hand)
			s.T.set(hammersOut, 0)
			a.set(hammers, min(hammerBox, out+countSymbol(symMine)(s, p, slot)))
		},
		vars: []*varKind{hammers, hammersOut},
		view: func(s *state, p, slot int, marks map[string]int) {
			marks["hammers"] = s.army(p, slot).get(hammers)
			marks["hammers_in_play"] = s.hammersOut(p)
		},
	}
	// hammers counts the Iron Dwarves' silver hammers; hammersOut those in play this
	// turn (in hand or on the map).
	hammers    = &varKind{name: "hammers", enc: encVarint}
	hammersOut = &varKind{name: "hammers out", turn: true, enc: encVarint}
)

// hammerBox is the number of silver hammers in the box.
const hammerBox = 7

func init() { register(ironDwarves) }

// hammersOut is how many silver hammers player p's Iron Dwarves have in play now.
func (s *state) hammersOut(p int) int {
	if p != s.Cur {
		return 0
	}
	return s.T.get(hammersOut)
}
