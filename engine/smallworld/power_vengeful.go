package smallworld

// Vengeful (Vendicativi, Small World Underground §4.20): each opponent who conquers a
// region of the Vengeful race gets a Vengeance marker (a bit per seat); conquering a
// region of a player who holds one costs 1 token fewer (at least 1), every such
// conquest (★ [?] §4.20); the markers come back at the end of the Vengeful turn.
// ([?] Attacks on the player's race in decline give no marker: the badge acts for the
// active race only.)
var (
	vengeful = &ability{name: "Vengeful", kind: kindPower, pack: packUnderground, vars: []*varKind{vengeance},
		onLoss: func(s *state, q, qs, _, loss int) int {
			if s.Cur != q {
				a := s.army(q, qs)
				a.set(vengeance, a.get(vengeance)|1<<s.Cur)
			}
			return loss
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
