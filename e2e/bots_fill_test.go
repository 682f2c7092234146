package e2e

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// TestBotFillsNotedPatterns: the bots fill Small World's region patterns from the
// note after "#" that an English mail gives them (the regions and how many), as a
// player does.
func TestBotFillsNotedPatterns(t *testing.T) {
	for _, tc := range []struct {
		entry string
		want  *regexp.Regexp
	}{
		{"hero <region> <region>   # two different regions of 13,14,19", regexp.MustCompile(`^hero (13|14|19) (13|14|19)$`)},
		{"reborn <region> <region>   # two different regions of 4,7", regexp.MustCompile(`^reborn (4 7|7 4)$`)},
		{"camp <region>=<encampments> …   # the region ends with that many; regions 9,10; 5 encampments in all: 5 free, 0 on the map",
			regexp.MustCompile(`^camp (9|10)=[1-5]$`)},
	} {
		b := &bot{name: "ann", rng: rand.New(rand.NewPCG(1, 2)), filled: map[string]int{}}
		for range 10 {
			got, err := b.fill(tc.entry, "", "")
			if err != nil || !tc.want.MatchString(got) {
				t.Fatalf("fill(%q) = %q, %v; want %s", tc.entry, got, err, tc.want)
			}
			if f := tc.want.FindStringSubmatch(got); tc.entry[:4] == "hero" && f[1] == f[2] {
				t.Fatalf("fill(%q) = %q: the same region twice", tc.entry, got)
			}
		}
	}
}
