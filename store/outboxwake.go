package store

import (
	"context"
	"fmt"
)

// OutboxMaxID returns the largest outbox row id (0 when the outbox is empty). It
// grows whenever any process queues mail in the database file, so a daemon polls
// it to send the mail that another process (turnmail new, import) queued.
func (s *Store) OutboxMaxID(ctx context.Context) (int64, error) {
	var id int64
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM outbox`).Scan(&id); err != nil {
		return 0, fmt.Errorf("outbox max id: %w", err)
	}
	return id, nil
}

// Wake wakes whoever waits on Notify, as a change made through this Store does:
// for changes another process made to the database file.
func (s *Store) Wake() { s.wake() }
