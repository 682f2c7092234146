package empire

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// newMini starts a game on the mini test board with the given options and players
// Alice, Bob (and Carol, Dave), youngest first.
func newMini(t testing.TB, players int, opts string, fixed string) *state {
	t.Helper()
	mini, err := os.ReadFile("testdata/boards-mini.json")
	if err != nil {
		t.Fatal(err)
	}
	o := map[string]json.RawMessage{}
	if opts != "" {
		if err := json.Unmarshal([]byte(opts), &o); err != nil {
			t.Fatal(err)
		}
	}
	o["boards"] = mini
	var ps []engine.Player
	for i, n := range []string{"Alice", "Bob", "Carol", "Dave"}[:players] {
		ps = append(ps, engine.Player{Name: n, BirthYear: 1990 - i})
	}
	if fixed == "" {
		fixed = `{"seed": 1, "start": 1}`
	}
	s, _, err := engine.Start(Game{}, engine.Setup{Game: "empire", Options: o, Players: ps, Seed: 1, Fixed: json.RawMessage(fixed)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*state)
}

func mustApply(t testing.TB, s engine.State, player string, cmds ...string) engine.State {
	t.Helper()
	for _, c := range cmds {
		next, err := s.Apply(player, engine.Normalize(c), engine.NewRand(1, 1, nil))
		if err != nil {
			t.Fatalf("%s %q: %v", player, c, err)
		}
		s = next
	}
	return s
}

// TestHiddenBids marshals every player's and the observer's view during the bid and
// checks that no unrevealed bid of another player shows up.
func TestHiddenBids(t *testing.T) {
	s := engine.State(newMini(t, 3, "", `{"seed": 1, "start": 1, "placer": "alice"}`))
	s = mustApply(t, s, "alice", "settle 5")
	bids := map[string]int{"Alice": 7, "Bob": 9}
	s = mustApply(t, s, "alice", "bid 7")
	s = mustApply(t, s, "bob", "bid 9")
	for _, viewer := range []string{"Alice", "Bob", "Carol", engine.Observer} {
		b, err := json.Marshal(s.View(viewer))
		if err != nil {
			t.Fatal(err)
		}
		var v View
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		for _, p := range v.Players {
			switch {
			case p.Name == viewer && p.Bid == nil && bids[p.Name] > 0:
				t.Errorf("%s does not see their own bid", viewer)
			case p.Name != viewer && p.Bid != nil:
				t.Errorf("%s sees %s's bid %d", viewer, p.Name, *p.Bid)
			}
		}
		for name, bid := range bids {
			if name != viewer && strings.Contains(string(b), `"bid":`+itoa(bid)) {
				t.Errorf("%s's view contains %s's bid: %s", viewer, name, b)
			}
		}
		if strings.Contains(string(b), `"bids"`) {
			t.Errorf("%s's view has the raw bids", viewer)
		}
	}
	if got := s.(engine.Skipper).SkipCommands("carol"); !slices.Equal(got, []string{"bid 0"}) {
		t.Errorf("SkipCommands(carol) = %q", got)
	}
	if got := s.(engine.Skipper).SkipCommands("alice"); got != nil {
		t.Errorf("SkipCommands(alice) after her bid = %q", got)
	}
	s = mustApply(t, s, "carol", "bid 0")
	v := s.View("Carol").(View)
	if v.Players[1].Bid == nil || *v.Players[1].Bid != 9 || v.Players[1].Coins != 2 || v.Players[0].Coins != 11 {
		t.Errorf("after the bid: %+v", v.Players)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestSkipCommands checks the deadline defaults in play: the free card, then skips.
func TestSkipCommands(t *testing.T) {
	s := engine.State(newMini(t, 3, "", `{"seed": 1, "start": 1, "placer": "alice", "deck": ["dire-dragon"]}`))
	s = mustApply(t, s, "alice", "settle 5", "bid 0")
	s = mustApply(t, s, "bob", "bid 0")
	s = mustApply(t, s, "carol", "bid 0")
	sk := s.(engine.Skipper)
	if got := sk.SkipCommands("alice"); !slices.Equal(got, []string{"first Alice"}) {
		t.Errorf("first: %q", got)
	}
	s = mustApply(t, s, "alice", "first alice")
	got := s.(engine.Skipper).SkipCommands("alice")
	if !slices.Equal(got, []string{"take 1", "skip", "skip"}) {
		t.Fatalf("turn: %q", got)
	}
	s = mustApply(t, s, "alice", got...)
	if cur := *s.View("").(View).Current; cur != "Bob" {
		t.Errorf("after the skipped turn, %s is current", cur)
	}
	if got := s.(engine.Skipper).SkipCommands("alice"); got != nil {
		t.Errorf("alice has nothing pending but gets %q", got)
	}
}

// TestWinnerTieBreaks: most VP, then the spellbook, coins, armies, regions.
func TestWinnerTieBreaks(t *testing.T) {
	base := newMini(t, 2, "", "")
	// Regions (0-based): Home 0-2, Rock 3, West 4-5, East 6-8.
	board := func(alice, bob map[int]int) *state {
		s := base.clone()
		for r := range s.Armies {
			s.Armies[r][0], s.Armies[r][1] = alice[r], bob[r]
		}
		return s
	}
	check := func(name string, s *state, want ...int) {
		t.Helper()
		sh := s.sheets()
		if sh[0].Total != sh[1].Total {
			t.Fatalf("%s: not a tie: %d to %d", name, sh[0].Total, sh[1].Total)
		}
		if got := s.winners(); !slices.Equal(got, want) {
			t.Errorf("%s: winners %v, want %v", name, got, want)
		}
	}
	// 2 VP each (a region and its island), 12 coins each: armies 2 to 1 decide.
	s := board(map[int]int{0: 2}, map[int]int{4: 1})
	check("armies", s, 0)
	s.Coins[1]++
	check("coins", s, 1)
	s = board(map[int]int{0: 2}, map[int]int{4: 2})
	check("all tied", s, 0, 1)
	// 3 VP each: Alice two regions and Home, Bob one region, West and a fortress there;
	// coins and armies tied: Alice controls more regions.
	s = board(map[int]int{0: 1, 1: 1}, map[int]int{4: 2})
	s.Tokens = []token{{Kind: "fortress-1", Region: 4, Holder: -1}}
	check("regions", s, 0)
	// The spellbook (+1 VP) wins a tie outright, even against more coins.
	s.Tokens = []token{{Kind: tokSpellbook, Region: 7, Holder: 1}}
	s.Coins[0] += 5
	check("spellbook", s, 1)
}

// TestElixirMajority: 2 VP for the most elixirs, 1 each when tied, nothing without any.
func TestElixirMajority(t *testing.T) {
	s := newMini(t, 3, "", "").clone()
	idx := func(id string) int {
		return slices.IndexFunc(s.cfg.cards, func(c card) bool { return c.ID == id })
	}
	vp := func() []int {
		var out []int
		for _, sh := range s.sheets() {
			out = append(out, sh.ElixirVP)
		}
		return out
	}
	if got := vp(); !slices.Equal(got, []int{0, 0, 0}) {
		t.Errorf("no elixirs: %v", got)
	}
	s.Cards[0] = []int{idx("forest-gnome")}      // 3
	s.Cards[1] = []int{idx("cursed-banshee")}    // 2
	s.Cards[2] = []int{idx("mountain-treasury")} // 1
	if got := vp(); !slices.Equal(got, []int{2, 0, 0}) {
		t.Errorf("3-2-1: %v", got)
	}
	s.Cards[1] = append(s.Cards[1], idx("dire-goblin")) // 3
	if got := vp(); !slices.Equal(got, []int{1, 1, 0}) {
		t.Errorf("3-3-1: %v", got)
	}
}

// TestFlyingAndCoins: each Flying lowers the sea cost by 1 down to 1; Mountain
// Treasury's coins come at once, before its action.
func TestFlyingAndCoins(t *testing.T) {
	deck := `["mountain-treasury", "cursed-gargoyles", "dire-eye", "ancient-phoenix"]`
	s := engine.State(newMini(t, 3, "", `{"seed": 1, "start": 1, "placer": "alice", "deck": `+deck+`}`))
	s = mustApply(t, s, "alice", "settle 5", "bid 0")
	s = mustApply(t, s, "bob", "bid 0")
	s = mustApply(t, s, "carol", "bid 0")
	s = mustApply(t, s, "alice", "first alice", "take 1")
	st := s.(*state)
	if st.Coins[0] != 13 || st.Pending == nil || st.Pending.Left != 3 {
		t.Fatalf("Mountain Treasury: coins %d, pending %+v", st.Coins[0], st.Pending)
	}
	x := st.clone()
	idx := func(id string) int { return slices.IndexFunc(x.cfg.cards, func(c card) bool { return c.ID == id }) }
	for i, want := range []int{3, 2, 1, 1} {
		if got := x.seaCost(0); got != want {
			t.Errorf("%d Flying: sea costs %d, want %d", i, got, want)
		}
		x.Cards[0] = append(x.Cards[0], idx([]string{"cursed-gargoyles", "dire-eye", "ancient-phoenix", "dire-dragon"}[i]))
	}
	x.Cards[0] = append(x.Cards[0], idx("dire-dragon"))
	rt := x.routesFrom(0, 0)
	if rt.cost[4] != 1 || rt.cost[3] != 3 { // 1~5 by sea; 1-2-3~4
		t.Errorf("costs with Flying: to 5 %d, to 4 %d", rt.cost[4], rt.cost[3])
	}
}
