package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/turnmail/turnmail/mail/mailnet"
	"github.com/turnmail/turnmail/store"
)

// StaleAfter is how long mail may fail or wait before /healthz reports not-ok.
const StaleAfter = time.Minute

// health is what the daemon knows of how its mail fares, for /healthz and
// /metrics. It is safe for concurrent use.
type health struct {
	clock func() time.Time
	// tell, when set, is given a plain line for the host whenever a link starts
	// or stops failing in a way that needs them (serve writes it to stderr).
	tell func(line string)

	mu   sync.Mutex
	imap link // reading mail (the watcher)
	smtp link // sending mail (the sender's connections)
}

// link is how one mail connection fares.
type link struct {
	// failingSince is when the current run of failures began (the zero time: the
	// last attempt worked); lastErr is the latest failure.
	failingSince time.Time
	lastErr      error
	// worked is whether an attempt ever succeeded; told is the line last told.
	worked bool
	told   string
}

// watcherStatus records how the IMAP watcher fares (imapwatch.Options.Status).
func (h *health) watcherStatus(err error) { h.status(&h.imap, "reading mail", err) }

// senderStatus records how the SMTP sender's connections fare
// (smtpsend.Options.Status).
func (h *health) senderStatus(err error) { h.status(&h.smtp, "sending mail", err) }

func (h *health) status(l *link, what string, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil {
		l.failingSince, l.lastErr, l.worked = time.Time{}, nil, true
	} else {
		if l.failingSince.IsZero() {
			l.failingSince = h.clock()
		}
		l.lastErr = err
	}
	line := l.urgent(what)
	if line == l.told || h.tell == nil {
		l.told = line
		return
	}
	if line == "" {
		h.tell(what + " works again")
	} else {
		h.tell(line + " (retrying; /healthz reports it until it works)")
	}
	l.told = line
}

// urgent is the problem of a link that is reported at once: a login the server
// refused, or any failure before the link ever worked (a wrong address, a closed
// port, a TLS mismatch); "" when there is none.
func (l *link) urgent(what string) string {
	if l.lastErr == nil {
		return ""
	}
	if refused := (*mailnet.LoginError)(nil); errors.As(l.lastErr, &refused) {
		return fmt.Sprintf("%s: the server refused the login: %v", what, l.lastErr)
	}
	if !l.worked {
		return fmt.Sprintf("%s has not worked since the start: %v", what, l.lastErr)
	}
	return ""
}

// problem is the link's problem at now: urgent at once, any other failure once it
// has lasted StaleAfter; "" when there is none.
func (l *link) problem(what string, now time.Time) string {
	if p := l.urgent(what); p != "" {
		return p
	}
	if !l.failingSince.IsZero() && now.Sub(l.failingSince) > StaleAfter {
		return fmt.Sprintf("%s has failed for %s: %v", what, now.Sub(l.failingSince).Round(time.Second), l.lastErr)
	}
	return ""
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
	h.mu.Lock()
	r.MailFailingSince = h.imap.failingSince
	for _, p := range []string{h.imap.problem("reading mail", now), h.smtp.problem("sending mail", now)} {
		if p != "" {
			r.Problems = append(r.Problems, p)
		}
	}
	h.mu.Unlock()
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

// serveHTTP serves handler on addr until ctx is done.
func serveHTTP(ctx context.Context, addr string, handler http.Handler) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", addr, err)
	}
	return serveOn(ctx, ln, handler)
}

// serveOn serves handler on ln until ctx is done. Slow or large requests are cut:
// headers must come within 5 seconds and hold at most 16 KB, a request is read
// within 10 seconds and answered within 30, an idle connection is closed after a
// minute.
func serveOn(ctx context.Context, ln net.Listener, handler http.Handler) error {
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10}
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
