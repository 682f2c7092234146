package parse

import (
	"strings"
	"testing"
	"time"
)

// hostileBodies are maximum-size inputs shaped to hit every per-line rule; each
// must parse quickly (the extractor is linear in the number of lines).
func hostileBodies() map[string]string {
	fill := func(unit string) string {
		return strings.Repeat(unit, (DefaultMaxSize-200)/len(unit))
	}
	return map[string]string{
		"one long line":       "Subject: x\n\n" + fill("a"),
		"long line with tail": "Subject: x\n\nOn " + fill("1 ") + "wrote:",
		"attribution lines":   "Subject: x\n\n" + fill("On 1 Jan a <b@c.d>\n"),
		"header lines":        "Subject: x\n\n" + fill("From: x@y\n"),
		"header blocks":       "Subject: x\n\nconquer 1\n" + fill("From: a\nb\nc\nd\n"),
		"blank lines":         "Subject: x\n\nwrote:\n" + fill("\n") + ">",
		"quotes and text":     "Subject: x\n\n> a\n" + fill("b\n> On 1 wrote:\n\n"),
		"html nesting":        "Content-Type: text/html\n\n" + fill("<div><blockquote>"),
		"html flat":           "Content-Type: text/html\n\n" + fill("<p>conquer 1<br>"),
		"mime parts":          "Content-Type: multipart/mixed; boundary=b\n\n" + fill("--b\n\nx\n"),
		"nested multipart":    "Content-Type: multipart/mixed; boundary=b\n\n" + fill("--b\nContent-Type: multipart/mixed; boundary=b\n\n"),
		"flowed":              "Content-Type: text/plain; format=flowed\n\n" + fill("> a \n"),
		"qp":                  "Content-Transfer-Encoding: quoted-printable\n\n" + fill("=4=\n"),
		"command lines":       "Subject: x\n\n" + fill("status\n"),
		"commented commands":  "Subject: x\n\n" + fill("add 1 # \u00a0\n"),
	}
}

func TestHostileInputsAreFast(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("timing guard skipped in -short mode and under -race")
	}
	for name, raw := range hostileBodies() {
		start := time.Now()
		if _, err := Parse([]byte(raw), nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		// Typically well under a second on one core; the bound leaves room for a
		// loaded machine while still catching quadratic behaviour.
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: Parse took %v", name, d)
		} else {
			t.Logf("%s: %v", name, d)
		}
	}
}

func BenchmarkParseCorpus(b *testing.B) {
	cases := readCorpus(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range cases {
			if _, err := Parse([]byte(c.eml), nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}
