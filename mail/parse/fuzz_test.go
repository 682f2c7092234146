package parse

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse runs the whole parse path (headers, MIME, charsets, HTML, reply and
// command extraction) on arbitrary input. Under plain `go test` it runs the seeds:
// the reply corpus, the testdata fixtures and a few hostile shapes.
//
//	go test ./mail/parse -run '^$' -fuzz FuzzParse -fuzztime 30s
func FuzzParse(f *testing.F) {
	if _, err := os.Stat(corpusDir); err == nil {
		for _, c := range readCorpus(f) {
			f.Add([]byte(c.eml))
		}
	}
	files, _ := filepath.Glob("testdata/*.eml")
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	for _, s := range []string{
		"",
		"\r\n\r\n",
		"Content-Type: multipart/mixed; boundary=a\n\n--a\nContent-Type: multipart/mixed; boundary=a\n\n--a\n",
		"Content-Type: multipart/alternative\n\n--x\n\n--x--",
		"Content-Type: text/html\n\n" + strings.Repeat("<div>", 2000) + "x",
		"Content-Type: text/html\n\n<blockquote><table><td><pre>a\n<li>b</blockquote></pre>",
		"Content-Type: text/plain; format=flowed; delsp=yes\n\n>> a \n>> b \n> c\n-- \nd",
		"Content-Transfer-Encoding: quoted-printable\n\n=\n=4\n=ZZ=C3=A8=",
		"Content-Transfer-Encoding: base64\nContent-Type: text/plain; charset=utf-16\n\n//4AAA==",
		"Subject: =?x-unknown?Q?abc?=\nFrom: \"broken <<@@>>\nTo: ,,,;;\n\nOn Mon\n<a@b.c>\nwrote:\n> x",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Parse(raw, nil)
		if err != nil {
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("Parse: unexpected error %v", err)
			}
			return
		}
		if !utf8.ValidString(m.Body) || !utf8.ValidString(m.Reply) {
			t.Fatalf("invalid UTF-8 in body or reply")
		}
		lines := strings.Split(m.Reply, "\n")
		if m.Reply != "" && (lines[0] == "" || lines[len(lines)-1] == "") {
			t.Fatalf("reply has leading or trailing blank lines: %q", m.Reply)
		}
		prev := 0
		for _, c := range m.Commands {
			if c.N <= prev || c.N > len(lines) {
				t.Fatalf("command line number %d out of order or range (reply has %d lines)", c.N, len(lines))
			}
			prev = c.N
			if c.Text == "" || strings.Contains(c.Text, "#") || strings.Contains(c.Text, "\n") {
				t.Fatalf("bad command text %q", c.Text)
			}
			if !strings.Contains(strings.ReplaceAll(lines[c.N-1], "\u00a0", " "), c.Text) {
				t.Fatalf("command %q not on reply line %d %q", c.Text, c.N, lines[c.N-1])
			}
		}
		_ = m.Recipients()
		_ = FormatCommands(m.Commands)
	})
}
