package page

import (
	"io"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
)

func BenchmarkPage(b *testing.B) {
	tr, _ := i18n.Load()
	w, _ := New(tr)
	reg := games.Registry()
	for _, kind := range []string{"dungeoneer", "smallworld"} {
		a, _ := selfplay.Play(reg[kind], selfplay.Config{Seed: 2}, func(selfplay.Step) error { return nil })
		rec, err := FromArchive(reg, a)
		if err != nil {
			b.Fatal(err)
		}
		r, _ := Build(rec, Reader{Viewer: engine.Observer}, tr)
		b.Run(kind, func(b *testing.B) {
			b.Logf("%d events", len(a.Events))
			for i := 0; i < b.N; i++ {
				if err := w.Page(io.Discard, r, len(r.Steps())/2); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
