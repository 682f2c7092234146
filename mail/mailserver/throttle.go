package mailserver

import (
	"sync"
	"time"

	"github.com/turnmail/turnmail/internal/lru"
)

// loginThrottle remembers the recent failed logins of each client address, in
// bounded memory (the addresses that failed most recently), and says how long a
// login of that address waits before its password is checked. It is safe for
// concurrent use.
type loginThrottle struct {
	base, max  time.Duration
	window     time.Duration // failures older than this are forgotten
	maxPending int           // the most logins of a failing address waiting at once
	now        func() time.Time

	mu sync.Mutex
	m  *lru.Cache[failures]
}

// failures is what the throttle remembers of one address.
type failures struct {
	n       int       // failed logins since the window last ran out
	last    time.Time // the latest one
	pending int       // logins waiting
}

func newLoginThrottle(l Limits) *loginThrottle {
	return &loginThrottle{
		base: l.FailureDelay, max: l.MaxFailureDelay, window: defaultFailureWindow,
		maxPending: defaultPendingLogins, now: time.Now, m: lru.New[failures](defaultTrackedAddresses),
	}
}

// begin is called before a login of key is checked. It returns how long the check
// waits: nothing for an address without recent failures, else FailureDelay doubled
// per failure up to MaxFailureDelay. ok is false when too many logins of key
// already wait: the login is refused unchecked. When ok, end must follow.
func (t *loginThrottle) begin(key string) (wait time.Duration, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.m.Get(key)
	if f == nil || f.n == 0 || t.now().Sub(f.last) > t.window {
		return 0, true
	}
	if f.pending >= t.maxPending {
		return 0, false
	}
	f.pending++
	return t.delay(f.n), true
}

// delay is the wait after n recent failures (n ≥ 1).
func (t *loginThrottle) delay(n int) time.Duration {
	d := t.base
	for i := 1; i < n && d < t.max; i++ {
		d *= 2
	}
	return min(d, t.max)
}

// end records the outcome of a login begin let through; waited is whether begin
// returned a wait (and counted the login as pending).
func (t *loginThrottle) end(key string, waited, failed bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f := t.m.Get(key); waited && f != nil && f.pending > 0 {
		f.pending--
	}
	if !failed {
		return
	}
	now := t.now()
	f := t.m.Touch(key)
	if now.Sub(f.last) > t.window {
		f.n = 0
	}
	f.n++
	f.last = now
}
