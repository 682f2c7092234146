package draw

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/engine/smallworld"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/raster"
)

// TestPlaces_labelsClear: on every Small World family board, no two regions'
// numbers, markers (the widest shape, with a two-digit count), rows of symbols and
// rooms for a piece's badge overlap at the size they are drawn (the numbers measured
// in the font); each region's number and marker stand in the region (their centres
// inside it), its row of symbols too, and its room for a piece in it or next to it.
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
					pb := pl.pieceBox() // a badge's room, as wide as two letters
					all = append(all, owned{r.ID, box{pb.x0 + 1, pb.y0 + 1, pb.x1 - 1, pb.y1 - 1}})
					rings := make([][]scene.Point, len(r.Rings))
					for k, ring := range r.Rings {
						rings[k] = f.ring(ring)
					}
					for _, c := range []scene.Point{pl.num, pl.c} {
						if scene.SignedDistance(c, rings) < 0 {
							t.Errorf("region %d: its number or marker stands outside it (%v)", r.ID, c)
						}
					}
					// Its row of symbols, and a piece after it, stand in it.
					// Its row of symbols stands in it; the room of a piece's badge has its
					// middle in it, or on the most cramped boards (Underground's bottom
					// row) at most 8 px out of it.
					if n := symbols[r.ID]; n > 0 {
						row := rowBox(pl.rowX, pl.rowY, n)
						for _, c := range row.corners() {
							if d := scene.SignedDistance(c, rings); d < -4 {
								t.Errorf("region %d: its row of symbols reaches %.0f px out of it (%s)", r.ID, -d, fmtBox(row))
							}
						}
					}
					if d := scene.SignedDistance(scene.Point{X: (pb.x0 + pb.x1) / 2, Y: (pb.y0 + pb.y1) / 2}, rings); d < -8 {
						t.Errorf("region %d: the room of a piece has its middle %.0f px out of it (%s)", r.ID, -d, fmtBox(pb))
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

// BenchmarkPlaces places the labels of each Small World family board once (what a
// board's first picture in a process costs before its layer is drawn), without the
// cache; it also checks the places match those the cache keeps.
func BenchmarkPlaces(b *testing.B) {
	for _, tc := range []struct {
		kind    string
		players int
	}{{"smallworld", 5}, {"underground", 5}, {"necromancer", 4}} {
		var v *smallworld.View
		_, err := selfplay.Play(games.Registry()[tc.kind], selfplay.Config{Seed: 1, Players: tc.players}, func(s selfplay.Step) error {
			v = s.State.View("").(*smallworld.View)
			return errStop
		})
		if err != nil && err != errStop {
			b.Fatal(err)
		}
		b.Run(v.Map, func(b *testing.B) {
			board, f := boardOf(b, v)
			symbols := map[int]int{}
			for _, r := range v.Regions {
				symbols[r.ID] = len(r.Symbols)
			}
			count := func(id int) int { return symbols[id] }
			cpu := cpuTime()
			for b.Loop() {
				computePlaces(board, f, count)
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestEdgeField: an edgeField answers as scene.SignedDistance does, for points inside
// every region of a board, near its edges and far outside it, above and below it.
func TestEdgeField(t *testing.T) {
	var v *smallworld.View
	_, err := selfplay.Play(games.Registry()["underground"], selfplay.Config{Seed: 1, Players: 5}, func(s selfplay.Step) error {
		v = s.State.View("").(*smallworld.View)
		return errStop
	})
	if err != nil && err != errStop {
		t.Fatal(err)
	}
	board, f := boardOf(t, v)
	far, near := 0, 0
	for _, r := range board.Regions {
		rings := make([][]scene.Point, len(r.Rings))
		for k, ring := range r.Rings {
			rings[k] = f.ring(ring)
		}
		field := newEdgeField(box{}, rings, 1.5)
		label := f.at(r.Label)
		for dy := -90.0; dy <= 90; dy += 3.1 {
			for dx := -90.0; dx <= 90; dx += 3.1 {
				p := scene.Point{X: label.X + dx, Y: label.Y + dy}
				want := scene.SignedDistance(p, rings)
				got, isFar := field.distance(p)
				switch {
				case isFar && want < 1.5:
					t.Fatalf("region %d, %v: far, but SignedDistance is %g", r.ID, p, want)
				case isFar:
					far++
				case got != want:
					t.Fatalf("region %d, %v: distance %g, SignedDistance %g", r.ID, p, got, want)
				default:
					near++
				}
			}
		}
	}
	if far == 0 || near == 0 {
		t.Errorf("%d points far inside, %d others: want both", far, near)
	}
}

// TestSmallWorld_everyPieceInTheLegend: every piece's badge on a Small World family
// board (its code, with a count after it) is explained in the legend, also a piece
// named as a symbol (Underground's Volcano), at every 20th state of self-played games.
func TestSmallWorld_everyPieceInTheLegend(t *testing.T) {
	badges := 0
	for _, tc := range []struct {
		kind    string
		players int
	}{{"smallworld", 4}, {"underground", 3}, {"underground", 5}, {"necromancer", 4}} {
		_, err := selfplay.Play(games.Registry()[tc.kind], selfplay.Config{Seed: 5, Players: tc.players}, func(s selfplay.Step) error {
			if s.N%20 != 0 {
				return nil
			}
			sc, err := Scene(Input{View: s.State.View(selfplay.Seats(tc.players)[0].Name)})
			if err != nil {
				return err
			}
			bottom := 0.0 // the board's
			for _, it := range sc.Items[:sc.Static] {
				if _, ok := it.(*scene.Polygon); ok {
					_, hi := it.Bounds()
					bottom = max(bottom, hi.Y)
				}
			}
			var onBoard []string
			inLegend := map[string]bool{}
			for _, it := range sc.Items {
				if txt, ok := it.(*scene.Text); ok && txt.Size == sizeBadge && txt.Bold && txt.HaloWidth == 0 {
					if txt.At.Y < bottom {
						onBoard = append(onBoard, txt.Text)
					} else {
						inLegend[txt.Text] = true
					}
				}
			}
			for _, b := range onBoard {
				badges++
				if !inLegend[strings.TrimRight(b, "0123456789")] && !inLegend[b] {
					t.Errorf("%s, after command %d: the badge %q is not in the legend (%v)", tc.kind, s.N, b, inLegend)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if badges == 0 {
		t.Fatal("no badge on any board: the test checks nothing")
	}
}

// TestShortCodes: a piece's code is unique among the pieces shown, at most two
// letters (a badge's room), by the rules shortCodes names.
func TestShortCodes(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  []string
	}{
		{[]string{"Balrog", "Great Ancient", "Stinky Troll's Socks", "Sword of the Killer Rabbit", "Wickedest Pentacle"}, []string{"B", "G", "ST", "SK", "W"}},
		{[]string{"Calzini di Troll", "Corazza di fungo", "Cripta della cacciatrice di tesori"}, []string{"CT", "CF", "Cr"}},
		{[]string{"Fonte della giovinezza", "Fortezza ancestrale"}, []string{"FG", "FA"}},
		{[]string{"Magic Spring", "Magic Portal"}, []string{"MS", "MP"}},
		{[]string{"Orb", "Orb"}, []string{"O1", "O2"}},
	} {
		keys := make([]string, len(tc.names))
		for i := range keys {
			keys[i] = strconv.Itoa(i)
		}
		codes := shortCodes(keys, func(k string) string { i, _ := strconv.Atoi(k); return tc.names[i] })
		for i, k := range keys {
			if codes[k] != tc.want[i] {
				t.Errorf("%q among %q: code %q, want %q", tc.names[i], tc.names, codes[k], tc.want[i])
			}
			if letters := strings.TrimRight(codes[k], "0123456789"); len([]rune(letters)) > 2 {
				t.Errorf("%q: code %q, more than two letters", tc.names[i], codes[k])
			}
		}
	}
}
