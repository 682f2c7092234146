package e2e

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/mail/imapwatch"
	"github.com/turnmail/turnmail/mail/mailserver"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
)

// Load-run parameters (make bench): a burst of loadMails move mails over loadGames
// games, sent by loadSenders concurrent SMTP clients.
const (
	loadGames   = 50
	loadMails   = 1000
	loadSenders = 4
)

// loadResult summarises a load run.
type loadResult struct {
	mails    int
	elapsed  time.Duration
	p50, p99 time.Duration
}

func (r loadResult) String() string {
	if r.elapsed <= 0 {
		return fmt.Sprintf("%d mails: latency p50 %v p99 %v", r.mails, r.p50.Round(time.Millisecond), r.p99.Round(time.Millisecond))
	}
	return fmt.Sprintf("%d mails in %v: %.0f mails/s, latency p50 %v p99 %v",
		r.mails, r.elapsed.Round(time.Millisecond), float64(r.mails)/r.elapsed.Seconds(), r.p50.Round(time.Millisecond), r.p99.Round(time.Millisecond))
}

func summarise(sent, replied map[string]time.Time, start time.Time) loadResult {
	var lat []time.Duration
	end := start
	for id, at := range replied {
		if s, ok := sent[id]; ok {
			lat = append(lat, at.Sub(s))
		}
		if at.After(end) {
			end = at
		}
	}
	slices.Sort(lat)
	r := loadResult{mails: len(lat), elapsed: end.Sub(start)}
	if len(lat) > 0 {
		r.p50, r.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	}
	return r
}

// burst sends the mails from loadSenders goroutines and returns when each was accepted.
func burst(t *testing.T, smtpAddr string, mails []burstMail) map[string]time.Time {
	sent := make(map[string]time.Time, len(mails))
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan burstMail)
	for i := 0; i < loadSenders; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range work {
				if err := sendPlain(smtpAddr, m.from, []string{m.to}, strings.NewReader(m.raw)); err != nil {
					t.Errorf("send: %v", err)
					continue
				}
				mu.Lock()
				sent[m.id] = time.Now()
				mu.Unlock()
			}
		}()
	}
	for _, m := range mails {
		work <- m
	}
	close(work)
	wg.Wait()
	return sent
}

type burstMail struct{ id, from, to, raw string }

// TestLoad is the end-to-end load run (TURNMAIL_LOAD=1, make bench): a burst of 1,000
// move mails over 50 games through the embedded servers, then the same burst through a
// no-op handler that fetches each mail and sends one reply (the mail-I/O floor).
func TestLoad(t *testing.T) {
	if os.Getenv("TURNMAIL_LOAD") == "" {
		t.Skip("load run: set TURNMAIL_LOAD=1 (make bench)")
	}
	floor := loadFloor(t, 1)
	t.Logf("no-op floor: %v", floor)
	floor2 := loadFloor(t, 2)
	t.Logf("no-op floor, two replies per mail (the mail I/O turnmail does for 2 players): %v", floor2)
	full, paced := loadTurnmail(t)
	t.Logf("turnmail:    %v", full)
	t.Logf("turnmail, one mail at a time: %v", paced)
	t.Logf("turnmail/floor throughput ratio: %.2f (against the two-reply floor: %.2f)",
		full.elapsed.Seconds()/floor.elapsed.Seconds(), full.elapsed.Seconds()/floor2.elapsed.Seconds())
}

func loadTurnmail(t *testing.T) (burstResult, pacedResult loadResult) {
	reg := engine.Registry{"tally": testgame.Tally{}}
	h := newHarness(t, harnessOptions{games: reg, quiet: true})
	var mails []burstMail
	replyTo := map[string]string{}
	for g := 0; g < loadGames; g++ {
		a, b := fmt.Sprintf("a%d", g), fmt.Sprintf("b%d", g)
		id := h.newGame("tally", int64(g), "", a, b)
		replyTo[a] = h.d.Service.ReplyAddress(id, 0)
		replyTo[b] = h.d.Service.ReplyAddress(id, 1)
	}
	for i := 0; i < loadMails; i++ {
		g := i % loadGames
		p := fmt.Sprintf("%c%d", "ab"[(i/loadGames)%2], g)
		id := fmt.Sprintf("load-%d@client.example", i)
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: move\r\nMessage-ID: <%s>\r\n\r\nadd %d\r\n", h.addr(p), replyTo[p], id, 1+i%9)
		mails = append(mails, burstMail{id: id, from: h.addr(p), to: replyTo[p], raw: raw})
	}
	h.quietOutbox() // the opening mails are not part of the measurement
	start := time.Now()
	sent := burst(t, h.smtpAddr, mails)
	// Wait until every move was answered, then read when each answer was delivered.
	deadline := time.Now().Add(10 * time.Minute)
	// (The polling queries are answered from indexes: they must not slow the
	// daemon down by reading every stored mail 20 times a second.)
	for {
		var stored, pending int
		if err := h.d.Store.DB().QueryRow(`SELECT count(*), (SELECT count(*) FROM inbox WHERE status = 'pending') FROM inbox`).Scan(&stored, &pending); err != nil {
			t.Fatal(err)
		}
		if stored == loadMails && pending == 0 && pendingMails(t, h.d.Store) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d mails processed", stored-pending, loadMails)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var applied int
	if err := h.d.Store.DB().QueryRow(`SELECT count(*) FROM inbox WHERE status = 'applied'`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	if applied != loadMails {
		t.Fatalf("%d of %d moves applied", applied, loadMails)
	}
	var lastSent time.Time
	for _, at := range sent {
		if at.After(lastSent) {
			lastSent = at
		}
	}
	var lastApplied string
	if err := h.d.Store.DB().QueryRow(`SELECT max(processed_at) FROM inbox`).Scan(&lastApplied); err != nil {
		t.Fatal(err)
	}
	appliedAt, err := time.Parse(time.RFC3339Nano, lastApplied)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("burst: last move accepted by SMTP after %v, last move applied after %v",
		lastSent.Sub(start).Round(time.Millisecond), appliedAt.Sub(start).Round(time.Millisecond))
	burstResult = summarise(sent, answered(t, h, sent), start)

	// One mail at a time: the latency of a move on an idle daemon (IDLE wakes the
	// watcher; nothing queues).
	pacedSent := map[string]time.Time{}
	for i := 0; i < 50; i++ {
		m := mails[i]
		m.id = "paced-" + m.id
		m.raw = strings.Replace(m.raw, "Message-ID: <load-", "Message-ID: <paced-load-", 1)
		at := time.Now()
		if err := sendPlain(h.smtpAddr, m.from, []string{m.to}, strings.NewReader(m.raw)); err != nil {
			t.Fatal(err)
		}
		pacedSent[m.id] = at
		h.settled(m.id)
		h.quietOutbox()
	}
	pacedResult = summarise(pacedSent, answered(t, h, pacedSent), time.Now())
	pacedResult.elapsed = 0
	return burstResult, pacedResult
}

// answered returns, for each sent move, when the answer to its sender was delivered
// (the outbox's sent time of the mail that replies to it).
func answered(t *testing.T, h *harness, sent map[string]time.Time) map[string]time.Time {
	mailsOut, err := h.d.Store.Outbox(context.Background(), "", "sent")
	if err != nil {
		t.Fatal(err)
	}
	replied := map[string]time.Time{}
	for _, m := range mailsOut {
		p, err := parse.Parse(m.Raw, nil)
		if err != nil || m.SentAt == nil {
			continue
		}
		if _, ok := sent[p.InReplyTo]; ok {
			replied[p.InReplyTo] = *m.SentAt
		}
	}
	return replied
}

// loadFloor runs the same burst through the embedded servers and the IMAP watcher
// with a handler that only sends replies replies per mail (to the sender, and to
// a second address for the second).
func loadFloor(t *testing.T, replies int) loadResult {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "floor.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := mailserver.New(st.DB(), &mailserver.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Logger: quiet, WriteTx: st.WriteTx})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	domain := srv.Domain()
	var mu sync.Mutex
	replied := map[string]time.Time{}
	handler := func(ctx context.Context, m imapwatch.Fetched) (imapwatch.Disposition, error) {
		p, err := parse.Parse(m.Raw, nil)
		if err != nil {
			return imapwatch.Keep, err
		}
		for i, to := range []string{p.From.Address, "other-" + p.From.Address}[:replies] {
			reply := fmt.Sprintf("From: turnmail@%s\r\nTo: %s\r\nSubject: Re: move\r\nIn-Reply-To: <%s>\r\nAuto-Submitted: auto-replied\r\nX-Reply: %d\r\n\r\nok\r\n", domain, to, p.MessageID, i)
			if err := sendPlain(srv.SMTPAddr(), "turnmail@"+domain, []string{to}, strings.NewReader(reply)); err != nil {
				return imapwatch.Keep, err
			}
		}
		mu.Lock()
		replied[p.MessageID] = time.Now()
		mu.Unlock()
		return imapwatch.Processed, nil
	}
	w := imapwatch.New(imapwatch.Options{
		Addr: srv.IMAPAddr(), Username: "turnmail@" + domain, Password: mailserver.DefaultPassword, Security: "plain",
		MoveTo: imapwatch.MoveTo{Processed: "Processed", Rejected: "Rejected"}, Logger: quiet,
	}, handler, st)
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	var mails []burstMail
	for i := 0; i < loadMails; i++ {
		id := fmt.Sprintf("floor-%d@client.example", i)
		from := fmt.Sprintf("p%d@%s", i%(2*loadGames), domain)
		to := fmt.Sprintf("turnmail+g%d@%s", i%loadGames, domain)
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: move\r\nMessage-ID: <%s>\r\n\r\nadd 1\r\n", from, to, id)
		mails = append(mails, burstMail{id: id, from: from, to: to, raw: raw})
	}
	start := time.Now()
	sent := burst(t, srv.SMTPAddr(), mails)
	deadline := time.Now().Add(10 * time.Minute)
	for {
		mu.Lock()
		n := len(replied)
		mu.Unlock()
		if n == loadMails {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("floor: only %d of %d replied", n, loadMails)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	return summarise(sent, replied, start)
}
