package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// The database holds the token secret, the embedded service mailbox's password
// and every embedded mailbox: no other user of the host may read it.

// createPrivate creates the database file, empty and with mode 0600, when it does
// not exist yet, before SQLite opens it and anything is written. SQLite gives the
// -wal and -shm files it creates the database file's mode, so they are 0600 too
// (a umask can only take permissions away). An existing file keeps its mode; see
// ExposedFiles.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("create database %s: %w", path, err)
	}
	return f.Close()
}

// ExposedFile is a file of a database that users other than its owner may read
// or write.
type ExposedFile struct {
	Path string
	Mode fs.FileMode
}

// World reports whether every user of the host may read or write the file.
func (f ExposedFile) World() bool { return f.Mode.Perm()&0o006 != 0 }

// ExposedFiles returns the files of the database at path — the database, its
// -wal and its -shm — that users other than the owner may read or write (group or
// world permission bits). Missing files are skipped.
func ExposedFiles(path string) ([]ExposedFile, error) {
	var out []ExposedFile
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("check database file: %w", err)
		}
		if fi.Mode().Perm()&0o066 != 0 {
			out = append(out, ExposedFile{Path: p, Mode: fi.Mode().Perm()})
		}
	}
	return out, nil
}
