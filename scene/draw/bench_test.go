package draw

import (
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
// scene, the PNG.
func BenchmarkPicture(b *testing.B) {
	for _, tc := range []struct {
		kind    string
		players int
	}{{"smallworld", 5}, {"underground", 5}, {"necromancer", 4}, {"empire", 4}, {"dungeoneer", 4}} {
		b.Run(tc.kind, func(b *testing.B) {
			st, viewer := benchState(b, tc.kind, tc.players, 80)
			size := 0
			for b.Loop() {
				sc, err := Scene(Input{View: st.View(viewer), Changed: []string{"1", "5", "9"}})
				if err != nil {
					b.Fatal(err)
				}
				png, err := raster.PNG(sc)
				if err != nil {
					b.Fatal(err)
				}
				size = len(png)
			}
			b.ReportMetric(float64(size), "bytes")
		})
	}
}
