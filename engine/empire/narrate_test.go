package empire

import (
	"fmt"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestNarrate: what Empire commands tell their viewers: a bid is secret from the
// others until the last bid reveals them all with the winner, a card taken names what
// it gives, and the first player chosen.
func TestNarrate(t *testing.T) {
	s0 := engine.State(newMini(t, 3, "", `{"seed": 1, "start": 1, "placer": "alice"}`))
	s1 := mustApply(t, s0, "alice", "settle 5")
	s2 := mustApply(t, s1, "alice", "bid 7")
	s3 := mustApply(t, s2, "bob", "bid 9")
	s4 := mustApply(t, s3, "carol", "bid 0")
	s5 := mustApply(t, s4, "bob", "first bob")
	s6 := mustApply(t, s5, "bob", "take 1")
	tests := []struct {
		name                string
		before, after       engine.State
		player, cmd, viewer string
		kind, want, notWant string
	}{
		{"settle", s0, s1, "Alice", "settle 5", "Bob", engine.HapMove, "Alice placed everyone's first army in region 5", ""},
		{"own bid", s1, s2, "Alice", "bid 7", "Alice", engine.HapBid, "Alice bid 7 coins", ""},
		{"secret bid", s1, s2, "Alice", "bid 7", "Bob", engine.HapBid, "Alice made a secret bid", "7"},
		{"secret bid, observer", s1, s2, "Alice", "bid 7", engine.Observer, engine.HapBid, "secret bid", "7"},
		{"bids revealed", s3, s4, "Carol", "bid 0", "Alice", engine.HapBid, "the bids were Alice 7, Bob 9, Carol 0: Bob won and paid 9 coins", ""},
		{"first player", s4, s5, "Bob", "first bob", "Carol", engine.HapOther, "Bob chose to play first", ""},
		{"card", s5, s6, "Bob", "take 1", "Carol", engine.HapCard, "Bob took ", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hs := engine.Narrate(tc.before, tc.player, tc.cmd, tc.after, tc.viewer)
			var all []string
			found := false
			for _, h := range hs {
				text := h.Text.String()
				all = append(all, h.Kind+": "+text)
				found = found || (h.Kind == tc.kind && strings.Contains(text, tc.want))
				if tc.notWant != "" && strings.Contains(text, tc.notWant) {
					t.Errorf("%q told to %s: %s", tc.notWant, tc.viewer, text)
				}
			}
			if !found {
				t.Errorf("no %s happening %q in:\n%s", tc.kind, tc.want, strings.Join(all, "\n"))
			}
		})
	}
}

// TestNarrate_actionLeft: over random games, a move tells the movement points it
// spent (at least one) and those left of the card's move, and a placement the armies
// left to place only while the card's placement goes on, as many as are left (a
// move's first step of an "or" card told -1 spent, and a placement followed by
// another part told that part's count as armies to place); a card taken tells its
// action with the amounts the player gets (their "+1 move" cards counted: the printed
// "move 4" beside a move of 5 read as a mistake), and a skip what it forwent.
func TestNarrate_actionLeft(t *testing.T) {
	moves, places, takes, bonuses, skips, extras := 0, 0, 0, 0, 0, 0
	replayRandom(t, 6, func(g, i int, e engine.Event, st, next engine.State) {
		s, after := st.(*state), next.(*state)
		seat := s.seat(e.Player)
		for _, h := range engine.Narrate(st, e.Player, e.Command, next, "") {
			where := fmt.Sprintf("game %d event %d %q: %s", g, i, e.Command, h.Text)
			switch h.Text.Key {
			case "%s took %s (position %d, cost %d): %s; its action: %s", "%s took %s (position %d, cost %d): %s; its action, with %s's bonuses: %s":
				takes++
				c := s.cfg.cards[after.Cards[seat][len(after.Cards[seat])-1]]
				want := c.actionText(func(ac action) int { return after.amount(seat, ac) })
				bonus := want.String() != c.actionText(func(ac action) int { return ac.Count }).String()
				bonuses += map[bool]int{true: 1}[bonus]
				if got := h.Text.Args[len(h.Text.Args)-1].(engine.Text); got.String() != want.String() || bonus != (len(h.Text.Args) == 7) {
					t.Errorf("%s: the action is %s for %s", where, want, e.Player)
				}
			case "%s took %s (position %d, cost %d): %s; an extra card, without its action":
				extras++
				if s.Phase != phBonus {
					t.Errorf("%s: in the %s phase", where, s.Phase)
				}
			case "%s skipped the rest of the placement: %d armies not placed", "%s skipped the rest of the move: %d movement points unused":
				skips++
				if n := h.Text.Args[1].(int); n != s.Pending.Left || n < 1 {
					t.Errorf("%s: %d were left", where, s.Pending.Left)
				}
			}
			for _, d := range h.Details {
				where := fmt.Sprintf("game %d event %d %q: %s", g, i, e.Command, d)
				switch d.Key {
				case "%d movement points spent, %d left":
					moves++
					spent, left := d.Args[0].(int), d.Args[1].(int)
					gives, _ := s.partGives(seat, acMove)
					if spent < 1 || left < 0 || spent+left != gives {
						t.Errorf("%s: the card's move gave %d", where, gives)
					}
					if now := after.partLeft(seat, acMove); now > 0 && now != left {
						t.Errorf("%s: %d are left", where, now)
					}
				case "%s left to place":
					places++
					n := d.Args[0].(engine.Text).Args[0].(int)
					if p := after.Pending; p == nil || p.Choose || p.Parts[0].Kind != acPlace || p.Left != n {
						t.Errorf("%s: the card's action under way is %+v", where, p)
					}
				}
			}
		}
	})
	if moves == 0 || places == 0 || takes == 0 || bonuses == 0 || skips == 0 || extras == 0 {
		t.Fatalf("the games told %d moves and %d placements with what is left, %d cards taken (%d with bonuses, %d extra cards without their action), %d skips with what they forwent", moves, places, takes, bonuses, extras, skips)
	}
}

// TestNotes_takeGivesPlayersAmounts: the note beside "take N" gives the amounts the
// player will get with their bonuses, the card's own ability included — those the
// account tells once the card is taken — and says so when they are not the printed
// ones.
func TestNotes_takeGivesPlayersAmounts(t *testing.T) {
	takes, bonuses := 0, 0
	replayRandom(t, 6, func(g, i int, e engine.Event, st, next engine.State) {
		s := st.(*state)
		note, noted := s.Notes(e.Player)[e.Command]
		if strings.HasPrefix(e.Command, "take ") && s.Phase != phBonus {
			takes++
			after, seat := next.(*state), s.seat(e.Player)
			c := s.cfg.cards[after.Cards[seat][len(after.Cards[seat])-1]]
			want := c.actionText(func(ac action) int { return after.amount(seat, ac) })
			bonus := want.String() != c.actionText(func(ac action) int { return ac.Count }).String()
			if bonus {
				bonuses++
			}
			wantKey := map[bool]string{false: "%s (cost %d): %s; %s", true: "%s (cost %d): %s; with your bonuses: %s"}[bonus]
			if !noted || note.Key != wantKey || note.Args[len(note.Args)-1].(engine.Text).String() != want.String() {
				t.Errorf("game %d event %d %q: the note %v, want the action %s (%s)", g, i, e.Command, note, want, wantKey)
			}
		}
	})
	if takes < 50 || bonuses < 5 {
		t.Errorf("only %d cards taken, %d with bonuses", takes, bonuses)
	}
}

// replayRandom replays the first games random games event by event, calling each
// with the game's number, the event's, the event and the states before and after it.
func replayRandom(t *testing.T, games int, each func(g, i int, e engine.Event, before, after engine.State)) {
	t.Helper()
	for g := range games {
		a := playRandom(t, g, 0)
		setup, err := a.SetupOf()
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := engine.Start(Game{}, setup, a.SetupOutcomes)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range a.Events {
			next, _, err := engine.Step(st, setup.Seed, i+1, e.Player, e.Command, e.Outcomes)
			if err != nil {
				t.Fatalf("game %d event %d: %v", g, i+1, err)
			}
			each(g, i+1, e, st, next)
			st = next
		}
	}
}

// TestNarrate_ownArmy: a player who destroys one of their own armies (the rules let
// any army go) is told so, not as "alice destroyed an army of alice".
func TestNarrate_ownArmy(t *testing.T) {
	own := 0
	replayRandom(t, 12, func(g, i int, e engine.Event, st, next engine.State) {
		verb, rest, _ := strings.Cut(e.Command, " ")
		victim, region, _ := strings.Cut(rest, " ")
		if verb != acDestroy || !strings.EqualFold(victim, e.Player) {
			return
		}
		own++
		want := fmt.Sprintf("%s destroyed one of their own armies in region %s", e.Player, region)
		var all []string
		for _, h := range engine.Narrate(st, e.Player, e.Command, next, "") {
			all = append(all, h.Text.String())
		}
		if !strings.Contains(strings.Join(all, "\n"), want) {
			t.Errorf("game %d event %d %q: no %q in:\n%s", g, i, e.Command, want, strings.Join(all, "\n"))
		}
	})
	if own == 0 {
		t.Fatal("no game destroyed one of its player's own armies")
	}
}
