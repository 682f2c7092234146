// Package archivetest reads the archive documents engines keep in their testdata, for
// their tests: scenarios, and games recorded under earlier rules versions.
package archivetest

import (
	"os"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// Read reads and checks the archive document at path, failing the test when it
// cannot.
func Read(t testing.TB, path string) *engine.Archive {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := engine.ReadArchive(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return a
}
