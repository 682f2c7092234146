package page

import (
	"bytes"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// BenchmarkFile writes the public replay file of a whole self-played five-player
// game of Small World: unbounded, and within a fifth of the default mail size limit
// (as the end-of-game mail attaches it).
func BenchmarkFile(b *testing.B) {
	a, err := selfplay.Play(games.Registry()["smallworld"], selfplay.Config{Seed: 2, Players: 5}, func(selfplay.Step) error { return nil })
	if err != nil {
		b.Fatal(err)
	}
	tr, w := tools(b)
	rec := record(b, a, -1)
	for _, bound := range []struct {
		name string
		max  int
	}{{"unbounded", 0}, {"mail", 512 << 10 / 5}} {
		b.Run(bound.name, func(b *testing.B) {
			var size int
			var form Form
			for b.Loop() {
				r, err := Build(rec, Reader{Viewer: engine.Observer}, tr)
				if err != nil {
					b.Fatal(err)
				}
				var buf bytes.Buffer
				if form, err = w.File(&buf, r, FileOptions{MaxBytes: bound.max}); err != nil {
					b.Fatal(err)
				}
				size = buf.Len()
			}
			b.ReportMetric(float64(size)/1024, "KB")
			b.ReportMetric(float64(len(rec.Events)), "events")
			b.Logf("%+v", form)
		})
	}
}

// BenchmarkBuild builds the public replay of the first 700 events of a self-played
// two-player game of Dungeoneer: every step told in sentences, for one reader.
func BenchmarkBuild(b *testing.B) {
	a, err := selfplay.Play(games.Registry()["dungeoneer"], selfplay.Config{Seed: 2, Players: 2}, func(selfplay.Step) error { return nil })
	if err != nil {
		b.Fatal(err)
	}
	if len(a.Events) < 700 {
		b.Fatalf("the game has %d events", len(a.Events))
	}
	tr, _ := tools(b)
	rec := record(b, a, 700)
	for b.Loop() {
		if _, err := Build(rec, Reader{Viewer: engine.Observer, Lang: i18n.Italian}, tr); err != nil {
			b.Fatal(err)
		}
	}
}
