package games

import (
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestWordsCoverLegal: every command a game lists as legal starts with one of its
// command words (engine.Worder), over the first moves of a game of each kind; the
// service reads a line starting with none of them as a greeting or sign-off.
func TestWordsCoverLegal(t *testing.T) {
	for name, g := range Registry() {
		t.Run(name, func(t *testing.T) {
			w, ok := g.(engine.Worder)
			if !ok {
				t.Fatalf("%s names no command words", name)
			}
			words := map[string]bool{}
			for _, v := range w.Words() {
				words[v] = true
			}
			players := []engine.Player{{Name: "a"}, {Name: "b"}, {Name: "c"}}
			st, err := g.New(engine.Setup{Game: name, Players: players, Seed: 7}, engine.NewRand(7, 0, nil))
			if err != nil {
				t.Fatal(err)
			}
			for seq := 1; seq <= 60 && !st.Finished(); seq++ {
				p := st.ToAct()[0]
				var next engine.State
				for _, c := range st.Legal(p) {
					if f := strings.Fields(c); !words[f[0]] {
						t.Errorf("legal %q starts with no command word", c)
					}
					if next == nil && !engine.IsPattern(c) {
						if n, err := st.Apply(p, c, engine.NewRand(7, seq, nil)); err == nil {
							next = n
						}
					}
				}
				if next == nil {
					return // only patterns left: far enough
				}
				st = next
			}
		})
	}
}
