package smallworld

// Mummies (Small World Underground, Mummie): every conquest costs one token more than
// normal (an empty river too: 2).
var mummies = &ability{name: "Mummies", kind: kindRace, pack: packUnderground,
	cost: func(*state, int, int, int) int { return 1 },
}

func init() { register(mummies) }
