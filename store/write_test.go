package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestWrite_groupCommit: writes queued while the write lock is held are committed
// together in one transaction; each caller gets its own outcome, and a failing
// write is undone without touching the others.
func TestWrite_groupCommit(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	const n = 6
	s.wlock <- struct{}{} // hold the lock: the writes queue up

	var mu sync.Mutex
	txs := map[*sql.Tx]bool{}
	errs := make([]error, n)
	var wg sync.WaitGroup
	cancelled, cancel := context.WithCancel(ctx)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wctx := ctx
			if i == 4 {
				wctx = cancelled
			}
			errs[i] = s.write(wctx, func(tx *sql.Tx) error {
				mu.Lock()
				txs[tx] = true
				mu.Unlock()
				if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, 'x')`, fmt.Sprint("k", i)); err != nil {
					return err
				}
				if i == 2 {
					return fmt.Errorf("write %d: %w", i, ErrNotFound) // after its insert
				}
				return nil
			})
		}()
	}
	waitQueued(t, s, n)
	cancel() // write 4 gives up while it waits
	waitQueued(t, s, n-1)
	<-s.wlock
	wg.Wait()

	for i, err := range errs {
		switch i {
		case 2:
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("write 2: %v, want its own ErrNotFound", err)
			}
		case 4:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("write 4: %v, want context.Canceled", err)
			}
		default:
			if err != nil {
				t.Errorf("write %d: %v", i, err)
			}
		}
	}
	if len(txs) != 1 {
		t.Errorf("%d transactions for the queued writes, want 1", len(txs))
	}
	for i := range n {
		want := 1
		if i == 2 || i == 4 {
			want = 0
		}
		if got := count(t, s, `SELECT count(*) FROM meta WHERE key = ?`, fmt.Sprint("k", i)); got != want {
			t.Errorf("row of write %d: %d, want %d", i, got, want)
		}
	}
}

// TestWrite_aloneFails: a write alone in its group that fails leaves nothing.
func TestWrite_aloneFails(t *testing.T) {
	s := mustOpen(t)
	boom := errors.New("boom")
	err := s.write(context.Background(), func(tx *sql.Tx) error {
		if _, err := tx.Exec(`INSERT INTO meta (key, value) VALUES ('alone', 'x')`); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("write: %v, want boom", err)
	}
	if got := count(t, s, `SELECT count(*) FROM meta WHERE key = 'alone'`); got != 0 {
		t.Errorf("failed write left %d rows", got)
	}
}

func waitQueued(t *testing.T, s *Store, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.wmu.Lock()
		got := len(s.waiting)
		s.wmu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}
