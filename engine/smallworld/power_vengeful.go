package smallworld

// Vengeful (Vendicativi, Small World Underground §4.20): each opponent who conquers a
// region of the Vengeful player's races — the active one and the one in decline
// ("attacca una delle tue Razze") — gets a Vengeance marker (a bit per seat; the
// badge is the active race's, it hears of attacks on either); conquering a region of
// a player who holds one costs 1 token fewer (at least 1), every such conquest
// (★ [?] §4.20); the markers come back at the end of the Vengeful turn.
var (
	vengeful = &ability{name: "Vengeful", kind: kindPower, pack: packUnderground, vars: []*varKind{vengeance},
		attacked: func(s *state, q, by int) {
			a := s.army(q, slotActive)
			a.set(vengeance, a.get(vengeance)|1<<by)
		},
		cost: func(s *state, p, slot, r int) int {
			if o := s.Regions[r].Owner; o >= 0 && int(o) != p && s.army(p, slot).get(vengeance)&(1<<o) != 0 {
				return -1
			}
			return 0
		},
		turnEnd: func(s *state, p, slot int) { s.army(p, slot).set(vengeance, 0) },
	}
	// vengeance holds the seats of the players with a Vengeance marker (box: 4).
	vengeance = &varKind{name: "vengeance"}
)

func init() { register(vengeful) }
