package smallworld

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestTryAll(t *testing.T) {
	files, _ := filepath.Glob("testdata/scenarios/*.json")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) { run(t, name) })
	}
}
