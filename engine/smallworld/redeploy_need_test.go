package smallworld

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDescribeNeed: the redeploy pattern says what must happen: tokens to place
// (by race when two place), tokens to take back (Amazons), additions only for a
// defender, in correct plurals.
func TestDescribeNeed(t *testing.T) {
	for _, tc := range []struct {
		need      []redeployNeed
		defending bool
		want      string
	}{
		{[]redeployNeed{{race: "Ratmen", hand: 1}}, false, "1 token to place"},
		{[]redeployNeed{{race: "Ratmen", hand: 0}}, false, "0 tokens to place"},
		{[]redeployNeed{{race: "Ratmen", hand: 3}, {race: "Ghouls", hand: 2}}, false, "5 tokens to place: 3 Ratmen, 2 Ghouls"},
		{[]redeployNeed{{race: "Amazons", hand: 1, keep: 4}}, false, "take 3 tokens back into your hand: your Amazons keep 4 there"},
		{[]redeployNeed{{race: "Amazons", hand: 3, keep: 4}}, false, "take 1 token back into your hand: your Amazons keep 4 there"},
		{[]redeployNeed{{race: "Amazons", hand: 6, keep: 4}}, false, "2 tokens to place"},
		{[]redeployNeed{{race: "Amazons", hand: 2, keep: 4}, {race: "Ghouls", hand: 2}}, false, "2 tokens to place; take 2 tokens back into your hand: your Amazons keep 4 there"},
		{[]redeployNeed{{race: "Elves", hand: 2}}, true, "2 tokens to place, lost in an attack: additions only, on the regions you still hold; the others stay"},
	} {
		if got := describeNeed(tc.need, tc.defending); got != tc.want {
			t.Errorf("describeNeed(%+v, %v) = %q, want %q", tc.need, tc.defending, got, tc.want)
		}
	}
}

var takeBackRe = regexp.MustCompile(`regions ([\d,]+); take (\d+) tokens? back`)

// TestAmazonsTakeBack: Amazons who spent their attack-only tokens are told how many
// to take back, and doing just that is accepted (they were told "0 tokens to
// place" and refused "leave 4 in hand").
func TestAmazonsTakeBack(t *testing.T) {
	s := newGame(t, 2, nil, `{"races":["Amazons"],"powers":["Hill"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 5", "alice: conquer 10", "alice: conquer 4", "alice: conquer 9", "alice: conquer 3")
	var m []string
	for _, e := range s.Legal("alice") {
		if m = takeBackRe.FindStringSubmatch(e); m != nil {
			break
		}
	}
	if m == nil {
		t.Fatalf("no take-back pattern (hand %d) in %q", s.army(0, slotActive).Hand, s.Legal("alice"))
	}
	back, _ := strconv.Atoi(m[2])
	var parts []string
	for _, id := range strings.Split(m[1], ",") {
		n := int(s.Regions[s.b.index[mustAtoi(t, id)]].Tokens)
		take := min(back, n-1)
		back -= take
		parts = append(parts, fmt.Sprintf("%s=%d", id, n-take))
	}
	if back != 0 {
		t.Fatalf("cannot take the tokens back from %s", m[1])
	}
	cmd := "redeploy " + strings.Join(parts, " ")
	s = apply(t, s, "alice: "+cmd, "alice: done")
	if a := s.army(0, slotActive); a.Aside != 4 {
		t.Errorf("after %q: aside %d, want 4", cmd, a.Aside)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
