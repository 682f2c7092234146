package smallworld

// powerHook is the rulebook text of one special power badge as data. Powers act only
// while their race is active, unless a field says otherwise. Powers with their own
// command (Berserk, Bivouacking, Diplomat, Dragon Master, Fortified, Heroic) are in
// the verb table of specials.go.
type powerHook struct {
	// discount reports whether conquering region r costs one token less (Commando,
	// Mounted, Underworld). A conquest always costs at least one token.
	discount func(b *board, r int) bool
	// flying: any land region may be conquered, adjacent or not, first conquest too.
	flying bool
	// seafaring: seas and lakes may be conquered (as empty regions).
	seafaring bool
	// cavernsAdjacent: all cavern regions are adjacent for conquests (Underworld).
	cavernsAdjacent bool
	// spirit: the declined race does not count towards the one-declined-race limit
	// and keeps the badge; it leaves the map only when its last region is conquered.
	spirit bool
	// stout: `decline` may end a normal turn (after scoring) instead of being the turn.
	stout bool
	// diplomat: `ally PLAYER` makes peace for the active race.
	diplomat bool
	// bonus is the power's coins at the end of the turn of player p's active army.
	bonus func(s *state, p int) int
}

// powerRules holds the 20 special powers of the base game, keyed by badge name.
var powerRules = map[string]powerHook{
	"Alchemist":     {bonus: func(*state, int) int { return 2 }},
	"Berserk":       {},
	"Bivouacking":   {},
	"Commando":      {discount: func(*board, int) bool { return true }},
	"Diplomat":      {diplomat: true},
	"Dragon Master": {},
	"Flying":        {flying: true},
	"Forest":        {bonus: activeTerrain(Forest)},
	"Fortified": {bonus: func(s *state, p int) int {
		n := 0
		for r := range s.Regions {
			if s.owns(r, p, slotActive) && s.Regions[r].Fortress {
				n++
			}
		}
		return n
	}},
	"Heroic":   {},
	"Hill":     {bonus: activeTerrain(Hill)},
	"Merchant": {bonus: func(s *state, p int) int { return s.count(p, slotActive) }},
	"Mounted": {discount: func(b *board, r int) bool {
		return b.terrain[r] == Hill || b.terrain[r] == Farmland
	}},
	"Pillaging": {bonus: func(s *state, p int) int { return conqueredBonus(s, p, slotActive) }},
	"Seafaring": {seafaring: true},
	"Spirit":    {spirit: true},
	"Stout":     {stout: true},
	"Swamp":     {bonus: activeTerrain(Swamp)},
	"Underworld": {cavernsAdjacent: true, discount: func(b *board, r int) bool {
		return b.has(r, symCavern)
	}},
	"Wealthy": {bonus: func(s *state, p int) int {
		a := s.army(p, slotActive)
		if a.Paid {
			return 0
		}
		a.Paid = true
		return 7
	}},
}

func activeTerrain(terrain string) func(s *state, p int) int {
	f := countTerrain(terrain)
	return func(s *state, p int) int { return f(s, p, slotActive) }
}
