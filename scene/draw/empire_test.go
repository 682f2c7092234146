package draw

import (
	"testing"

	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene"
)

// TestEmpire_panelsClear: on Eight-Minute Empire pictures of self-played games (2 to
// 4 players, every 5th state), each panel of pieces that did not fit their region
// lies within the board and overlaps no region's number, no other panel and no
// pieces drawn in a region.
func TestEmpire_panelsClear(t *testing.T) {
	panels := 0
	for players := 2; players <= 4; players++ {
		_, err := selfplay.Play(games.Registry()["empire"], selfplay.Config{Seed: 21, Players: players}, func(s selfplay.Step) error {
			if s.N%5 != 0 {
				return nil
			}
			sc, err := Scene(Input{View: s.State.View(selfplay.Seats(players)[0].Name)})
			if err != nil {
				return err
			}
			// The board: its first item, the paper under the faces.
			frame := sc.Items[0].(*scene.Rect)
			board := box{frame.Min.X, frame.Min.Y, frame.Max.X, frame.Max.Y}
			var numbers, pieces, found []box
			for i, it := range sc.Items {
				lo, hi := it.Bounds()
				b := box{lo.X, lo.Y, hi.X, hi.Y}
				switch it := it.(type) {
				case *scene.Text:
					if i < sc.Static && it.HaloWidth > 0 { // a region's number
						numbers = append(numbers, b)
					}
				case *scene.Rect:
					if i >= sc.Static && it.Radius == 5 && hi.Y < board.y1 { // a panel (not a card)
						found = append(found, b)
					}
				case *scene.Line: // a panel's leader
				default:
					if i >= sc.Static && hi.Y < board.y1 && len(found) == 0 {
						pieces = append(pieces, b) // the pieces in their regions come before the panels
					}
				}
			}
			for k, p := range found {
				panels++
				if p.x0 < board.x0 || p.y0 < board.y0 || p.x1 > board.x1 || p.y1 > board.y1 {
					t.Errorf("%d players, after command %d: panel %s leaves the board %s", players, s.N, fmtBox(p), fmtBox(board))
				}
				for _, o := range append(append(append([]box(nil), numbers...), pieces...), found[k+1:]...) {
					if p.overlaps(o) {
						t.Errorf("%d players, after command %d: panel %s overlaps %s", players, s.N, fmtBox(p), fmtBox(o))
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if panels == 0 {
		t.Fatal("no panel drawn: the test checks nothing")
	}
	t.Logf("%d panels", panels)
}
