package smallworld

// Shrooms (Small World Underground, Funghi): at the end of their turn, one coin per
// Mushroom Forest (a forest on a surface board) they occupy.
var shrooms = &ability{name: "Shrooms", kind: kindRace, pack: packUnderground, needs: []string{Forest},
	bonus: countTerrain(Forest), // Mushroom Forest = Forest (compatibility section)
}

func init() { register(shrooms) }
