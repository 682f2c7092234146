package mailserver

import (
	"container/list"
	"sync"
	"time"
)

// lru is a bounded map of the most recently touched keys: adding a key beyond
// max forgets the one touched longest ago. It is not safe for concurrent use.
type lru[V any] struct {
	max   int
	m     map[string]*list.Element
	order list.List // of *lruEntry[V], least recently touched first
}

type lruEntry[V any] struct {
	key string
	val V
}

func newLRU[V any](max int) *lru[V] { return &lru[V]{max: max, m: make(map[string]*list.Element)} }

// get returns key's value, or nil.
func (c *lru[V]) get(key string) *V {
	if e := c.m[key]; e != nil {
		return &e.Value.(*lruEntry[V]).val
	}
	return nil
}

// touch returns key's value, added (as the zero V) if missing, and makes it the
// most recently touched.
func (c *lru[V]) touch(key string) *V {
	if e := c.m[key]; e != nil {
		c.order.MoveToBack(e)
		return &e.Value.(*lruEntry[V]).val
	}
	if len(c.m) >= c.max {
		oldest := c.order.Front()
		c.order.Remove(oldest)
		delete(c.m, oldest.Value.(*lruEntry[V]).key)
	}
	e := c.order.PushBack(&lruEntry[V]{key: key})
	c.m[key] = e
	return &e.Value.(*lruEntry[V]).val
}

func (c *lru[V]) len() int { return len(c.m) }

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
	m  *lru[failures]
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
		maxPending: defaultPendingLogins, now: time.Now, m: newLRU[failures](defaultTrackedAddresses),
	}
}

// begin is called before a login of key is checked. It returns how long the check
// waits: nothing for an address without recent failures, else FailureDelay doubled
// per failure up to MaxFailureDelay. ok is false when too many logins of key
// already wait: the login is refused unchecked. When ok, end must follow.
func (t *loginThrottle) begin(key string) (wait time.Duration, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.m.get(key)
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
	if f := t.m.get(key); waited && f != nil && f.pending > 0 {
		f.pending--
	}
	if !failed {
		return
	}
	now := t.now()
	f := t.m.touch(key)
	if now.Sub(f.last) > t.window {
		f.n = 0
	}
	f.n++
	f.last = now
}

// rateLimiter is a token bucket per sender, in bounded memory (the senders seen
// most recently; one forgotten has its whole allowance again): perHour messages an
// hour, in bursts of as many. It is safe for concurrent use.
type rateLimiter struct {
	perHour float64
	now     func() time.Time

	mu sync.Mutex
	m  *lru[bucket]
}

type bucket struct {
	tokens float64
	at     time.Time // zero: a new bucket, full
}

func newRateLimiter(perHour int) *rateLimiter {
	return &rateLimiter{perHour: float64(perHour), now: time.Now, m: newLRU[bucket](defaultTrackedAddresses)}
}

// take spends one message of key's allowance; false when there is none left.
func (r *rateLimiter) take(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	b := r.m.touch(key)
	if b.at.IsZero() {
		b.tokens = r.perHour
	} else {
		b.tokens = min(r.perHour, b.tokens+now.Sub(b.at).Hours()*r.perHour)
	}
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
