package empire

import (
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
