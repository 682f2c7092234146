package smallworld

import (
	"flag"
	"os"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/archivetest"
	"github.com/turnmail/turnmail/internal/cputime"
)

var update = flag.Bool("update", false, "regenerate testdata/selfplay-5p.json")

const golden5p = "testdata/selfplay-5p.json"

// load5p reads the recorded 5-player self-play game (regenerated with -update).
func load5p(tb testing.TB) *engine.Archive {
	tb.Helper()
	if *update {
		a := selfPlay(tb, 5005, 5, "smallworld-5p", rulesOriginal, false)
		raw, err := a.Marshal()
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(golden5p, raw, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return archivetest.Read(tb, golden5p)
}

// TestRecorded5p replays the stored 5-player game: every recorded hash must match, so
// a rules change that alters a finished game is caught.
func TestRecorded5p(t *testing.T) {
	a := load5p(t)
	s, err := engine.Replay(registry, a, -1)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Finished() || len(s.Winners()) == 0 {
		t.Fatalf("recorded game not finished: winners %v", s.Winners())
	}
}

func BenchmarkReplay5p(b *testing.B) {
	a := load5p(b)
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		if _, err := engine.Replay(registry, a, -1); err != nil {
			b.Fatal(err)
		}
	}
	cputime.Report(b, cpu)
	b.ReportMetric(float64(len(a.Events)), "events")
}

func BenchmarkLegal(b *testing.B) {
	benchLegal(b, registry, load5p(b))
}

// benchLegal measures Legal on the mid-game states of archive a (turns 3 to 6,
// someone to act).
func benchLegal(b *testing.B, reg engine.Registry, a *engine.Archive) {
	b.Helper()
	states, err := engine.ReplayAll(reg, a, -1)
	if err != nil {
		b.Fatal(err)
	}
	var mid []engine.State
	for _, s := range states {
		if s.Turn() >= 3 && s.Turn() <= 6 && len(s.ToAct()) > 0 {
			mid = append(mid, s)
		}
	}
	if len(mid) == 0 {
		b.Fatal("no mid-game state")
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s := mid[i%len(mid)]
		_ = s.Legal(s.ToAct()[0])
		i++
	}
}

// underground5p plays a 5-player game of Small World Underground (the registered
// variant: its own races and powers, the 5-player board with its monsters and
// volcanoes placed at setup), for the Underground benchmarks.
func underground5p(b *testing.B) (*engine.Archive, engine.Registry) {
	b.Helper()
	a := selfPlayGame(b, Underground{}, 5005, 5, nil, currentRules, false)
	return a, engine.Registry{"underground": Underground{}}
}

func BenchmarkUndergroundReplay5p(b *testing.B) {
	a, reg := underground5p(b)
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		if _, err := engine.Replay(reg, a, -1); err != nil {
			b.Fatal(err)
		}
	}
	cputime.Report(b, cpu)
	b.ReportMetric(float64(len(a.Events)), "events")
}

func BenchmarkUndergroundLegal(b *testing.B) {
	a, reg := underground5p(b)
	benchLegal(b, reg, a)
}
