package draw

import (
	"bytes"
	"fmt"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/scene/internal/pngtest"
	"github.com/turnmail/turnmail/scene/raster"
)

// TestPicture_cacheDrawsTheSamePixels: the pictures a game's players get, drawn
// through one raster.Cache as the service draws them (the board's layer kept, labels
// and markers kept, bands of earlier pictures reused), decode to the same pixels as
// the same scenes drawn whole without a cache, for every game, in English and
// Italian, at states of self-played games taken at random.
func TestPicture_cacheDrawsTheSamePixels(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(22, 5))
	reg := games.Registry()
	seats := map[string][]int{"smallworld": {2, 5}, "underground": {2, 5}, "necromancer": {3, 6}, "empire": {2, 4}, "dungeoneer": {2, 4}}
	for _, kind := range reg.Names() {
		if seats[kind] == nil {
			t.Errorf("%s: no numbers of players to test", kind)
		}
		for _, players := range seats[kind] {
			t.Run(fmt.Sprintf("%s/%dp", kind, players), func(t *testing.T) {
				mails := gameMails(t, kind, players, 250)
				var cache raster.Cache
				checked := 0
				for i, m := range mails {
					// Every picture goes through the cache (as in a game); a few are checked.
					words := Words(English{})
					if i%2 == 1 {
						words = catalogueWords{tr: tr, lang: i18n.Italian}
					}
					sc, err := Scene(Input{View: m.view, Changed: m.changed, Words: words})
					if err != nil {
						t.Fatal(err)
					}
					b, err := cache.PNG(sc)
					if err != nil {
						t.Fatal(err)
					}
					if rng.IntN(len(mails)) >= 6 && i != len(mails)-1 {
						continue
					}
					want, err := raster.Draw(sc, raster.Scale)
					if err != nil {
						t.Fatal(err)
					}
					got := pngtest.Decode(t, b)
					if got.Rect != want.Rect {
						t.Fatalf("picture %d: %v, drawn whole %v", i, got.Rect, want.Rect)
					}
					if !bytes.Equal(got.Pix, want.Pix) {
						n, at := 0, image.Point{}
						for p := 0; p < len(got.Pix); p += 4 {
							if !bytes.Equal(got.Pix[p:p+4], want.Pix[p:p+4]) {
								if n == 0 {
									at = image.Pt(p/4%got.Rect.Dx(), p/4/got.Rect.Dx())
								}
								n++
							}
						}
						t.Fatalf("picture %d (%d changed regions): %d pixels differ from the whole drawing, the first at %v", i, len(m.changed), n, at)
					}
					checked++
				}
				if checked == 0 {
					t.Fatal("no picture checked")
				}
			})
		}
	}
}
