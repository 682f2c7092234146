package smallworld

// raceHook is the rulebook text of one race banner as data. Every field is optional;
// unless a field says otherwise it applies only while the race is active.
type raceHook struct {
	// attackOnly tokens come with the banner but only attack: they are set aside at
	// the end of every redeployment and come back at the start of the next turn
	// (Amazons +4).
	attackOnly int
	// keepAllInDecline keeps every token on the map when the race declines (Ghouls).
	keepAllInDecline bool
	// conquersInDecline lets the declined race conquer at the start of the turn,
	// before the active race (Ghouls).
	conquersInDecline bool
	// enterAnywhere lifts the border rule of the first conquest (Halflings).
	enterAnywhere bool
	// keepsTokensOnLoss: a conquered region loses no token, all go back to hand (Elves).
	keepsTokensOnLoss bool
	// discount reports whether conquering region r costs one token less (Giants,
	// Tritons). A conquest always costs at least one token.
	discount func(s *state, p, r int) bool
	// onConquer runs after the race occupied region r (Trolls' lairs, Halflings' holes).
	onConquer func(s *state, p, slot, r int)
	// bonus is the race's coins at the end of the turn of army (p, slot).
	bonus func(s *state, p, slot int) int
	// bonusInDecline keeps the bonus while the race is in decline (Dwarves).
	bonusInDecline bool
	// reinforce returns extra tokens taken from the box when conquests end
	// (Skeletons); the hook respects the box limit.
	reinforce func(s *state, p int) int
	// converts marks the race that may use `enchant` (Sorcerers).
	converts bool
}

// raceRules holds the 14 races of the base game, keyed by banner name.
var raceRules = map[string]raceHook{
	"Amazons": {attackOnly: 4},
	"Dwarves": {bonus: countSymbol(symMine), bonusInDecline: true},
	"Elves":   {keepsTokensOnLoss: true},
	"Ghouls":  {keepAllInDecline: true, conquersInDecline: true},
	"Giants": {discount: func(s *state, p, r int) bool {
		for _, n := range s.b.adj[r] {
			if s.b.terrain[n] == Mountain && s.owns(n, p, slotActive) {
				return true
			}
		}
		return false
	}},
	"Halflings": {enterAnywhere: true, onConquer: func(s *state, p, slot, r int) {
		a := s.army(p, slot)
		if slot == slotActive && a.Holes < holesInBox {
			s.Regions[r].Hole = true
			a.Holes++
		}
	}},
	"Humans": {bonus: countTerrain(Farmland)},
	"Orcs":   {bonus: conqueredBonus},
	"Ratmen": {},
	"Skeletons": {reinforce: func(s *state, p int) int {
		extra := s.T.NonEmpty / 2
		return max(0, min(extra, s.cat.races["Skeletons"].Box-s.inPlay("Skeletons")))
	}},
	"Sorcerers": {converts: true},
	"Tritons":   {discount: func(s *state, _, r int) bool { return s.b.coastal[r] }},
	"Trolls": {onConquer: func(s *state, _, _, r int) {
		s.Regions[r].Lair = true
	}},
	"Wizards": {bonus: countSymbol(symMagic)},
}

// countSymbol returns a bonus of one coin per region with sym held by the army.
func countSymbol(sym uint8) func(s *state, p, slot int) int {
	return func(s *state, p, slot int) int {
		n := 0
		for r := range s.Regions {
			if s.owns(r, p, slot) && s.b.has(r, sym) {
				n++
			}
		}
		return n
	}
}

// countTerrain returns a bonus of one coin per region of terrain held by the army.
func countTerrain(terrain string) func(s *state, p, slot int) int {
	return func(s *state, p, slot int) int {
		n := 0
		for r := range s.Regions {
			if s.owns(r, p, slot) && s.b.terrain[r] == terrain {
				n++
			}
		}
		return n
	}
}

// conqueredBonus is one coin per occupied region the active race conquered this turn
// and still holds (Orcs, Pillaging).
func conqueredBonus(s *state, p, slot int) int {
	n := 0
	for _, r := range s.T.Conquered {
		if s.owns(int(r), p, slot) {
			n++
		}
	}
	return n
}
