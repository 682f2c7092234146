package draw

import (
	"os"
	"slices"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene/raster"
)

// TestPictureSizes reports the sizes of the pictures of self-played games per engine
// (every 10th state, as the first player sees it): smallest, median, largest. It runs
// with TURNMAIL_PICTURE_SIZES=1 (docs/benchmarks.md has the figures).
func TestPictureSizes(t *testing.T) {
	if os.Getenv("TURNMAIL_PICTURE_SIZES") != "1" {
		t.Skip("TURNMAIL_PICTURE_SIZES=1 reports the pictures' sizes")
	}
	sizes := map[string][]int{}
	playGames(t, 2, func(t *testing.T, kind string, s selfplay.Step, players []engine.Player) {
		if s.N%10 != 0 && !s.State.Finished() {
			return
		}
		sc, err := Scene(Input{View: s.State.View(players[0].Name), Changed: []string{"1", "2", "3"}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := raster.PNG(sc)
		if err != nil {
			t.Fatal(err)
		}
		sizes[kind] = append(sizes[kind], len(b))
	})
	for kind, l := range sizes {
		slices.Sort(l)
		t.Logf("%-12s %4d pictures: %6d / %6d / %6d bytes (smallest / median / largest)", kind, len(l), l[0], l[len(l)/2], l[len(l)-1])
	}
}
