package smallworld

import (
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestNarrate: each kind of happening a Small World command tells, as its viewer
// reads it: the combo taken, conquests (empty, from a player's declined race with
// the loss and whom it hit), scores with their breakdown (the scorer's alone until
// the game ends), declines, a race leaving the map, redeployment and abandon.
func TestNarrate(t *testing.T) {
	const stacks = `{"races":["Elves","Ratmen","Humans"],"powers":["Hill","Flying","Commando"]}`
	opening := []string{"alice: pick 1", "alice: conquer 5", "alice: done", "bob: pick 1", "bob: done"}
	tests := []struct {
		name   string
		before []string
		move   string
		viewer string
		kind   string
		hit    []string
		want   string // in the English text of a happening of kind
		absent string // in no happening
	}{
		{"combo", nil, "alice: pick 1", "bob", engine.HapCombo, nil, "alice took Hill Elves (offer position 1) with", ""},
		{"empty region", opening[:1], "alice: conquer 5", "bob", engine.HapConquest, nil, "alice (Hill Elves) conquered region 5 (empty) with", ""},
		{"score, own", opening[:2], "alice: done", "alice", engine.HapScore, nil, "alice scored", ""},
		{"score, hidden from others", opening[:2], "alice: done", "bob", "", nil, "", "scored"},
		{"score, complete view", opening[:2], "alice: done", "", engine.HapScore, nil, "regions: 1", ""},
		{"decline", opening, "alice: decline", engine.Observer, engine.HapDecline, nil, "alice put the Hill Elves into decline", ""},
		{"conquest of a declined race", append(opening, "alice: decline"), "bob: conquer 5", "alice", engine.HapConquest, []string{"alice"}, "from alice (declined Elves) with 3 tokens: alice lost 1 tokens, 0 back in hand", ""},
		{"declined race leaves the map", append(opening, "alice: decline"), "bob: conquer 5", "alice", engine.HapDecline, []string{"alice"}, "alice's declined Elves left the map", ""},
		{"abandon", opening[:2], "alice: abandon 5", "bob", engine.HapMove, nil, "alice abandoned region 5", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := apply(t, newGame(t, 2, nil, stacks), tc.before...)
			after := apply(t, s, tc.move)
			who, cmd, _ := strings.Cut(tc.move, ": ")
			hs := engine.Narrate(s, who, cmd, after, tc.viewer)
			var all []string
			found := tc.want == ""
			for _, h := range hs {
				text := h.Text.String()
				for _, d := range h.Details {
					text += " | " + d.String()
				}
				all = append(all, h.Kind+": "+text)
				if h.Kind == tc.kind && strings.Contains(text, tc.want) && slices.Equal(h.Hit, tc.hit) {
					found = true
				}
				if tc.absent != "" && strings.Contains(text, tc.absent) {
					t.Errorf("%q told to %q: %s", tc.absent, tc.viewer, text)
				}
				if h.Actor != who {
					t.Errorf("actor %q, want %q", h.Actor, who)
				}
			}
			if !found {
				t.Errorf("no %s happening with %q hitting %v in:\n%s", tc.kind, tc.want, tc.hit, strings.Join(all, "\n"))
			}
		})
	}
}

// TestNarrate_scoresSumUp: a player's final breakdown adds up to their coins.
func TestNarrate_scoresSumUp(t *testing.T) {
	s := apply(t, newGame(t, 2, nil, `{"races":["Elves","Ratmen","Humans"],"powers":["Hill","Flying","Commando"]}`),
		"alice: pick 1", "alice: conquer 5", "alice: done", "bob: pick 2", "bob: done")
	for _, sc := range s.Scores() {
		sum := 0
		for _, p := range sc.Parts {
			sum += p.Args[len(p.Args)-1].(int)
		}
		if sum != sc.Total {
			t.Errorf("%s: parts %v sum to %d, total %d", sc.Player, sc.Parts, sum, sc.Total)
		}
	}
}
