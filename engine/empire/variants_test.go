package empire

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// playSkipping plays on with every player's deadline defaults (SkipCommands) until
// stop says so or the game ends, returning every state passed.
func playSkipping(t *testing.T, s engine.State, stop func(engine.State) bool) []engine.State {
	t.Helper()
	states := []engine.State{s}
	for i := 0; !s.Finished() && !stop(s); i++ {
		if i > 2000 {
			t.Fatal("no end")
		}
		p := s.ToAct()[0]
		cmds := s.(engine.Skipper).SkipCommands(p)
		if len(cmds) == 0 {
			t.Fatalf("%s must act but has no default", p)
		}
		for _, c := range cmds {
			next, err := s.Apply(p, engine.Normalize(c), engine.NewRand(1, i+1, nil))
			if err != nil {
				t.Fatalf("%s %q: %v", p, c, err)
			}
			s = next
			states = append(states, s)
		}
	}
	return states
}

// TestLongGame plays three games in a row: each starts afresh (armies, coins, deck,
// bid), the totals add up, and the winner is decided on the totals.
func TestLongGame(t *testing.T) {
	s := newMini(t, 2, `{"long": true}`, "")
	states := playSkipping(t, s, func(engine.State) bool { return false })
	final := states[len(states)-1].(*state)
	if !final.Finished() || final.GameNo != 3 || len(final.Past) != 2 {
		t.Fatalf("finished %v, game %d, %d past games", final.Finished(), final.GameNo, len(final.Past))
	}
	var starts []*state
	for i := 1; i < len(states); i++ {
		prev, cur := states[i-1].(*state), states[i].(*state)
		if cur.GameNo != prev.GameNo {
			starts = append(starts, cur)
		}
	}
	if len(starts) != 2 {
		t.Fatalf("%d new games started", len(starts))
	}
	for _, g := range starts {
		if g.Phase != phSettle || g.Coins[0] != 12 || g.Coins[1] != 12 || g.Bids[0] != -1 || len(g.Cards[0]) != 0 {
			t.Errorf("game %d does not start afresh: phase %s coins %v bids %v", g.GameNo, g.Phase, g.Coins, g.Bids)
		}
		if g.Armies[g.Start][0] != 4 || g.onBoard(0) != 4 || g.Taken != 0 || len(g.Row) != 6 || len(g.Deck) != 21 {
			t.Errorf("game %d board not reset", g.GameNo)
		}
	}
	v := final.View("").(View)
	if v.Games != 3 || v.GameNumber != 3 {
		t.Errorf("view games %d number %d", v.Games, v.GameNumber)
	}
	for i, p := range v.Players {
		sum := p.Sheet.Total
		for _, g := range p.PastGames {
			sum += g
		}
		if len(p.PastGames) != 2 || p.Score != sum {
			t.Errorf("player %d: score %d, past %v, this game %d", i, p.Score, p.PastGames, p.Sheet.Total)
		}
	}
	tot := final.totals(final.sheets())
	best := slices.Max(tot)
	for _, w := range final.WinnerSeats {
		if tot[w] != best {
			t.Errorf("winner %d has %d, best is %d", w, tot[w], best)
		}
	}
}

// TestRingLayout builds the embedded boards as a ring: each face joins two others and
// the start region lies on the first face with a sea route off it.
func TestRingLayout(t *testing.T) {
	o := map[string]json.RawMessage{"layout": json.RawMessage(`"ring"`), "faces": json.RawMessage(`["1a","2a","3b","4b"]`)}
	ps := []engine.Player{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}
	st, _, err := engine.Start(Game{}, engine.Setup{Game: "empire", Options: o, Players: ps, Seed: 3, Fixed: json.RawMessage(`{"seed":3}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	v := s.View("").(View)
	if v.Layout.Kind != "ring" || len(v.Layout.Faces) != 4 || v.Layout.Faces[2].Position != "south-east" {
		t.Errorf("layout %+v", v.Layout)
	}
	if !slices.Contains(s.cfg.board.startCandidates(), s.Start) || s.cfg.board.Regions[s.Start].Face != 0 {
		t.Errorf("start region %d", s.Start+1)
	}
	// 1b has exits on n, e, s only: as the centre of a T it is turned a quarter.
	d, _ := embedded()
	lay, err := d.boards.build(layoutT, []string{"1b", "2a", "3a", "4a"})
	if err != nil || lay.Faces[0].Rotation != 1 {
		t.Errorf("1b in the centre: %v, %+v", err, lay)
	}
	if len(v.Regions) != 7+7+6+7 {
		t.Errorf("%d regions", len(v.Regions))
	}
	// The four-player deck has all 34 cards.
	if len(s.Row)+len(s.Deck) != 34 {
		t.Errorf("deck of %d cards", len(s.Row)+len(s.Deck))
	}
}

// TestDisputedOptions: the disputed cards' other readings.
func TestDisputedOptions(t *testing.T) {
	s := newMini(t, 2, `{"disputed": {"forest-pixie": "extra-move", "night-wizard": "move", "dire-goblin": "3"}}`, "")
	find := func(id string) card {
		return s.cfg.cards[slices.IndexFunc(s.cfg.cards, func(c card) bool { return c.ID == id })]
	}
	if find("forest-pixie").Ability.Kind != abExtraMove || find("night-wizard").Actions[0].Kind != acMove || find("dire-goblin").MinPlayers != 3 {
		t.Error("disputed readings not applied")
	}
	if n := len(s.Row) + len(s.Deck); n != 26 {
		t.Errorf("two-player deck without the Dire Goblin: %d cards", n)
	}
	d := newMini(t, 2, "", "")
	if n := len(d.Row) + len(d.Deck); n != 27 {
		t.Errorf("two-player deck: %d cards", n)
	}
	if _, err := parseOptions(map[string]json.RawMessage{"disputed": json.RawMessage(`{"forest-pixie": "fly"}`)}); err == nil {
		t.Error("unknown reading accepted")
	}
	if _, err := parseOptions(map[string]json.RawMessage{"colour": json.RawMessage(`"red"`)}); err == nil {
		t.Error("unknown option accepted")
	}
}

// TestTokenAbilities: stable +1 move, cottage +1 army, magic spring 2 elixirs.
func TestTokenAbilities(t *testing.T) {
	s := newMini(t, 3, `{"exploration": true}`, "").clone()
	s.Current = 0
	move, place := action{Kind: acMove, Count: 3}, action{Kind: acPlace, Count: 3}
	if s.amount(0, move) != 3 || s.amount(0, place) != 3 {
		t.Fatal("amounts without tokens")
	}
	for i := range s.Tokens {
		switch s.Tokens[i].Kind {
		case tokStable, tokCottage, tokMagicSpring:
			s.Tokens[i].Holder = 0
		}
	}
	if s.amount(0, move) != 4 || s.amount(0, place) != 4 {
		t.Error("stable or cottage not counted")
	}
	if sh := s.sheets(); sh[0].Elixirs != 2 || sh[0].ElixirVP != 2 {
		t.Errorf("magic spring: %+v", sh[0])
	}
}
