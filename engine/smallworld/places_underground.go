package smallworld

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// The Places of Small World Underground (rulebook §5) whose rule is a hook: what each
// gives to the army holding its region (pieceKind.grants), and the Keep's defence.
// Unless the text says otherwise a Place does not work for a race in decline.

// foundRule is what a place or relic brings besides being on the map.
type foundRule struct {
	grants   *ability
	grantsOf func(s *state, r int) *ability
	defense  int
	// taken runs when a player conquers the piece's region from another player
	// (pieceKind.taken).
	taken func(s *state, r, by int)
}

// kindPlace and kindRelic are the kinds of the abilities places and relics grant.
const (
	kindPlace = "place"
	kindRelic = "relic"
)

// foundRules maps a place or relic (English name) to its rule; one without an entry
// grants nothing yet.
var foundRules = map[string]foundRule{
	// Keep on the Motherland: +1 coin at the end of the turn and +1 defence, both
	// in decline too.
	"Keep on the Motherland": {defense: 1, grants: &ability{name: "Keep on the Motherland", kind: kindPlace, pack: packUnderground, inDecline: true,
		bonus: func(*state, int, int) int { return 1 }}},
	// Mine of the Lost Dwarf: +2 coins, in decline too.
	"Mine of the Lost Dwarf": {grants: &ability{name: "Mine of the Lost Dwarf", kind: kindPlace, pack: packUnderground, inDecline: true,
		bonus: func(*state, int, int) int { return 2 }}},
	// Diamond Fields: +1 for its region and +1 per other region of the same race
	// with the same terrain, in decline too.
	"Diamond Fields": {grants: &ability{name: "Diamond Fields", kind: kindPlace, pack: packUnderground, inDecline: true,
		bonus: diamondBonus}},
	// Fountain of Youth: one token from the box at the start of the turn, while any
	// are left (★ §7.20: the reserve only).
	"Fountain of Youth": {grants: &ability{name: "Fountain of Youth", kind: kindPlace, pack: packUnderground,
		turnStart: func(s *state, p, slot int) {
			a := s.army(p, slot)
			if s.cat.races[a.Race].Box > s.inPlay(a.Race) {
				a.Hand++
			}
		}}},
	// Great Brass Pipe: the regions of the Pipe's terrain count as adjacent to the
	// Pipe's region (★ §7.7).
	"Great Brass Pipe": {grants: &ability{name: "Great Brass Pipe", kind: kindPlace, pack: packUnderground,
		adjacent: func(s *state, p, slot, r int) bool {
			for _, x := range s.foundRegions(p, slot, "great_brass_pipe") {
				if x != r && s.b.terrain[x] == s.b.terrain[r] {
					return true
				}
			}
			return false
		},
		linked: func(s *state, p, slot, r, x int) bool {
			pipes := s.foundRegions(p, slot, "great_brass_pipe")
			return r != x && s.b.terrain[r] == s.b.terrain[x] && (slices.Contains(pipes, r) || slices.Contains(pipes, x))
		}}},
	// The relics that conquer (relics_underground.go): their verbs check them.
	"Sword of the Killer Rabbit": {grants: &ability{name: "Sword of the Killer Rabbit", kind: kindRelic, pack: packUnderground}},
	"Stinky Troll's Socks":       {grants: &ability{name: "Stinky Troll's Socks", kind: kindRelic, pack: packUnderground}},
	"Flying Doormat":             {grants: &ability{name: "Flying Doormat", kind: kindRelic, pack: packUnderground}},
	"Shiny Orb":                  {grants: &ability{name: "Shiny Orb", kind: kindRelic, pack: packUnderground}},
	// The pieces moved by a verb (placers_underground.go).
	"Wickedest Pentacle":       {grants: pentacle},                              // place_pentacle.go
	"Stonehedge":               {grants: stonehedge, grantsOf: stonehedgePower}, // place_stonehedge.go
	"Crypt of the Tomb-raider": {grants: &ability{name: "Crypt of the Tomb-raider", kind: kindPlace, pack: packUnderground}, taken: cryptTaken},
	"Scepter of Avarice":       {grants: &ability{name: "Scepter of Avarice", kind: kindRelic, pack: packUnderground, bonus: scepterBonus}},
	"Froggy's Ring":            {grants: &ability{name: "Froggy's Ring", kind: kindRelic, pack: packUnderground, bonus: ringBonus}},
}

// foundRegions lists the regions of army (p, slot) holding the piece named piece.
func (s *state) foundRegions(p, slot int, piece string) []int {
	k := pieceNamed(piece)
	var out []int
	for _, r := range s.held(p, slot) {
		if s.pieces(r, k) > 0 {
			out = append(out, r)
		}
	}
	return out
}

func diamondBonus(s *state, p, slot int) int {
	n := 0
	for _, x := range s.foundRegions(p, slot, "diamond_fields") {
		for _, r := range s.held(p, slot) {
			if s.b.terrain[r] == s.b.terrain[x] {
				n++
			}
		}
	}
	return n
}

// cryptTaken: «Quando un avversario conquista la Regione in cui si trova la Cripta, il
// Fantasma di Lara è rimosso e cade sotto il controllo del conquistatore» — Lara's
// Ghost leaves the map (the region it stood in is no longer immune), and the
// conqueror, now holding the Crypt, may place it again with ghost R (rulesText; the
// Ghost stayed where it was before).
func cryptTaken(s *state, r, by int) {
	k := pieceNamed("laras_ghost")
	if s.rules < rulesText || s.onMap(k, -1) == 0 {
		return
	}
	for x := range s.Regions {
		if s.pieces(x, k) > 0 {
			s.tell(-1, engine.HapLoss, -1, "Lara's Ghost leaves region %d: it is now under the control of %s, who took the Crypt", s.b.id(x), s.names[by])
		}
	}
	s.moveFlag(k)
}
