package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the database to dest while others go on
// reading and writing it (this process or another: the daemon). It uses VACUUM
// INTO, which reads one snapshot of the database — in WAL mode writers are not
// held up — and writes it as a compact database file.
//
// The copy is written to a temporary file beside dest, with mode 0600 from its
// creation, synced to disk and then renamed over dest, and the directory is
// synced: dest is the old file or the complete new copy, never a part. Backup
// refuses a dest that is the database itself.
func (s *Store) Backup(ctx context.Context, dest string) (err error) {
	if same, err := sameFile(s.path, dest); err != nil {
		return fmt.Errorf("backup: %w", err)
	} else if same {
		return fmt.Errorf("backup: %s is the database itself", dest)
	}
	dir := filepath.Dir(dest)
	f, err := os.CreateTemp(dir, "."+filepath.Base(dest)+".tmp-*") // 0600
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	tmp := f.Name()
	f.Close()
	defer func() {
		if err != nil {
			os.Remove(tmp)
			os.Remove(tmp + "-journal")
		}
	}()
	// VACUUM INTO needs the file missing or empty; it is empty.
	if _, err := s.db.ExecContext(ctx, `VACUUM INTO ?`, tmp); err != nil {
		return fmt.Errorf("backup: copy the database: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := syncFile(dir); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, nil // in memory, or gone: not dest
	}
	fb, err := os.Stat(b)
	if os.IsNotExist(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// syncFile flushes a file (or a directory's entries) to disk.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return nil
}

// OpenCopy opens a copy of a database (a backup) read-only, as it is: no
// migration runs, nothing is written, not even SQLite's -wal or -shm files; the
// file must not change while it is open. The read methods work on it. A copy from
// a newer turnmail (a schema this program does not know) is refused.
func OpenCopy(ctx context.Context, path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open copy: %w", err)
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("immutable", "1")
	db, err := sql.Open("sqlite", "file:"+uriPath(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open copy: %w", err)
	}
	s := &Store{db: db, path: path, wlock: make(chan struct{}, 1), notify: make(chan struct{})}
	v, err := s.Version(ctx)
	switch {
	case err != nil:
		db.Close()
		return nil, fmt.Errorf("open copy %s: not a turnmail database: %w", path, err)
	case v > len(migrations):
		db.Close()
		return nil, fmt.Errorf("open copy %s: schema version %d is newer than this program's %d", path, v, len(migrations))
	}
	return s, nil
}

// IntegrityCheck runs SQLite's integrity check over the whole database and
// returns what it finds wrong (nil when nothing is).
func (s *Store) IntegrityCheck(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return nil, fmt.Errorf("integrity check: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, fmt.Errorf("integrity check: %w", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	return problems, rows.Err()
}
