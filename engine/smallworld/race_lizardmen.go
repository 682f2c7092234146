package smallworld

// Lizardmen (Small World Underground, Lucertoloni): they cross rivers, occupied or
// not (Kraken), without conquering them or leaving a token: a region joined to one
// of theirs through a chain of rivers counts as adjacent (★ §7.8; seas and lakes of
// a surface board alike, by the compatibility section). Choice (§7.8 leaves it
// open): their first conquest may cross an edge river, which is an entry region.
// Conquering a river is normal and its tokens leave it as usual.
var lizardmen = &ability{name: "Lizardmen", kind: kindRace, pack: packUnderground, needs: []string{featWater},
	adjacent: func(s *state, p, slot, r int) bool {
		return acrossWater(s, r, func(x int) bool { return s.owns(x, p, slot) })
	},
	linked: func(s *state, _, _, r, x int) bool { return acrossWater(s, r, func(y int) bool { return y == x }) },
	reach: func(s *state, _, _, r int, holds bool) bool {
		return !holds && acrossWater(s, r, func(x int) bool { return s.b.water[x] && s.b.entry[x] })
	},
}

func init() { register(lizardmen) }

// acrossWater reports whether region r is joined through a chain of one or more
// water regions to a region where hit holds (one of the chain's included).
func acrossWater(s *state, r int, hit func(x int) bool) bool {
	seen := make([]bool, len(s.Regions))
	seen[r] = true
	var queue []int
	for _, w := range s.b.adj[r] {
		if s.b.water[w] {
			seen[w] = true
			queue = append(queue, w)
		}
	}
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		if hit(w) {
			return true
		}
		for _, x := range s.b.adj[w] {
			switch {
			case seen[x]:
			case s.b.water[x]:
				seen[x] = true
				queue = append(queue, x)
			case hit(x):
				return true
			}
		}
	}
	return false
}
