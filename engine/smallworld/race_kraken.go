package smallworld

// Kraken (Small World Underground): they need not leave the rivers; they hold and
// score them, in decline too. A river they hold is conquered at the normal cost (2 +
// tokens, ★ §7.5), by anyone.
var kraken = &ability{name: "Kraken", kind: kindRace, pack: packUnderground, needs: []string{featWater}, inDecline: true,
	water: true,
}

func init() { register(kraken) }
