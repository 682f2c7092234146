package smallworld

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
)

// TestDescribeNeed: the redeploy pattern's note says what must happen: tokens to
// place (by race when two place), tokens to take back (Amazons), additions only for
// a defender, with real plurals in English and Italian.
func TestDescribeNeed(t *testing.T) {
	for _, tc := range []struct {
		need      []redeployNeed
		defending bool
		en, it    string
	}{
		{[]redeployNeed{{race: "Ratmen", hand: 1}}, false, "1 token to place", "1 segnalino da schierare"},
		{[]redeployNeed{{race: "Ratmen", hand: 0}}, false, "0 tokens to place", "0 segnalini da schierare"},
		{[]redeployNeed{{race: "Ratmen", hand: 3}, {race: "Ghouls", hand: 2}}, false, "5 tokens to place: 3 Ratmen, 2 Ghouls",
			"5 segnalini da schierare: 3 Uomini Ratto, 2 Ghoul"},
		{[]redeployNeed{{race: "Amazons", hand: 1, keep: 4}}, false, "take 3 tokens back into your hand: your Amazons keep 4 there",
			"riprendi in mano 3 segnalini (Amazzoni: 4 in mano)"},
		{[]redeployNeed{{race: "Amazons", hand: 3, keep: 4}}, false, "take 1 token back into your hand: your Amazons keep 4 there",
			"riprendi in mano 1 segnalino (Amazzoni: 4 in mano)"},
		{[]redeployNeed{{race: "Amazons", hand: 6, keep: 4}}, false, "2 tokens to place", "2 segnalini da schierare"},
		{[]redeployNeed{{race: "Amazons", hand: 2, keep: 4}, {race: "Ghouls", hand: 2}}, false,
			"2 tokens to place; take 2 tokens back into your hand: your Amazons keep 4 there",
			"2 segnalini da schierare; riprendi in mano 2 segnalini (Amazzoni: 4 in mano)"},
		{[]redeployNeed{{race: "Elves", hand: 2}}, true,
			"2 tokens to place, lost in an attack; additions only, on the regions you still hold; the others stay",
			"2 segnalini da schierare (persi in un attacco); puoi solo aggiungere segnalini alle regioni che occupi ancora, le altre restano come sono"},
		{[]redeployNeed{{race: "Elves", hand: 1}, {race: "Ratmen", hand: 2}}, true,
			"3 tokens to place, lost in an attack: 1 Elves, 2 Ratmen; additions only, on the regions you still hold; the others stay",
			"3 segnalini da schierare (persi in un attacco): 1 Elfi, 2 Uomini Ratto; puoi solo aggiungere segnalini alle regioni che occupi ancora, le altre restano come sono"},
		{[]redeployNeed{{race: "Elves", hand: 1}}, true,
			"1 token to place, lost in an attack; additions only, on the regions you still hold; the others stay",
			"1 segnalino da schierare (perso in un attacco); puoi solo aggiungere segnalini alle regioni che occupi ancora, le altre restano come sono"},
	} {
		need := describeNeed(tc.need, tc.defending)
		if got := english(t, need); got != tc.en {
			t.Errorf("describeNeed(%+v, %v) in English = %q, want %q", tc.need, tc.defending, got, tc.en)
		}
		if got := render(t, i18n.Italian, need); got != tc.it {
			t.Errorf("describeNeed(%+v, %v) in Italian = %q, want %q", tc.need, tc.defending, got, tc.it)
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
	note := english(t, s.Notes("alice")[redeployPattern])
	m := takeBackRe.FindStringSubmatch(note)
	if m == nil {
		t.Fatalf("no take-back note (hand %d): %q", s.army(0, slotActive).Hand, note)
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

var noteRe = regexp.MustCompile(`^(\d+) tokens?(?:: (.*?)(?:, less (\d+) from your die|; you have \d+, the die adds 0 to 3)?)?$`)

// TestConquestNotes: over random games, every conquest listed has a note whose
// cost is the engine's cost and whose parts add up to it (a cost is at least 1).
func TestConquestNotes(t *testing.T) {
	seen := map[string]bool{}
	for seed := int64(1); seed <= 6; seed++ {
		s := newGame(t, 3, nil, "")
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		for step := 0; step < 150 && !s.Over; step++ {
			p := s.ToAct()[0]
			legal := s.Legal(p)
			notes := s.Notes(p)
			for _, e := range legal {
				f := strings.Fields(e)
				if f[0] != "conquer" {
					continue
				}
				n, ok := notes[e]
				m := noteRe.FindStringSubmatch(n.String())
				if !ok || m == nil {
					t.Fatalf("%s: note %q", e, n.String())
				}
				if m[2] == "" {
					m[2] = "2" // the 2 tokens every conquest costs, and nothing else
				}
				sum := 0
				for _, part := range strings.Split(strings.ReplaceAll(m[2], " - ", " + -"), " + ") {
					v, err := strconv.Atoi(strings.Fields(part)[0])
					if err != nil {
						t.Fatalf("%s: note %q: part %q", e, n.String(), part)
					}
					sum += v
					if w := strings.Fields(part); len(w) > 1 {
						seen[w[1]] = true
					}
				}
				slot := slotActive
				if len(f) > 2 && f[2] != "roll" {
					slot = s.ghoulSlot(s.playerIndex(p))
				}
				cost := s.cost(s.playerIndex(p), slot, s.b.index[mustAtoi(t, f[1])])
				if got := mustAtoi(t, m[1]); got != cost || max(sum, 1) != cost {
					t.Fatalf("%s: note %q, cost %d (parts add up to %d)", e, n.String(), cost, sum)
				}
			}
			next := s
			for _, i := range rng.Perm(len(legal)) {
				if engine.IsPattern(legal[i]) {
					continue
				}
				if n, err := s.Apply(p, legal[i], engine.NewRand(seed, step+1, nil)); err == nil {
					next = n.(*state)
					break
				}
			}
			if next == s {
				break
			}
			s = next
		}
	}
	if !seen["defender"] && !seen["defenders"] || !seen["mountain"] {
		t.Errorf("the games never showed a defended or a mountain region's cost: %v", seen)
	}
}
