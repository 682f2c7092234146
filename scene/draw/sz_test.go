package draw

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/raster"
)

func TestSizes(t *testing.T) {
	st, viewer := benchState(t, "smallworld", 5, 80)
	for _, mode := range []string{"all", "nopattern", "nolinks", "notext", "nooutline", "nomarkers"} {
		sc, _ := Scene(Input{View: st.View(viewer)})
		var keep []scene.Item
		for _, it := range sc.Items {
			switch it := it.(type) {
			case *scene.Polygon:
				if mode == "nopattern" {
					it.Fill.Pattern = 0
				}
				if mode == "nooutline" {
					it.Stroke.Width = 0
				}
				if mode == "nomarkers" && len(it.Rings[0]) < 12 {
					continue
				}
			case *scene.Line:
				if mode == "nolinks" {
					continue
				}
			case *scene.Text:
				if mode == "notext" {
					continue
				}
			}
			keep = append(keep, it)
		}
		sc.Items = keep
		t0 := time.Now()
		img, _ := raster.Draw(sc, 2)
		d := time.Since(t0)
		for _, n := range []int{128, 32} {
			t0 = time.Now()
			q := raster.Quantize(img, n, nil)
			dq := time.Since(t0)
			for _, l := range []png.CompressionLevel{png.BestSpeed, png.DefaultCompression} {
				var buf bytes.Buffer
				t0 = time.Now()
				(&png.Encoder{CompressionLevel: l}).Encode(&buf, q)
				t.Logf("%s %d %d: draw %v quant %v enc %v: %d bytes", mode, n, l, d, dq, time.Since(t0), buf.Len())
			}
		}
	}
}
