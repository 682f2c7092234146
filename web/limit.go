package web

import (
	"sync"
	"time"
)

// limiter bounds the requests of each client with a token bucket: rate a second on
// average, burst at once. It remembers at most maxClients clients; when it would
// remember more, it forgets those whose bucket has filled up again.
type limiter struct {
	rate  float64
	burst float64
	clock func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// maxClients bounds the clients a limiter remembers.
const maxClients = 10000

func newLimiter(rate float64, burst int, clock func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(burst), clock: clock, buckets: map[string]*bucket{}}
}

// allow reports whether client may make a request now, and counts it.
func (l *limiter) allow(client string) bool {
	now := l.clock()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[client]
	if b == nil {
		if len(l.buckets) >= maxClients {
			l.sweep(now)
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[client] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// sweep forgets the clients whose bucket is full again; when none is, it forgets
// them all (a flood of new addresses: the rate of each starts anew).
func (l *limiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= maxClients {
		clear(l.buckets)
	}
}
