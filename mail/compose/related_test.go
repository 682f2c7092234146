package compose

import (
	"bytes"
	"errors"
	"io"
	"net/mail"
	"strings"
	"testing"

	"github.com/emersion/go-message"
)

// tree describes a parsed entity: its media type and its parts, for comparing
// structures ("multipart/alternative[text/plain multipart/related[text/html image/png]]").
func tree(t *testing.T, e *message.Entity, leaf func(*message.Entity)) string {
	t.Helper()
	mt, _, err := e.Header.ContentType()
	if err != nil {
		t.Fatal(err)
	}
	mr := e.MultipartReader()
	if mr == nil {
		leaf(e)
		return mt
	}
	var parts []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, tree(t, p, leaf))
	}
	return mt + "[" + strings.Join(parts, " ") + "]"
}

func TestBuild_inlinePicture(t *testing.T) {
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff}, 200)
	for _, tc := range []struct {
		name  string
		files []Attachment
		want  string
	}{
		{"alone", nil, "multipart/alternative[text/plain multipart/related[text/html image/png]]"},
		{"with an attachment", []Attachment{{Name: "game.json", ContentType: "application/json", Data: []byte(`{"x":1}`)}},
			"multipart/mixed[multipart/alternative[text/plain multipart/related[text/html image/png]] application/json]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Mail{
				From: mail.Address{Address: "turnmail@example.org"}, To: []mail.Address{{Address: "ann@example.org"}},
				Subject: "Small World", Text: "Your move, ann.\n", HTML: `<p>Your move, ann.</p><img src="cid:board.1@example.org" width="600" height="400" alt="the board">`,
				Inline:      []Inline{{ContentID: "board.1@example.org", Name: "board.png", ContentType: "image/png", Data: png}},
				Attachments: tc.files,
			}
			raw, err := Build(m)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(strings.TrimSuffix(string(raw), "\r\n"), "\r\n") {
				if len(line) > 998 || strings.ContainsAny(line, "\r\n") {
					t.Fatalf("line %d is too long or has a bare line break", i+1)
				}
			}
			if i := bytes.IndexFunc(raw, func(r rune) bool { return r >= 0x80 }); i >= 0 {
				t.Fatalf("non-ASCII byte at %d", i)
			}
			e, err := message.Read(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			var html, text string
			var got []byte
			var cid, disp string
			structure := tree(t, e, func(p *message.Entity) {
				mt, _, _ := p.Header.ContentType()
				b, err := io.ReadAll(p.Body)
				if err != nil {
					t.Fatal(err)
				}
				switch mt {
				case "text/html":
					html = string(b)
				case "text/plain":
					text = string(b)
				case "image/png":
					got, cid, disp = b, p.Header.Get("Content-Id"), p.Header.Get("Content-Disposition")
					if cte := p.Header.Get("Content-Transfer-Encoding"); cte != "base64" {
						t.Errorf("picture's transfer encoding %q, want base64", cte)
					}
				}
			})
			if structure != tc.want {
				t.Errorf("structure %s, want %s", structure, tc.want)
			}
			// The related part says its root is HTML.
			if i := bytes.Index(raw, []byte("multipart/related")); i < 0 || !bytes.Contains(raw[i:i+120], []byte(`type="text/html"`)) && !bytes.Contains(raw[i:i+120], []byte(`type=text/html`)) {
				t.Errorf("multipart/related without type=text/html")
			}
			if strings.ReplaceAll(text, "\r\n", "\n") != m.Text || html != m.HTML {
				t.Errorf("text %q html %q, want the mail's", text, html)
			}
			if !bytes.Equal(got, png) {
				t.Errorf("picture of %d bytes read back, want the %d sent", len(got), len(png))
			}
			if cid != "<board.1@example.org>" || !strings.Contains(html, "cid:"+strings.Trim(cid, "<>")) {
				t.Errorf("Content-ID %q, HTML %q: the HTML must name it", cid, html)
			}
			if !strings.HasPrefix(disp, "inline") || !strings.Contains(disp, "board.png") {
				t.Errorf("Content-Disposition %q, want inline with the file name", disp)
			}
		})
	}
}

func TestBuild_inlineRefusesBadIDs(t *testing.T) {
	for _, id := range []string{"", "no-at-sign", "two@@example.org", "line\r\nbreak@example.org", "<x@example.org>", strings.Repeat("a", 300) + "@example.org"} {
		m := Mail{
			From: mail.Address{Address: "turnmail@example.org"}, To: []mail.Address{{Address: "ann@example.org"}},
			Text: "t", HTML: "<p>t</p>", Inline: []Inline{{ContentID: id, Name: "b.png", ContentType: "image/png", Data: []byte{1}}},
		}
		if _, err := Build(m); !errors.Is(err, ErrInvalid) {
			t.Errorf("content id %q: error %v, want ErrInvalid", id, err)
		}
	}
	m := Mail{From: mail.Address{Address: "turnmail@example.org"}, To: []mail.Address{{Address: "ann@example.org"}},
		Text: "t", HTML: "<p>t</p>", Inline: []Inline{{ContentID: "a@b", Name: "evil\r\nX-Injected: 1", ContentType: "image/png", Data: []byte{1}}}}
	if _, err := Build(m); !errors.Is(err, ErrInvalid) {
		t.Errorf("name with a line break: error %v, want ErrInvalid", err)
	}
}

// TestBase64Lines: a body encoded by Base64Lines is what go-message's base64 writer
// writes — lines of 76, CRLF between them, none after the last — for lengths around
// a line's edges, and encodedLen gives its length.
func TestBase64Lines(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 56, 57, 58, 114, 1000, 60_001} {
		data := bytes.Repeat([]byte{0xfb, 0x01, 0x7f}, n/3+1)[:n]
		var want bytes.Buffer
		h := message.Header{}
		h.Set("Content-Transfer-Encoding", "base64")
		w, err := message.CreateWriter(&want, h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		_, body, _ := strings.Cut(want.String(), "\r\n\r\n")
		got := Base64Lines(data)
		if string(got) != body || len(got) != encodedLen(n) {
			t.Errorf("%d bytes: %q (%d, encodedLen %d), want %q", n, got, len(got), encodedLen(n), body)
		}
	}
}

// TestBuild_encodedInline: a picture given encoded reads back as its data, as one
// Build encodes; an encoding that is not its data's length is refused.
func TestBuild_encodedInline(t *testing.T) {
	data := bytes.Repeat([]byte("\x89PNG\r\n\x1a\n"), 1000)
	m := Mail{From: Address{Address: "turnmail@example.org"}, To: []Address{{Address: "ann@example.org"}}, Subject: "board",
		Text: "the board", HTML: `<p><img src="cid:board.1@example.org"></p>`,
		Inline: []Inline{{ContentID: "board.1@example.org", Name: "board.png", ContentType: "image/png", Data: data, Encoded: Base64Lines(data)}}}
	_, e := built(t, m)
	var got []byte
	var err error
	shape := tree(t, e, func(p *message.Entity) {
		if mt, _, _ := p.Header.ContentType(); mt == "image/png" {
			got, err = io.ReadAll(p.Body)
			if err != nil {
				t.Fatal(err)
			}
		}
	})
	if shape != "multipart/alternative[text/plain multipart/related[text/html image/png]]" || !bytes.Equal(got, data) {
		t.Errorf("shape %s, picture of %d bytes (want %d)", shape, len(got), len(data))
	}
	m.Inline[0].Encoded = m.Inline[0].Encoded[:len(m.Inline[0].Encoded)-4]
	if _, err := Build(m); !errors.Is(err, ErrInvalid) {
		t.Errorf("a cut encoding: %v, want ErrInvalid", err)
	}
}

// built is m as Build writes it, and read back.
func built(t *testing.T, m Mail) ([]byte, *message.Entity) {
	t.Helper()
	raw, err := Build(m)
	if err != nil {
		t.Fatal(err)
	}
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return raw, e
}
