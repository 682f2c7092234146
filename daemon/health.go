package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/turnmail/turnmail/store"
)

// StaleAfter is how long mail may fail or wait before /healthz reports not-ok.
const StaleAfter = time.Minute

// health is what the daemon knows of how its mail fares, for /healthz and
// /metrics. It is safe for concurrent use.
type health struct {
	clock func() time.Time

	mu sync.Mutex
	// failingSince is when the watcher's current run of failures began (the
	// zero time: its last catch-up succeeded); lastErr is the latest failure.
	failingSince time.Time
	lastErr      string
}

// watcherStatus records how the IMAP watcher fares (imapwatch.Options.Status).
func (h *health) watcherStatus(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil {
		h.failingSince, h.lastErr = time.Time{}, ""
		return
	}
	if h.failingSince.IsZero() {
		h.failingSince = h.clock()
	}
	h.lastErr = err.Error()
}

// failing returns since when the watcher has been failing, and why.
func (h *health) failing() (since time.Time, why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.failingSince, h.lastErr
}

// Report is the state /healthz and /metrics show.
type Report struct {
	// Problems are the reasons the service is not ok; empty when it is.
	Problems []string
	// Inbox counts quarantined and pending incoming mail.
	Inbox store.InboxHealth
	// OutboxPending and OutboxFailed count outgoing mail; OldestOutbox is when the
	// oldest waiting one was queued (zero: none waits).
	OutboxPending, OutboxFailed int
	OldestOutbox                time.Time
	// MailFailingSince is when reading the mailbox began to fail (zero: it works).
	MailFailingSince time.Time
	// Now is when the report was made.
	Now time.Time
}

// report checks the database (a write), the watcher and the queues.
func (h *health) report(ctx context.Context, st *store.Store) Report {
	now := h.clock()
	r := Report{Now: now}
	if err := st.ProbeWrite(ctx, now); err != nil {
		r.Problems = append(r.Problems, "database cannot be written: "+err.Error())
	}
	since, why := h.failing()
	r.MailFailingSince = since
	if !since.IsZero() && now.Sub(since) > StaleAfter {
		r.Problems = append(r.Problems, fmt.Sprintf("reading mail has failed for %s: %s", now.Sub(since).Round(time.Second), why))
	}
	var err error
	if r.Inbox, err = st.InboxHealth(ctx); err != nil {
		r.Problems = append(r.Problems, err.Error())
	} else if !r.Inbox.OldestPending.IsZero() && now.Sub(r.Inbox.OldestPending) > StaleAfter {
		r.Problems = append(r.Problems, fmt.Sprintf("%d received mails wait to be processed, the oldest for %s", r.Inbox.Pending, now.Sub(r.Inbox.OldestPending).Round(time.Second)))
	}
	counts, err := st.OutboxCounts(ctx, "")
	if err != nil {
		r.Problems = append(r.Problems, err.Error())
	}
	r.OutboxPending, r.OutboxFailed = counts[store.OutboxPending], counts[store.OutboxFailed]
	oldest, ok, err := st.OldestPendingOutbox(ctx)
	if err != nil {
		r.Problems = append(r.Problems, err.Error())
	} else if ok {
		r.OldestOutbox = oldest
		if now.Sub(oldest) > StaleAfter {
			r.Problems = append(r.Problems, fmt.Sprintf("%d mails wait to be sent, the oldest for %s", r.OutboxPending, now.Sub(oldest).Round(time.Second)))
		}
	}
	return r
}

// ageSeconds is how long ago t was, in seconds (0 for the zero time).
func ageSeconds(now, t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return now.Sub(t).Seconds()
}

// handler serves /healthz (200 "ok", or 503 with one problem a line) and /metrics
// (Prometheus text format).
func (h *health) handler(st *store.Store) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		rep := h.report(r.Context(), st)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if len(rep.Problems) > 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			for _, p := range rep.Problems {
				fmt.Fprintln(w, p)
			}
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		rep := h.report(r.Context(), st)
		healthy := 1
		if len(rep.Problems) > 0 {
			healthy = 0
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		fmt.Fprintf(w, "# HELP turnmail_healthy 1 when /healthz reports ok.\n# TYPE turnmail_healthy gauge\nturnmail_healthy %d\n", healthy)
		fmt.Fprintf(w, "# HELP turnmail_inbox_quarantined Incoming mails whose processing failed (turnmail retry).\n# TYPE turnmail_inbox_quarantined gauge\nturnmail_inbox_quarantined %d\n", rep.Inbox.Failed)
		fmt.Fprintf(w, "# HELP turnmail_inbox_pending Incoming mails stored, not yet processed.\n# TYPE turnmail_inbox_pending gauge\nturnmail_inbox_pending %d\n", rep.Inbox.Pending)
		fmt.Fprintf(w, "# HELP turnmail_inbox_oldest_unprocessed_seconds Age of the oldest unprocessed incoming mail.\n# TYPE turnmail_inbox_oldest_unprocessed_seconds gauge\nturnmail_inbox_oldest_unprocessed_seconds %.0f\n", ageSeconds(rep.Now, rep.Inbox.OldestPending))
		fmt.Fprintf(w, "# HELP turnmail_mail_failing_seconds How long reading the mailbox has been failing (0: it works).\n# TYPE turnmail_mail_failing_seconds gauge\nturnmail_mail_failing_seconds %.0f\n", ageSeconds(rep.Now, rep.MailFailingSince))
		fmt.Fprintf(w, "# HELP turnmail_outbox_pending Outgoing mails waiting to be sent.\n# TYPE turnmail_outbox_pending gauge\nturnmail_outbox_pending %d\n", rep.OutboxPending)
		fmt.Fprintf(w, "# HELP turnmail_outbox_failed Outgoing mails given up on.\n# TYPE turnmail_outbox_failed gauge\nturnmail_outbox_failed %d\n", rep.OutboxFailed)
		fmt.Fprintf(w, "# HELP turnmail_outbox_oldest_pending_seconds Age of the oldest outgoing mail waiting.\n# TYPE turnmail_outbox_oldest_pending_seconds gauge\nturnmail_outbox_oldest_pending_seconds %.0f\n", ageSeconds(rep.Now, rep.OldestOutbox))
	})
	return mux
}

// serveHTTP serves h's endpoints on addr until ctx is done.
func serveHTTP(ctx context.Context, addr string, handler http.Handler) error {
	srv := &http.Server{Addr: addr, Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", addr, err)
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
