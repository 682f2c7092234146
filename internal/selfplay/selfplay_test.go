package selfplay

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
)

func TestFill(t *testing.T) {
	tests := []struct {
		entry string
		want  []string // every command Fill may return
	}{
		{"done", []string{"done"}},
		{"take 2 # Night Hydra, 1 coin: +1 army; move 5", []string{"take 2"}},
		{"settle <8…10> # one army", []string{"settle 8", "settle 9", "settle 10"}},
		{"move 5>3 [1…2] # 1 point per army", []string{"move 5>3", "move 5>3 1", "move 5>3 2"}},
		{"move 5><3,7> # 2 points", []string{"move 5>3", "move 5>7"}},
		{"place <4,9>=<1…2>", []string{"place 4=1", "place 4=2", "place 9=1", "place 9=2"}},
		{"redeploy <region>=<tokens> …", []string{""}},
		{"place <region>=<n> <region>=<n> … # up to 3", []string{""}},
		{"bid <5…2>", []string{""}},
		{"", []string{""}},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, tt := range tests {
		seen := map[string]bool{}
		for range 60 {
			got := Fill(tt.entry, r)
			seen[got] = true
			if !contains(tt.want, got) {
				t.Errorf("Fill(%q) = %q, want one of %q", tt.entry, got, tt.want)
			}
		}
		for _, w := range tt.want {
			if !seen[w] {
				t.Errorf("Fill(%q) never gave %q in 60 draws", tt.entry, w)
			}
		}
	}
}

// TestPlay plays a game of every registered engine to the end, with every sampled
// option set, players out of turn playing the commands of any moment listed for them
// (every one applies), and replays its archive to the same final state.
func TestPlay(t *testing.T) {
	reg := games.Registry()
	for _, kind := range reg.Names() {
		for _, cfg := range Configs(reg[kind], 7, 2) {
			cfg.OutOfTurn = true
			states := 0
			a, err := Play(reg[kind], cfg, func(s Step) error {
				if s.N != states {
					t.Fatalf("%s: step %d after %d states", kind, s.N, states)
				}
				states++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			final, err := engine.Replay(reg, a, -1)
			if err != nil {
				t.Fatalf("%s: replay: %v", kind, err)
			}
			if !final.Finished() || final.Hash() != a.Events[len(a.Events)-1].Hash || states != len(a.Events)+1 {
				t.Errorf("%s: replay ends unfinished or elsewhere (%d states, %d events)", kind, states, len(a.Events))
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
