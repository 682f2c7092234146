package smallworld

import (
	"slices"
	"testing"
)

func declined(t *testing.T, s *state, name string, races ...string) {
	t.Helper()
	var got []string
	for _, d := range playerView(t, s, name).Declined {
		got = append(got, d.Race)
	}
	if !slices.Equal(got, races) {
		t.Errorf("%s declined %q, want %q", name, got, races)
	}
}

func active(t *testing.T, s *state, name, race string) {
	t.Helper()
	a := playerView(t, s, name).Active
	if (a == nil) != (race == "") || (a != nil && a.Race != race) {
		t.Errorf("%s active %+v, want %q", name, a, race)
	}
}

func isDeclined(t *testing.T, s *state, id int, want bool) {
	t.Helper()
	if got := regionView(t, s, id).Declined; got != want {
		t.Errorf("region %d declined %v, want %v", id, got, want)
	}
}

func init() {
	for name, f := range map[string]func(t *testing.T, st []*state){
		// Amazons: +4 attack-only tokens, set aside after redeployment, back next turn.
		// Hill: +1 coin per hill region.
		"amazons_hill": func(t *testing.T, st []*state) {
			hand(t, st[1], "alice", 14)
			rejects(t, st[3], "alice", "redeploy 5=7 10=7", "aside", "leave 4")
			rejects(t, st[3], "alice", "redeploy 5=2 10=2", "6 Amazons tokens would stay")
			legalHas(t, st[3], "alice", "redeploy <region>=<tokens> … # the region ends with that many; regions 5,10; 6 tokens to place")
			hand(t, st[4], "alice", 4)
			held(t, st[4], 5, "alice", "Amazons", 5)
			hand(t, st[5], "alice", 0)
			if a := playerView(t, st[5], "alice").Active; a.Aside != 4 {
				t.Errorf("aside %d", a.Aside)
			}
			coins(t, st[5], "alice", 8) // 2 regions + 1 hill
			hand(t, st[7], "alice", 12)
			held(t, st[7], 5, "alice", "Amazons", 1)
		},
		// Dwarves: +1 per mine, in decline too. Forest: +1 per forest. Decline (p. 6):
		// the whole turn, one token per region, no power bonus; own declined region
		// conquered; a second decline removes the first declined race.
		"dwarves_forest_decline": func(t *testing.T, st []*state) {
			held(t, st[4], 6, "alice", "Dwarves", 3)
			coins(t, st[5], "alice", 11)
			legalHas(t, st[8], "alice", "decline")
			hand(t, st[8], "alice", 4)
			held(t, st[9], 6, "alice", "Dwarves", 1)
			isDeclined(t, st[9], 6, true)
			active(t, st[9], "alice", "")
			declined(t, st[9], "alice", "Dwarves")
			coins(t, st[9], "alice", 16)
			toAct(t, st[9], "bob")
			if v := view(st[9]); v.UsedPowers != 1 || playerView(t, st[9], "alice").Declined[0].Power != "" {
				t.Errorf("the Forest badge should be discarded: %d used", v.UsedPowers)
			}
			if l := st[10].Legal("alice"); !slices.Equal(l, []string{"pick 1", "pick 2", "pick 3", "pick 4", "pick 5", "pick 6"}) {
				t.Errorf("legal %q", l)
			}
			rejects(t, st[10], "alice", "conquer 5", "pick")
			rejects(t, st[10], "alice", "done", "pick")
			rejects(t, st[10], "alice", "decline", "pick")
			held(t, st[12], 3, "alice", "Humans", 2)
			held(t, st[14], 3, "alice", "Humans", 5)
			held(t, st[14], 4, "alice", "Humans", 4)
			held(t, st[14], 6, "alice", "Dwarves", 1)
			coins(t, st[14], "alice", 21)
			last := st[16]
			held(t, last, 6, "", "", 0)
			held(t, last, 2, "", "", 0)
			held(t, last, 3, "alice", "Humans", 1)
			declined(t, last, "alice", "Humans")
			coins(t, last, "alice", 23)
			if r := last.Races; r[len(r)-1] != "Dwarves" {
				t.Errorf("Dwarves banner not at the bottom of the stack: %q", r)
			}
		},
		// Elves lose no token when conquered. Commando: -1 everywhere.
		"elves_commando": func(t *testing.T, st []*state) {
			held(t, st[8], 11, "bob", "Ratmen", 2)
			held(t, st[9], 5, "bob", "Ratmen", 6)
			hand(t, st[9], "alice", 5)
			toAct(t, st[10], "alice")
			hand(t, st[11], "alice", 8) // turn 2: 3 + 5 readied
		},
		// Ghouls keep all tokens in decline and conquer before the active race.
		// Stout: decline at the end of a normal turn, after scoring.
		"ghouls_stout": func(t *testing.T, st []*state) {
			legalHas(t, st[4], "alice", "decline", "done")
			coins(t, st[5], "alice", 7)
			held(t, st[5], 5, "alice", "Ghouls", 4)
			held(t, st[5], 10, "alice", "Ghouls", 5)
			isDeclined(t, st[5], 10, true)
			toAct(t, st[5], "bob")
			legalHas(t, st[8], "alice", "pick 1", "conquer 9 ghouls", "conquer 11 ghouls")
			held(t, st[9], 9, "alice", "Ghouls", 3)
			held(t, st[10], 11, "alice", "Ghouls", 3)
			held(t, st[12], 3, "alice", "Humans", 1)
			rejects(t, st[12], "alice", "conquer 15 ghouls", "before your active race")
			legalLacks(t, st[12], "alice", "conquer 15 ghouls")
			held(t, st[13], 3, "alice", "Humans", 9)
			held(t, st[13], 5, "alice", "Ghouls", 2)
			coins(t, st[13], "alice", 12)
			// Ghouls cannot abandon their last region; non-Ghoul declined races never.
			rejects(t, st[8], "bob", "conquer 5", "not your turn")
		},
		// Giants: -1 next to a mountain they hold. Mounted: -1 on hills and farmland.
		"giants_mounted": func(t *testing.T, st []*state) {
			held(t, st[2], 6, "alice", "Giants", 3)
			held(t, st[3], 7, "alice", "Giants", 1)
			held(t, st[4], 12, "alice", "Giants", 1)
			held(t, st[5], 2, "alice", "Giants", 1)
			held(t, st[6], 3, "alice", "Giants", 2)
			hand(t, st[6], "alice", 3)
			legalHas(t, st[6], "alice", "conquer 13", "conquer 17")
		},
		// Halflings: enter anywhere; holes in the first two regions conquered. Heroic.
		"halflings_heroic": func(t *testing.T, st []*state) {
			held(t, st[2], 14, "alice", "Halflings", 3)
			pieces(t, st[3], 13, Pieces{"hole": 1})
			pieces(t, st[4], 19, Pieces{})
			rejects(t, st[4], "alice", "hole 19", "automatically")
			rejects(t, st[4], "alice", "hero 19 19", "different")
			rejects(t, st[4], "alice", "hero 19", "usage")
			rejects(t, st[4], "alice", "hero 19 5", "not held")
			legalHas(t, st[4], "alice", "hero <region> <region> # two different regions of 13,14,19")
			pieces(t, st[5], 13, Pieces{"hole": 1, "hero": 1})
			pieces(t, st[5], 19, Pieces{"hero": 1})
			rejects(t, st[7], "bob", "conquer 19", "protected by a hero")
			rejects(t, st[7], "bob", "conquer 14", "protected by a hole-in-the-ground")
			legalLacks(t, st[7], "bob", "conquer 19", "conquer 13", "conquer 14")
			legalHas(t, st[7], "bob", "conquer 20")
			for _, id := range []int{13, 14, 19} {
				pieces(t, st[10], id, Pieces{})
				isDeclined(t, st[10], id, true)
			}
		},
		// Humans: +1 per farmland. Merchant: +1 per region.
		"humans_merchant": func(t *testing.T, st []*state) {
			coins(t, st[5], "alice", 12)
		},
		// Orcs and Pillaging: +1 per occupied region conquered this turn.
		"orcs_pillaging": func(t *testing.T, st []*state) {
			coins(t, st[5], "alice", 12)
			coins(t, st[8], "alice", 15)
		},
		// Skeletons: +1 token per 2 occupied regions conquered. Alchemist: +2 while active.
		"skeletons_alchemist": func(t *testing.T, st []*state) {
			hand(t, st[4], "alice", 2)
			legalHas(t, st[4], "alice", "redeploy <region>=<tokens> … # the region ends with that many; regions 4,5,11; 3 tokens to place")
			held(t, st[5], 4, "alice", "Skeletons", 4)
			if n := st[5].inPlay("Skeletons"); n != 11 {
				t.Errorf("%d skeletons in play", n)
			}
			coins(t, st[6], "alice", 10)
			coins(t, st[9], "alice", 13)
		},
		// Sorcerers: convert a lone active enemy token once per opponent per turn.
		"sorcerers_swamp": func(t *testing.T, st []*state) {
			legalHas(t, st[8], "bob", "enchant 5", "enchant 10")
			legalLacks(t, st[8], "bob", "enchant 4")
			held(t, st[9], 5, "bob", "Sorcerers", 1)
			hand(t, st[9], "alice", 0)
			hand(t, st[9], "bob", 6)
			if a, b := st[9].inPlay("Ratmen"), st[9].inPlay("Sorcerers"); a != 11 || b != 10 {
				t.Errorf("in play: %d Ratmen, %d Sorcerers", a, b)
			}
			rejects(t, st[9], "bob", "enchant 10", "once per opponent")
			rejects(t, st[2], "alice", "enchant 11", "only Sorcerers")
			rejects(t, st[9], "bob", "enchant 4", "10 tokens")
			coins(t, st[10], "bob", 7)
		},
		// Tritons: -1 on the shore. Seafaring: seas and lakes, kept in decline.
		"tritons_seafaring": func(t *testing.T, st []*state) {
			held(t, st[2], 1, "alice", "Tritons", 2)
			held(t, st[3], 2, "alice", "Tritons", 1)
			held(t, st[4], 3, "alice", "Tritons", 1)
			held(t, st[5], 8, "alice", "Tritons", 2)
			coins(t, st[6], "alice", 9)
			rejects(t, st[7], "bob", "conquer 23", "Seafaring")
			held(t, st[9], 1, "alice", "Tritons", 1)
			isDeclined(t, st[9], 8, true)
			coins(t, st[9], "alice", 13)
		},
		// Trolls: a lair in each region, +1 defence, kept in decline. Fortified.
		"trolls_fortified": func(t *testing.T, st []*state) {
			pieces(t, st[2], 5, Pieces{"troll_lair": 1})
			rejects(t, st[4], "alice", "conquer 4", "conquests are over")
			rejects(t, st[4], "alice", "fortress 5", "this turn already")
			pieces(t, st[6], 10, Pieces{"troll_lair": 1, "fortress": 1})
			coins(t, st[6], "alice", 8)
			held(t, st[8], 10, "bob", "Ratmen", 9)
			pieces(t, st[8], 10, Pieces{})
			hand(t, st[8], "alice", 4)
			held(t, st[9], 5, "alice", "Trolls", 1) // turn 2 started: 7 - 6 readied
			hand(t, st[9], "alice", 6)
			toAct(t, st[9], "alice")
			held(t, st[10], 5, "alice", "Trolls", 1)
			isDeclined(t, st[10], 5, true)
			pieces(t, st[10], 5, Pieces{"troll_lair": 1})
		},
		// Wizards: +1 per magic region. Wealthy: +7 once.
		"wizards_wealthy": func(t *testing.T, st []*state) {
			coins(t, st[3], "alice", 14)
			coins(t, st[6], "alice", 16)
		},
	} {
		scenarios[name] = f
	}
}
