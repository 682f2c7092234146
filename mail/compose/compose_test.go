package compose

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	mailparse "github.com/turnmail/turnmail/mail/parse"
)

type part struct {
	contentType string
	charset     string
	cte         string
	body        string
}

// parse reads raw back with go-message and returns the header and parts.
func parse(t *testing.T, raw []byte) (gomail.Header, string, []part) {
	t.Helper()
	for i, line := range strings.Split(string(raw), "\n") {
		if !strings.HasSuffix(line, "\r") && i < strings.Count(string(raw), "\n") {
			t.Fatalf("line %d %q does not end in CRLF", i+1, line)
		}
		if len(line) > 998 {
			t.Fatalf("line %d longer than 998 octets", i+1)
		}
	}
	for _, c := range raw {
		if c >= 0x80 {
			t.Fatalf("raw message has a non-ASCII byte %#x", c)
		}
	}
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("CreateReader: %v", err)
	}
	mt, _, err := r.Header.ContentType()
	if err != nil {
		t.Fatalf("ContentType: %v", err)
	}
	var parts []part
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("NextPart: %v", err)
		}
		h, ok := p.Header.(*gomail.InlineHeader)
		if !ok {
			t.Fatalf("part header %T, want inline", p.Header)
		}
		ct, params, _ := h.ContentType()
		b, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatalf("read part: %v", err)
		}
		parts = append(parts, part{ct, params["charset"], h.Get("Content-Transfer-Encoding"), strings.ReplaceAll(string(b), "\r\n", "\n")})
	}
	return r.Header, mt, parts
}

func base() Mail {
	return Mail{
		From:    Address{Name: "Turnmail", Address: "turnmail@example.org"},
		ReplyTo: Address{Name: "Small World sw-7k3p", Address: "turnmail+sw-7k3p.1.abcdefghijklmnop@example.org"},
		To:      []Address{{Name: "Alice", Address: "alice@example.org"}},
		Cc:      []Address{{Address: "bob@example.org"}},
		Subject: "[sw-7k3p] Your turn",
		Date:    time.Date(2025, 3, 1, 12, 30, 0, 0, time.UTC),
		Text:    "It is your turn.\n\nLegal now:\n  conquer 12\n  decline\n",
	}
}

func addrs(t *testing.T, h gomail.Header, key string) []Address {
	t.Helper()
	l, err := h.AddressList(key)
	if err != nil {
		t.Fatalf("AddressList(%s): %v", key, err)
	}
	out := make([]Address, len(l))
	for i, a := range l {
		out[i] = *a
	}
	return out
}

func TestBuild_plain(t *testing.T) {
	m := base()
	m.MessageID = "<move-1@example.org>"
	m.Headers = map[string]string{"List-Id": "Small World sw-7k3p <sw-7k3p.turnmail.example.org>", "Precedence": "list"}
	raw, err := Build(m)
	if err != nil {
		t.Fatal(err)
	}
	h, mt, parts := parse(t, raw)

	if mt != "text/plain" {
		t.Errorf("Content-Type = %q, want text/plain", mt)
	}
	if got := addrs(t, h, "From"); !reflect.DeepEqual(got, []Address{m.From}) {
		t.Errorf("From = %v", got)
	}
	if got := addrs(t, h, "Reply-To"); !reflect.DeepEqual(got, []Address{m.ReplyTo}) {
		t.Errorf("Reply-To = %v", got)
	}
	if got := addrs(t, h, "To"); !reflect.DeepEqual(got, m.To) {
		t.Errorf("To = %v", got)
	}
	if got := addrs(t, h, "Cc"); !reflect.DeepEqual(got, m.Cc) {
		t.Errorf("Cc = %v", got)
	}
	if got, _ := h.Subject(); got != m.Subject {
		t.Errorf("Subject = %q", got)
	}
	if got, _ := h.MessageID(); got != "move-1@example.org" {
		t.Errorf("Message-ID = %q", got)
	}
	if got, _ := h.Date(); !got.Equal(m.Date) {
		t.Errorf("Date = %v, want %v", got, m.Date)
	}
	for k, want := range map[string]string{
		"Auto-Submitted": "auto-generated",
		"X-Turnmail":     "1",
		"List-Id":        m.Headers["List-Id"],
		"Precedence":     "list",
		"Mime-Version":   "1.0",
		"In-Reply-To":    "",
		"References":     "",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	want := []part{{"text/plain", "utf-8", "quoted-printable", m.Text}}
	if !reflect.DeepEqual(parts, want) {
		t.Errorf("parts = %+v, want %+v", parts, want)
	}
}

func TestBuild_alternative(t *testing.T) {
	m := base()
	m.HTML = "<p>It is <b>your</b> turn.</p>\n"
	raw, err := Build(m)
	if err != nil {
		t.Fatal(err)
	}
	h, mt, parts := parse(t, raw)
	if mt != "multipart/alternative" {
		t.Errorf("Content-Type = %q, want multipart/alternative", mt)
	}
	if h.Get("X-Turnmail") != "1" || h.Get("Auto-Submitted") != "auto-generated" {
		t.Errorf("X-Turnmail = %q, Auto-Submitted = %q", h.Get("X-Turnmail"), h.Get("Auto-Submitted"))
	}
	want := []part{
		{"text/plain", "utf-8", "quoted-printable", m.Text},
		{"text/html", "utf-8", "quoted-printable", m.HTML},
	}
	if !reflect.DeepEqual(parts, want) {
		t.Errorf("parts = %+v, want %+v", parts, want)
	}
}

func TestBuild_nonASCII(t *testing.T) {
	tests := []struct {
		name, subject, toName, text string
	}{
		{"german", "Dein Zug – Runde 3 für Jörg", "Jörg Müller", "Grüße\n"},
		{"italian", "È il tuo turno", "Niccolò", "Il giorno lunedì ha scritto:\n"},
		{"cjk", "あなたの番です", "山田太郎", "征服 12\n"},
		{"emoji", "🎲 roll!", "Zoë 🐉", "🐉 dragon 12\n"},
		{"long", strings.Repeat("Über lange Betreffzeilen ", 12), strings.Repeat("Ä", 40), strings.Repeat("é", 300) + "\n"},
		{"quotes and commas", `Game "one", round 2`, `Smith, "Al"`, "x = y\n"},
		{"long word", strings.Repeat("x", 2000) + " é" + strings.Repeat("y", 70), "n", "x\n"},
		{"looks encoded", "=?utf-8?q?Bcc:_x?= =?x", "=?utf-8?q?x?=", "x\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := base()
			m.Subject = tt.subject
			m.To = []Address{{Name: tt.toName, Address: "p@example.org"}}
			m.Text = tt.text
			raw, err := Build(m)
			if err != nil {
				t.Fatal(err)
			}
			h, _, parts := parse(t, raw)
			if got, _ := h.Subject(); got != tt.subject {
				t.Errorf("Subject = %q, want %q", got, tt.subject)
			}
			if got := addrs(t, h, "To"); len(got) != 1 || got[0].Name != tt.toName || got[0].Address != "p@example.org" {
				t.Errorf("To = %v, want %q <p@example.org>", got, tt.toName)
			}
			if len(parts) != 1 || parts[0].body != tt.text {
				t.Errorf("body = %+v, want %q", parts, tt.text)
			}
		})
	}
}

func TestBuild_threading(t *testing.T) {
	tests := []struct {
		name           string
		inReplyTo      string
		refs           []string
		wantInReplyTo  []string
		wantReferences []string
	}{
		{"none", "", nil, nil, nil},
		{"brackets", "<b@x>", []string{"<a@x>", "<b@x>"}, []string{"b@x"}, []string{"a@x", "b@x"}},
		{"bare ids", "b@x", []string{"a@x", "b@x"}, []string{"b@x"}, []string{"a@x", "b@x"}},
		{"empty refs skipped", "c@x", []string{"", "a@x"}, []string{"c@x"}, []string{"a@x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := base()
			m.MessageID = "reply@example.org"
			m.InReplyTo = tt.inReplyTo
			m.References = tt.refs
			m.AutoSubmitted = AutoReplied
			raw, err := Build(m)
			if err != nil {
				t.Fatal(err)
			}
			h, _, _ := parse(t, raw)
			irt, err := h.MsgIDList("In-Reply-To")
			if err != nil || !reflect.DeepEqual(irt, tt.wantInReplyTo) {
				t.Errorf("In-Reply-To = %q, %v; want %q", irt, err, tt.wantInReplyTo)
			}
			refs, err := h.MsgIDList("References")
			if err != nil || !reflect.DeepEqual(refs, tt.wantReferences) {
				t.Errorf("References = %q, %v; want %q", refs, err, tt.wantReferences)
			}
			if id, _ := h.MessageID(); id != "reply@example.org" {
				t.Errorf("Message-ID = %q", id)
			}
			if got := h.Get("Auto-Submitted"); got != AutoReplied {
				t.Errorf("Auto-Submitted = %q", got)
			}
		})
	}
}

func TestBuild_generatedMessageID(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		raw, err := Build(base())
		if err != nil {
			t.Fatal(err)
		}
		h, _, _ := parse(t, raw)
		id, err := h.MessageID()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(id, "@example.org") || len(id) < len("@example.org")+20 {
			t.Errorf("generated Message-ID %q", id)
		}
		if seen[id] {
			t.Errorf("Message-ID %q generated twice", id)
		}
		seen[id] = true
	}
	if id := NewMessageID(""); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@turnmail.invalid>") {
		t.Errorf("NewMessageID(\"\") = %q", id)
	}
}

func TestBuild_dateDefault(t *testing.T) {
	m := base()
	m.Date = time.Time{}
	before := time.Now().Add(-time.Second).Truncate(time.Second)
	raw, err := Build(m)
	if err != nil {
		t.Fatal(err)
	}
	h, _, _ := parse(t, raw)
	if d, err := h.Date(); err != nil || d.Before(before) {
		t.Errorf("Date = %v, %v; want about now", d, err)
	}
}

func TestBuild_invalid(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Mail)
	}{
		{"no from", func(m *Mail) { m.From = Address{} }},
		{"no recipients", func(m *Mail) { m.To, m.Cc = nil, nil }},
		{"newline in subject", func(m *Mail) { m.Subject = "hi\r\nBcc: victim@example.org" }},
		{"bad address", func(m *Mail) { m.To[0].Address = "a@x>\r\nBcc: y" }},
		{"name without address", func(m *Mail) { m.ReplyTo = Address{Name: "x"} }},
		{"newline in extra header", func(m *Mail) { m.Headers = map[string]string{"List-Id": "a\nb"} }},
		{"bad header name", func(m *Mail) { m.Headers = map[string]string{"Bad Name": "x"} }},
		{"reserved header", func(m *Mail) { m.Headers = map[string]string{"content-type": "text/html"} }},
		{"override x-turnmail", func(m *Mail) { m.Headers = map[string]string{"X-Turnmail": "0"} }},
		{"auto-submitted no", func(m *Mail) { m.AutoSubmitted = "no" }},
		{"bad message id", func(m *Mail) { m.MessageID = "a b@x" }},
		{"bad reference", func(m *Mail) { m.References = []string{"a@x>\r\nX: y"} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := base()
			tt.edit(&m)
			if _, err := Build(m); !errors.Is(err, ErrInvalid) {
				t.Errorf("Build error = %v, want ErrInvalid", err)
			}
		})
	}
}

// TestBuild_nameControls: control characters and line breaks in a display name
// (text that may come from outside) are folded into spaces, never written raw
// nor fatal; a long name is cut to MaxNameLen.
func TestBuild_nameControls(t *testing.T) {
	for name, want := range map[string]string{
		"A\r\nBcc: victim@example.org": "A Bcc: victim@example.org",
		"\x05\\":                       `\`,
		"Zoë\x1b[2J  Müller\t":         "Zoë [2J Müller",
		strings.Repeat("é", 2000):      strings.Repeat("é", MaxNameLen),
	} {
		m := base()
		m.To[0].Name = name
		raw, err := Build(m)
		if err != nil {
			t.Fatalf("name %q: %v", name, err)
		}
		h, _, _ := parse(t, raw)
		if got := addrs(t, h, "To"); got[0].Name != want || h.Get("Bcc") != "" {
			t.Errorf("name %q: To %v, Bcc %q; want the name %q", name, got, h.Get("Bcc"), want)
		}
	}
}

// TestBuild_flowed: a Flowed text part is declared format=flowed, its lines that
// start with a space, ">" or "From " are space-stuffed, and a reader of flowed text
// (mail/parse) gets the text back with its soft breaks joined.
func TestBuild_flowed(t *testing.T) {
	text := "It is your turn, and this sentence is long enough to be broken \nin two.\n\nLegal now:\n    conquer 12\n>not a quote\nFrom here on\n-- \nturnmail\n"
	for _, alternative := range []bool{false, true} {
		m := base()
		m.Text, m.Flowed = text, true
		if alternative {
			m.HTML = "<p>It is your turn.</p>\n"
		}
		raw, e := built(t, m)
		h := e.Header
		if mr := e.MultipartReader(); mr != nil {
			p, err := mr.NextPart()
			if err != nil {
				t.Fatal(err)
			}
			h = p.Header
		}
		if _, params, _ := h.ContentType(); params["format"] != "flowed" {
			t.Errorf("alternative %v: text part params %v, want format=flowed", alternative, params)
		}
		_, _, parts := parse(t, raw)
		want := "It is your turn, and this sentence is long enough to be broken \nin two.\n\nLegal now:\n     conquer 12\n >not a quote\n From here on\n-- \nturnmail\n"
		if parts[0].body != want {
			t.Errorf("alternative %v: text part\n%q\nwant\n%q", alternative, parts[0].body, want)
		}
		got, err := mailparse.Parse(raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.Body, "long enough to be broken in two.\n\nLegal now:\n    conquer 12\n") {
			t.Errorf("alternative %v: read back as\n%s", alternative, got.Body)
		}
	}
}

// TestBuild_attachment: a mail with an attachment is multipart/mixed: the text and
// HTML first (as inline parts a client shows), then the file under its name, with its
// bytes intact; a name with a line break is refused.
func TestBuild_attachment(t *testing.T) {
	m := base()
	m.HTML = "<p>Game over.</p>\n"
	data := []byte("{\"format\":\"turnmail-archive/1\",\"players\":[{\"name\":\"zoë\"}]}\n")
	m.Attachments = []Attachment{{Name: "sw-7k3p.json", ContentType: "application/json", Data: data}}
	raw, err := Build(m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if mt, _, _ := r.Header.ContentType(); mt != "multipart/mixed" {
		t.Errorf("Content-Type = %q, want multipart/mixed", mt)
	}
	var texts []string
	var name string
	var got []byte
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p.Body)
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			ct, _, _ := h.ContentType()
			texts = append(texts, ct)
		case *gomail.AttachmentHeader:
			name, _ = h.Filename()
			got = b
		}
	}
	if !reflect.DeepEqual(texts, []string{"text/plain", "text/html"}) {
		t.Errorf("inline parts %v, want text/plain and text/html", texts)
	}
	if name != "sw-7k3p.json" || !bytes.Equal(got, data) {
		t.Errorf("attachment %q = %q, want sw-7k3p.json = %q", name, got, data)
	}
	m.Attachments[0].Name = "a\r\nBcc: x@example.org"
	if _, err := Build(m); !errors.Is(err, ErrInvalid) {
		t.Errorf("attachment name with a line break: err = %v, want ErrInvalid", err)
	}
}
