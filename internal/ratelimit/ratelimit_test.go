package ratelimit

import (
	"fmt"
	"testing"
	"time"
)

// TestBuckets: a key has its burst, refilled at the rate; another key is counted
// apart; the memory of keys stays bounded.
func TestBuckets(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		b      *Buckets
		burst  int
		refill time.Duration // the time one more event takes to come back
		keys   int
	}{
		{"6 an hour", PerHour(6, 100, func() time.Time { return now }), 6, 10 * time.Minute, 100},
		{"2 a second, bursts of 5", New(2, 5, 10, func() time.Time { return now }), 5, 500 * time.Millisecond, 10},
	}
	for _, tt := range tests {
		n := 0
		for tt.b.Allow("a") {
			n++
		}
		if n != tt.burst {
			t.Errorf("%s: a burst of %d, want %d", tt.name, n, tt.burst)
		}
		if !tt.b.Allow("b") {
			t.Errorf("%s: another key is limited too", tt.name)
		}
		now = now.Add(tt.refill)
		if !tt.b.Allow("a") || tt.b.Allow("a") {
			t.Errorf("%s: after %v, want exactly one more event", tt.name, tt.refill)
		}
		for i := range 3 * tt.keys {
			tt.b.Allow(fmt.Sprint("k", i))
		}
		if tt.b.Len() > tt.keys {
			t.Errorf("%s: %d keys remembered, want at most %d", tt.name, tt.b.Len(), tt.keys)
		}
	}
}
