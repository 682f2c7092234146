package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// corpusDir is the shared reply-extraction corpus (real mails with the text their
// sender wrote), relative to this package.
const corpusDir = "../../../shared/data/reply-corpus"

// corpusContradictions are corpus cases whose expectation contradicts another
// case's; no extractor can pass both sides (the corpus README says so). This
// parser follows github/email_reply_parser and drops a "-Name" sign-off line.
var corpusContradictions = map[string]string{
	"022-crisp-email_1": `expects the "-Abhishek Kona" sign-off kept; 078-github-email_1_1 (same mail) expects it dropped`,
	"023-crisp-email_3": `expects the "-Abhishek Kona" sign-off kept; 079-github-email_1_3 (same mail) expects it dropped`,
}

type corpusCase struct {
	name, eml, want string
	loose           bool
}

// readCorpus returns the corpus cases, or skips the test when the corpus is absent.
func readCorpus(tb testing.TB) []corpusCase {
	tb.Helper()
	dirs, err := filepath.Glob(filepath.Join(corpusDir, "[0-9][0-9][0-9]-*"))
	if err != nil || len(dirs) == 0 {
		if _, statErr := os.Stat(corpusDir); statErr != nil {
			tb.Skipf("reply corpus not found at %s (it lives in shared/, beside the repository): %v", corpusDir, statErr)
		}
		tb.Fatalf("reply corpus at %s has no cases", corpusDir)
	}
	var cases []corpusCase
	for _, d := range dirs {
		eml, err1 := os.ReadFile(filepath.Join(d, "message.eml"))
		want, err2 := os.ReadFile(filepath.Join(d, "expected.txt"))
		if err1 != nil || err2 != nil {
			continue
		}
		_, looseErr := os.Stat(filepath.Join(d, "loose-whitespace"))
		cases = append(cases, corpusCase{name: filepath.Base(d), eml: string(eml), want: string(want), loose: looseErr == nil})
	}
	return cases
}

// normalizeCorpus applies the corpus comparison rules (its check.sh): drop CR, trim
// trailing white space (also U+00A0) on each line, drop leading and trailing blank
// lines; in loose mode also collapse white space, trim leading white space and drop
// blank lines.
func normalizeCorpus(s string, loose bool) string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r", ""), "\n") {
		if loose {
			l = strings.Join(strings.FieldsFunc(l, func(r rune) bool { return r == '\u00a0' || unicode.IsSpace(r) }), " ")
		}
		l = strings.TrimRight(l, " \t\r\f\v\u00a0")
		if loose && l == "" {
			continue
		}
		out = append(out, l)
	}
	return joinTrimmed(out)
}

func TestCorpus(t *testing.T) {
	cases := readCorpus(t)
	passed := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse([]byte(c.eml), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, want := normalizeCorpus(m.Reply, c.loose), normalizeCorpus(c.want, c.loose)
			if got != want {
				if why, ok := corpusContradictions[c.name]; ok {
					t.Skipf("known corpus contradiction: %s", why)
				}
				t.Errorf("reply differs\n--- got:\n%s\n--- want:\n%s", got, want)
				return
			}
			passed++
		})
	}
	t.Logf("%d of %d corpus cases pass", passed, len(cases))
}
