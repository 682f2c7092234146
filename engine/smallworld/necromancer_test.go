package smallworld

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// newNecro starts a game of Necromancer Island; the Necromancer is the last player.
func newNecro(t *testing.T, players int, options map[string]json.RawMessage, fixed string) *state {
	t.Helper()
	names := []string{"alice", "bob", "carol", "dave", "erin", "frank"}[:players]
	setup := engine.Setup{Game: "necromancer", Options: options, Seed: 3, Fixed: json.RawMessage(fixed)}
	for _, n := range names {
		setup.Players = append(setup.Players, engine.Player{Name: n})
	}
	s, _, err := engine.Start(Necromancer{}, setup, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*state)
}

// well asserts the Necromancer's reserve, the Well and the Island's Ghosts.
func well(t *testing.T, s *state, reserve, wellGhosts, wellSouls, onIsland int) {
	t.Helper()
	nv := view(s).Necromancer
	if nv.Reserve != reserve || nv.WellGhosts != wellGhosts || nv.WellSouls != wellSouls || nv.OnIsland != onIsland {
		t.Errorf("reserve %d, Well %d Ghosts + %d souls, Island %d; want %d, %d + %d, %d",
			nv.Reserve, nv.WellGhosts, nv.WellSouls, nv.OnIsland, reserve, wellGhosts, wellSouls, onIsland)
	}
}

// necroFixed: the Necromancer draws Forest … Commando (Diplomat and Spirit are
// re-drawn and stay on top of the stack); the offer is Ratmen Diplomat, Humans
// Spirit, Elves Seafaring.
const necroFixed = `{"races":["Ratmen","Humans","Elves"],"powers":["Diplomat","Spirit","Forest","Hill","Swamp","Merchant","Alchemist","Commando","Seafaring"]}`

// necroRound1 plays the first round on the 2-player board (lake 8, next to 3, 7, 9,
// 13, 14): alice's Ratmen take 3 and the lost tribe of 7, bob's Elves the lost tribe
// of 12, carol the Necromancer keeps Merchant, buys two Ghosts and takes the lost
// tribe of 13.
func necroRound1(t *testing.T) *state {
	s := newNecro(t, 3, nil, necroFixed)
	s = apply(t, s, "alice: pick 1", "alice: conquer 3", "alice: conquer 7", "alice: done",
		"bob: pick 2", "bob: conquer 12", "bob: done", "carol: keep 4", "carol: buy ghost", "carol: buy ghost", "carol: conquer 13")
	return apply(t, s, "carol: done")
}

// TestNecromancerSetup (Modifiche alla Preparazione): the board for one player fewer,
// the Island with one Ghost on the central lake, the Necromancer to the right of the
// first player (last in turn order), six powers drawn without Spirit, Stout (and
// Diplomat), 13 Ghosts in reserve less the difficulty.
func TestNecromancerSetup(t *testing.T) {
	for players, want := range map[int][2]any{3: {"smallworld-2p", 8}, 4: {"smallworld-3p", 15}, 5: {"smallworld-4p", 17}, 6: {"smallworld-5p", 21}} {
		s := newNecro(t, players, nil, "")
		necro := s.names[players-1]
		if s.b.name != want[0] {
			t.Errorf("%d players: board %s, want %s", players, s.b.name, want[0])
		}
		held(t, s, want[1].(int), necro, nameGhosts, 1)
		pieces(t, s, want[1].(int), Pieces{"island": 1})
		well(t, s, 13, 0, 0, 1)
		nv := view(s).Necromancer
		if nv.Player != necro || nv.Island != want[1] || len(nv.Spare) != 6 || len(nv.Powers) != 0 {
			t.Errorf("%d players: Necromancer %+v", players, nv)
		}
		for _, p := range nv.Spare {
			if slices.Contains(necroRedraw, p) {
				t.Errorf("the Necromancer drew %s", p)
			}
		}
		toAct(t, s, "alice")
		if len(s.Offer) != offerSize {
			t.Errorf("offer of %d", len(s.Offer))
		}
	}
	s := newNecro(t, 3, nil, necroFixed)
	if nv := view(s).Necromancer; !slices.Equal(nv.Spare, []string{"Forest", "Hill", "Swamp", "Merchant", "Alchemist", "Commando"}) {
		t.Errorf("drawn %q", nv.Spare)
	}
	if s.Offer[0].Power != "Diplomat" || s.Offer[1].Power != "Spirit" || s.Offer[2].Power != "Seafaring" {
		t.Errorf("offer %+v: the re-drawn powers stay on top of the stack", s.Offer)
	}
	for d, reserve := range []int{13, 12, 11} {
		s := newNecro(t, 4, map[string]json.RawMessage{"difficulty": json.RawMessage(`"` + string(rune('0'+d)) + `"`)}, "")
		well(t, s, reserve, 0, 0, 1)
	}
	for _, bad := range []map[string]json.RawMessage{{"difficulty": json.RawMessage("3")}, {"difficulty": json.RawMessage(`"x"`)}, {"map": json.RawMessage(`"smallworld-2p"`)}} {
		if err := (Necromancer{}).CheckOptions(bad); err == nil {
			t.Errorf("options %s accepted", bad)
		}
	}
	for _, n := range []int{2, 7} {
		setup := engine.Setup{Game: "necromancer", Seed: 1}
		for i := range n {
			setup.Players = append(setup.Players, engine.Player{Name: string(rune('a' + i))})
		}
		if _, _, err := engine.Start(Necromancer{}, setup, nil); err == nil || !strings.Contains(err.Error(), "3 to 6") {
			t.Errorf("%d players: %v", n, err)
		}
	}
}

// TestNecromancerFirstRound: lost tribes go to the Soul Well; the Lake is immune to
// Seafaring; no peace with the Necromancer; he keeps a power first, buys at the price
// of his powers in use plus his Ghosts (Island included), only before conquering,
// never picks, declines or leaves the Island; the Island scores nothing (Merchant
// included), each other region gives a coin and a bonus soul; four tokens in the
// Well summon a Ghost onto the Island.
func TestNecromancerFirstRound(t *testing.T) {
	s := newNecro(t, 3, nil, necroFixed)
	s = apply(t, s, "alice: pick 1", "alice: conquer 3", "alice: conquer 7")
	well(t, s, 13, 0, 1, 1)
	rejects(t, s, "alice", "ally carol", "carol is the Necromancer", "no peace")
	legalHas(t, s, "alice", "ally bob")
	s = apply(t, s, "alice: done", "bob: pick 2")
	rejects(t, s, "bob", "conquer 8", "protected by the Necromancer's Island")
	s = apply(t, s, "bob: conquer 12", "bob: done")
	well(t, s, 13, 0, 2, 0) // the Island's Ghost is in carol's hand during her turn
	hand(t, s, "carol", 1)

	// The Necromancer's turn: the Island's Ghost is in his hand.
	rejects(t, s, "carol", "done", "keep 1 to keep 6")
	rejects(t, s, "carol", "buy ghost", "keep 1 to keep 6")
	if l := s.Legal("carol"); len(l) != 6 || l[3] != "keep 4" {
		t.Errorf("Legal before keeping: %q", l)
	}
	legalHas(t, s, "carol", "keep 4 # Merchant; the other powers go to your reserve")
	if got := s.SkipCommands("carol"); len(got) != 2 || engine.Normalize(got[0]) != "keep 1" || got[1] != "done" {
		t.Errorf("skip %q", got)
	}
	s = apply(t, s, "carol: keep 4")
	nv := view(s).Necromancer
	if !slices.Equal(nv.Powers, []string{"Merchant"}) || len(nv.Spare) != 5 || nv.Price != 2 {
		t.Errorf("after keep: %+v", nv)
	}
	rejects(t, s, "carol", "pick 1", "never takes a race and power combo")
	rejects(t, s, "carol", "decline", "never goes into decline")
	rejects(t, s, "carol", "abandon 8", "Island")
	rejects(t, s, "carol", "buy power 6", "no power 6")
	legalHas(t, s, "carol", "buy ghost # 2 coins: a Ghost from your reserve (13 there) to your hand on the Island")
	s = apply(t, s, "carol: buy ghost")
	coins(t, s, "carol", 3)
	hand(t, s, "carol", 2)
	if nv := view(s).Necromancer; nv.Price != 3 || nv.Reserve != 12 {
		t.Errorf("after a Ghost: %+v", nv)
	}
	s = apply(t, s, "carol: buy ghost")
	coins(t, s, "carol", 0)
	rejects(t, s, "carol", "buy ghost", "costs 4 coins", "you have 0")
	rejects(t, s, "carol", "conquer 22", "not adjacent")
	s = apply(t, s, "carol: conquer 13")
	well(t, s, 11, 0, 3, 0)
	rejects(t, s, "carol", "buy ghost", "before your first conquest")
	s = apply(t, s, "carol: done")
	// 13 scores 1, Merchant 1 (the Island neither); the bonus soul of 13 makes four
	// tokens in the Well: one Ghost from the reserve to the Island.
	coins(t, s, "carol", 2)
	// The Island is barren: no coin for it among the regions, nor for Merchant; the
	// end-of-game tally says so (before, its correction showed as places and relics).
	if got, want := s.Players[2].tally, (tally{Regions: 1, Power: 1}); got != want {
		t.Errorf("carol's tally %+v, want %+v", got, want)
	}
	well(t, s, 10, 0, 0, 1)
	held(t, s, 13, "carol", nameGhosts, 3)
	toAct(t, s, "alice")
	if s.TurnNo != 2 {
		t.Errorf("turn %d", s.TurnNo)
	}
}

// TestNecromancerGhostsConquered (Il Pozzo delle Anime, §2): one Ghost of a conquered
// region goes to the Well, the others to the Necromancer's hand, placed at the end of
// the attacker's turn — on the Island when he holds no other region. Elves lose
// nothing in conquest, but their tokens removed at decline go to the Well, Ghosts
// counted first when summoning; other races' go to the box.
func TestNecromancerGhostsConquered(t *testing.T) {
	s := necroRound1(t)
	s = apply(t, s, "alice: conquer 13")
	well(t, s, 10, 1, 0, 1)
	if a := s.army(2, slotActive); a.Hand != 2 {
		t.Errorf("the Necromancer holds %d Ghosts in hand, want 2", a.Hand)
	}
	s = apply(t, s, "alice: done")
	well(t, s, 10, 1, 0, 3)
	toAct(t, s, "bob")
	// bob's Elves decline: 11 tokens in 12, 10 leave the map into the Well: with
	// the Ghost, 11 tokens: two sets of four, the Ghost first (back to the reserve),
	// then seven others (to the box); two Ghosts are summoned.
	s = apply(t, s, "bob: decline")
	well(t, s, 9, 0, 3, 0)
	hand(t, s, "carol", 5)
	s = apply(t, s, "carol: done")
	coins(t, s, "carol", 2) // the Island alone scores nothing, Merchant included
	well(t, s, 9, 0, 3, 5)
	// Ratmen going into decline: their tokens go to the box.
	s = apply(t, s, "alice: decline")
	well(t, s, 9, 0, 3, 5)
}

// TestNecromancerRedeploysGhosts: Ghosts taken back into hand while the Necromancer
// holds other regions are his to redeploy at the end of the attacker's turn.
func TestNecromancerRedeploysGhosts(t *testing.T) {
	s := necroRound1(t)
	c := s.clone()
	c.Regions[c.b.index[14]] = region{Owner: 2, Slot: slotActive, Tokens: 1}
	s = apply(t, c, "alice: conquer 13", "alice: done")
	toAct(t, s, "carol")
	legalHas(t, s, "carol", "redeploy <region>=<tokens> … # the region ends with that many; regions 8,14; 2 tokens to place, lost in an attack; additions only, on the regions you still hold; the others stay", "done")
	s = apply(t, s, "carol: redeploy 8=2 14=2")
	held(t, s, 14, "carol", nameGhosts, 2)
	toAct(t, s, "bob")
}

// TestNecromancerWinsAtOnce (Condizioni di Vittoria): the Necromancer wins as soon
// as no Ghost is left in his reserve or in the Well — buying his last Ghost, or
// summoning it after any player's turn — and not while a Ghost waits in the Well;
// otherwise the others' coins decide at the end, his not counting.
func TestNecromancerWinsAtOnce(t *testing.T) {
	s := newNecro(t, 3, nil, necroFixed)
	s = apply(t, s, "alice: pick 1", "alice: done", "bob: pick 1", "bob: done", "carol: keep 1")
	c := s.clone()
	c.Scn.(*necroState).Reserve = 1
	c.Players[2].Coins = 10
	won := apply(t, c, "carol: buy ghost")
	if !won.Over || !slices.Equal(won.Winners(), []string{"carol"}) {
		t.Errorf("over %v, winners %q", won.Over, won.Winners())
	}
	c.Scn.(*necroState).WellGhosts = 1
	if w := apply(t, c, "carol: buy ghost"); w.Over {
		t.Errorf("won with a Ghost in the Well")
	}

	// Summoning the last Ghost after alice's turn: her lost tribe is the fourth soul.
	s = apply(t, s, "carol: done")
	c = s.clone()
	n := c.Scn.(*necroState)
	n.Reserve, n.WellSouls = 1, 3
	c = apply(t, c, "alice: conquer 4")
	if c.Over {
		t.Fatalf("over before the end of the turn")
	}
	c = apply(t, c, "alice: done")
	if !c.Over || !slices.Equal(c.Winners(), []string{"carol"}) || len(c.ToAct()) != 0 {
		t.Errorf("over %v, winners %q, to act %q", c.Over, c.Winners(), c.ToAct())
	}

	// The last turn: the Necromancer's coins do not count.
	c = s.clone()
	c.TurnNo = c.b.turns
	c.Players[2].Coins = 100
	c = apply(t, c, "alice: done", "bob: done", "carol: done")
	if !c.Over || slices.Contains(c.Winners(), "carol") || len(c.Winners()) == 0 {
		t.Errorf("over %v, winners %q", c.Over, c.Winners())
	}
}

// TestNecromancerBuysPower: a bought power adds its effects (Commando's discount) to
// the kept one, and counts in the price.
func TestNecromancerBuysPower(t *testing.T) {
	s := newNecro(t, 3, nil, necroFixed)
	s = apply(t, s, "alice: pick 1", "alice: done", "bob: pick 1", "bob: done", "carol: keep 1")
	c := s.clone()
	c.Players[2].Coins = 10
	legalHas(t, c, "carol", "buy power 5 # Commando for 2 coins; its effects add to your other powers")
	c = apply(t, c, "carol: buy power 5")
	nv := view(c).Necromancer
	if !slices.Equal(nv.Powers, []string{"Forest", "Commando"}) || nv.Price != 3 || !slices.Equal(nv.Spare, []string{"Hill", "Swamp", "Merchant", "Alchemist"}) {
		t.Errorf("after buying: %+v", nv)
	}
	// Region 9, a mountain: 2 + 1, less Commando's 1: the one Ghost is not enough.
	if got := c.cost(2, slotActive, c.b.index[9]); got != 2 {
		t.Errorf("region 9 costs %d, want 2", got)
	}
}

// TestNecromancerEnchantFeedsWell: a token the Sorcerers convert is lost in a
// conquest and goes to the Well; Ghosts, a race in decline, are never converted.
func TestNecromancerEnchantFeedsWell(t *testing.T) {
	s := newNecro(t, 3, nil, `{"races":["Sorcerers","Ratmen","Elves"],"powers":["Forest","Hill","Swamp","Merchant","Alchemist","Commando","Flying","Mounted"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 3", "alice: done", "bob: pick 1", "bob: conquer 2", "bob: done", "carol: keep 1", "carol: buy ghost", "carol: buy ghost", "carol: conquer 9", "carol: done")
	c := s.clone()
	c.Regions[c.b.index[2]].Tokens = 1
	c.Regions[c.b.index[9]].Tokens = 1
	before := *c.Scn.(*necroState)
	rejects(t, c, "alice", "enchant 9", "Ghosts", "Sorcerers only convert an active race")
	c = apply(t, c, "alice: enchant 2")
	if n := c.Scn.(*necroState); n.WellSouls != before.WellSouls+1 || n.WellGhosts != before.WellGhosts {
		t.Errorf("Well %d + %d, was %d + %d", n.WellGhosts, n.WellSouls, before.WellGhosts, before.WellSouls)
	}
}

// TestNecromancerHostileCommands: malformed or misplaced Necromancer commands are
// refused with a rule error that says what to do, never a panic — in this game and
// in Small World, where they do not exist.
func TestNecromancerHostileCommands(t *testing.T) {
	s := newNecro(t, 3, nil, necroFixed)
	s = apply(t, s, "alice: pick 1", "alice: done", "bob: pick 1", "bob: done")
	kept := apply(t, s, "carol: keep 2")
	base := newGame(t, 2, nil, "")
	for _, c := range []struct {
		s        *state
		who, cmd string
		contains string
	}{
		{s, "carol", "keep", "usage: keep N"},
		{s, "carol", "keep 0", "use 1 to 6"},
		{s, "carol", "keep 7", "use 1 to 6"},
		{s, "carol", "keep 99999999999999999999999", "use 1 to 6"},
		{s, "carol", "keep 1 2", "usage: keep N"},
		{kept, "carol", "keep 1", "you kept Hill already"},
		{kept, "carol", "buy", "usage: buy ghost"},
		{kept, "carol", "buy ghosts", "usage: buy ghost"},
		{kept, "carol", "buy ghost 2", "usage: buy ghost"},
		{kept, "carol", "buy power", "usage: buy power N"},
		{kept, "carol", "buy power -1", "use 1 to 5"},
		{kept, "carol", "buy power x", "use 1 to 5"},
		{kept, "alice", "buy ghost", "not your turn"},
		{base, "alice", "buy ghost", "command of Necromancer Island"},
		{base, "alice", "keep 1", "command of Necromancer Island"},
	} {
		rejects(t, c.s, c.who, c.cmd, c.contains)
	}
	// Someone else than the Necromancer, on their own turn.
	rejects(t, newNecro(t, 3, nil, necroFixed), "alice", "buy ghost", "only the Necromancer, carol")
}

// TestNecromancerPriceShown: the price the Necromancer's overview shows is the one
// his buy commands say, before he keeps his power as after (the kept power counts;
// he keeps it during the setup since rules 2, when he buys nothing yet).
func TestNecromancerPriceShown(t *testing.T) {
	g := Necromancer{}
	checked := 0
	for _, cfg := range selfplay.Configs(g, 1, 4) {
		var shown int
		_, err := selfplay.Play(g, cfg, func(st selfplay.Step) error {
			s := st.State.(*state)
			n := s.Scn.(*necroState)
			name := s.names[n.P]
			v := s.View(engine.Observer).(*View)
			if s.ownTurn(int(n.P)) && s.army(int(n.P), slotActive).Power == "" && !n.Choosing {
				shown = v.Necromancer.Price // the overview in his turn before he keeps a power (rules before 2)
			}
			if note, ok := s.Notes(name)["buy ghost"]; ok {
				price := note.Args[0].(engine.Text).Args[0].(int)
				if v.Necromancer.Price != price || shown != 0 && shown != price {
					t.Fatalf("the overview says %d (before keep %d), buy ghost says %d", v.Necromancer.Price, shown, price)
				}
				shown = 0
				checked++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("the Necromancer never could buy")
	}
}
