package smallworld

// Drow (Small World Underground): at the end of their turn, one coin per region they
// occupy that borders no region occupied by another race — the player's other race,
// any opponent's race active or in decline, or monsters.
var drow = &ability{name: "Drow", kind: kindRace, pack: packUnderground,
	bonus: func(s *state, p, slot int) int {
		n := 0
		for _, r := range s.held(p, slot) {
			alone := true
			for _, x := range s.b.adj[r] {
				if o := s.Regions[x].Owner; o == ownerMonster || o == ownerLostTribe || (o >= 0 && !s.owns(x, p, slot)) {
					alone = false
					break
				}
			}
			if alone {
				n++
			}
		}
		return n
	},
}

func init() { register(drow) }
