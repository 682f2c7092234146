package parse

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fixture is a synthetic mail under testdata/ in the shape a real client sends,
// with what Parse must make of it.
type fixture struct {
	file     string
	reply    string
	commands string // FormatCommands of Message.Commands
	auto     string // prefix of Message.Auto; "" means a human wrote it
	html     bool   // the reply came from the HTML part
	check    func(t *testing.T, m *Message)
}

var fixtures = []fixture{
	{
		file:     "gmail-en-alternative-qp.eml",
		reply:    "conquer 12   # the hills, finally\nconquer 7 roll\n\n# now the tokens\nredeploy 12=3 7=1",
		commands: "1: conquer 12\n2: conquer 7 roll\n5: redeploy 12=3 7=1\n",
		check: func(t *testing.T, m *Message) {
			eq(t, "From", m.From, Address{Name: "Alice Liddell", Address: "alice@example.org"})
			eq(t, "To", m.To, []Address{{Name: "turnmail game 7", Address: "game+g7.p2.Q2VjcmV0@turnmail.example.org"}})
			eq(t, "Cc", m.Cc, []Address{{Name: "Bob", Address: "bob@example.org"}})
			eq(t, "DeliveredTo", m.DeliveredTo, []string{"turnmail@turnmail.example.org", "game+g7.p2.Q2VjcmV0@turnmail.example.org"})
			eq(t, "OriginalTo", m.OriginalTo, []string{"game+g7.p2.Q2VjcmV0@turnmail.example.org"})
			eq(t, "Recipients", m.Recipients(), []string{"game+g7.p2.Q2VjcmV0@turnmail.example.org", "bob@example.org", "turnmail@turnmail.example.org"})
			eq(t, "ReturnPath", m.ReturnPath, "alice@example.org")
			eq(t, "MessageID", m.MessageID, "CAF=abc123+x@mail.gmail.com")
			eq(t, "InReplyTo", m.InReplyTo, "game7.turn12@turnmail.example.org")
			eq(t, "References", m.References, []string{"game7.turn1@turnmail.example.org", "game7.turn12@turnmail.example.org"})
			eq(t, "Subject", m.Subject, "Re: [turnmail] game 7: your turn")
			eq(t, "Date", m.Date.UTC(), time.Date(2025, 1, 6, 11, 34, 56, 0, time.UTC))
		},
	},
	{
		file:     "gmail-it-html-only-base64.eml",
		reply:    "conquer 4\nabandon 9 # addio\ndone\n\n# grazie a tutti",
		commands: "1: conquer 4\n2: abandon 9\n3: done\n",
		html:     true,
		check: func(t *testing.T, m *Message) {
			eq(t, "From", m.From, Address{Name: "Mario Rossì", Address: "mario.rossi@example.it"})
			eq(t, "Subject", m.Subject, "Re: [turnmail] partita 7: tocca a te — Mario")
		},
	},
	{
		file:     "outlook-it-windows1252.eml",
		reply:    "conquer 3 # “la collina” – perché no?\nconquer 5",
		commands: "1: conquer 3\n2: conquer 5\n",
		check: func(t *testing.T, m *Message) {
			eq(t, "From", m.From, Address{Name: "Rossi, Mario", Address: "mario.rossi@example.it"})
			eq(t, "MessageID", m.MessageID, "AM0PR01MB1234ABCD@AM0PR01MB1234.eurprd01.prod.outlook.com")
		},
	},
	{
		file:     "outlook-web-html-only.eml",
		reply:    "pick 2\nconquer 1\nconquer 2 & done # that's it",
		commands: "1: pick 2\n2: conquer 1\n3: conquer 2 & done\n",
		html:     true,
		check: func(t *testing.T, m *Message) {
			eq(t, "From", m.From, Address{Name: "Bob", Address: "bob@example.org"})
		},
	},
	{
		file:     "apple-mail-alternative.eml",
		reply:    "conquer 12\ndone",
		commands: "1: conquer 12\n2: done\n",
		check: func(t *testing.T, m *Message) {
			eq(t, "MessageID", m.MessageID, "5B4A2B1C-AAAA-4000-8000-000000000002@icloud.example")
		},
	},
	{
		file:     "thunderbird-flowed-bottom-latin1.eml",
		reply:    "conquer 3 # très bien, j'attaque la colline au-dessus de la rivière et puis je continue\n\ndecline",
		commands: "1: conquer 3\n3: decline\n",
	},
	{
		file:     "iphone-it-base64.eml",
		reply:    "conquer 8\nredeploy 8=4",
		commands: "1: conquer 8\n2: redeploy 8=4\n",
	},
	{
		file:     "android-outlook.eml",
		reply:    "conquer 2",
		commands: "1: conquer 2\n",
	},
	{
		file:     "android-samsung.eml",
		reply:    "abandon 3\ndecline",
		commands: "1: abandon 3\n2: decline\n",
	},
	{
		file:     "yahoo-alternative.eml",
		reply:    "pick 1\nconquer 3",
		commands: "1: pick 1\n2: conquer 3\n",
	},
	{
		file:     "russian-koi8r.eml",
		reply:    "conquer 12 # захватываю холмы\ndone",
		commands: "1: conquer 12\n2: done\n",
		check: func(t *testing.T, m *Message) {
			eq(t, "From", m.From, Address{Name: "Иван", Address: "ivan@example.ru"})
			eq(t, "Subject", m.Subject, "Re: ваш ход")
		},
	},
	{
		file:     "german-latin1-qp.eml",
		reply:    "conquer 4 # Hügel\nabandon 2",
		commands: "1: conquer 4\n2: abandon 2\n",
		check: func(t *testing.T, m *Message) {
			eq(t, "From", m.From, Address{Name: "Jürgen Müller", Address: "juergen@example.de"})
		},
	},
	{file: "malformed-no-boundary.eml", reply: "conquer 6", commands: "1: conquer 6\n"},
	{file: "malformed-wrong-boundary.eml", reply: "conquer 6", commands: "1: conquer 6\n"},
	{file: "malformed-unterminated.eml", reply: "conquer 6\ndone", commands: "1: conquer 6\n2: done\n"},
	{file: "malformed-no-parts.eml", reply: "conquer 6\ndone", commands: "1: conquer 6\n2: done\n"},
	{file: "malformed-bad-charset.eml", reply: "conquer 6 # perchè sì", commands: "1: conquer 6\n"},
	{file: "malformed-bad-base64.eml", reply: "conquer 6\ndone", commands: "1: conquer 6\n2: done\n"},
	{file: "malformed-bad-qp.eml", reply: "conquer 6 # 100=ZZ sure, a=b done\nredeploy 6=2", commands: "1: conquer 6\n2: redeploy 6=2\n"},
	{
		file:     "malformed-header.eml",
		reply:    "conquer 6",
		commands: "1: conquer 6\n",
		check: func(t *testing.T, m *Message) {
			eq(t, "From", m.From, Address{Name: "Gina", Address: "gina@example.org"})
			eq(t, "To", m.To, []Address{{Address: "game@turnmail.example.org"}})
			eq(t, "MessageID", m.MessageID, "not-bracketed@example.org")
			eq(t, "Date", m.Date, time.Time{})
		},
	},
	{
		file:  "dsn-bounce.eml",
		reply: "This is the mail system at host mx.example.org.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.\n\n<nobody@example.org>: host mx.example.org said: 550 5.1.1 User unknown",
		auto:  "Auto-Submitted: auto-replied",
		check: func(t *testing.T, m *Message) {
			eq(t, "IsDSN", m.IsDSN, true)
			eq(t, "ReturnPath", m.ReturnPath, "<>")
			eq(t, "From", m.From.Address, "mailer-daemon@mx.example.org")
		},
	},
	{file: "auto-submitted-it.eml", reply: "Sono fuori sede fino al 10 gennaio.", auto: "Auto-Submitted: auto-replied"},
	{file: "x-autoreply.eml", reply: "I am on holiday.", auto: "X-Autoreply: yes"},
	{file: "precedence-bulk.eml", reply: "Hello subscriber.", auto: "Precedence: bulk"},
	{file: "ooo-subject-only.eml", reply: "I am out of the office until Monday.", auto: "automatic-reply subject"},
	{
		file:     "list-mail.eml",
		reply:    "conquer 1",
		commands: "1: conquer 1\n",
		check: func(t *testing.T, m *Message) {
			eq(t, "ListID", m.ListID, "game7.lists.example.org")
			eq(t, "Precedence", m.Precedence, "list")
		},
	},
	{file: "end-line.eml", reply: "# my turn:\nconquer 1   # first\n\nconquer 2", commands: "2: conquer 1\n4: conquer 2\n"},
	{
		file:     "html-entities-only.eml",
		reply:    "redeploy 12=3 7=1 # café & crème <ok>\nconquer 4\nally   bob\ncamp 4=2",
		commands: "1: redeploy 12=3 7=1\n2: conquer 4\n3: ally   bob\n4: camp 4=2\n",
		html:     true,
	},
	{
		file:     "html-meta-charset.eml",
		reply:    "conquer 3 # € pour la forêt",
		commands: "1: conquer 3\n",
		html:     true,
		check: func(t *testing.T, m *Message) {
			eq(t, "From", m.From, Address{Name: "André", Address: "andre@example.fr"})
			eq(t, "Subject (raw 8-bit)", m.Subject, "Re: [turnmail] partie 7 à toi")
		},
	},
	{file: "attachment-text.eml", reply: "conquer 5", commands: "1: conquer 5\n"},
	{file: "no-text.eml", reply: "", commands: ""},
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

func TestFixtures(t *testing.T) {
	for _, f := range fixtures {
		t.Run(strings.TrimSuffix(f.file, ".eml"), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", f.file))
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(raw, nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if m.Reply != f.reply {
				t.Errorf("Reply =\n%s\nwant\n%s", m.Reply, f.reply)
			}
			if got := FormatCommands(m.Commands); f.auto == "" && got != f.commands {
				t.Errorf("commands =\n%swant\n%s", got, f.commands)
			}
			if f.auto == "" && m.Auto != "" {
				t.Errorf("Auto = %q, want a human mail", m.Auto)
			}
			if f.auto != "" && !strings.HasPrefix(m.Auto, f.auto) {
				t.Errorf("Auto = %q, want %q…", m.Auto, f.auto)
			}
			eq(t, "BodyHTML", m.BodyHTML, f.html)
			if f.check != nil {
				f.check(t, m)
			}
		})
	}
}

// TestFixturesCovered keeps the table and testdata/ in step.
func TestFixturesCovered(t *testing.T) {
	files, err := filepath.Glob("testdata/*.eml")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, f := range fixtures {
		listed[f.file] = true
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s has no expectation in fixtures", f)
		}
	}
}

func TestTooLarge(t *testing.T) {
	raw, err := os.ReadFile("testdata/gmail-en-alternative-qp.eml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(raw, &Options{MaxSize: 100}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Parse with MaxSize 100: err = %v, want ErrTooLarge", err)
	}
	if _, err := Parse(raw, &Options{MaxSize: len(raw)}); err != nil {
		t.Errorf("Parse with MaxSize = size: %v", err)
	}
	big := append([]byte("From: a@example.org\nSubject: big\n\nconquer 1\n"), make([]byte, DefaultMaxSize)...)
	if _, err := Parse(big, nil); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Parse of %d bytes with defaults: err = %v, want ErrTooLarge", len(big), err)
	}
	ok := big[:DefaultMaxSize]
	m, err := Parse(ok, nil)
	if err != nil {
		t.Fatalf("Parse of exactly DefaultMaxSize bytes: %v", err)
	}
	if len(m.Commands) == 0 || m.Commands[0].Text != "conquer 1" {
		t.Errorf("commands = %v, want conquer 1 first", m.Commands)
	}
}

func TestParseEmptyAndGarbage(t *testing.T) {
	for _, raw := range []string{"", "\n\n", "hello world", "Subject: only a header", ":\n:", "From: <>\n\n>"} {
		m, err := Parse([]byte(raw), nil)
		if err != nil {
			t.Errorf("Parse(%q): %v", raw, err)
			continue
		}
		if m == nil {
			t.Errorf("Parse(%q) = nil", raw)
		}
	}
	m, _ := Parse([]byte("hello world\nconquer 3"), nil)
	eq(t, "Reply of header-less input", m.Reply, "hello world\nconquer 3")
}

// TestInvisibleCharactersInCommands: zero-width and bidirectional formatting
// characters around or inside a command word are removed, so the command is read as
// written and no override is echoed back in an answer.
func TestInvisibleCharactersInCommands(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		{"zero-width space and joiners", "con\u200bquer\u200c 1\u2060"},
		{"right-to-left override", "\u202econquer 1\u202c"},
		{"left-to-right and right-to-left marks", "\u200fconquer\u200e 1"},
		{"isolates and the Arabic letter mark", "\u2067conquer 1\u2069\u061c"},
		{"embeddings", "\u202aconquer \u202b1\u202c"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse([]byte("From: a@b.example\r\nSubject: Re: game\r\n\r\n"+c.body+"\r\n"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Commands) != 1 || m.Commands[0].Text != "conquer 1" {
				t.Errorf("commands = %v, want [conquer 1]", m.Commands)
			}
		})
	}
}
