package ratelimit

import (
	"testing"
	"time"
)

func TestLimiter_Allow(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	type step struct {
		sender string
		at     time.Duration // offset from t0
		want   bool
	}
	tests := []struct {
		name  string
		opts  Options
		steps []step
	}{
		{
			name: "burst then refused",
			opts: Options{Rate: 2, Per: time.Hour},
			steps: []step{
				{"a@x", 0, true},
				{"a@x", 0, true},
				{"a@x", 0, false},
				{"a@x", time.Minute, false},
			},
		},
		{
			name: "refill one token per Per/Rate",
			opts: Options{Rate: 2, Per: time.Hour},
			steps: []step{
				{"a@x", 0, true},
				{"a@x", 0, true},
				{"a@x", 29 * time.Minute, false},
				{"a@x", 30 * time.Minute, true},
				{"a@x", 30 * time.Minute, false},
				{"a@x", 90 * time.Minute, true},
				{"a@x", 90 * time.Minute, true},
				{"a@x", 90 * time.Minute, false},
			},
		},
		{
			name: "refill capped at burst",
			opts: Options{Rate: 2, Per: time.Hour},
			steps: []step{
				{"a@x", 0, true},
				{"a@x", 10 * time.Hour, true},
				{"a@x", 10 * time.Hour, true},
				{"a@x", 10 * time.Hour, false},
			},
		},
		{
			name: "senders independent and case-insensitive",
			opts: Options{Rate: 1, Per: time.Hour},
			steps: []step{
				{"Alice@Example.org", 0, true},
				{"alice@example.org", 0, false},
				{"bob@example.org", 0, true},
				{"bob@example.org", 0, false},
			},
		},
		{
			name: "burst smaller than rate",
			opts: Options{Rate: 60, Per: time.Hour, Burst: 1},
			steps: []step{
				{"a@x", 0, true},
				{"a@x", 30 * time.Second, false},
				{"a@x", time.Minute, true},
			},
		},
		{
			name: "time going backwards adds nothing",
			opts: Options{Rate: 1, Per: time.Hour},
			steps: []step{
				{"a@x", 2 * time.Hour, true},
				{"a@x", 0, false},
			},
		},
		{
			name: "defaults 20 per hour",
			opts: Options{},
			steps: func() []step {
				var s []step
				for i := 0; i < 20; i++ {
					s = append(s, step{"a@x", 0, true})
				}
				s = append(s, step{"a@x", 0, false}, step{"a@x", 3 * time.Minute, true})
				return s
			}(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := New(tt.opts)
			for i, s := range tt.steps {
				if got := l.Allow(s.sender, t0.Add(s.at)); got != s.want {
					t.Fatalf("step %d: Allow(%q, +%v) = %v, want %v", i, s.sender, s.at, got, s.want)
				}
			}
		})
	}
}

func TestLimiter_prune(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	l := New(Options{Rate: 1, Per: time.Hour, MaxSenders: 2})
	l.Allow("a", t0)
	l.Allow("b", t0)
	// Both buckets are full again two hours later, so adding c drops them.
	if !l.Allow("c", t0.Add(2*time.Hour)) {
		t.Fatal("Allow(c) = false")
	}
	if n := len(l.buckets); n != 1 {
		t.Errorf("len(buckets) = %d, want 1", n)
	}
	// An exhausted bucket is never dropped.
	l = New(Options{Rate: 1, Per: time.Hour, MaxSenders: 1})
	l.Allow("a", t0)
	l.Allow("b", t0)
	if l.Allow("a", t0) {
		t.Error("a was allowed twice in one hour")
	}
}
