package smallworld

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// ugPowerGame starts a 2-player Underground game where alice picks Liches with power
// (Liches score nothing extra underground: no farmland) and bob gets Ratmen + Stout,
// with the face-down pool's top fixed.
func ugPowerGame(t *testing.T, power, pool string) *state {
	t.Helper()
	s, _ := newUnderground(t, 2, nil, `{"races":["Liches","Ratmen"],"powers":["`+power+`","Stout"],"pool":[`+pool+`]}`)
	return apply(t, s, "alice: pick 1")
}

// reveal conquers a monster region with the place or relic found there dictated.
func reveal(t *testing.T, s *state, who, cmd, found string) *state {
	t.Helper()
	s, _ = step(t, s, who, cmd, engine.Outcomes{"reveal": json.RawMessage(`["` + found + `"]`)})
	return s
}

// ugFound starts a game where alice's Liches (5 + Spirit 5, the whole box, no bonus)
// conquer the monster region 23 (an edge mud pool, 4 tokens) and find what there.
func ugFound(t *testing.T, what string) *state {
	t.Helper()
	s := ugPowerGame(t, "Spirit", `"`+what+`"`)
	return reveal(t, s, "alice", "conquer 23", what)
}

// Scenario tests of the Underground powers (rulebook §4,
// shared/rules/smallworld-underground.en.md), on the 2-player board: 26 is an edge
// mine, 27 an edge mud pool, 23 an edge mud pool with monsters, 25 an edge river, 4 an
// edge crystal grove, 5 an edge mushroom forest, 6 an edge Black Mountain, 2 an edge
// mud pool by river 3.
func TestUndergroundPowers(t *testing.T) {
	cases := map[string]func(t *testing.T){
		// Mining (§4.8): +1 per Mine.
		"Mining": func(t *testing.T) {
			s := ugPowerGame(t, "Mining", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done")
			coins(t, s, "alice", 8) // 5 + 2 regions + mine 26
		},
		// Mystic (§4.10): +1 per Crystal Grove.
		"Mystic": func(t *testing.T) {
			s := ugPowerGame(t, "Mystic", "")
			s = apply(t, s, "alice: conquer 4", "alice: conquer 5", "alice: done")
			coins(t, s, "alice", 8)
		},
		// Stone (§4.15): +1 per Black Mountain (its marker makes it cost 3).
		"Stone": func(t *testing.T) {
			s := ugPowerGame(t, "Stone", "")
			s = apply(t, s, "alice: conquer 6", "alice: conquer 5", "alice: done")
			coins(t, s, "alice", 8)
		},
		// Muddy (§4.9): +1 per Mud Pool, even in decline (the badge stays).
		"Muddy": func(t *testing.T) {
			s := ugPowerGame(t, "Muddy", "")
			s = apply(t, s, "alice: conquer 27", "alice: conquer 26", "alice: done")
			coins(t, s, "alice", 8)
			s = apply(t, s, "bob: pick 1", "bob: done", "alice: decline")
			coins(t, s, "alice", 11) // 2 declined regions + mud pool 27
			if a := s.army(0, slotDeclined); a.Power != "Muddy" {
				t.Errorf("declined army has power %q, want Muddy kept", a.Power)
			}
		},
		// Wise (§4.21): +2 at the end of every turn in decline, the decline turn too.
		"Wise": func(t *testing.T) {
			s := ugPowerGame(t, "Wise", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done")
			coins(t, s, "alice", 7) // nothing while active
			s = apply(t, s, "bob: pick 1", "bob: done", "alice: decline")
			coins(t, s, "alice", 11)
		},
		// Fisher (§4.2): +1 per two regions bordering a river.
		"Fisher": func(t *testing.T) {
			s := ugPowerGame(t, "Fisher", "")
			s = apply(t, s, "alice: conquer 2", "alice: conquer 9", "alice: conquer 12", "alice: done")
			coins(t, s, "alice", 9) // 3 regions + (2 and 9 by river 3) / 2
		},
		// Frightened (§4.4): +1 per region with at least 3 tokens.
		"Frightened": func(t *testing.T) {
			s := ugPowerGame(t, "Frightened", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: conquer 22", "alice: redeploy 26=5 27=3 22=1", "alice: done")
			coins(t, s, "alice", 10) // 3 regions + 26 and 27
		},
		// Flocking (§4.3): +2 when all regions form one group; Quarreling (§4.11):
		// +1 per group. The river token that joined 20 and 26 leaves it.
		"Flocking": func(t *testing.T) {
			s := ugPowerGame(t, "Flocking", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done")
			coins(t, s, "alice", 9)
			s = ugPowerGame(t, "Flocking", "")
			s = apply(t, s, "alice: conquer 25", "alice: conquer 20", "alice: conquer 26", "alice: done")
			coins(t, s, "alice", 7) // two groups: no bonus
		},
		"Quarreling": func(t *testing.T) {
			s := ugPowerGame(t, "Quarreling", "")
			s = apply(t, s, "alice: conquer 25", "alice: conquer 20", "alice: conquer 26", "alice: done")
			coins(t, s, "alice", 9) // 2 regions + 2 groups
		},
		// Thieving (§4.16): 1 coin from each opponent whose active race borders you.
		"Thieving": func(t *testing.T) {
			s := ugPowerGame(t, "Thieving", `"Shiny Orb"`)
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done")
			coins(t, s, "alice", 7)
			s = apply(t, s, "bob: pick 1")
			s = reveal(t, s, "bob", "conquer 23", "Shiny Orb")
			s = apply(t, s, "bob: done")
			coins(t, s, "bob", 6)
			s = apply(t, s, "alice: done")
			coins(t, s, "alice", 10) // 2 regions + 1 from bob, whose 23 borders 27
			coins(t, s, "bob", 5)
		},
		// Immortal (§4.5): an opponent's conquest costs no token.
		"Immortal": func(t *testing.T) {
			s := ugPowerGame(t, "Immortal", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: redeploy 26=5 27=4", "alice: done")
			s = apply(t, s, "bob: pick 1", "bob: conquer 27", "bob: done")
			hand(t, s, "alice", 8) // all 4 back, placed on 26, readied: 9 but the one left
		},
		// Vampire (§4.18): a lone active token replaced (to the box), once per turn
		// per opponent.
		"Vampire": func(t *testing.T) {
			s := ugPowerGame(t, "Vampire", "")
			s = apply(t, s, "alice: conquer 26", "alice: done", "bob: pick 1", "bob: conquer 27", "bob: conquer 22",
				"bob: conquer 16", "bob: redeploy 27=10 22=1 16=1", "bob: done")
			rejects(t, s, "alice", "vampire 27", "lone token")
			s = apply(t, s, "alice: vampire 22")
			held(t, s, 22, "alice", "Liches", 1)
			if n := s.inPlay("Ratmen"); n != 11 {
				t.Errorf("%d Ratmen out of the box, want 11", n)
			}
			rejects(t, s, "alice", "vampire 16", "once per opponent")
		},
		// Tomb (§4.17): in decline every token stays; a conquered region's tokens but
		// one are redeployed.
		"Tomb": func(t *testing.T) {
			s := ugPowerGame(t, "Tomb", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: redeploy 26=5 27=5", "alice: done",
				"bob: pick 1", "bob: done", "alice: decline")
			held(t, s, 26, "alice", "Liches", 5)
			s = apply(t, s, "bob: conquer 27", "bob: done")
			held(t, s, 26, "alice", "Liches", 9)
			isDeclined(t, s, 26, true)
		},
		// Vengeful (§4.20): the attacker gets a marker; conquering his regions costs
		// 1 fewer until the end of the Vengeful turn.
		"Vengeful": func(t *testing.T) {
			s := ugPowerGame(t, "Vengeful", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done", "bob: pick 1")
			r27 := s.b.index[27]
			s = apply(t, s, "bob: conquer 27", "bob: done")
			if c := s.cost(0, slotActive, r27); c != 2+12-1 {
				t.Errorf("alice conquers bob's 27 for %d, want 13", c)
			}
			s = apply(t, s, "alice: done")
			if c, d := s.cost(0, slotActive, r27), s.defense(r27); c != 2+d {
				t.Errorf("after alice's turn 27 costs alice %d, want 2 + %d (markers back)", c, d)
			}
		},
		// Vanishing (§4.19): on decline every token leaves; 2 coins per region.
		"Vanishing": func(t *testing.T) {
			s := ugPowerGame(t, "Vanishing", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done", "bob: pick 1", "bob: done", "alice: decline")
			coins(t, s, "alice", 11)
			held(t, s, 26, "", "", 0)
			held(t, s, 27, "", "", 0)
			if s.army(0, slotDeclined).exists() {
				t.Error("the Vanishing race is still on the map")
			}
		},
		// Shield (§4.14): one armour per Mushroom Forest when conquests end, +1
		// defence; not placed, it goes to the first region.
		"Shield": func(t *testing.T) {
			s := ugPowerGame(t, "Shield", "")
			s = apply(t, s, "alice: conquer 5", "alice: conquer 4")
			rejects(t, s, "alice", "armour 5", "when your conquests end")
			s = apply(t, s, "alice: redeploy 5=4 4=4", "alice: armour 5")
			pieces(t, s, 5, Pieces{"mushroom_armour": 1})
			if d := s.defense(s.b.index[5]); d != 5 {
				t.Errorf("5 defends %d, want 4 + 1", d)
			}
			rejects(t, s, "alice", "armour 4", "no Mushroom Armour")
			s = ugPowerGame(t, "Shield", "")
			s = apply(t, s, "alice: conquer 5", "alice: conquer 4", "alice: done")
			pieces(t, s, 4, Pieces{"mushroom_armour": 1})
		},
		// Reborn (§4.12): in decline, one or two of its regions get a token of the
		// new active race instead.
		"Reborn": func(t *testing.T) {
			s := ugPowerGame(t, "Reborn", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done", "bob: pick 1", "bob: done",
				"alice: decline", "bob: done", "alice: pick 1", "alice: reborn 26 27")
			for _, id := range []int{26, 27} {
				if g := s.Regions[s.b.index[id]]; g.Owner != 0 || g.Slot != slotActive || g.Tokens != 1 {
					t.Errorf("region %d: %+v, want one token of alice's active race", id, g)
				}
			}
			if s.army(0, slotDeclined).exists() {
				t.Error("the Reborn race without regions is still on the map")
			}
			rejects(t, s, "alice", "reborn 26", "Reborn race in decline")
		},
		// Martyr (§4.7, sources §1): 1 coin each time an opponent conquers a region.
		"Martyr": func(t *testing.T) {
			s := ugPowerGame(t, "Martyr", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: redeploy 26=5 27=4", "alice: done")
			coins(t, s, "alice", 7)
			s = apply(t, s, "bob: pick 1", "bob: conquer 27")
			coins(t, s, "alice", 8)
			s = apply(t, s, "bob: done")
			hand(t, s, "alice", 7) // one lost as usual: 8 on 26, readied
		},
	}
	for name, f := range cases {
		t.Run(name, f)
	}
}

// Scenario tests of the Places (rulebook §5): alice's Liches (Spirit: no bonus)
// conquer the monster region 23 (an edge mud pool, 4 tokens) and find the place.
func TestUndergroundPlaces(t *testing.T) {
	cases := map[string]func(t *testing.T){
		// Keep (§5): +1 coin and +1 defence, in decline too.
		"Keep": func(t *testing.T) {
			s := ugFound(t, "Keep on the Motherland")
			if d := s.defense(s.b.index[23]); d != 4+1 {
				t.Errorf("23 defends %d, want 4 tokens + 1", d)
			}
			s = apply(t, s, "alice: done")
			coins(t, s, "alice", 7)
			s = apply(t, s, "bob: pick 1", "bob: done", "alice: decline")
			coins(t, s, "alice", 9)
		},
		// Mine of the Lost Dwarf (§5): +2, in decline too.
		"Mine": func(t *testing.T) {
			s := apply(t, ugFound(t, "Mine of the Lost Dwarf"), "alice: done")
			coins(t, s, "alice", 8)
			s = apply(t, s, "bob: pick 1", "bob: done", "alice: decline")
			coins(t, s, "alice", 11)
		},
		// Diamond Fields (§5): +1, and +1 per other region of the same terrain.
		"Diamond": func(t *testing.T) {
			s := apply(t, ugFound(t, "Diamond Fields"), "alice: conquer 27", "alice: conquer 26", "alice: done")
			coins(t, s, "alice", 10) // 3 regions + 23 + mud pool 27
		},
		// Fountain of Youth (§5): one more token at the start of each turn.
		"Fountain": func(t *testing.T) {
			s := apply(t, ugFound(t, "Fountain of Youth"), "alice: done", "bob: pick 1", "bob: done")
			hand(t, s, "alice", 9)                                // all 10 Liches are out (5 + Spirit 5): the box gives none
			s = ugPowerGame(t, "Commando", `"Fountain of Youth"`) // 5 + 4
			s = reveal(t, s, "alice", "conquer 23", "Fountain of Youth")
			s = apply(t, s, "alice: done", "bob: pick 1", "bob: done")
			hand(t, s, "alice", 9) // 8 readied + 1 from the box
		},
		// Great Brass Pipe (§5, ★ §7.7): mud pool 20 is adjacent to the Pipe's 23.
		"Pipe": func(t *testing.T) {
			s := ugFound(t, "Great Brass Pipe")
			s = apply(t, s, "alice: conquer 20")
			held(t, s, 20, "alice", "Liches", 2)
		},
		// Adventurous (§4.1): +1 per Place in your regions.
		"Adventurous": func(t *testing.T) {
			s := ugPowerGame(t, "Adventurous", `"Great Brass Pipe"`)
			s = reveal(t, s, "alice", "conquer 23", "Great Brass Pipe")
			s = apply(t, s, "alice: done")
			coins(t, s, "alice", 7) // 1 region + 1 place
		},
	}
	for name, f := range cases {
		t.Run(name, f)
	}
}

// Scenario tests of the Relics that conquer (rulebook §5): alice's Liches (5 +
// Spirit 5, the whole box) find the relic on the monster region 23; it conquers once
// per turn and moves to the region it conquered.
func TestUndergroundRelics(t *testing.T) {
	cases := map[string]func(t *testing.T){
		// Sword: 2 tokens fewer (Black Mountain 16: 3 → 1).
		"Sword": func(t *testing.T) {
			s := ugFound(t, "Sword of the Killer Rabbit")
			legalHas(t, s, "alice", "sword 16")
			rejects(t, s, "bob", "sword 16", "not your turn")
			s = apply(t, s, "alice: sword 16")
			held(t, s, 16, "alice", "Liches", 1)
			pieces(t, s, 16, Pieces{"mountain": 1, "sword_of_the_killer_rabbit": 1})
			pieces(t, s, 23, Pieces{})
			rejects(t, s, "alice", "sword 22", "once per turn")
		},
		// Socks: as if empty; the former owner loses no token.
		"Socks": func(t *testing.T) {
			s := apply(t, ugFound(t, "Stinky Troll's Socks"), "alice: done", "bob: pick 1", "bob: conquer 27", "bob: done")
			held(t, s, 27, "bob", "Ratmen", 12)
			s = apply(t, s, "alice: socks 27")
			held(t, s, 27, "alice", "Liches", 2)
			hand(t, s, "bob", 12)
			pieces(t, s, 27, Pieces{"stinky_trolls_socks": 1})
		},
		// Socks with discounts beyond the region's fixed cost (Ogres −1, Commando −1):
		// still at least one token goes in (the soak found a region taken with none).
		"Socks discounted": func(t *testing.T) {
			s, _ := newUnderground(t, 2, nil, `{"races":["Ogres","Ratmen"],"powers":["Commando","Stout"],"pool":["Stinky Troll's Socks"]}`)
			s = reveal(t, apply(t, s, "alice: pick 1"), "alice", "conquer 23", "Stinky Troll's Socks")
			s = apply(t, s, "alice: done", "bob: pick 1", "bob: conquer 27", "bob: done", "alice: socks 27")
			held(t, s, 27, "alice", "Ogres", 1)
		},
		// Doormat: a region not adjacent, at the normal cost.
		"Doormat": func(t *testing.T) {
			s := ugFound(t, "Flying Doormat")
			rejects(t, s, "alice", "doormat 22", "adjacent to your regions")
			s = apply(t, s, "alice: doormat 20")
			held(t, s, 20, "alice", "Liches", 2)
			pieces(t, s, 20, Pieces{"flying_doormat": 1})
		},
		// Orb: a lone active token is replaced (it goes to the box); the Liches' box
		// is empty, so the token comes from hand.
		"Orb": func(t *testing.T) {
			s := apply(t, ugFound(t, "Shiny Orb"), "alice: done", "bob: pick 1", "bob: conquer 27", "bob: conquer 22",
				"bob: redeploy 27=11 22=1", "bob: done")
			rejects(t, s, "alice", "orb 27", "lone token")
			s = apply(t, s, "alice: orb 22")
			held(t, s, 22, "alice", "Liches", 1)
			hand(t, s, "alice", 8)
			if n := s.inPlay("Ratmen"); n != 11 {
				t.Errorf("%d Ratmen out of the box, want 11 (the lone one back in the box)", n)
			}
		},
	}
	for name, f := range cases {
		t.Run(name, f)
	}
}

// Scenario tests of the pieces moved by a verb: the Black Queen (Royal, §4.13),
// Lara's Ghost (Crypt), the Scepter, the Ring and the Altar (§5).
func TestUndergroundPlacedPieces(t *testing.T) {
	cases := map[string]func(t *testing.T){
		// Royal: the Queen is placed at the end of the turn (in the first region
		// when not placed), makes her region immune and stays in decline.
		"Royal": func(t *testing.T) {
			s := ugPowerGame(t, "Royal", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 27", "alice: done")
			pieces(t, s, 26, Pieces{"black_queen": 1})
			s = apply(t, s, "bob: pick 1")
			rejects(t, s, "bob", "conquer 26", "protected by the Black Queen")
			rejects(t, s, "bob", "queen 27", "with Royal can move the Black Queen")
			s = apply(t, s, "bob: done", "alice: queen 27")
			pieces(t, s, 26, Pieces{})
			pieces(t, s, 27, Pieces{"black_queen": 1})
			s = apply(t, s, "alice: done", "bob: done", "alice: decline")
			pieces(t, s, 27, Pieces{"black_queen": 1})
			// Not on a river the token leaves when conquests end.
			s = ugPowerGame(t, "Royal", "")
			s = apply(t, s, "alice: conquer 26", "alice: conquer 25")
			legalLacks(t, s, "alice", "queen 25")
			rejects(t, s, "alice", "queen 25", "goes to a region of your active race")
		},
		// Crypt: Lara's Ghost goes anywhere but the Crypt; an empty region with it
		// is conquered by nobody (★ §7.13).
		"Crypt": func(t *testing.T) {
			s := ugFound(t, "Crypt of the Tomb-raider")
			rejects(t, s, "alice", "ghost 23", "but the Crypt's")
			s = apply(t, s, "alice: ghost 25", "alice: done", "bob: pick 1")
			pieces(t, s, 25, Pieces{"laras_ghost": 1})
			rejects(t, s, "bob", "conquer 25", "protected by Lara's Ghost")
		},
		// Scepter: its region's coin is doubled.
		"Scepter": func(t *testing.T) {
			s := ugFound(t, "Scepter of Avarice")
			s = apply(t, s, "alice: conquer 27", "alice: scepter 27", "alice: done")
			pieces(t, s, 27, Pieces{"scepter_of_avarice": 1})
			coins(t, s, "alice", 8) // 2 regions + 27 again
		},
		// Ring: 1 coin from each player with an active token next to it.
		"Ring": func(t *testing.T) {
			s := apply(t, ugFound(t, "Froggy's Ring"), "alice: done")
			coins(t, s, "alice", 6)
			s = apply(t, s, "bob: pick 1", "bob: conquer 27", "bob: done")
			coins(t, s, "bob", 6)
			s = apply(t, s, "alice: done")
			coins(t, s, "alice", 8)
			coins(t, s, "bob", 5)
		},
		// Altar: 3 coins for a token of your race in decline, even with the Altar's
		// race in decline.
		"Altar": func(t *testing.T) {
			s := apply(t, ugFound(t, "Altar of Souls"), "alice: conquer 27", "alice: done", "bob: pick 1", "bob: done", "alice: decline")
			coins(t, s, "alice", 9)
			s = apply(t, s, "bob: done", "alice: pick 1", "alice: altar 27")
			coins(t, s, "alice", 12)
			held(t, s, 27, "", "", 0)
			rejects(t, s, "alice", "altar 23", "once per turn")
		},
	}
	for name, f := range cases {
		t.Run(name, f)
	}
}

// TestUndergroundPentacle (§5, ★ §7.14): the Pentacle's holder sends the Balrog into a
// bordering region: its occupant loses 2 tokens, the region belongs to nobody and is
// immune; next turn it moves on from the Balrog's region.
func TestUndergroundPentacle(t *testing.T) {
	s := apply(t, ugFound(t, "Wickedest Pentacle"), "alice: done", "bob: pick 1", "bob: conquer 27", "bob: done")
	held(t, s, 27, "bob", "Ratmen", 12)
	legalHas(t, s, "alice", "balrog 27", "balrog 16")
	legalLacks(t, s, "alice", "balrog 28") // a chasm
	s = apply(t, s, "alice: balrog 27")
	held(t, s, 27, "", "", 0)
	pieces(t, s, 27, Pieces{"balrog": 1})
	hand(t, s, "bob", 10)
	rejects(t, s, "alice", "balrog 22", "once per turn")
	rejects(t, s, "alice", "conquer 27", "protected by the Balrog")
	s = apply(t, s, "alice: done")
	rejects(t, s, "bob", "balrog 26", "only Wickedest Pentacle")
	s = apply(t, s, "bob: done")
	s = apply(t, s, "alice: balrog 26")
	pieces(t, s, 27, Pieces{})
	pieces(t, s, 26, Pieces{"balrog": 1})
}

// TestUndergroundMagic (§4.6, ★ §7.18): the Bag of Wonders copies a relic on the map,
// used once per turn independently of the original; the copy moves nothing.
func TestUndergroundMagic(t *testing.T) {
	s := ugPowerGame(t, "Magic", `"Sword of the Killer Rabbit"`)
	legalLacks(t, s, "alice", "bag sword") // no relic on the map yet
	s = reveal(t, s, "alice", "conquer 23", "Sword of the Killer Rabbit")
	s = apply(t, s, "alice: sword 16")
	rejects(t, s, "alice", "sword 22", "once per turn")
	rejects(t, s, "alice", "bag orb", "relic on the map: sword")
	s = apply(t, s, "alice: bag sword", "alice: sword 22")
	held(t, s, 22, "alice", "Liches", 1)
	pieces(t, s, 22, Pieces{})
	pieces(t, s, 16, Pieces{"mountain": 1, "sword_of_the_killer_rabbit": 1})
	rejects(t, s, "alice", "sword 27", "once per turn")
	rejects(t, s, "alice", "bag sword", "this turn already")
}

// TestUndergroundStonehedge (§5, ★ §7.15): found, it draws the top badge of the power
// stack (Mining here), whose rules then act for whoever holds its region.
func TestUndergroundStonehedge(t *testing.T) {
	s, _ := newUnderground(t, 2, nil, `{"races":["Liches","Ratmen"],"powers":["Spirit","Stout","Alchemist","Berserk","Commando","Flying","Forest","Mining"],"pool":["Stonehedge"]}`)
	s = apply(t, s, "alice: pick 1")
	if s.Powers[0] != "Mining" {
		t.Fatalf("power stack %v, want Mining on top", s.Powers)
	}
	s = reveal(t, s, "alice", "conquer 23", "Stonehedge")
	if slices.Contains(s.Powers, "Mining") || !s.has(0, "Mining") {
		t.Fatalf("Mining still in the stack %v, or not alice's", s.Powers)
	}
	s = apply(t, s, "alice: conquer 27", "alice: conquer 26", "alice: redeploy 23=1 27=1 26=8", "alice: done")
	coins(t, s, "alice", 9) // 3 regions + Mining's mine 26
	// Bob takes the region and the power with it.
	s = apply(t, s, "bob: pick 1", "bob: conquer 23")
	if !s.has(1, "Mining") || s.has(0, "Mining") {
		t.Error("Stonehedge's power did not go with its region")
	}
}

// TestUndergroundStonehedgeVanishing (§5): Vanishing drawn for Stonehedge does not
// make the race holding it vanish when it declines.
func TestUndergroundStonehedgeVanishing(t *testing.T) {
	s, _ := newUnderground(t, 2, nil, `{"races":["Liches","Ratmen"],"powers":["Spirit","Stout","Alchemist","Berserk","Commando","Flying","Forest","Vanishing"],"pool":["Stonehedge"]}`)
	s = apply(t, s, "alice: pick 1")
	s = reveal(t, s, "alice", "conquer 23", "Stonehedge")
	if !s.has(0, "Vanishing") {
		t.Fatal("Stonehedge did not draw Vanishing")
	}
	s = apply(t, s, "alice: done", "bob: pick 1", "bob: done", "alice: decline")
	held(t, s, 23, "alice", "Liches", 1)
	isDeclined(t, s, 23, true)
}
