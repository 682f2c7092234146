package main

import (
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupCommand: backup writes a 0600 copy of a database holding a whole
// Small World game, --check replays it with every hash equal; a copy whose event
// was altered fails the check with exit status 1, naming the event; a missing
// database is not created.
func TestBackupCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "turnmail.db")
	var arch map[string]any
	b, err := os.ReadFile(game5p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &arch); err != nil {
		t.Fatal(err)
	}
	for _, p := range arch["players"].([]any) {
		p := p.(map[string]any)
		p["email"] = p["name"].(string) + "@example.org"
	}
	b, _ = json.Marshal(arch)
	archive := filepath.Join(dir, "game.json")
	if err := os.WriteFile(archive, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "", "import", archive, "--database", db); err != nil {
		t.Fatal(err)
	}

	copyFile := filepath.Join(dir, "copy.db")
	out, err := run(t, "", "backup", copyFile, "--database", db)
	if err != nil || !strings.Contains(out, "wrote a copy of "+db+" to "+copyFile) {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	if fi, err := os.Stat(copyFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the copy: %v, %v; want mode 0600", fi, err)
	}
	out, err = run(t, "", "backup", "--check", copyFile)
	if err != nil || !strings.Contains(out, "1 games replayed, every one of their 159 events' recorded hashes equal") {
		t.Fatalf("backup --check: %v\n%s", err, out)
	}

	// Damage the copy: another command at event 40.
	if _, err := run(t, "", "backup", copyFile, "--database", db); err != nil {
		t.Fatal(err)
	}
	damage(t, copyFile, `UPDATE events SET command = 'decline' WHERE seq = 40`)
	out, err = run(t, "", "backup", "--check", copyFile)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(out, "DIFFERS: game ") || !strings.Contains(out, "event 40") {
		t.Errorf("--check of a damaged copy: %v\n%s\nwant exit 1 naming event 40", err, out)
	}

	missing := filepath.Join(dir, "none.db")
	if _, err := run(t, "", "backup", filepath.Join(dir, "x.db"), "--database", missing); err == nil || !strings.Contains(err.Error(), "no database at") {
		t.Errorf("backup of a missing database: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("backup created the missing database")
	}
	if _, err := run(t, "", "backup", db, "--database", db); err == nil {
		t.Errorf("backup over the database itself was accepted")
	}
}

// damage changes a database file behind turnmail's back, as a failing disk or a
// careless hand would (the events' append-only trigger dropped first).
func damage(t *testing.T, path, stmt string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{`DROP TRIGGER events_append_only_update`, stmt} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
}
