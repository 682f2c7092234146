package smallworld

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// archives maps the games of the archives kept in testdata to their engines.
var archives = engine.Registry{"smallworld": Game{}, "underground": Underground{}, "necromancer": Necromancer{}}

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

// TestRules0Archives: games recorded before the rules of issue 21 (their setup names
// no rules version: rulesOriginal) still replay exactly as they were played — every
// state's hash is the one recorded. testdata/rules0 holds two self-played games and
// three played for the points that changed: a Tomb decline that ended the turn at
// once, the Crypt's region conquered with Lara's Ghost left where it stood, and a
// Necromancer who drew his powers skipping Diplomat, kept his power on his first turn
// and got the souls of declined Elves leaving the map at his owner's next decline.
func TestRules0Archives(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "rules0", "*.json"))
	if err != nil || len(files) < 5 {
		t.Fatalf("archives %v: %v", files, err)
	}
	for _, f := range files {
		a := readArchive(t, filepath.Join("rules0", filepath.Base(f)))
		for i, e := range a.Events {
			if e.Hash == "" {
				t.Fatalf("%s: event %d has no hash", f, i+1)
			}
		}
		if _, err := engine.ReplayAll(archives, a, -1); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
