package draw

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/engine/smallworld"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/raster"
)

// TestPlaces_labelsClear: on every Small World family board, no two regions'
// numbers, markers (the widest shape, with a two-digit count) and rows of symbols
// overlap at the size they are drawn (the numbers measured in the font), and each
// region's number and marker stand in the region (their centres inside it).
func TestPlaces_labelsClear(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range []struct {
		kind    string
		players []int
	}{{"smallworld", []int{2, 3, 4, 5}}, {"underground", []int{2, 3, 4, 5}}, {"necromancer", []int{3, 4, 5, 6}}} {
		for _, n := range tc.players {
			var v *smallworld.View
			_, err := selfplay.Play(games.Registry()[tc.kind], selfplay.Config{Seed: 1, Players: n}, func(s selfplay.Step) error {
				v = s.State.View("").(*smallworld.View)
				return errStop
			})
			if err != nil && err != errStop {
				t.Fatal(err)
			}
			if seen[v.Map] {
				continue
			}
			seen[v.Map] = true
			t.Run(v.Map, func(t *testing.T) {
				board, f := boardOf(t, v)
				symbols := map[int]int{}
				for _, r := range v.Regions {
					symbols[r.ID] = len(r.Symbols)
				}
				places := placeRegions(board, f, func(id int) int { return symbols[id] })
				type owned struct {
					id int
					b  box
				}
				var all []owned
				for _, r := range board.Regions {
					pl := places[r.ID]
					w, err := raster.Measure(&scene.Text{Text: strconv.Itoa(r.ID), Size: sizeNumber, Bold: true})
					if err != nil {
						t.Fatal(err)
					}
					num := around(pl.num, w/2+2.5, sizeNumber*0.36+2.5) // the digits' height and halo
					all = append(all, owned{r.ID, num}, owned{r.ID, markerBox(pl.c, pl.mr)})
					if n := symbols[r.ID]; n > 0 {
						all = append(all, owned{r.ID, rowBox(pl.rowX, pl.rowY, n)})
					}
					rings := make([][]scene.Point, len(r.Rings))
					for k, ring := range r.Rings {
						rings[k] = f.ring(ring)
					}
					for _, c := range []scene.Point{pl.num, pl.c} {
						if signedDistance(c, rings) < 0 {
							t.Errorf("region %d: its number or marker stands outside it (%v)", r.ID, c)
						}
					}
				}
				for i, a := range all {
					for _, b := range all[i+1:] {
						if a.id != b.id && a.b.overlaps(b.b) {
							t.Errorf("regions %d and %d: their labels overlap (%s, %s)", a.id, b.id, fmtBox(a.b), fmtBox(b.b))
						}
					}
				}
			})
		}
	}
}

func fmtBox(b box) string { return fmt.Sprintf("%.0f,%.0f–%.0f,%.0f", b.x0, b.y0, b.x1, b.y1) }
