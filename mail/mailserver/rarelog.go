package mailserver

import (
	"log/slog"
	"sync"
	"time"
)

// rareLog logs refusals — a failed login, a refused connection or recipient —
// each kind at most once a minute at warning level, with the latest one's details
// and how many there were since the last line; every one goes to debug level. A
// flood of refusals must not become a flood of log lines. It is safe for
// concurrent use.
type rareLog struct {
	logger *slog.Logger

	mu    sync.Mutex
	kinds map[string]*rareKind // kinds are constant messages: a few
}

type rareKind struct {
	last  time.Time
	count int
}

func newRareLog(logger *slog.Logger) *rareLog {
	return &rareLog{logger: logger, kinds: make(map[string]*rareKind)}
}

// log records one refusal of kind msg.
func (r *rareLog) log(msg string, args ...any) {
	r.logger.Debug(msg, args...)
	r.mu.Lock()
	k := r.kinds[msg]
	if k == nil {
		k = &rareKind{}
		r.kinds[msg] = k
	}
	k.count++
	now := time.Now()
	if now.Sub(k.last) < time.Minute {
		r.mu.Unlock()
		return
	}
	n := k.count
	k.count, k.last = 0, now
	r.mu.Unlock()
	r.logger.Warn(msg, append(args, "count_in_last_minute", n)...)
}
