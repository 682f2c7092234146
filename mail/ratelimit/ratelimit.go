// Package ratelimit limits how many replies turnmail sends to one sender.
//
// A Limiter is a set of token buckets, one per sender address. Each bucket
// holds up to Burst tokens and refills at Rate tokens per Per. A reply costs
// one token. The limiter takes the current time as an argument and has no
// global state, so tests drive it with a fake clock.
package ratelimit

import (
	"strings"
	"sync"
	"time"
)

// Default limits: 20 replies an hour, all of them usable at once.
const (
	DefaultRate = 20
	DefaultPer  = time.Hour
)

// Options configure a Limiter. The zero value means 20 replies per hour with
// a burst of 20.
type Options struct {
	// Rate is how many tokens are added per Per. Default 20.
	Rate int
	// Per is the refill period for Rate tokens. Default one hour.
	Per time.Duration
	// Burst is the bucket capacity. Default Rate.
	Burst int
	// MaxSenders bounds memory: when more senders are tracked, full
	// (idle) buckets are dropped. Default 10000. A dropped bucket is full
	// anyway, so dropping it changes nothing.
	MaxSenders int
}

// Limiter is a per-sender token-bucket rate limiter. It is safe for
// concurrent use.
type Limiter struct {
	rate       float64 // tokens per nanosecond
	burst      float64
	maxSenders int

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// New returns a Limiter. The zero Options gives the defaults.
func New(o Options) *Limiter {
	if o.Rate <= 0 {
		o.Rate = DefaultRate
	}
	if o.Per <= 0 {
		o.Per = DefaultPer
	}
	if o.Burst <= 0 {
		o.Burst = o.Rate
	}
	if o.MaxSenders <= 0 {
		o.MaxSenders = 10000
	}
	return &Limiter{
		rate:       float64(o.Rate) / float64(o.Per),
		burst:      float64(o.Burst),
		maxSenders: o.MaxSenders,
		buckets:    make(map[string]*bucket),
	}
}

// Allow reports whether a reply to sender may be sent at now, and if so
// takes one token. Senders are compared case-insensitively. A time earlier
// than the last one seen for the sender adds no tokens.
func (l *Limiter) Allow(sender string, now time.Time) bool {
	key := strings.ToLower(strings.TrimSpace(sender))

	l.mu.Lock()
	defer l.mu.Unlock()

	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= l.maxSenders {
			l.pruneLocked(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// refill adds the tokens earned since b.last.
func (l *Limiter) refill(b *bucket, now time.Time) {
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens += float64(elapsed) * l.rate
		if b.tokens > l.burst {
			b.tokens = l.burst
		}
		b.last = now
	}
}

// pruneLocked drops the buckets that are full at now.
func (l *Limiter) pruneLocked(now time.Time) {
	for k, b := range l.buckets {
		l.refill(b, now)
		if b.tokens >= l.burst {
			delete(l.buckets, k)
		}
	}
}
