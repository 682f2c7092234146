package store

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpen_privateFiles: with the most permissive umask, a new database and its
// -wal and -shm files are 0600 once a secret is written, and ExposedFiles finds
// nothing; a database made readable by others is reported, world or group.
// (Not parallel: the umask belongs to the process.)
func TestOpen_privateFiles(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "turnmail.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SetMeta(context.Background(), "secret", "0123456789abcdef"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(p), got)
		}
	}
	if exposed, err := ExposedFiles(path); err != nil || len(exposed) != 0 {
		t.Errorf("ExposedFiles of a new database = %v, %v", exposed, err)
	}

	tests := []struct {
		mode  os.FileMode
		world bool
	}{{0o644, true}, {0o604, true}, {0o602, true}, {0o640, false}, {0o620, false}}
	for _, tt := range tests {
		if err := os.Chmod(path+"-wal", tt.mode); err != nil {
			t.Fatal(err)
		}
		exposed, err := ExposedFiles(path)
		if err != nil || len(exposed) != 1 || exposed[0].Path != path+"-wal" || exposed[0].Mode != tt.mode || exposed[0].World() != tt.world {
			t.Errorf("-wal at %v: ExposedFiles = %+v, %v; want it, world %v", tt.mode, exposed, err, tt.world)
		}
	}
	if exposed, err := ExposedFiles(filepath.Join(t.TempDir(), "none.db")); err != nil || len(exposed) != 0 {
		t.Errorf("ExposedFiles of a missing database = %v, %v", exposed, err)
	}
}
