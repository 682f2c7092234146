package smallworld

// Spiderines (Small World Underground, Ragnette): every region bordering an abyssal
// chasm counts as adjacent to the regions they occupy (sources §4: the literal
// reading, which the Flocking example fits; en §7.6 ★ would ask that the Spiderine
// region border a chasm too), and their first conquest may be any region bordering a
// chasm.
var spiderines = &ability{name: "Spiderines", kind: kindRace, pack: packUnderground, needs: []string{featChasm},
	adjacent: func(s *state, p, slot, r int) bool { return bordersChasm(s, r) && s.count(p, slot) > 0 },
	linked:   func(s *state, p, slot, r, x int) bool { return bordersChasm(s, r) && s.owns(x, p, slot) },
	reach:    func(s *state, _, _, r int, holds bool) bool { return !holds && bordersChasm(s, r) },
}

func init() { register(spiderines) }

// bordersChasm reports whether region r borders an abyssal chasm.
func bordersChasm(s *state, r int) bool {
	for _, x := range s.b.adj[r] {
		if s.b.blocked[x] {
			return true
		}
	}
	return false
}
