package smallworld

import (
	"slices"
	"testing"
)

func init() {
	for name, f := range map[string]func(t *testing.T, st []*state){
		// Berserk: roll before each conquest, then pay the cost minus the die (min 1).
		"ratmen_berserk": func(t *testing.T, st []*state) {
			legalHas(t, st[1], "alice", "berserk roll")
			if l := st[2].Legal("alice"); slices.Contains(l, "berserk roll") || slices.Contains(l, "abandon 4") || !slices.Contains(l, "conquer 4") {
				t.Errorf("legal after the roll %q", l)
			}
			rejects(t, st[2], "alice", "conquer 4 roll", "rolled the Berserk die")
			rejects(t, st[2], "alice", "berserk roll", "rolled already")
			held(t, st[3], 4, "alice", "Ratmen", 1)
			held(t, st[5], 5, "alice", "Ratmen", 2)
			held(t, st[7], 9, "alice", "Ratmen", 1)
			hand(t, st[7], "alice", 8)
			legalHas(t, st[7], "alice", "berserk roll")
		},
		// Bivouacking: encampments defend like tokens, are not lost in an attack, and
		// leave the map with a decline.
		"bivouacking": func(t *testing.T, st []*state) {
			rejects(t, st[4], "alice", "camp 5=4 10=2", "6 encampments")
			rejects(t, st[4], "alice", "conquer 4", "conquests are over")
			pieces(t, st[4], 5, Pieces{"encampments": 3})
			legalHas(t, st[4], "alice", "camp <region>=<encampments> … # the region ends with that many; regions 5,10; 5 encampments in all: 0 free, 5 on the map")
			held(t, st[9], 5, "bob", "Humans", 6)
			pieces(t, st[9], 5, Pieces{})
			hand(t, st[9], "alice", 1)
			held(t, st[10], 10, "alice", "Ratmen", 1) // 12 on 10, then turn 2 readied 11
			hand(t, st[10], "alice", 11)
			legalHas(t, st[10], "alice", "camp <region>=<encampments> … # the region ends with that many; regions 10; 5 encampments in all: 3 free, 2 on the map")
			pieces(t, st[11], 10, Pieces{"encampments": 5})
			pieces(t, st[14], 10, Pieces{})
		},
		// Dragon Master: once per turn, one token; the region is immune until it moves.
		"dragon_master": func(t *testing.T, st []*state) {
			held(t, st[3], 4, "alice", "Ratmen", 1)
			pieces(t, st[3], 4, Pieces{"dragon": 1})
			rejects(t, st[3], "alice", "dragon 10", "once per turn")
			legalLacks(t, st[3], "alice", "dragon 10")
			rejects(t, st[6], "bob", "conquer 4", "protected by the dragon")
			pieces(t, st[9], 4, Pieces{})
			pieces(t, st[9], 10, Pieces{"dragon": 1})
			held(t, st[9], 10, "alice", "Ratmen", 1)
			held(t, st[11], 4, "bob", "Giants", 3)
		},
		// Diplomat: peace with a player whose active race you did not attack.
		"diplomat": func(t *testing.T, st []*state) {
			legalLacks(t, st[8], "bob", "ally alice")
			rejects(t, st[8], "bob", "ally alice", "attacked")
			rejects(t, st[10], "bob", "ally bob", "yourself")
			legalHas(t, st[10], "bob", "ally alice")
			if p := playerView(t, st[11], "bob"); p.Ally != "alice" {
				t.Errorf("ally %q", p.Ally)
			}
			rejects(t, st[12], "alice", "conquer 4", "peace")
			legalLacks(t, st[12], "alice", "conquer 4", "conquer 4 roll")
			legalHas(t, st[14], "alice", "conquer 4 roll")
		},
		// Flying: any land region, first conquest too.
		"flying": func(t *testing.T, st []*state) {
			held(t, st[2], 14, "alice", "Ratmen", 3)
			held(t, st[3], 2, "alice", "Ratmen", 2)
			rejects(t, st[3], "alice", "conquer 8", "Seafaring")
		},
		// Spirit: a second declined race that stays when another one declines.
		"spirit": func(t *testing.T, st []*state) {
			declined(t, st[7], "alice", "Ratmen")
			if d := playerView(t, st[7], "alice").Declined[0]; d.Power != "Spirit" {
				t.Errorf("declined %+v", d)
			}
			declined(t, st[13], "alice", "Elves", "Ratmen")
			coins(t, st[13], "alice", coinsOf(st[12], "alice")+3)
			declined(t, st[19], "alice", "Orcs", "Ratmen")
			held(t, st[19], 4, "", "", 0)
			held(t, st[19], 5, "alice", "Ratmen", 1)
			held(t, st[19], 20, "alice", "Orcs", 1)
		},
		// Underworld: caverns are adjacent and cost one less.
		"underworld": func(t *testing.T, st []*state) {
			held(t, st[2], 4, "alice", "Ratmen", 2)
			held(t, st[3], 15, "alice", "Ratmen", 2)
			held(t, st[4], 18, "alice", "Ratmen", 1)
			held(t, st[5], 6, "alice", "Ratmen", 2)
			rejects(t, st[5], "alice", "conquer 20", "not adjacent")
		},
	} {
		scenarios[name] = f
	}
}

func coinsOf(s *state, name string) int {
	return s.Players[s.playerIndex(name)].Coins
}
