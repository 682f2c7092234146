package smallworld

// Vampire (Small World Underground §4.18): `vampire R`, once per turn per opponent,
// conquers an adjacent region held by a lone token of an opponent's active race by
// replacing it with a Vampire from the box (from hand when the box is empty); the
// replaced token goes to the box, even an Immortal one (relics_underground.go, as
// the Shiny Orb).
var vampire = &ability{name: "Vampire", kind: kindPower, pack: packUnderground}

func init() { register(vampire) }
