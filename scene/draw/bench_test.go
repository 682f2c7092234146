package draw

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"syscall"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/engine/smallworld"
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

// BenchmarkPicture draws and encodes one state mail's picture per game: the view,
// the scene, the PNG; drawn whole without a cache (whole: what raster.PNG and the
// command line do), as a board's first picture (first: a new raster.Cache each time,
// which draws and compresses the board's layer), and again over a cache that has
// drawn it (again: another reader of the same board, every band kept). What a game's
// pictures cost, one after the other, is BenchmarkPictureGame's.
func BenchmarkPicture(b *testing.B) {
	for _, tc := range []struct {
		kind    string
		players int
	}{{"smallworld", 5}, {"underground", 5}, {"necromancer", 4}, {"empire", 4}, {"dungeoneer", 4}} {
		st, viewer := benchState(b, tc.kind, tc.players, 80)
		for _, mode := range []string{"whole", "first", "again"} {
			b.Run(tc.kind+"/"+mode, func(b *testing.B) {
				var cache *raster.Cache // whole: nothing kept
				if mode == "again" {
					cache = &raster.Cache{}
					sc, err := Scene(Input{View: st.View(viewer), Changed: []string{"1", "5", "9"}})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := cache.PNG(sc); err != nil {
						b.Fatal(err)
					}
				}
				size := 0
				cpu := cpuTime()
				for b.Loop() {
					if mode == "first" {
						cache = &raster.Cache{}
					}
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

// gameMail is one picture of a played game: the view it is drawn from, for one
// reader, and the regions changed since that reader's last picture.
type gameMail struct {
	view    any
	changed []string
}

// gameMails plays a self-played game of kind with players seats (at most max
// commands) and returns the pictures its players get, as the service mails them: the
// player who moved after each command, every player when the players to act change.
func gameMails(b testing.TB, kind string, players, max int) []gameMail {
	b.Helper()
	g := games.Registry()[kind]
	seats := selfplay.Seats(players)
	seen := map[string]any{} // each reader's view in their last picture
	var mails []gameMail
	var toAct []string
	mail := func(st engine.State, reader string) {
		v := st.View(reader)
		mails = append(mails, gameMail{view: v, changed: changedRegions(seen[reader], v)})
		seen[reader] = v
	}
	_, err := selfplay.Play(g, selfplay.Config{Seed: 11, Players: players, MaxSteps: 1 << 20}, func(s selfplay.Step) error {
		if s.N == 0 {
			toAct = s.State.ToAct()
			for _, p := range seats {
				mail(s.State, p.Name)
			}
			return nil
		}
		mail(s.State, s.Player)
		if now := s.State.ToAct(); !slices.Equal(now, toAct) {
			toAct = now
			for _, p := range seats {
				if p.Name != s.Player {
					mail(s.State, p.Name)
				}
			}
		}
		if s.N == max {
			return errStop
		}
		return nil
	})
	if err != nil && err != errStop {
		b.Fatal(err)
	}
	return mails
}

// changedRegions returns the ids of the regions of a Small World family view that
// differ from those of old (nil for other views, or without an old view).
func changedRegions(old, now any) []string {
	o, ok1 := old.(*smallworld.View)
	n, ok2 := now.(*smallworld.View)
	if !ok1 || !ok2 {
		return nil
	}
	before := map[int]smallworld.RegionView{}
	for _, r := range o.Regions {
		before[r.ID] = r
	}
	var out []string
	for _, r := range n.Regions {
		if !reflect.DeepEqual(before[r.ID], r) {
			out = append(out, strconv.Itoa(r.ID))
		}
	}
	return out
}

// BenchmarkPictureGame draws every picture the players of a self-played game get
// (the first 150 commands), as the service does: one Cache for the game, its board's
// layer drawn at the first picture. It reports the CPU time per picture, the
// largest picture and the number of pictures.
func BenchmarkPictureGame(b *testing.B) {
	for _, tc := range []struct {
		kind    string
		players int
	}{{"smallworld", 5}, {"underground", 5}, {"necromancer", 4}, {"empire", 4}, {"dungeoneer", 4}, {"smallworld", 2}, {"underground", 3}} {
		mails := gameMails(b, tc.kind, tc.players, 150)
		b.Run(fmt.Sprintf("%s-%dp", tc.kind, tc.players), func(b *testing.B) {
			largest, total := 0, 0
			var cache *raster.Cache
			cpu := cpuTime()
			for b.Loop() {
				cache = &raster.Cache{}
				for _, m := range mails {
					sc, err := Scene(Input{View: m.view, Changed: m.changed})
					if err != nil {
						b.Fatal(err)
					}
					png, err := cache.PNG(sc)
					if err != nil {
						b.Fatal(err)
					}
					largest = max(largest, len(png))
					total += len(png)
				}
			}
			n := float64(b.N * len(mails))
			b.ReportMetric(float64(cpuTime()-cpu)/n, "cpu-ns/picture")
			b.ReportMetric(float64(largest), "max-bytes")
			b.ReportMetric(float64(total)/n, "avg-bytes")
			b.ReportMetric(float64(len(mails)), "pictures")
			_, _, drawn := cache.Bands()
			b.ReportMetric(float64(drawn)/float64(len(mails)), "bands-drawn/picture")
		})
	}
}

// BenchmarkScene draws the scene (no picture) of a mid-game view per game.
func BenchmarkScene(b *testing.B) {
	for _, kind := range []string{"smallworld", "empire"} {
		st, viewer := benchState(b, kind, 4, 80)
		v := st.View(viewer)
		b.Run(kind, func(b *testing.B) {
			for b.Loop() {
				if _, err := Scene(Input{View: v, Changed: []string{"3"}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
