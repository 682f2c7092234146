package daemon

import (
	"context"
	"time"

	"github.com/turnmail/turnmail/store"
)

// DefaultOutboxPoll is how often the daemon looks for mail that another process
// queued in the database (turnmail new, import), when Options.OutboxPoll is 0.
const DefaultOutboxPoll = time.Second

// watchOutbox wakes the sender (Store.Wake) whenever the outbox's largest row id
// grows, checked every interval: mail queued by another process sharing the
// database file is then sent within about interval, not at the sender's next poll.
// It returns when ctx is done.
func watchOutbox(ctx context.Context, st *store.Store, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	watchOutboxTicks(ctx, st, t.C)
	return nil
}

// watchOutboxTicks is watchOutbox checking at each tick, until ctx is done or ticks
// is closed. A failed check is retried at the next tick.
func watchOutboxTicks(ctx context.Context, st *store.Store, ticks <-chan time.Time) {
	last, _ := st.OutboxMaxID(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-ticks:
			if !ok {
				return
			}
		}
		id, err := st.OutboxMaxID(ctx)
		if err != nil || id <= last {
			continue
		}
		last = id
		st.Wake()
	}
}
