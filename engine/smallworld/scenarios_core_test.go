package smallworld

import (
	"slices"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// scenarios maps a file of testdata/scenarios to its assertions; st[i] is the state
// after event i (st[0] after the setup).
var scenarios = map[string]func(t *testing.T, st []*state){
	// Setup (p. 2), picking a combo (p. 3), first conquest through a border region,
	// conquest cost, continuing conquests, redeployment, scoring (p. 4–5).
	"core_conquest": func(t *testing.T, st []*state) {
		v := view(st[0])
		if len(v.Offer) != 6 || v.Offer[0].Race != "Ratmen" || v.Offer[0].Power != "Hill" || v.Offer[0].Tokens != 12 || v.Offer[1].Race != "Elves" {
			t.Errorf("offer %+v", v.Offer)
		}
		if v.Turn != 1 || v.Turns != 10 || v.Map != "smallworld-2p" || *v.Current != "alice" {
			t.Errorf("turn %d/%d map %s current %v", v.Turn, v.Turns, v.Map, *v.Current)
		}
		coins(t, st[0], "alice", 5)
		coins(t, st[0], "bob", 5)
		held(t, st[0], 4, "lost-tribe", "", 1) // a lost tribe on every lost-tribe region
		held(t, st[0], 5, "", "", 0)
		pieces(t, st[0], 6, Pieces{"mountain": 1})
		legalHas(t, st[0], "alice", "pick 1", "pick 6")
		legalLacks(t, st[0], "alice", "done", "decline", "pick 7")
		rejects(t, st[0], "alice", "conquer 5", "pick")
		rejects(t, st[0], "bob", "pick 1", "not your turn", "alice")

		// First conquest: border regions only; 22 borders an edge sea.
		hand(t, st[1], "alice", 12)
		legalHas(t, st[1], "alice", "conquer 5", "conquer 22", "conquer 4", "conquer 6")
		legalLacks(t, st[1], "alice", "conquer 10", "conquer 1", "conquer 8", "pick 1")
		rejects(t, st[1], "alice", "conquer 10", "not a border region")
		rejects(t, st[1], "alice", "conquer 1", "Seafaring")
		rejects(t, st[1], "alice", "conquer 99", "no region 99")
		rejects(t, st[1], "alice", "pick 2", "already play")

		held(t, st[2], 5, "alice", "Ratmen", 2)
		rejects(t, st[2], "alice", "conquer 14", "not adjacent to your Ratmen", "you can conquer 4, 10, 11")
		rejects(t, st[2], "alice", "conquer 5", "already held")
		rejects(t, st[2], "alice", "decline", "first command")
		held(t, st[3], 10, "alice", "Ratmen", 2)
		hand(t, st[3], "alice", 8)
		legalHas(t, st[3], "alice", "conquer 9", "conquer 4", "abandon 5", "redeploy <region>=<tokens> … # the region ends with that many; regions 5,10; 8 tokens to place")
		held(t, st[4], 4, "alice", "Ratmen", 3) // 2 + 1 for the lost tribe, which is gone
		hand(t, st[4], "alice", 5)
		rejects(t, st[4], "alice", "redeploy 5=3", "4 Ratmen tokens would stay in hand")
		rejects(t, st[4], "alice", "redeploy 5=0 10=7 4=5", "at least one token")
		rejects(t, st[4], "alice", "redeploy 5=9 10=4 4=4", "more than you have")
		rejects(t, st[4], "alice", "redeploy 12=3", "not yours")
		held(t, st[5], 5, "alice", "Ratmen", 4)
		// Redeployment ended the conquests.
		rejects(t, st[5], "alice", "conquer 9", "conquests are over")
		coins(t, st[6], "alice", 9) // 3 regions + Hill 1
		toAct(t, st[6], "bob")
		if p := playerView(t, st[6], "alice"); p.Scored == nil || *p.Scored != 4 || p.Regions != 3 || p.Tokens != 12 {
			t.Errorf("alice %+v", p)
		}
	},
	// Cost of a combo: one coin on each combo above; coins on a combo go to its taker.
	"pick_cost": func(t *testing.T, st []*state) {
		coins(t, st[1], "alice", 3)
		v := view(st[1])
		want := []OfferView{
			{1, "Ratmen", "Hill", 1, 12}, {2, "Elves", "Flying", 1, 11}, {3, "Orcs", "Forest", 0, 9},
			{4, "Trolls", "Swamp", 0, 9}, {5, "Wizards", "Merchant", 0, 7}, {6, "Giants", "Stout", 0, 10},
		}
		if !slices.Equal(v.Offer, want) {
			t.Errorf("offer %+v\nwant %+v", v.Offer, want)
		}
		if a := playerView(t, st[1], "alice").Active; a == nil || a.Race != "Humans" || a.Power != "Commando" {
			t.Errorf("alice active %+v", a)
		}
		hand(t, st[2], "alice", 9) // no region: tokens stay for the first conquest
		coins(t, st[2], "alice", 3)
		coins(t, st[3], "bob", 6) // free, plus the coin lying on it
		rejects(t, st[2], "bob", "pick 7", "no combo at position 7")
		// Alice keeps her Humans: nothing to pick in her next turn.
		legalLacks(t, st[4], "alice", "pick 1")
	},
	// Enemy losses and withdrawal (p. 4): the defender loses one token and places the
	// others at the end of the attacker's turn, in regions they still hold.
	"losses_retreat": func(t *testing.T, st []*state) {
		held(t, st[8], 11, "bob", "Humans", 2) // 3 - 1 Commando
		held(t, st[9], 5, "bob", "Humans", 7)  // 2 + 6 tokens - 1
		hand(t, st[9], "alice", 5)
		toAct(t, st[9], "bob")
		coins(t, st[10], "bob", 7)
		toAct(t, st[10], "alice")
		if v := view(st[10]); *v.Current != "alice" || v.Turn != 1 || !slices.Equal(v.Legal, []string{"redeploy <region>=<tokens> …", "done"}) {
			t.Errorf("current %v turn %d legal %q", *v.Current, v.Turn, v.Legal)
		}
		legalHas(t, st[10], "alice", "redeploy <region>=<tokens> … # the region ends with that many; regions 4,10; 5 tokens to place, lost in an attack; additions only, on the regions you still hold; the others stay")

		rejects(t, st[10], "bob", "done", "not your turn", "alice")
		rejects(t, st[10], "alice", "conquer 9", "placing tokens")
		rejects(t, st[10], "alice", "redeploy 10=4", "would stay in hand")
		rejects(t, st[10], "alice", "redeploy 10=5 4=2", "only add")
		if got := st[10].SkipCommands("alice"); !slices.Equal(got, []string{"done"}) {
			t.Errorf("skip %q", got)
		}
		if got := st[10].SkipCommands("bob"); got != nil {
			t.Errorf("skip bob %q", got)
		}
		// After the redeployment alice's turn 2 starts: all but one token per region
		// come back to hand.
		toAct(t, st[11], "alice")
		if st[11].Turn() != 2 {
			t.Errorf("turn %d", st[11].Turn())
		}
		hand(t, st[11], "alice", 9)
		held(t, st[11], 10, "alice", "Ratmen", 1)
		held(t, st[11], 4, "alice", "Ratmen", 1)
	},
	// done with tokens in hand places them: first where they were readied from, then
	// one by one on the region with the fewest tokens.
	"done_autoplace": func(t *testing.T, st []*state) {
		for _, id := range []int{4, 5, 10} {
			held(t, st[5], id, "alice", "Ratmen", 4)
		}
		hand(t, st[5], "alice", 0)
		hand(t, st[7], "alice", 9)
		for _, id := range []int{4, 5, 10} {
			held(t, st[8], id, "alice", "Ratmen", 4)
		}
		coins(t, st[8], "alice", 13)
		if got := st[7].SkipCommands("alice"); !slices.Equal(got, []string{"done"}) {
			t.Errorf("skip %q", got)
		}
		if got := st[5].SkipCommands("bob"); !slices.Equal(got, []string{"pick 1", "done"}) {
			t.Errorf("skip bob %q", got)
		}
	},
	// Final conquest with the reinforcement die (p. 5).
	"final_roll": func(t *testing.T, st []*state) {
		hand(t, st[3], "alice", 1)
		legalHas(t, st[3], "alice", "conquer 4 roll", "conquer 9 roll", "conquer 11 roll")
		legalLacks(t, st[3], "alice", "conquer 4")
		rejects(t, st[1], "alice", "conquer 5 roll", "enough tokens")
		rejects(t, st[3], "alice", "conquer 4", "takes 3 tokens", "conquer 4 roll")
		held(t, st[4], 4, "alice", "Dwarves", 1)
		rejects(t, st[4], "alice", "conquer 11", "conquests are over")
		legalLacks(t, st[4], "alice", "conquer 11 roll", "abandon 5")
		coins(t, st[5], "alice", 11)
	},
	"final_roll_fail": func(t *testing.T, st []*state) {
		held(t, st[4], 4, "lost-tribe", "", 1)
		hand(t, st[4], "alice", 1)
		rejects(t, st[4], "alice", "conquer 11 roll", "conquests are over")
		held(t, st[5], 5, "alice", "Dwarves", 3)
		coins(t, st[5], "alice", 9)
	},
	// Abandoning a region (p. 6); without regions the next conquest is a first one.
	"abandon": func(t *testing.T, st []*state) {
		held(t, st[4], 5, "alice", "Ratmen", 6)
		held(t, st[4], 10, "alice", "Ratmen", 6)
		hand(t, st[6], "alice", 10)
		held(t, st[7], 5, "", "", 0)
		hand(t, st[7], "alice", 11)
		hand(t, st[8], "alice", 12)
		rejects(t, st[8], "alice", "conquer 9", "not a border region")
		held(t, st[9], 12, "alice", "Ratmen", 3)
	},
	// End of the game after the last turn; ties go to the most tokens on the map.
	"game_end": func(t *testing.T, st []*state) {
		last := st[len(st)-1]
		v := view(last)
		if !v.Finished || v.Current != nil || len(v.Legal) != 0 || len(v.ToAct) != 0 || !slices.Equal(v.Winners, []string{"alice"}) {
			t.Errorf("finished %v current %v legal %q winners %q", v.Finished, v.Current, v.Legal, v.Winners)
		}
		coins(t, last, "alice", 6)
		coins(t, last, "bob", 6)
		if a, b := playerView(t, last, "alice").Tokens, playerView(t, last, "bob").Tokens; a != 13 || b != 10 {
			t.Errorf("tokens %d %d", a, b)
		}
		rejects(t, last, "bob", "done", "game is over")
		if last.SkipCommands("alice") != nil || last.Legal("alice") != nil {
			t.Errorf("skip/legal after the end")
		}
		// Coins are revealed to everyone at the end.
		if p := last.View(engine.Observer).(*View).Players[1]; p.Score == nil {
			t.Errorf("hidden score after the end")
		}
	},
	"game_end_tie": func(t *testing.T, st []*state) {
		last := st[len(st)-1]
		if w := last.Winners(); !slices.Equal(w, []string{"alice", "bob"}) {
			t.Errorf("winners %q", w)
		}
		coins(t, last, "alice", 6)
		coins(t, last, "bob", 6)
	},
}
