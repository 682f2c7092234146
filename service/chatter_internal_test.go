package service

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine/empire"
	"github.com/turnmail/turnmail/engine/smallworld"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/parse"
)

// corpusDir is the shared reply corpus (real client mails), relative to this package.
const corpusDir = "../../shared/data/reply-corpus"

// TestChatterCorpus puts a greeting before and a sign-off after the three commands
// of every "-cmd" case of the reply corpus (real client formats: quoted history,
// signatures, localized headers) and checks that the commands are read, all of
// them, and exactly the greeting and sign-off are not.
func TestChatterCorpus(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(corpusDir, "*-cmd"))
	if len(dirs) == 0 {
		t.Skipf("reply corpus not found at %s", corpusDir)
	}
	words := wordsOf(smallworld.Game{})
	want := []string{"conquer 12", "conquer 7 roll", "redeploy 12=3 7=1"}
	for _, d := range dirs {
		t.Run(filepath.Base(d), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(d, "message.eml"))
			if err != nil {
				t.Fatal(err)
			}
			eml := strings.Replace(string(raw), "conquer 12", "Ciao Alice, ti distruggo!\n\nconquer 12", 1)
			eml = strings.Replace(eml, "redeploy 12=3 7=1", "redeploy 12=3 7=1\n\nA domani,\nBob", 1)
			if eml == string(raw) {
				t.Fatal("the case has no commands to surround")
			}
			m, err := parse.Parse([]byte(eml), nil)
			if err != nil {
				t.Fatal(err)
			}
			read, notRead := chatter(m.Commands, words, nil)
			if got := texts(read); !slices.Equal(got, want) {
				t.Errorf("read %q, want %q", got, want)
			}
			if got := texts(notRead); !slices.Equal(got, []string{"Ciao Alice, ti distruggo!", "A domani,", "Bob"}) {
				t.Errorf("not read %q", got)
			}
		})
	}
}

func texts(lines []parse.Line) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Text)
	}
	return out
}

// TestChatter covers where reading starts and stops.
func TestChatter(t *testing.T) {
	words := wordsOf(empire.Game{})
	for _, tc := range []struct {
		name, text    string
		read, notRead []string
	}{
		{"greeting and sign-off", "Hi all!\ntake 3\nplace 4 2\nCheers", []string{"take 3", "place 4 2"}, []string{"Hi all!", "Cheers"}},
		{"unknown line between commands is read (and refused)", "take 3\nhello\nskip", []string{"take 3", "hello", "skip"}, nil},
		{"service commands count", "Salut\nstatus\nmerci", []string{"status"}, []string{"Salut", "merci"}},
		{"case and comments", "Yo\nTAKE 3 # the mountain\nbye", []string{"TAKE 3"}, []string{"Yo", "bye"}},
		{"no command word at all: all read (and refused)", "conqeur 12\nA domani", []string{"conqeur 12", "A domani"}, nil},
		{"a command word inside a line does not count", "I will take 3\ntake 3", []string{"take 3"}, []string{"I will take 3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read, notRead := chatter(parse.CommandLines(tc.text), words, nil)
			if got := texts(read); !slices.Equal(got, tc.read) {
				t.Errorf("read %q, want %q", got, tc.read)
			}
			if got := texts(notRead); !slices.Equal(got, tc.notRead) {
				t.Errorf("not read %q, want %q", got, tc.notRead)
			}
		})
	}
	// A game that names no words: every line is read, as before.
	lines := parse.CommandLines("Hi\nadd 3")
	if read, notRead := chatter(lines, nil, nil); len(read) != 2 || notRead != nil {
		t.Errorf("without words: read %v, not read %v", read, notRead)
	}
}

// TestNotReadNoticeBounded: a hostile mail of many long lines is quoted within
// bounds, and suggestions are looked for in the lines quoted only.
func TestNotReadNoticeBounded(t *testing.T) {
	long := strings.Repeat("é", 400)
	var lines []parse.Line
	for i := range 90 {
		lines = append(lines, parse.Line{N: i + 1, Text: long})
	}
	asked := 0
	n := notReadNotice(lines, func(string) string { asked++; return "" })
	if len(n.Quoted) != chatterShown || n.Count != 90-chatterShown || asked != chatterShown {
		t.Fatalf("quoted %d, count %d, %d suggestions asked", len(n.Quoted), n.Count, asked)
	}
	for _, q := range n.Quoted {
		if len(q.Text) > chatterEcho+len("…") || !strings.HasSuffix(q.Text, "…") || !strings.HasPrefix(long, strings.TrimSuffix(q.Text, "…")) {
			t.Errorf("quoted line %q not cut on a rune boundary within %d bytes", q.Text, chatterEcho)
		}
	}
	if notReadNotice(nil, nil) != nil {
		t.Error("a notice for no line")
	}
}

// TestCleanChat: control and direction-override characters cannot reach a relayed
// message; other text is kept as written.
func TestCleanChat(t *testing.T) {
	for in, want := range map[string]string{
		"say ciao, Bob! <b>":          "say ciao, Bob! <b>",
		"say a\u202eb\u2066c\u200fd":  "say a b c d",
		"say a\x1b[31mb\x00c\x7fd\te": "say a [31mb c d e",
		"say è già così 🎲":            "say è già così 🎲",
	} {
		if got := cleanChat(in); got != want {
			t.Errorf("cleanChat(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestChatterItalian: a mail in Italian words around a greeting and a sign-off reads
// its Italian commands (through the canonical words) and quotes only the chatter;
// without them no line would count as a command and the greeting would be refused.
func TestChatterItalian(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{tr: tr}
	lines := parse.CommandLines("Ciao Alice, ti distruggo!\nconquista 12\nschiera 12=3\nA domani,\n")
	for _, kind := range []string{"smallworld", "underground"} {
		read, notRead := chatter(lines, wordsOf(smallworld.Game{}), s.canonicalIn(kind))
		if got := texts(read); !slices.Equal(got, []string{"conquista 12", "schiera 12=3"}) {
			t.Errorf("%s: read %q", kind, got)
		}
		if got := texts(notRead); !slices.Equal(got, []string{"Ciao Alice, ti distruggo!", "A domani,"}) {
			t.Errorf("%s: not read %q", kind, got)
		}
	}
}
