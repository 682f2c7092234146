package smallworld

// The special powers of Small World Underground whose whole rule is a hook or two
// (rulebook §4, shared/rules/smallworld-underground.en.md): one entry each. The
// number (badge) is the power's line in data/underground/races-powers.json.
func init() {
	register(
		// Adventurous (§4.1): +1 per Place in your regions (★ §7.17: Places only).
		&ability{name: "Adventurous", kind: kindPower, pack: packUnderground, needs: []string{featPlaces},
			bonus: func(s *state, p, slot int) int { return s.foundHeld(p, slot, false) }},
		// Fisher (§4.2): +1 per two regions bordering a river (rivers themselves not).
		&ability{name: "Fisher", kind: kindPower, pack: packUnderground, needs: []string{featWater},
			bonus: func(s *state, p, slot int) int {
				n := 0
				for _, r := range s.held(p, slot) {
					if s.b.coastal[r] && !s.b.water[r] {
						n++
					}
				}
				return n / 2
			}},
		// Flocking (§4.3): +2 when all your regions form one group.
		&ability{name: "Flocking", kind: kindPower, pack: packUnderground,
			bonus: func(s *state, p, slot int) int {
				if s.groups(p, slot) == 1 {
					return 2
				}
				return 0
			}},
		// Frightened (§4.4): +1 per region with at least 3 race tokens.
		&ability{name: "Frightened", kind: kindPower, pack: packUnderground,
			bonus: func(s *state, p, slot int) int {
				n := 0
				for _, r := range s.held(p, slot) {
					if s.Regions[r].Tokens >= 3 {
						n++
					}
				}
				return n
			}},
		// Immortal (§4.5): an opponent's conquest costs you no token.
		&ability{name: "Immortal", kind: kindPower, pack: packUnderground,
			onLoss: func(s *state, q, _, _, by, loss int) int {
				if by != q {
					return 0
				}
				return loss
			}},
		// Martyr (§4.7, sources §1): 1 coin from the bank each time an opponent
		// conquers one of your (active) regions, paid at once.
		&ability{name: "Martyr", kind: kindPower, pack: packUnderground,
			onLoss: func(s *state, q, _, _, by, loss int) int {
				if by != q {
					s.Players[q].Coins++
				}
				return loss
			}},
		// Mining (§4.8): +1 per Mine.
		&ability{name: "Mining", kind: kindPower, pack: packUnderground, needs: []string{featMine}, bonus: countSymbol(symMine)},
		// Muddy (§4.9): +1 per Mud Pool (a swamp), even in decline.
		&ability{name: "Muddy", kind: kindPower, pack: packUnderground, needs: []string{Swamp}, inDecline: true, keepBadge: true, bonus: countTerrain(Swamp)},
		// Mystic (§4.10): +1 per Crystal Grove (a magic source).
		&ability{name: "Mystic", kind: kindPower, pack: packUnderground, needs: []string{featMagic}, bonus: countSymbol(symMagic)},
		// Quarreling (§4.11): +1 per isolated group of your regions.
		&ability{name: "Quarreling", kind: kindPower, pack: packUnderground,
			bonus: func(s *state, p, slot int) int { return s.groups(p, slot) }},
		// Stone (§4.15): +1 per Black Mountain (a mountain).
		&ability{name: "Stone", kind: kindPower, pack: packUnderground, needs: []string{Mountain}, bonus: countTerrain(Mountain)},
		// Thieving (§4.16): at the end of your turn, 1 coin from each opponent whose
		// active race borders your regions (nothing from an empty purse, ★ §7.16) in a
		// region not protected against you (state.protected: immune, Gnomes).
		&ability{name: "Thieving", kind: kindPower, pack: packUnderground,
			bonus: func(s *state, p, slot int) int {
				n := 0
				for q := range s.Players {
					if q != p && s.Players[q].Coins > 0 && s.borders(q, slotActive, p, slot) {
						s.Players[q].Coins--
						n++
					}
				}
				return n
			}},
		// Wise (§4.21): +2 at the end of each of your turns while in decline (the
		// decline turn included) if the race holds a region.
		&ability{name: "Wise", kind: kindPower, pack: packUnderground, inDecline: true, keepBadge: true,
			bonus: func(s *state, p, slot int) int {
				if slot != slotActive && s.count(p, slot) > 0 {
					return 2
				}
				return 0
			}},
	)
}

// borders reports whether a region of army (q, qs) not protected against player p
// borders a region of army (p, slot).
func (s *state) borders(q, qs, p, slot int) bool {
	for _, r := range s.held(p, slot) {
		for _, x := range s.b.adj[r] {
			if s.owns(x, q, qs) && s.protected(p, x).Key == "" {
				return true
			}
		}
	}
	return false
}

// groups counts the groups of adjacent regions army (p, slot) holds (0 when none).
// Regions join when they border each other, and every region an ability makes
// adjacent to the army (Underworld's caverns, Spiderines' chasm regions) joins the
// others so made adjacent (Flocking's example: Spiderines around two chasms are one
// group).
func (s *state) groups(p, slot int) int {
	rs := s.held(p, slot)
	parent := make(map[int]int, len(rs))
	var find func(int) int
	find = func(r int) int {
		if parent[r] != r {
			parent[r] = find(parent[r])
		}
		return parent[r]
	}
	for _, r := range rs {
		parent[r] = r
	}
	linked := -1
	for _, r := range rs {
		for _, x := range s.b.adj[r] {
			if _, ok := parent[x]; ok {
				parent[find(x)] = find(r)
			}
		}
		for ab := range s.acting(p, slot) {
			if ab.adjacent != nil && ab.adjacent(s, p, slot, r) {
				if linked >= 0 {
					parent[find(r)] = find(linked)
				}
				linked = r
				break
			}
		}
	}
	n := 0
	for _, r := range rs {
		if find(r) == r {
			n++
		}
	}
	return n
}
