package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
	"github.com/turnmail/turnmail/web"
)

// BenchmarkPage serves the public page of a long game, imported into a SQLite store,
// through the service, as a browser asks for it: a 700-event game of Dungeoneer (the
// first 700 events of a self-played two-player game) and a whole self-played
// five-player game of Small World (the largest board):
//
//   - cold: nothing kept (a new server each time, as after an event): the game's head
//     and log read from the store, replayed, and the page written;
//   - step: the game kept replayed, a step whose page was not written yet;
//   - kept: a page already written (the next reader of the same step).
func BenchmarkPage(b *testing.B) {
	for _, g := range []struct {
		name, kind string
		players    int
		events     int
	}{{"dungeoneer-700", "dungeoneer", 2, 700}, {"smallworld-5p", "smallworld", 5, 0}} {
		b.Run(g.name, func(b *testing.B) {
			a, err := selfplay.Play(games.Registry()[g.kind], selfplay.Config{Seed: 2, Players: g.players}, func(selfplay.Step) error { return nil })
			if err != nil {
				b.Fatal(err)
			}
			if g.events > 0 {
				if len(a.Events) < g.events {
					b.Fatalf("the game has %d events", len(a.Events))
				}
				a.Events = a.Events[:g.events]
			}
			benchmarkPage(b, a)
		})
	}
}

func benchmarkPage(b *testing.B, a *engine.Archive) {
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
	svc, err := service.New(st, games.Registry(), tmpl, service.Options{Address: "turnmail@example.org", Secret: secret,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	id, err := svc.Import(ctx, a)
	if err != nil {
		b.Fatal(err)
	}
	newServer := func() *web.Server {
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
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			get(newServer(), path)
		}
	})
	b.Run("step", func(b *testing.B) {
		s := newServer()
		get(s, path) // the game replayed and kept
		n := 0
		for b.Loop() {
			n = n%len(a.Events) + 1 // a step not written yet
			get(s, path+strconv.Itoa(n))
		}
	})
	b.Run("kept", func(b *testing.B) {
		s := newServer()
		get(s, path)
		for b.Loop() {
			get(s, path)
		}
	})
}
