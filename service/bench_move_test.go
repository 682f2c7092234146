package service

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/cputime"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/store"
)

// BenchmarkMove measures the processing of one move mail (read, authenticate, apply,
// render and commit the state mails) in games that have 10 and 700 events: the work
// per mail must not grow with the game. Each iteration mails a move to one of
// moveGames games in turn (the game to play in, its state kept between mails as in a
// running service), so that the games grow by only a few events during the run; run
// it with a fixed count, e.g. -benchtime 200x.
func BenchmarkMove(b *testing.B) {
	outer := b
	reg := games.Registry()
	reg["tally"] = testgame.Tally{}
	for _, kind := range []string{"tally", "dungeoneer"} {
		for _, events := range []int{10, 700} {
			var svc *Service
			var ids []string
			b.Run(fmt.Sprintf("%s/events=%d", kind, events), func(b *testing.B) {
				if svc == nil { // once: a sub-benchmark runs several times, the store lasts
					svc, ids = moveGames(b, newKeptFixture(outer, reg), kind, events)
				}
				if len(ids) < moveGamesN {
					b.Skipf("fewer than %d games of %s last %d events", moveGamesN, kind, events)
				}
				benchMove(b, svc, ids)
			})
		}
	}
}

// moveGamesN is the number of games BenchmarkMove plays in turn.
const moveGamesN = 8

// moveGames makes a service on f's store with moveGamesN games of kind at their
// event events.
func moveGames(b *testing.B, f *keptFixture, kind string, events int) (*Service, []string) {
	svc := f.service(Options{})
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	var ids []string
	for seed := int64(1); len(ids) < moveGamesN && seed < 100; seed++ {
		ng := NewGame{Kind: kind, Players: selfplay.Seats(2), Seed: seed}
		if kind == "tally" {
			ng.Options = map[string]json.RawMessage{"turns": json.RawMessage("true")}
		}
		id, err := svc.CreateGame(ctx, ng)
		if err != nil {
			b.Fatal(err)
		}
		if benchPlayTo(b, svc, id, events, r) {
			ids = append(ids, id)
		}
	}
	return svc, ids
}

// benchMove mails b.N moves to the games ids in turn.
func benchMove(b *testing.B, svc *Service, ids []string) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	live := slices.Clone(ids) // the games not over yet
	move := func(i int, cpu *time.Duration) {
		var l *Loaded
		for l == nil {
			if len(live) == 0 {
				b.Fatalf("every game is over after %d moves", i)
			}
			id := live[i%len(live)]
			got, err := svc.Load(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			if got.State.Finished() || len(got.State.ToAct()) == 0 {
				live = slices.DeleteFunc(live, func(x string) bool { return x == id })
				continue
			}
			l = got
		}
		id := l.Game.ID
		who := l.State.ToAct()[0]
		cmd := benchCommand(l.State, who, r)
		p, _ := l.playerByName(who)
		// A Message-ID of its own in every run of the benchmark (-count): a repeated
		// one would be answered as a mail seen already, not applied.
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: <bench%d.%d.%s@client.example>\r\n\r\n%s\r\n", p.Email, svc.replyAddr(id, p), time.Now().UnixNano(), i, id, cmd)
		b.StartTimer()
		used := cputime.Used()
		res, err := svc.Receive(ctx, store.InboxMsg{Mailbox: "INBOX", Raw: []byte(raw)})
		*cpu += cputime.Used() - used
		b.StopTimer()
		if err != nil || res.Status != StatusApplied || res.Duplicate {
			b.Fatalf("move %q: %+v, %v", cmd, res, err)
		}
	}
	b.StopTimer()
	var warm time.Duration
	for i := range ids { // each game kept, as in a running service
		move(i, &warm)
	}
	replayed := svc.replayed.Load()
	var cpu time.Duration
	b.ResetTimer()
	for i := range b.N {
		move(i, &cpu)
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(svc.replayed.Load()-replayed)/float64(b.N), "replayed/op")
}

// benchPlayTo plays game id to its event n with random legal commands, committed to
// the store as the service commits them, a few at a time with their snapshots but
// without their mails; then each player asks for their state (status), so that the
// next mail tells what happened since as in a game played by mail. It reports whether
// the game is still going on there.
func benchPlayTo(b *testing.B, svc *Service, id string, n int, r *rand.Rand) bool {
	ctx := context.Background()
	for events := 0; events < n; {
		l, err := svc.Load(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		run := svc.newRun(ctx, l, "", "")
		for range min(4, n-events) {
			if run.state.Finished() {
				return false
			}
			who := run.state.ToAct()[0]
			if err := run.apply(who, benchCommand(run.state, who, r)); err != nil {
				b.Fatal(err)
			}
			events++
		}
		run.c.Snapshots = run.snapshot()
		if err := svc.store.Commit(ctx, run.c); err != nil {
			b.Fatal(err)
		}
	}
	l, err := svc.Load(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	if l.State.Finished() {
		return false
	}
	for _, p := range l.Seats() {
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: <status.%s.%s@client.example>\r\n\r\nstatus\r\n", p.Email, svc.replyAddr(id, p), id, p.Name)
		if _, err := svc.Receive(ctx, store.InboxMsg{Mailbox: "INBOX", Raw: []byte(raw)}); err != nil {
			b.Fatal(err)
		}
	}
	return true
}

// benchCommand picks a concrete legal command of who, or their skip command.
func benchCommand(st engine.State, who string, r *rand.Rand) string {
	var cmds []string
	for _, e := range st.Legal(who) {
		if c := selfplay.Fill(e, r); c != "" {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) == 0 {
		if sk, ok := st.(engine.Skipper); ok {
			cmds = sk.SkipCommands(who)
		}
	}
	if len(cmds) == 0 {
		return "pass"
	}
	return engine.Normalize(cmds[r.IntN(len(cmds))])
}
