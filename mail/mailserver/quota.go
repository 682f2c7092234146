package mailserver

import (
	"context"
	"fmt"
	"sync"
)

// usage counts stored messages and their bytes.
type usage struct{ msgs, bytes int64 }

func (u *usage) add(v usage) { u.msgs += v.msgs; u.bytes += v.bytes }
func (u *usage) sub(v usage) { u.msgs -= v.msgs; u.bytes -= v.bytes }

// usageOf is what msgs take.
func usageOf(msgs []*message) usage {
	u := usage{msgs: int64(len(msgs))}
	for _, m := range msgs {
		u.bytes += m.size
	}
	return u
}

// quota accounts for what the mailboxes hold against the Limits: per mailbox
// (account.used, guarded by account.mu) and in total. Nothing is written before
// reserve has counted it, so nothing over the limits reaches the disk.
type quota struct {
	limits Limits

	mu       sync.Mutex
	total    usage
	accounts int
}

// loadQuota counts what the database holds.
func loadQuota(ctx context.Context, st *store, limits Limits) (*quota, error) {
	q := &quota{limits: limits}
	err := st.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(size), 0) FROM mbox_messages`).Scan(&q.total.msgs, &q.total.bytes)
	if err == nil {
		err = st.db.QueryRowContext(ctx, `SELECT count(*) FROM mbox_accounts`).Scan(&q.accounts)
	}
	if err != nil {
		return nil, fmt.Errorf("count stored mail: %w", err)
	}
	return q, nil
}

// reserve counts add in a (a.mu held) and in the total, or says which limit it
// would pass; largest is the largest message of add.
func (q *quota) reserve(a *account, add usage, largest int64) error {
	l := q.limits
	switch {
	case largest > l.MailboxBytes:
		return errMessageOverQuota
	case a.used.bytes+add.bytes > l.MailboxBytes || a.used.msgs+add.msgs > l.MailboxMessages:
		return fmt.Errorf("%w: %s", errMailboxFull, a.addr)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.total.bytes+add.bytes > l.TotalBytes || q.total.msgs+add.msgs > l.TotalMessages {
		return errStorageFull
	}
	q.total.add(add)
	a.used.add(add)
	return nil
}

// release uncounts sub from a (a.mu held) and the total: messages deleted, or a
// reservation whose write failed.
func (q *quota) release(a *account, sub usage) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.total.sub(sub)
	a.used.sub(sub)
}

// room reports whether one more small message fits: in a (a.mu held), or in a new
// mailbox when a is nil.
func (q *quota) room(a *account) error {
	l := q.limits
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case a == nil && q.accounts >= l.MaxMailboxes:
		return fmt.Errorf("%w: %d mailboxes", errStorageFull, q.accounts)
	case a != nil && (a.used.bytes >= l.MailboxBytes || a.used.msgs >= l.MailboxMessages):
		return fmt.Errorf("%w: %s", errMailboxFull, a.addr)
	case q.total.bytes >= l.TotalBytes || q.total.msgs >= l.TotalMessages:
		return errStorageFull
	}
	return nil
}

// newAccount counts a mailbox about to be created, or refuses it past
// MaxMailboxes; undo uncounts it when the creation failed.
func (q *quota) newAccount() (undo func(), err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.accounts >= q.limits.MaxMailboxes {
		return nil, fmt.Errorf("%w: %d mailboxes", errStorageFull, q.accounts)
	}
	q.accounts++
	return func() {
		q.mu.Lock()
		q.accounts--
		q.mu.Unlock()
	}, nil
}
