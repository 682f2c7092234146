package compose

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkBuild_picture builds a state mail's shape: text, HTML and a 60 KB
// picture, with the picture's base64 encoded by Build (fresh) or given encoded
// (kept, as the service does for a picture that several readers get).
func BenchmarkBuild_picture(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	png := make([]byte, 60_000)
	for i := range png {
		png[i] = byte(r.IntN(256))
	}
	text := strings.Repeat("Tocca a te — entro sab 28 nov 21:00 CET. bob ha conquistato la regione 4.\n", 45)
	html := "<p>" + strings.Repeat("Tocca a te — <b>entro</b> sab 28 nov 21:00 CET.<br>", 120) + "</p>"
	m := Mail{From: Address{Address: "turnmail@example.org"}, To: []Address{{Address: "alice@example.org"}}, Subject: "[sw-1] Small World",
		MessageID: "<a.1@example.org>", Text: text, HTML: html,
		Inline: []Inline{{ContentID: "board.1@example.org", Name: "board.png", ContentType: "image/png", Data: png}}}
	for _, tt := range []struct {
		name string
		kept bool
	}{{"fresh", false}, {"kept", true}} {
		b.Run(tt.name, func(b *testing.B) {
			m := m
			m.Inline = []Inline{m.Inline[0]}
			if tt.kept {
				m.Inline[0].Encoded = Base64Lines(png)
			}
			b.ReportAllocs()
			for range b.N {
				if _, err := Build(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
