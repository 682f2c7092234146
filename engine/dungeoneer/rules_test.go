package dungeoneer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// readArchive reads testdata/NAME.
func readArchive(t *testing.T, name string) *engine.Archive {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := engine.ReadArchive(f)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestRules0Archive: a game recorded before the rules of issue 21 (its setup names no
// rules version) still replays exactly as it was played — every state's hash is the
// one recorded — with its two counter-challenges made in the counter step right after
// the monster's attack.
func TestRules0Archive(t *testing.T) {
	a := readArchive(t, filepath.Join("rules0", "counter.json"))
	for i, e := range a.Events {
		if e.Hash == "" {
			t.Fatalf("event %d has no hash", i+1)
		}
	}
	if _, err := engine.ReplayAll(registry, a, -1); err != nil {
		t.Fatal(err)
	}
}
