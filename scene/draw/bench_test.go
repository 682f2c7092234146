package draw

import (
	"syscall"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene/raster"
)

// benchState returns the state of a self-played game of kind after n commands (or
// its end), with its first seat.
func benchState(b testing.TB, kind string, players, n int) (engine.State, string) {
	b.Helper()
	g := games.Registry()[kind]
	cfg := selfplay.Config{Seed: 7, Players: players}
	var last engine.State
	_, err := selfplay.Play(g, cfg, func(s selfplay.Step) error {
		last = s.State
		if s.N == n {
			return errStop
		}
		return nil
	})
	if err != nil && err != errStop {
		b.Fatal(err)
	}
	return last, selfplay.Seats(players)[0].Name
}

// BenchmarkPicture draws and encodes one state mail's picture per game: the view, the
// scene, the PNG; cold (every picture drawn whole) and with the board's static layer
// kept from an earlier picture of the same board (raster.Cache, as the service does).
func BenchmarkPicture(b *testing.B) {
	for _, tc := range []struct {
		kind    string
		players int
	}{{"smallworld", 5}, {"underground", 5}, {"necromancer", 4}, {"empire", 4}, {"dungeoneer", 4}} {
		st, viewer := benchState(b, tc.kind, tc.players, 80)
		for _, mode := range []string{"cold", "board-kept"} {
			b.Run(tc.kind+"/"+mode, func(b *testing.B) {
				var cache *raster.Cache // cold: every picture drawn whole
				if mode == "board-kept" {
					cache = &raster.Cache{} // the board's static layer drawn once
				}
				size := 0
				cpu := cpuTime()
				for b.Loop() {
					sc, err := Scene(Input{View: st.View(viewer), Changed: []string{"1", "5", "9"}})
					if err != nil {
						b.Fatal(err)
					}
					png, err := cache.PNG(sc)
					if err != nil {
						b.Fatal(err)
					}
					size = len(png)
				}
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(size), "bytes")
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
