package smallworld

// Ogres (Small World Underground, Ogri): every conquest costs one token fewer than
// normal, at least one (the core's minimum).
var ogres = &ability{name: "Ogres", kind: kindRace, pack: packUnderground,
	cost: func(*state, int, int, int) int { return -1 },
}

func init() { register(ogres) }
