package service

import (
	"errors"
	"syscall"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/store"
)

// BenchmarkStateMail renders one seat's state mail of a mid-game state per game: as
// it was before pictures (none), with its picture drawn (every board new: the cache
// emptied each time), and with its picture from the cache (another reader of the same
// board). docs/benchmarks.md has the figures.
func BenchmarkStateMail(b *testing.B) {
	stop := errors.New("stop")
	for _, tc := range []struct {
		kind    string
		players int
	}{{"smallworld", 5}, {"underground", 5}, {"necromancer", 4}, {"empire", 4}, {"dungeoneer", 4}} {
		cfg := selfplay.Config{Seed: 7, Players: tc.players}
		l := renderLoaded(tc.kind, cfg)
		var state engine.State
		_, err := selfplay.Play(games.Registry()[tc.kind], cfg, func(s selfplay.Step) error {
			state = s.State
			if s.N > 0 {
				e := store.Event{Seq: s.N, Kind: engine.KindMove, Player: s.Player, Command: s.Command}
				l.Events = append(l.Events, e)
				l.hist.events = append(l.hist.events, engine.Event{Player: s.Player, Command: s.Command})
				l.hist.known[s.N] = s.State
			} else {
				l.hist = &history{gameID: l.Game.ID, known: map[int]engine.State{0: s.State}}
			}
			if s.N == 80 {
				return stop
			}
			return nil
		})
		if err != nil && !errors.Is(err, stop) {
			b.Fatal(err)
		}
		l.State = state
		svc := newRenderService(b)
		seat := l.Seats()[0]
		events := l.Events[len(l.Events)-1:]
		for _, mode := range []string{"none", "drawn", "cached"} {
			b.Run(tc.kind+"/"+mode, func(b *testing.B) {
				svc.opts.NoPictures = mode == "none"
				size := 0
				cpu := cpuTime()
				for b.Loop() {
					if mode == "drawn" {
						svc.pictures = pictureCache{}
					}
					m, err := svc.stateMail(l, state, seat, events, reply{})
					if err != nil {
						b.Fatal(err)
					}
					size = len(m.Raw)
				}
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(size), "mail-bytes")
			})
		}
	}
}

// cpuTime is the CPU time the process has used (user and system), in nanoseconds: a
// benchmark's figure that other jobs on a shared machine do not inflate.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkStateMailGame renders the state mails of the first 150 commands of a
// self-played game of each kind, as the service sends them after each move (the
// mover's answer, every seat's mail when the turn ends), without pictures (none)
// and with them (drawn through the service's board cache, from an empty cache at the
// game's start). It reports the CPU time per mail: the pictures' share is the
// difference. docs/benchmarks.md has the figures.
func BenchmarkStateMailGame(b *testing.B) {
	for _, tc := range []struct {
		kind    string
		players int
	}{{"smallworld", 5}, {"underground", 5}, {"necromancer", 4}, {"empire", 4}, {"dungeoneer", 4}} {
		type move struct {
			before, after engine.State
			events        []store.Event
			author        string
		}
		cfg := selfplay.Config{Seed: 7, Players: tc.players}
		var moves []move
		var prev engine.State
		stop := errors.New("stop")
		_, err := selfplay.Play(games.Registry()[tc.kind], cfg, func(s selfplay.Step) error {
			if s.N > 0 {
				moves = append(moves, move{prev, s.State, []store.Event{{Seq: s.N, Kind: engine.KindMove, Player: s.Player, Command: s.Command}}, s.Player})
			}
			prev = s.State
			if s.N == 150 {
				return stop
			}
			return nil
		})
		if err != nil && !errors.Is(err, stop) {
			b.Fatal(err)
		}
		for _, mode := range []string{"none", "pictures"} {
			b.Run(tc.kind+"/"+mode, func(b *testing.B) {
				mails, cpu, bytes := 0, int64(0), 0
				for b.Loop() {
					svc := newRenderService(b)
					svc.opts.NoPictures = mode == "none"
					l := renderLoaded(tc.kind, cfg)
					l.Settings.List = ""
					l.hist = &history{gameID: l.Game.ID, known: map[int]engine.State{0: moves[0].before}}
					c := cpuTime()
					for _, m := range moves {
						l.State = m.after
						l.Events = append(l.Events, m.events...)
						for _, e := range m.events {
							l.hist.events = append(l.hist.events, engine.Event{Player: e.Player, Command: e.Command})
						}
						l.hist.known[len(l.Events)] = m.after
						out, err := svc.stateMails(l, change{before: m.before, after: m.after, events: m.events, author: m.author, reply: reply{inReply: "<move@example.org>"}})
						if err != nil {
							b.Fatal(err)
						}
						mails += len(out)
						for _, o := range out {
							bytes += len(o.Raw)
						}
					}
					cpu += cpuTime() - c
				}
				b.ReportMetric(float64(cpu)/float64(mails), "cpu-ns/mail")
				b.ReportMetric(float64(mails)/float64(b.N), "mails")
				b.ReportMetric(float64(bytes)/float64(mails), "bytes/mail")
			})
		}
	}
}
