package smallworld

// Mudmen (Small World Underground, Melme): when their conquests end, one more Mudman
// from the box per Mud Pool (a swamp, by the compatibility section) they occupy,
// placed in their redeployment; never more than the box holds (12).
var mudmen = &ability{name: "Mudmen", kind: kindRace, pack: packUnderground, needs: []string{Swamp},
	reinforce: func(s *state, p, slot int) int {
		n := countTerrain(Swamp)(s, p, slot)
		return max(0, min(n, s.cat.races["Mudmen"].Box-s.inPlay("Mudmen")))
	},
}

func init() { register(mudmen) }
