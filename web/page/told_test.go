package page

import (
	"bytes"
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
)

// withUndo is a copy of archive a with, after its fourth event, a message, a
// resignation's stand-in and an undo of that event, as the service records them; the
// hashes after them are left out (the undo shifts the draws' sequence numbers).
func withUndo(a *engine.Archive) *engine.Archive {
	c := *a
	e := a.Events[3]
	c.Events = append(append(append([]engine.Event{}, a.Events[:4]...),
		engine.Event{Kind: engine.KindAdmin, Player: "ann", Command: "say hello"},
		engine.Event{Kind: engine.KindAdmin, Player: "ben", Command: "tz Europe/Rome"},
		engine.Event{Kind: engine.KindUndo, Command: "agreed by ben, taking back " + e.Player + ": " + e.Command}),
		a.Events[3:]...)
	for i := 7; i < len(c.Events); i++ {
		c.Events[i].Hash = ""
	}
	return &c
}

// kinds name a self-played game of each kind (see archives).
var kinds = []string{"smallworld/2", "underground/3", "necromancer/3", "empire/2", "dungeoneer/3"}

// oneOfEach returns the archives, each of kinds among them.
func oneOfEach(t *testing.T) map[string]*engine.Archive {
	t.Helper()
	as, err := archives()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range kinds {
		if as[name] == nil {
			t.Fatalf("no game %s", name)
		}
	}
	return as
}

// fakeTell tells as a service would, in a form a test recognises: an undo with the
// move it took back, a message to everyone, nothing else.
func fakeTell(lang i18n.Lang, viewer string, e engine.Event, takenBack string) string {
	switch {
	case e.Kind == engine.KindUndo:
		return "[" + string(lang) + " " + viewer + "] taken back: " + takenBack
	case strings.HasPrefix(e.Command, "say "):
		return "[" + string(lang) + " " + viewer + "] " + e.Player + " says: " + strings.TrimPrefix(e.Command, "say ")
	}
	return ""
}

// TestBuild_told: every step of a game of every kind (its first 400 events: the
// whole game but Dungeoneer's), in both languages, for the public, a player and
// the complete record, says what it did in the game's
// sentences — never the command sent, where the game narrates it: the step's
// sentence is the first of the game's account, the list of moves and the page carry
// no command as sent; an undo tells, through Record.Tell, the sentence of the move it
// took back; an event that is no step is told under the step before it, unless Tell
// leaves it out.
func TestBuild_told(t *testing.T) {
	as := oneOfEach(t)
	tr, w := tools(t)
	for _, name := range kinds {
		a := as[name]
		rec := record(t, withUndo(a), min(len(a.Events)+3, 400))
		rec.Tell = fakeTell
		for _, lang := range i18n.Langs {
			for _, viewer := range []string{engine.Observer, "ann", ""} {
				r, err := Build(rec, Reader{Viewer: viewer, Lang: lang}, tr)
				if err != nil {
					t.Fatal(err)
				}
				var raw []string // the commands as sent, in the reader's words, with their senders
				narrated := 0
				for _, st := range r.Steps()[1:] {
					e := rec.Events[st.N-1]
					if st.Undo {
						want := fakeTell(lang, viewer, e, r.Steps()[4].Said)
						if st.Said != want || len(st.told) != 1 {
							t.Errorf("%s %s %q: the undo says %q, want %q", name, lang, viewer, st.Said, want)
						}
						continue
					}
					cmd := tr.Command(rec.Kind, lang, engine.MaskCommand(rec.Last(), e.Player, e.Command, viewer))
					raw = append(raw, e.Player+": "+cmd)
					hs := engine.Narrate(rec.States[st.N-1], e.Player, e.Command, rec.States[st.N], viewer)
					if len(hs) == 0 {
						t.Errorf("%s event %d (%s): the game does not narrate it", name, st.N, e.Command)
						continue
					}
					narrated++
					if want := tr.GameText(rec.Kind, lang, hs[0].Text); st.Said != want || st.told[0].Text != want {
						t.Errorf("%s %s %q event %d: says %q, want the account's %q", name, lang, viewer, st.N, st.Said, want)
					}
					if st.Said == cmd || strings.Contains(st.Said, e.Player+": "+cmd) || strings.Contains(st.Said, " sent: ") || strings.Contains(st.Said, " ha inviato: ") {
						t.Errorf("%s %s event %d shows the command: %q", name, lang, st.N, st.Said)
					}
				}
				if narrated != len(rec.Events)-3 { // all but the message, the setting and the undo
					t.Errorf("%s: %d of %d moves narrated", name, narrated, len(rec.Events)-3)
				}
				// The message after event 4 is told with event 4's step; the settings
				// that Tell leaves out are not.
				asides := r.Steps()[4].told
				if got := asides[len(asides)-1]; !got.Aside || got.Text != fakeTell(lang, viewer, rec.Events[4], "") {
					t.Errorf("%s: the message after event 4: %+v", name, got)
				}
				var b bytes.Buffer
				if err := w.Page(&b, r, len(r.Steps())-1); err != nil {
					t.Fatal(err)
				}
				page := html.UnescapeString(b.String())
				for _, c := range raw {
					if strings.Contains(page, c) || strings.Contains(page, ">"+c[strings.Index(c, ": ")+2:]+"<") {
						t.Errorf("%s %s %q: the page shows the command %q", name, lang, viewer, c)
						break
					}
				}
				for _, st := range r.Steps() {
					if !strings.Contains(page, st.Said) {
						t.Errorf("%s: the list of moves lacks %q", name, st.Said)
						break
					}
				}
			}
		}
	}
}

// TestHidden_sentences compares the sentences the game tells each reader, as the
// engine narrates them: what a player reads and the public does not (their own
// score, their sealed bid) is on no page of the public nor of another player —
// neither in the list of moves nor in the account of the step — while it is on
// their own page.
func TestHidden_sentences(t *testing.T) {
	as := oneOfEach(t)
	tr, w := tools(t)
	for _, name := range kinds {
		a := as[name]
		rec := record(t, a, min(len(a.Events), 120))
		viewers := append([]string{engine.Observer}, rec.Players...)
		told := func(i int, viewer string) map[string]bool {
			e := rec.Events[i]
			out := map[string]bool{}
			for _, h := range engine.Narrate(rec.States[i], e.Player, e.Command, rec.States[i+1], viewer) {
				out[tr.GameText(rec.Kind, i18n.English, h.Text)] = true
			}
			return out
		}
		replays := map[string]*Replay{}
		for _, v := range viewers {
			r, err := Build(rec, Reader{Viewer: v}, tr)
			if err != nil {
				t.Fatal(err)
			}
			replays[v] = r
		}
		checked := 0
		for i := range rec.Events {
			public := told(i, engine.Observer)
			for _, p := range rec.Players {
				var secret []string
				for s := range told(i, p) {
					if !public[s] {
						secret = append(secret, s)
					}
				}
				if len(secret) == 0 || checked >= 12 {
					continue
				}
				checked++
				for _, v := range viewers {
					r := replays[v]
					var b bytes.Buffer
					if err := w.Page(&b, r, r.byN[i+1]); err != nil {
						t.Fatal(err)
					}
					page := html.UnescapeString(b.String())
					for _, s := range secret {
						if got := strings.Contains(page, s); got != (v == p) {
							t.Errorf("%s event %d: %s's page shows %q (told to %s alone): %v", name, i+1, v, s, p, got)
						}
					}
				}
			}
		}
		if checked == 0 && name != "dungeoneer/3" {
			t.Errorf("%s: no sentence told to a player alone", name)
		}
	}
}

// publicReplay is the public replay of the first n events of a two-player game of
// Small World with an undo (see withUndo), its record set by set.
func publicReplay(t *testing.T, n int, set func(*Record)) (*Replay, *Writer) {
	t.Helper()
	as, err := archives()
	if err != nil {
		t.Fatal(err)
	}
	tr, w := tools(t)
	rec := record(t, withUndo(as["smallworld/2"]), n)
	set(rec)
	r, err := Build(rec, Reader{Viewer: engine.Observer}, tr)
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}

// TestMoveList_escaped: the list of moves, written without a template, escapes what
// its sentences hold.
func TestMoveList_escaped(t *testing.T) {
	r, w := publicReplay(t, 10, func(rec *Record) {
		rec.Tell = func(i18n.Lang, string, engine.Event, string) string { return `<b onclick="x">&amp;</b>` }
	})
	var b bytes.Buffer
	if err := w.Page(&b, r, 0); err != nil {
		t.Fatal(err)
	}
	list := b.String()[strings.Index(b.String(), `<section class="moves">`):]
	if strings.Contains(list, "<b") || !strings.Contains(list, `&lt;b onclick=&#34;x&#34;&gt;&amp;amp;&lt;/b&gt;`) {
		t.Errorf("the list of moves: %s", list)
	}
}

// TestMoveList_open: the list of moves folds each turn; a page opens the turn of its
// step alone and marks the step in it, a replay file the last turn.
func TestMoveList_open(t *testing.T) {
	r, w := publicReplay(t, 60, func(*Record) {})
	for _, i := range []int{0, 30, len(r.Steps()) - 1} {
		var b bytes.Buffer
		if err := w.Page(&b, r, i); err != nil {
			t.Fatal(err)
		}
		list := b.String()[strings.Index(b.String(), `<div class="list">`):]
		list = list[:strings.Index(list, "</div>")]
		groups := strings.Split(list, "<details")[1:]
		if len(groups) < 3 {
			t.Fatalf("%d turns in the list", len(groups))
		}
		for _, g := range groups {
			open := strings.HasPrefix(g, " open>")
			current := strings.Contains(g, fmt.Sprintf(`data-i="%d" aria-current="step">`, r.Steps()[i].N))
			if open != current || strings.Contains(g, "aria-current") != current {
				t.Errorf("step %d: a turn open %v, holding the step %v: %.80s", i, open, current, g)
			}
		}
	}
	var b bytes.Buffer
	if _, err := w.File(&b, r, FileOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "<details open>"); n != 1 || !strings.Contains(b.String()[strings.LastIndex(b.String(), "<details"):], `<details open>`) {
		t.Errorf("the file opens %d turns, or not the last", n)
	}
}

// TestFile_who: a player's replay file, which is no link, says whose view it is
// without calling itself their link; their page does.
func TestFile_who(t *testing.T) {
	as, err := archives()
	if err != nil {
		t.Fatal(err)
	}
	pages, file := outputs(t, record(t, as["empire/2"], 6), Reader{Viewer: "ann", Lang: i18n.Italian})
	if i := strings.Index(file, `<p class="who">`); i < 0 || !strings.HasPrefix(file[i+15:], "La partita come l&#39;ha vista ann.") || strings.Contains(file, "Questo link") {
		t.Error("the file does not say whose view it is, or calls itself a link")
	}
	if !strings.Contains(pages[0], "Questo link è tuo") {
		t.Error("the page does not say the link is the reader's")
	}
}
