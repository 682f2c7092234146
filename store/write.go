package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// A write transaction costs one fsync of the WAL at COMMIT (synchronous=FULL):
// far more than the statements in it. So writes that arrive while another is
// being committed are committed together — group commit: whoever takes the write
// lock runs every write queued at that moment in one transaction, each inside a
// SAVEPOINT of its own, and commits once. Each caller still returns only after
// its write is durable, with its own error: a write whose fn fails is rolled back
// to its savepoint and leaves the others alone. When the transaction itself
// fails (BEGIN, COMMIT, or an error that makes SQLite abandon the transaction),
// every write of the group fails.

// writeReq is one write waiting for, or being run by, a group commit.
type writeReq struct {
	ctx  context.Context
	fn   func(tx *sql.Tx) error
	done chan error // buffered: the result, sent once
}

// write runs fn in an immediate write transaction, serialised with the Store's
// other writes (possibly together with them, see above), and returns once it is
// committed; fn's error, if any, is returned as it is and nothing of fn is kept.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	req := &writeReq{ctx: ctx, fn: fn, done: make(chan error, 1)}
	s.wmu.Lock()
	s.waiting = append(s.waiting, req)
	s.wmu.Unlock()
	for {
		select {
		case err := <-req.done:
			return err
		case s.wlock <- struct{}{}:
			s.wmu.Lock()
			group := s.waiting
			s.waiting = nil
			s.wmu.Unlock()
			if len(group) > 0 {
				s.commitGroup(group)
			}
			<-s.wlock
			// req was in this group or an earlier one: its result is waiting.
		case <-ctx.Done():
			s.wmu.Lock()
			i := slices.Index(s.waiting, req)
			if i >= 0 {
				s.waiting = slices.Delete(s.waiting, i, i+1)
			}
			s.wmu.Unlock()
			if i >= 0 {
				return ctx.Err()
			}
			return <-req.done // already taken by a group: wait for its outcome
		}
	}
}

// commitGroup runs the writes of group in one transaction and tells each its
// outcome.
func (s *Store) commitGroup(group []*writeReq) {
	results := make([]error, len(group))
	err := s.runGroup(group, results)
	for i, req := range group {
		if err != nil && results[i] == nil {
			results[i] = err
		}
		req.done <- results[i]
	}
}

// runGroup runs the writes in one transaction, recording each fn's error in
// results; it returns an error that fails every write whose fn succeeded.
func (s *Store) runGroup(group []*writeReq, results []error) (err error) {
	// Not the first caller's ctx: its cancellation must not undo the others.
	tx, err := s.db.BeginTx(context.WithoutCancel(group[0].ctx), nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	if len(group) == 1 {
		if results[0] = group[0].fn(tx); results[0] != nil {
			return errRolledBack
		}
	} else {
		for i, req := range group {
			if results[i] = req.ctx.Err(); results[i] != nil {
				continue
			}
			if err := runSavepoint(req.ctx, tx, req.fn, &results[i]); err != nil {
				return err
			}
		}
		if !slices.Contains(results, nil) {
			return errRolledBack
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// errRolledBack ends a group in which no write succeeded; it is never returned
// to a caller (each has its own error).
var errRolledBack = errors.New("store: nothing to commit")

// runSavepoint runs fn inside a savepoint of tx, storing fn's error in result
// and undoing fn's writes when it fails. It returns an error only when the
// transaction can no longer be used.
func runSavepoint(ctx context.Context, tx *sql.Tx, fn func(*sql.Tx) error, result *error) error {
	bg := context.WithoutCancel(ctx)
	if _, err := tx.ExecContext(bg, `SAVEPOINT write`); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	if *result = fn(tx); *result != nil {
		if _, err := tx.ExecContext(bg, `ROLLBACK TO write`); err != nil {
			return fmt.Errorf("rollback to savepoint after %v: %w", *result, err)
		}
	}
	if _, err := tx.ExecContext(bg, `RELEASE write`); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	return nil
}
