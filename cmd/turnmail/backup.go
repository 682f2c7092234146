package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/turnmail/turnmail/backup"
	"github.com/turnmail/turnmail/config"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/store"
)

func newBackupCmd(a *app) *cobra.Command {
	var check bool
	cmd := &cobra.Command{
		Use:   "backup FILE",
		Short: "Write a consistent copy of the database to FILE (serve may run); --check replays every game of a copy",
		Long: `Write a consistent copy of the database to FILE, while turnmail serve goes on
(SQLite's VACUUM INTO reads one snapshot; writers are not held up). The copy is
written to a temporary file beside FILE with mode 0600, synced, then renamed to
FILE: FILE is the old copy or the complete new one.

With --check, FILE is a copy to check: it is opened read-only, SQLite's integrity
check runs, and every game is replayed through its engine, each event's recorded
state hash compared with the replayed state's. Any difference is listed, with exit
status 1. Docs: docs/backup.md (continuous replication with Litestream, restore).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if check {
				return checkBackup(cmd.Context(), a.out, args[0])
			}
			c, err := a.config()
			if err != nil {
				return err
			}
			return takeBackup(cmd.Context(), a.out, c, args[0])
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "check the copy FILE instead of writing one")
	return cmd
}

// takeBackup copies the configured database to dest.
func takeBackup(ctx context.Context, w io.Writer, c *config.Config, dest string) error {
	if _, err := os.Stat(c.Database); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no database at %s (set --database or database: in the configuration)", c.Database)
	}
	st, err := store.Open(ctx, c.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Backup(ctx, dest); err != nil {
		return err
	}
	fi, err := os.Stat(dest)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote a copy of %s to %s (%d bytes, mode %v); check it with: turnmail backup --check %s\n", c.Database, dest, fi.Size(), fi.Mode().Perm(), dest)
	return nil
}

// checkBackup checks the copy at path and prints what it found; any difference
// is exit status 1.
func checkBackup(ctx context.Context, w io.Writer, path string) error {
	r, err := backup.Check(ctx, path, games.Registry())
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "DIFFERS: %s\n", p)
	}
	if !r.OK() {
		return &exitError{code: 1, err: fmt.Errorf("%s is not a whole copy: %d problems (listed above); %d games replayed", path, len(r.Problems), r.Games)}
	}
	fmt.Fprintf(w, "%s: integrity ok; %d games replayed, every one of their %d events' recorded hashes equal\n", path, r.Games, r.Events)
	return nil
}
