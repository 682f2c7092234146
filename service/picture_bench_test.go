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
				l.Events, l.States = append(l.Events, e), append(l.States, s.State)
			} else {
				l.States = []engine.State{s.State}
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
					m, err := svc.stateMail(l, state, seat, events, nil, nil, nil, "")
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
