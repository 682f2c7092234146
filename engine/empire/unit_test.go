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
	clear := func() *state {
		s := base.clone()
		for r := range s.Armies {
			for i := range s.Armies[r] {
				s.Armies[r][i] = 0
			}
		}
		return s
	}
	// Alice 1 region, Bob 1 region: tied VP and coins; armies decide.
	s := clear()
	s.Armies[0][0], s.Armies[4][1], s.Armies[5][1] = 2, 1, 0
	s.Armies[6][0] = 0
	// Alice: region 1 (Home: 1 of 3 regions, island Home), Bob: region 5 (West island).
	if sh := s.sheets(); sh[0].Total != 2 || sh[1].Total != 2 {
		t.Fatalf("sheets %+v", sh)
	}
	if w := s.winners(); !slices.Equal(w, []int{0}) {
		t.Errorf("armies 2 to 1: winners %v", w)
	}
	s.Coins[1]++
	if w := s.winners(); !slices.Equal(w, []int{1}) {
		t.Errorf("coins 13 to 12: winners %v", w)
	}
	s.Coins[1]--
	s.Armies[4][1] = 2
	if w := s.winners(); !slices.Equal(w, []int{0, 1}) {
		t.Errorf("all tied: winners %v", w)
	}
	s.Armies[5][1] = 1 // Bob 3 armies in two regions: one more region, but also one more VP
	s.Armies[0][0] = 3
	s.Armies[7][0] = 1 // Alice one more region (East island: 1 of 3) => both 4 VP? check
	sh := s.sheets()
	if sh[0].Total != sh[1].Total {
		t.Fatalf("want a tie: %+v", sh)
	}
	s.Armies[0][0] = 3
	if w := s.winners(); len(w) != 1 {
		t.Errorf("regions tie-break: winners %v (sheets %+v)", w, sh)
	}
	// The spellbook wins a tie outright, even against more coins.
	s.Coins[1] += 5
	s.Tokens = append(s.Tokens, token{Kind: tokSpellbook, Region: -1, Holder: 0})
	s.Known = nil
	sh = s.sheets()
	s.Armies[4][1]++ // Bob one more army keeps... compensate the spellbook's VP with a region
	s.Armies[8][1] = 1
	sh = s.sheets()
	if sh[0].Total != sh[1].Total {
		t.Fatalf("want a tie with the spellbook: %+v", sh)
	}
	if w := s.winners(); !slices.Equal(w, []int{0}) {
		t.Errorf("spellbook: winners %v", w)
	}
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
