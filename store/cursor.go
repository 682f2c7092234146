package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Cursor returns how far the watcher has read a mailbox: the mailbox's UIDVALIDITY
// and the last UID handled. Both are 0 for a mailbox never seen.
func (s *Store) Cursor(ctx context.Context, mailbox string) (uidValidity, lastUID uint32, err error) {
	var v, u int64
	err = s.db.QueryRowContext(ctx, `SELECT uid_validity, last_uid FROM cursors WHERE mailbox = ?`, mailbox).Scan(&v, &u)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("cursor %q: %w", mailbox, err)
	}
	return uint32(v), uint32(u), nil
}

// SetCursor records how far the watcher has read a mailbox.
func (s *Store) SetCursor(ctx context.Context, mailbox string, uidValidity, lastUID uint32) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO cursors (mailbox, uid_validity, last_uid, updated_at) VALUES (?, ?, ?, ?)
	ON CONFLICT (mailbox) DO UPDATE SET uid_validity = excluded.uid_validity, last_uid = excluded.last_uid, updated_at = excluded.updated_at`,
			mailbox, int64(uidValidity), int64(lastUID), fmtTime(now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("set cursor %q: %w", mailbox, err)
	}
	return nil
}

// Meta returns the value stored under key, ErrNotFound when there is none.
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("meta %q: %w", key, err)
	}
	return v, nil
}

// SetMeta stores value under key, replacing any previous value.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
	ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
		return err
	})
	if err != nil {
		return fmt.Errorf("set meta %q: %w", key, err)
	}
	return nil
}
