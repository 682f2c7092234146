// Package ratelimit keeps a token bucket per key (a sender, a client address) in
// bounded memory: the embedded SMTP server limits each sender's messages with it,
// the web server each client's requests.
package ratelimit

import (
	"sync"
	"time"

	"github.com/turnmail/turnmail/internal/lru"
)

// Buckets allows each key rate events a second on average, burst at once. It
// remembers the keys seen most recently (at most a bound); a key forgotten has its
// whole burst again. It is safe for concurrent use.
type Buckets struct {
	rate, burst float64
	clock       func() time.Time

	mu sync.Mutex
	m  *lru.Cache[bucket]
}

type bucket struct {
	tokens float64
	at     time.Time // zero: a new bucket, full
}

// New returns Buckets of rate events a second and bursts of burst, remembering at
// most keys keys; clock is time.Now when nil.
func New(rate float64, burst, keys int, clock func() time.Time) *Buckets {
	if clock == nil {
		clock = time.Now
	}
	return &Buckets{rate: rate, burst: float64(burst), clock: clock, m: lru.New[bucket](keys)}
}

// PerHour returns Buckets of n events an hour, in bursts of as many.
func PerHour(n, keys int, clock func() time.Time) *Buckets {
	return New(float64(n)/3600, n, keys, clock)
}

// Allow reports whether key may have one more event now, and counts it.
func (b *Buckets) Allow(key string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock()
	k := b.m.Touch(key)
	if k.at.IsZero() {
		k.tokens = b.burst
	} else {
		k.tokens = min(b.burst, k.tokens+now.Sub(k.at).Seconds()*b.rate)
	}
	k.at = now
	if k.tokens < 1 {
		return false
	}
	k.tokens--
	return true
}

// Len returns how many keys it remembers.
func (b *Buckets) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.m.Len()
}
