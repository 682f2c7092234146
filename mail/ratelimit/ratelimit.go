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
	// Tokens are counted in units of 1/per: a bucket holds up to burst·per
	// units, gains rate units per nanosecond, and a reply costs per units.
	// Integer arithmetic keeps the refill exact.
	rate       int64
	per        int64
	capacity   int64
	fill       time.Duration // time to refill an empty bucket
	maxSenders int

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	units int64
	last  time.Time
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
	capacity := int64(o.Burst) * int64(o.Per)
	return &Limiter{
		rate:       int64(o.Rate),
		per:        int64(o.Per),
		capacity:   capacity,
		fill:       time.Duration(capacity / int64(o.Rate)),
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
		b = &bucket{units: l.capacity, last: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	if b.units < l.per {
		return false
	}
	b.units -= l.per
	return true
}

// refill adds the tokens earned since b.last.
func (l *Limiter) refill(b *bucket, now time.Time) {
	elapsed := now.Sub(b.last)
	if elapsed <= 0 {
		return
	}
	if elapsed >= l.fill {
		b.units = l.capacity
	} else {
		b.units = min(b.units+int64(elapsed)*l.rate, l.capacity)
	}
	b.last = now
}

// pruneLocked drops the buckets that are full at now.
func (l *Limiter) pruneLocked(now time.Time) {
	for k, b := range l.buckets {
		l.refill(b, now)
		if b.units >= l.capacity {
			delete(l.buckets, k)
		}
	}
}
