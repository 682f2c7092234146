package e2e

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/turnmail/turnmail/config"
	"github.com/turnmail/turnmail/daemon"
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// childEnv names the variable that turns the test binary into a daemon process for
// the crash test; its value is the database path.
const childEnv = "TURNMAIL_E2E_DAEMON_DB"

func TestMain(m *testing.M) {
	if db := os.Getenv(childEnv); db != "" {
		os.Exit(runChild(db, os.Getenv("TURNMAIL_E2E_IMAP"), os.Getenv("TURNMAIL_E2E_SMTP")))
	}
	os.Exit(m.Run())
}

// testRegistry is every real game plus the tally test game.
func testRegistry() engine.Registry {
	r := games.Registry()
	r["tally"] = testgame.Tally{}
	return r
}

func crashConfig(db, imapAddr, smtpAddr string) (*config.Config, error) {
	c, err := config.Load(config.NewViper(), "")
	if err != nil {
		return nil, err
	}
	c.Database, c.Secret = db, "e2e-test-secret-0123456789abcdef"
	c.Embedded.IMAPAddr, c.Embedded.SMTPAddr = imapAddr, smtpAddr
	c.Web.Addr = "127.0.0.1:0"
	liftLimits(&c.Limits)
	return c, c.Validate()
}

// runChild runs the daemon until SIGTERM (or SIGKILL, which is the point).
func runChild(db, imapAddr, smtpAddr string) int {
	c, err := crashConfig(db, imapAddr, smtpAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	d, err := daemon.New(ctx, c, daemon.Options{Games: testRegistry(), Logger: log})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer d.Close()
	if err := d.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// listening reports whether a server accepts connections at addr.
func listening(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestCrashSafety kills the daemon with SIGKILL at random points while a burst of
// moves arrives, restarts it, and checks that every move was applied exactly once and
// that every player's last mail shows the final state.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns daemon processes")
	}
	const moves = 80
	dir := t.TempDir()
	db := filepath.Join(dir, "turnmail.db")
	imapAddr, smtpAddr := freeAddr(t), freeAddr(t)
	c, err := crashConfig(db, imapAddr, smtpAddr)
	if err != nil {
		t.Fatal(err)
	}
	players := []string{"alice", "bob", "carol"}
	domain := c.Embedded.Domain

	// Create the game before the first daemon starts.
	ctx := context.Background()
	st, err := daemon.OpenStore(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := daemon.NewService(ctx, c, st, daemon.Options{Games: testRegistry(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ng := service.NewGame{Kind: "tally"}
	for _, p := range players {
		ng.Players = append(ng.Players, engine.Player{Name: p, Email: p + "@" + domain})
	}
	gameID, err := svc.CreateGame(ctx, ng)
	if err != nil {
		t.Fatal(err)
	}
	l, err := svc.Load(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	replyTo := map[string]string{}
	for _, p := range l.Seats() {
		replyTo[p.Name] = svc.ReplyAddress(gameID, p.Seat)
	}
	st.Close()

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		child *exec.Cmd
		kills int
	)
	start := func() {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+db, "TURNMAIL_E2E_IMAP="+imapAddr, "TURNMAIL_E2E_SMTP="+smtpAddr)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Error(err)
			return
		}
		child = cmd
	}
	mu.Lock()
	start()
	mu.Unlock()

	// The killer: SIGKILL at random moments once the daemon accepts mail, restart at
	// once. (Counted from when it listens, not from its start: on a loaded machine a
	// start can take longer than the moments drawn, and no move would get through.)
	rng := rand.New(rand.NewPCG(1, 2))
	stopKiller := make(chan struct{})
	killerDone := make(chan struct{})
	go func() {
		defer close(killerDone)
		for {
			for !listening(smtpAddr) {
				select {
				case <-stopKiller:
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
			select {
			case <-stopKiller:
				return
			case <-time.After(time.Duration(40+rng.IntN(160)) * time.Millisecond):
			}
			mu.Lock()
			_ = child.Process.Kill()
			_ = child.Wait()
			kills++
			start()
			mu.Unlock()
		}
	}()

	// The burst: every move is sent until the server accepts it.
	expected := map[string]int{}
	sent := map[string]bool{}
	for i := 0; i < moves; i++ {
		p := players[i%len(players)]
		n := 1 + i%9
		expected[p] += n
		id := fmt.Sprintf("crash-%d@client.example", i)
		sent[id] = true
		msg := fmt.Sprintf("From: %s@%s\r\nTo: %s\r\nSubject: move\r\nMessage-ID: <%s>\r\n\r\nadd %d\r\n", p, domain, replyTo[p], id, n)
		deadline := time.Now().Add(waitLimit)
		for {
			err := sendPlain(smtpAddr, p+"@"+domain, []string{replyTo[p]}, strings.NewReader(msg))
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("move %d never accepted: %v", i, err)
			}
			time.Sleep(30 * time.Millisecond)
		}
		time.Sleep(time.Duration(5+i%20) * time.Millisecond) // spread the burst over the kills
	}
	close(stopKiller)
	<-killerDone
	t.Logf("daemon killed %d times during the burst", kills)
	if kills < 3 {
		t.Fatalf("the daemon was killed only %d times; the burst was too short to test anything", kills)
	}

	// Let the last daemon finish the work, then stop it cleanly.
	st, err = daemon.OpenStore(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	deadline := time.Now().Add(waitLimit)
	for {
		n, _ := st.LastSeq(ctx, gameID)
		pending := pendingMails(t, st)
		if n >= moves && pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the burst: %d events (want %d), %d mails pending", n, moves, pending)
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	_ = child.Process.Signal(syscall.SIGTERM)
	_ = child.Wait()
	mu.Unlock()

	events, err := st.Events(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range events {
		seen[e.MessageID]++
	}
	for id := range sent {
		if seen[id] != 1 {
			t.Errorf("move %s applied %d times, want once", id, seen[id])
		}
	}
	if len(events) != moves {
		t.Errorf("%d events, want %d", len(events), moves)
	}

	// Every player's last mail shows the final state.
	final := testgame.State{Names: players, Scores: expected, Moves: moves}
	for _, p := range players {
		body := lastMailBody(t, st, p+"@"+domain)
		for _, want := range final.Summary() {
			if !strings.Contains(body, want) {
				t.Errorf("%s's last mail lacks %q:\n%s", p, want, body)
			}
		}
	}
}

// lastMailBody returns the text of the last mail sent to addr, from the outbox (the
// record of what the sender delivered).
func lastMailBody(t *testing.T, st *store.Store, addr string) string {
	t.Helper()
	mails, err := st.Outbox(context.Background(), "", "sent")
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(mails, func(i, j int) bool { return mails[i].ID < mails[j].ID })
	for i := len(mails) - 1; i >= 0; i-- {
		if len(mails[i].To) == 1 && mails[i].To[0] == addr {
			m, err := parse.Parse(mails[i].Raw, nil)
			if err != nil {
				t.Fatal(err)
			}
			return m.Body
		}
	}
	t.Fatalf("no mail was sent to %s", addr)
	return ""
}
