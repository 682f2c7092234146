package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// schedFixture is a store of running tally games (turns mode, alice then bob,
// default deadline settings: 24h, reminders 12h and 1h before, skip) and a service
// on a clock the test moves.
type schedFixture struct {
	tb    testing.TB
	game  engine.Game // the tally game, or a variant of it
	st    *store.Store
	svc   *service.Service
	now   time.Time
	games []string
	n     int // mails sent
}

const schedHost = "host@" + domain

func newSchedFixture(tb testing.TB, games int) *schedFixture {
	tb.Helper()
	st, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "t.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	f := &schedFixture{tb: tb, st: st, game: testgame.Tally{}, now: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)}
	f.restart()
	for len(f.games) < games {
		id, err := f.svc.CreateGame(context.Background(), service.NewGame{
			Kind: "tally", Options: map[string]json.RawMessage{"turns": json.RawMessage("true")}, Host: schedHost,
			Players: []engine.Player{{Name: "alice", Email: "alice@" + domain}, {Name: "bob", Email: "bob@" + domain}},
		})
		if errors.Is(err, store.ErrDuplicate) {
			continue // a random id drawn twice (a million per kind): CreateGame leaves the retry to its caller
		}
		if err != nil {
			tb.Fatal(err)
		}
		f.games = append(f.games, id)
	}
	return f
}

// restart replaces the service by a new one on the same store, as a restart of
// the daemon does.
func (f *schedFixture) restart() {
	f.tb.Helper()
	tmpl, err := templates.Load()
	if err != nil {
		f.tb.Fatal(err)
	}
	f.svc, err = service.New(f.st, engine.Registry{"tally": f.game}, tmpl, service.Options{
		Address: "turnmail@" + domain, Secret: []byte("0123456789abcdef0123"), RepliesPerHour: 1000,
		Clock: func() time.Time { return f.now }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		f.tb.Fatal(err)
	}
}

// send mails body from address from to address to and checks it was applied.
func (f *schedFixture) send(from, to, body string) {
	f.tb.Helper()
	f.n++
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: game\r\nMessage-ID: <s%d@client.example>\r\n\r\n%s\n", from, to, f.n, body)
	res, err := f.svc.Receive(context.Background(), store.InboxMsg{Mailbox: "INBOX", Raw: []byte(raw)})
	if err != nil {
		f.tb.Fatal(err)
	}
	if res.Status != service.StatusApplied {
		f.tb.Fatalf("%s: %q: %s (%s)", from, body, res.Status, res.Reason)
	}
}

// move sends a move of alice (seat 0) in game i.
func (f *schedFixture) move(i int, cmd string) {
	f.send("alice@"+domain, f.svc.ReplyAddress(f.games[i], 0), cmd)
}

// host sends a host command about game i to its host reply address, with the
// game's id after the verb.
func (f *schedFixture) host(verb string, i int, args string) {
	f.send(schedHost, f.svc.HostAddress(f.games[i]), verb+" "+f.games[i]+" "+args)
}

// tick runs one scheduler tick and returns the timers it fired and the games it
// looked at.
func (f *schedFixture) tick() (fired int, looks int64) {
	f.tb.Helper()
	before := service.TickLooks(f.svc)
	fired, err := f.svc.Tick(context.Background())
	if err != nil {
		f.tb.Fatal(err)
	}
	return fired, service.TickLooks(f.svc) - before
}

// TestTick_looksOnlyAtDueGames: a tick looks at the games whose next timer is due
// or that changed since the last tick (a move, set, pause, resume, a deadline that
// passed), not the others; the first tick looks at every running game whose due
// time is not known, and a restart at none (unless the deadline rules changed: then
// at every one once); timers fire once, at their time, whatever the clock does.
func TestTick_looksOnlyAtDueGames(t *testing.T) {
	const games = 20 // all begin at t0: deadline t0+24h, reminders t0+12h, t0+23h
	steps := []struct {
		name    string
		advance time.Duration
		do      func(f *schedFixture)
		// wantFired and wantReplays are what the tick after the step fires and the
		// games it looks at.
		wantFired   int
		wantReplays int64
	}{
		{name: "the first tick looks at every running game", wantReplays: games},
		{name: "none due: none looked at"},
		{name: "6h later, none due: none looked at", advance: 6 * time.Hour},
		{name: "a move: only its game (bob's deadline t0+30h)",
			do: func(f *schedFixture) { f.move(0, "add 1") }, wantReplays: 1},
		{name: "set shortens game 1's deadline to t0+8h (reminder t0+7h)",
			do: func(f *schedFixture) { f.host("set", 1, "deadline=8h") }, wantReplays: 1},
		{name: "a paused game is not looked at",
			do: func(f *schedFixture) { f.host("pause", 2, "") }},
		{name: "t0+7h: the shortened deadline's reminder", advance: time.Hour, wantFired: 1, wantReplays: 1},
		{name: "t0+12h: game 1's deadline passed, the 12h reminders of the 17 games untouched",
			advance: 5 * time.Hour, wantFired: 18, wantReplays: 18},
		{name: "the game whose deadline passed is computed again", wantReplays: 1},
		{name: "the clock goes back 2h: nothing is due", advance: -2 * time.Hour},
		{name: "resume: game 2's turn starts again (deadline t0+34h)",
			do: func(f *schedFixture) { f.host("resume", 2, "") }, wantReplays: 1},
		{name: "a restart looks at no game: their due times are stored",
			do: func(f *schedFixture) { f.restart() }},
		{name: "a restart with other deadline rules looks at every running game once and fires nothing twice",
			do: func(f *schedFixture) {
				if err := f.st.SetMeta(context.Background(), "due_rules", "older"); err != nil {
					f.tb.Fatal(err)
				}
				f.restart()
			}, wantReplays: games},
		{name: "after the restart none due: none looked at"},
		{name: "t0+18h: game 0's 12h reminder", advance: 8 * time.Hour, wantFired: 1, wantReplays: 1},
		{name: "t0+19h: game 1's 1h reminder to bob (deadline t0+20h)", advance: time.Hour, wantFired: 1, wantReplays: 1},
		{name: "t0+20h: bob's deadline in game 1 passes", advance: time.Hour, wantFired: 1, wantReplays: 1},
		{name: "t0+21h: only the game whose deadline passed is computed again", advance: time.Hour, wantReplays: 1},
		{name: "t0+22h: the resumed game's 12h reminder", advance: time.Hour, wantFired: 1, wantReplays: 1},
	}
	f := newSchedFixture(t, games)
	for i, st := range steps {
		f.now = f.now.Add(st.advance)
		if st.do != nil {
			st.do(f)
		}
		fired, replays := f.tick()
		if fired != st.wantFired || replays != st.wantReplays {
			t.Errorf("step %d (%s): fired %d and looked at %d games, want %d and %d", i+1, st.name, fired, replays, st.wantFired, st.wantReplays)
		}
	}
}

// skipPanics is the tally game whose SkipCommands panics: an engine defect met
// only when a deadline passes.
type skipPanics struct{ testgame.Tally }

func (g skipPanics) New(setup engine.Setup, rng *engine.Rand) (engine.State, error) {
	s, err := g.Tally.New(setup, rng)
	return skipPanicsState{s}, err
}

type skipPanicsState struct{ engine.State }

func (s skipPanicsState) Apply(player, command string, rng *engine.Rand) (engine.State, error) {
	next, err := s.State.Apply(player, command, rng)
	if err != nil {
		return nil, err
	}
	return skipPanicsState{next}, nil
}

func (skipPanicsState) SkipCommands(string) []string { panic("defect in SkipCommands") }

// TestTick_failingTimerPausesItsGame: a deadline whose firing fails for good (the
// engine panics) pauses that game with a notice to its players and the error to its
// host, instead of failing every minute; the other games' timers still fire, the
// tick does not fail, and resume starts the deadlines again.
func TestTick_failingTimerPausesItsGame(t *testing.T) {
	ctx := context.Background()
	f := newSchedFixture(t, 0)
	f.game = skipPanics{}
	f.restart()
	f.games = nil
	for len(f.games) < 1 { // game 0 panics at its deadline
		id, err := f.svc.CreateGame(ctx, service.NewGame{
			Kind: "tally", Options: map[string]json.RawMessage{"turns": json.RawMessage("true")}, Host: schedHost,
			Players: []engine.Player{{Name: "alice", Email: "alice@" + domain}, {Name: "bob", Email: "bob@" + domain}},
		})
		if err != nil && !errors.Is(err, store.ErrDuplicate) {
			t.Fatal(err)
		}
		if err == nil {
			f.games = append(f.games, id)
		}
	}
	f.tick()
	f.now = f.now.Add(25 * time.Hour)
	f.tick() // the deadline passed: firing it panics
	g, _, err := f.st.Game(ctx, f.games[0])
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != store.GamePaused {
		t.Fatalf("game status %q after its deadline failed, want %q", g.Status, store.GamePaused)
	}
	mails, err := f.st.Outbox(ctx, f.games[0], "")
	if err != nil {
		t.Fatal(err)
	}
	var toHost, toPlayers int
	for _, m := range mails {
		body := string(m.Raw)
		switch {
		case strings.Contains(body, "To: <"+schedHost+">") && strings.Contains(body, "a deadline could not be applied") && strings.Contains(body, "defect in SkipC"):
			toHost++
		case !strings.Contains(body, "To: <"+schedHost+">") && strings.Contains(body, "is paused by the service"):
			toPlayers++
		}
	}
	if toHost != 1 || toPlayers != 2 {
		t.Errorf("%d host notices with the error and %d pause notices to players, want 1 and 2", toHost, toPlayers)
	}
	if fired, replays := f.tick(); fired != 0 || replays != 0 {
		t.Errorf("the tick after the pause fired %d and replayed %d games, want none", fired, replays)
	}
	f.host("resume", 0, "")
	f.now = f.now.Add(12 * time.Hour)
	if fired, _ := f.tick(); fired != 1 {
		t.Errorf("12h after resume %d timers fired, want the 12h reminder", fired)
	}
}

// BenchmarkTick measures a scheduler tick over 1000 running games of which none
// is due: once the first tick computed every game's next due time ("none-due"),
// and the first tick after a start, which replays every game ("after-start", what
// every tick cost before the due times were stored).
func BenchmarkTick(b *testing.B) {
	f := newSchedFixture(b, 1000)
	b.Run("none-due", func(b *testing.B) {
		f.tick()
		before, looks := service.Replays(f.svc), service.TickLooks(f.svc)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if n, _ := f.tick(); n != 0 {
				b.Fatalf("%d timers fired", n)
			}
		}
		b.ReportMetric(float64(service.Replays(f.svc)-before)/float64(b.N), "replays/op")
		b.ReportMetric(float64(service.TickLooks(f.svc)-looks)/float64(b.N), "games/op")
	})
	// after-start is the first tick of a new Service (a restart); after-upgrade the
	// same when the deadline rules changed: every running game looked at once.
	for _, tt := range []struct {
		name    string
		upgrade bool
	}{{"after-start", false}, {"after-upgrade", true}} {
		b.Run(tt.name, func(b *testing.B) {
			var replays, looks int64
			for i := 0; i < b.N; i++ {
				b.StopTimer() // the new service's start (templates, catalogues) is not the tick's
				if tt.upgrade {
					if err := f.st.SetMeta(context.Background(), "due_rules", "older"); err != nil {
						b.Fatal(err)
					}
				}
				f.restart()
				b.StartTimer()
				r := service.Replays(f.svc)
				_, n := f.tick()
				looks, replays = looks+n, replays+service.Replays(f.svc)-r
			}
			b.ReportMetric(float64(replays)/float64(b.N), "replays/op")
			b.ReportMetric(float64(looks)/float64(b.N), "games/op")
		})
	}
}
