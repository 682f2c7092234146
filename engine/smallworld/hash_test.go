package smallworld

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/selfplay"
)

var updateHashes = flag.Bool("update-hashes", false, "regenerate testdata/scenario-hashes.json")

const scenarioHashes = "testdata/scenario-hashes.json"

// TestScenarioHashes pins the hash of every state of every scenario archive (recorded
// before races and powers became registered abilities): a change to the state's
// canonical encoding or to the rules that alters a base-game position fails here.
func TestScenarioHashes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	got := map[string][]string{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		a, err := engine.ReadArchive(fh)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		all, err := engine.ReplayAll(registry, a, -1)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		for _, s := range all {
			got[name] = append(got[name], s.Hash())
		}
	}
	if *updateHashes {
		raw, err := json.MarshalIndent(got, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(scenarioHashes, append(raw, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(scenarioHashes)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string][]string
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for name, hs := range got {
		if w, ok := want[name]; !ok {
			t.Errorf("%s: no pinned hashes (run with -update-hashes)", name)
		} else if !slices.Equal(hs, w) {
			for i := range min(len(hs), len(w)) {
				if hs[i] != w[i] {
					t.Errorf("%s: state %d hashes %s, pinned %s", name, i, hs[i], w[i])
					break
				}
			}
			if len(hs) != len(w) {
				t.Errorf("%s: %d states, pinned %d", name, len(hs), len(w))
			}
		}
	}
}

// TestHash_stacksKept: the encoding of the stacks kept by Apply (stacksCode) is the
// one Hash would work out, at every state of self-played games of every variant, and
// a kept encoding of other stacks is not used.
func TestHash_stacksKept(t *testing.T) {
	for _, g := range []engine.Game{Game{}, Underground{}, Necromancer{}} {
		for _, cfg := range selfplay.Configs(g, 21, 2) {
			_, err := selfplay.Play(g, cfg, func(st selfplay.Step) error {
				s := st.State.(*state)
				if !s.stacks.encodes(s) {
					t.Fatalf("%s step %d: the stacks' encoding was not kept", g.Name(), st.N)
				}
				bare := *s
				bare.stacks = nil
				if got, want := s.Hash(), bare.Hash(); got != want {
					t.Fatalf("%s step %d: hash %s with the kept encoding, %s without", g.Name(), st.N, got, want)
				}
				other := *s
				other.Races = slices.Clone(s.Races) // the same names, another slice: not the kept one
				if len(other.Races) > 0 && s.stacks.encodes(&other) {
					t.Fatalf("%s step %d: the kept encoding taken for other stacks", g.Name(), st.N)
				}
				if len(s.Offer) > 1 {
					swapped := *s // the offer's first two combos swapped: the kept names not used
					swapped.Offer = slices.Clone(s.Offer)
					swapped.Offer[0], swapped.Offer[1] = swapped.Offer[1], swapped.Offer[0]
					bare := swapped
					bare.stacks = nil
					if swapped.Hash() != bare.Hash() {
						t.Fatalf("%s step %d: the kept names of the offer used for other combos", g.Name(), st.N)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}
