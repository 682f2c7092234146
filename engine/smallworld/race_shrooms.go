package smallworld

// Shrooms (Small World Underground, Funghi): at the end of their turn, one coin per
// Mushroom Forest they occupy.
var shrooms = &ability{name: "Shrooms", kind: kindRace, pack: packUnderground,
	bonus: func(s *state, p, slot int) int {
		n := 0
		for _, r := range s.held(p, slot) {
			if s.b.terrain[r] == "mushroom" {
				n++
			}
		}
		return n
	},
}

func init() { register(shrooms) }
