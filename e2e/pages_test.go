package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/mail"
	"regexp"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// pageLink matches the link a state mail gives its reader to their web page.
var pageLink = regexp.MustCompile(`http://127\.0\.0\.1:\d+/[gp]/[a-z0-9.-]+/`)

// fetch gets a page of the daemon's web server: its status and body.
func fetch(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

// linkIn returns the page link of a mail.
func linkIn(t *testing.T, body string) string {
	t.Helper()
	// The text part may break the line after "on the web:"; the link is whole.
	l := pageLink.FindString(body)
	if l == "" {
		t.Fatalf("no page link in:\n%s", body)
	}
	return l
}

// TestPages_byMail follows the links of the players' mails to their pages, as a
// player does: each mail links its reader's own page; a seat handed to another
// address revokes the old link and the new holder's mails carry a new one; the
// end-of-game mail attaches the replay of the whole game; a private game has no
// public page, but its players' links work.
func TestPages_byMail(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, cy := h.addr("ann"), h.addr("ben"), h.addr("cy")
	game, err := h.d.Service.CreateGame(context.Background(), service.NewGame{
		Kind:    "tally",
		Options: map[string]json.RawMessage{"turns": json.RawMessage("true"), "target": json.RawMessage("5")},
		Players: []engine.Player{{Name: "ann", Email: ann}, {Name: "ben", Email: ben}}, Host: ann,
	})
	if err != nil {
		t.Fatal(err)
	}
	ma := h.waitMail(ann, "Your move")
	annLink := linkIn(t, ma.Body)
	if code, body := fetch(t, annLink); code != http.StatusOK || !strings.Contains(body, "ann&#39;s view") {
		t.Fatalf("ann's link %s: %d\n%s", annLink, code, body)
	}
	benLink := linkIn(t, h.waitMail(ben, "It is ann's move").Body)
	if code, _ := fetch(t, benLink); code != http.StatusOK || benLink == annLink {
		t.Fatalf("ben's link %s: %d", benLink, code)
	}

	h.send(ann, replyTo(t, ma), "Re", "replace ben "+cy+"\n")
	h.confirm(cy, "yes", "the seat of ben")
	cyLink := linkIn(t, h.waitMail(cy, "You take over the seat ben").Body)
	if code, _ := fetch(t, benLink); code != http.StatusNotFound {
		t.Errorf("ben's link after the seat was handed over: %d, want 404", code)
	}
	if code, _ := fetch(t, cyLink); code != http.StatusOK || cyLink == benLink {
		t.Errorf("the new holder's link %s: %d", cyLink, code)
	}

	h.send(ann, replyTo(t, ma), "Re", "add 5\n")
	end := h.waitMail(ann, "Game over", "is attached as "+game+".html")
	if l := linkIn(t, end.Body); l != annLink {
		t.Errorf("the end-of-game mail links %s, want %s", l, annLink)
	}
	replay := attachment(t, h, ann, game+".html")
	// The tally game does not narrate: its moves say what was sent; the service's
	// own events are told in its sentences.
	for _, want := range []string{"<!DOCTYPE html>", `<section class="step`, "ann sent: add 5", "ben&#39;s seat went to a new address"} {
		if !strings.Contains(replay, want) {
			t.Errorf("the attached replay lacks %q", want)
		}
	}
	base := annLink[:strings.Index(annLink, "/p/")+1]
	for _, p := range []string{"", "g/" + game + "/", "g/" + game + "/0"} {
		if code, body := fetch(t, base+p); code != http.StatusOK || !strings.Contains(body, game) {
			t.Errorf("%s: %d", base+p, code)
		}
	}

	private, err := h.d.Service.CreateGame(context.Background(), service.NewGame{
		Kind: "tally", Players: []engine.Player{{Name: "ann", Email: ann}, {Name: "ben", Email: ben}},
		Host: ann, Settings: service.Settings{Private: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	pa := h.waitMail(ann, "("+private+") has started", "On the web:")
	if code, _ := fetch(t, linkIn(t, pa.Body)); code != http.StatusOK {
		t.Errorf("ann's link to the private game: %d", code)
	}
	if code, _ := fetch(t, base+"g/"+private+"/"); code != http.StatusNotFound {
		t.Errorf("the private game's public page: %d, want 404", code)
	}
	if _, body := fetch(t, base); strings.Contains(body, private) {
		t.Error("the private game is listed")
	}
}

// attachment returns the file named name of the last mail queued to addr.
func attachment(t *testing.T, h *harness, addr, name string) string {
	t.Helper()
	rows, err := h.d.Store.Outbox(context.Background(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	var last *store.OutMail
	for i := range rows {
		if strings.EqualFold(rows[i].To[0], addr) {
			last = &rows[i]
		}
	}
	if last == nil {
		t.Fatalf("no mail to %s", addr)
	}
	m, err := mail.ReadMessage(strings.NewReader(string(last.Raw)))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(ct string, r io.Reader) string
	walk = func(ct string, r io.Reader) string {
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil || !strings.HasPrefix(mt, "multipart/") {
			return ""
		}
		mr := multipart.NewReader(r, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				return ""
			}
			if p.FileName() == name {
				b, _ := io.ReadAll(base64.NewDecoder(base64.StdEncoding, p))
				return string(b)
			}
			if s := walk(p.Header.Get("Content-Type"), p); s != "" {
				return s
			}
		}
	}
	f := walk(m.Header.Get("Content-Type"), m.Body)
	if f == "" {
		t.Fatalf("the last mail to %s attaches no %s", addr, name)
	}
	return f
}
