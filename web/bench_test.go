package web_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/cputime"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
	"github.com/turnmail/turnmail/web"
)

// BenchmarkPage serves the public page of a long game, imported into a SQLite store,
// through the service, as a browser asks for it: the first 700 events of a
// self-played two-player game of Dungeoneer, and the first 150 of a self-played
// five-player game of Small World (the largest board):
//
//   - restart: nothing kept (a new service and a new server, not timed, as after a
//     restart): the game's head and log read from the store and replayed by the
//     service (an imported game has no snapshot: every event), every step's state
//     replayed for the pages, told and the page written;
//   - cold: the pages keep nothing (a new server, not timed, as for a game not shown
//     lately), the service keeps the game's state;
//   - move: the game kept replayed when the next event is committed (not timed): the
//     new event replayed from the kept record, the steps told, the page written
//     (what the first reader after a move waits);
//   - step: the game kept replayed, a step whose page was not written yet;
//   - kept: a page already written (the next reader of the same step).
//
// cpu-ns/op is the processor time per page (of the whole process: the collector's
// included).
func BenchmarkPage(b *testing.B) {
	for _, g := range []struct {
		name, kind string
		players    int
		events     int
	}{{"dungeoneer-700", "dungeoneer", 2, 700}, {"smallworld-5p-150", "smallworld", 5, 150}} {
		b.Run(g.name, func(b *testing.B) {
			a, err := selfplay.Play(games.Registry()[g.kind], selfplay.Config{Seed: 2, Players: g.players}, func(selfplay.Step) error { return nil })
			if err != nil {
				b.Fatal(err)
			}
			if len(a.Events) < g.events {
				b.Fatalf("the game has %d events", len(a.Events))
			}
			benchmarkPage(b, a, g.events)
		})
	}
}

func benchmarkPage(b *testing.B, a *engine.Archive, events int) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	tmpl, err := templates.Load()
	if err != nil {
		b.Fatal(err)
	}
	secret := []byte("a benchmark secret, 32 bytes long")
	newService := func() *service.Service {
		svc, err := service.New(st, games.Registry(), tmpl, service.Options{Address: "turnmail@example.org", Secret: secret,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			b.Fatal(err)
		}
		return svc
	}
	svc := newService()
	first := *a
	first.Events = a.Events[:events]
	id, err := svc.Import(ctx, &first)
	if err != nil {
		b.Fatal(err)
	}
	newServer := func(svc *service.Service) *web.Server {
		s, err := web.New(svc, svc.Bundle(), web.Options{Secret: secret, Rate: 1e9, Burst: 1e9})
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	get := func(s *web.Server, path string) {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 200 {
			b.Fatalf("%s: %d", path, rec.Code)
		}
	}
	path := "/g/" + id + "/"
	var s *web.Server
	b.Run("restart", func(b *testing.B) {
		loop(b, func() { s = newServer(newService()) }, func() { get(s, path) })
	})
	b.Run("cold", func(b *testing.B) { loop(b, func() { s = newServer(svc) }, func() { get(s, path) }) })
	b.Run("move", func(b *testing.B) {
		s := newServer(svc)
		get(s, path)
		loop(b, func() {
			seq := events + 1
			if seq > len(a.Events) {
				b.Fatalf("no event left to commit after %d", events)
			}
			e := a.Events[seq-1]
			ev := store.Event{GameID: id, Seq: seq, Kind: e.Kind, Player: e.Player, Command: e.Command, Hash: e.Hash}
			if len(e.Outcomes) > 0 {
				if ev.Outcomes, err = json.Marshal(e.Outcomes); err != nil {
					b.Fatal(err)
				}
			}
			if err := st.Commit(ctx, store.Commit{GameID: id, ExpectSeq: seq - 1, Events: []store.Event{ev}}); err != nil {
				b.Fatal(err)
			}
			events++
		}, func() { get(s, path) })
	})
	b.Run("step", func(b *testing.B) {
		s := newServer(svc)
		get(s, path) // the game replayed and kept
		n := 0
		loop(b, func() { n = n%events + 1 }, func() { get(s, path+strconv.Itoa(n)) }) // a step not written yet
	})
	b.Run("kept", func(b *testing.B) {
		s := newServer(svc)
		get(s, path)
		loop(b, func() {}, func() { get(s, path) })
	})
}

// loop runs op as the benchmark's operation, each time after setup (not timed), and
// reports op's processor time.
func loop(b *testing.B, setup, op func()) {
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		setup()
		b.StartTimer()
		start := cputime.Used()
		op()
		cpu += cputime.Used() - start
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}
