package draw

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene/raster"
)

// TestLook writes pictures of self-played games to $SCENE_OUT (skipped without it), to
// look at: for each engine and number of players, the state after about `at` commands.
func TestLook(t *testing.T) {
	dir := os.Getenv("SCENE_OUT")
	if dir == "" {
		t.Skip("SCENE_OUT not set")
	}
	reg := games.Registry()
	for _, kind := range reg.Names() {
		g := reg[kind]
		for _, cfg := range selfplay.Configs(g, 7, 4) {
			var last engine.State
			var prev engine.State
			_, err := selfplay.Play(g, cfg, func(s selfplay.Step) error {
				if s.N == 60 {
					prev = last
				}
				last = s.State
				if s.N == 61 {
					return errStop
				}
				return nil
			})
			if err != nil && err != errStop {
				t.Fatal(err)
			}
			_ = prev
			viewer := selfplay.Seats(cfg.Players)[0].Name
			sc, err := Scene(Input{View: last.View(viewer), Changed: []string{"3", "4", "12"}})
			if err != nil {
				t.Errorf("%s: %v", kind, err)
				continue
			}
			b, err := raster.PNG(sc)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, fmt.Sprintf("%s-%dp-%d.png", kind, cfg.Players, cfg.Seed))
			if err := os.WriteFile(name, b, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes, %gx%g", name, len(b), sc.Width, sc.Height)
		}
	}
}

var errStop = fmt.Errorf("stop")
