package service

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/engine/smallworld"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/picturecheck"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/scene"
	"github.com/turnmail/turnmail/scene/draw"
	"github.com/turnmail/turnmail/scene/raster"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// checkPicture checks a state mail's picture (see picturecheck.Read).
func checkPicture(raw []byte, _ string) error {
	_, err := picturecheck.Read(raw)
	return err
}

// loadedAt is a loaded Small World game of three self-played seats after n commands.
func loadedAt(t testing.TB, n int) *Loaded {
	t.Helper()
	cfg := selfplay.Config{Seed: 5, Players: 3}
	l := renderLoaded("smallworld", cfg)
	stop := errors.New("stop")
	_, err := selfplay.Play(games.Registry()["smallworld"], cfg, func(s selfplay.Step) error {
		l.State = s.State
		if s.N == 0 {
			l.hist = &history{gameID: l.Game.ID, known: map[int]engine.State{0: s.State}}
			return nil
		}
		l.Events = append(l.Events, store.Event{Seq: s.N, Kind: engine.KindMove, Player: s.Player, Command: s.Command})
		l.hist.events = append(l.hist.events, engine.Event{Player: s.Player, Command: s.Command})
		l.hist.known[s.N] = s.State
		if s.N == n {
			return stop
		}
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		t.Fatal(err)
	}
	return l
}

// TestPicture_inStateMailsAndRefusals: a state mail and a refusal carry the board's
// picture; its alt text says whose move it follows and who holds what; readers who
// see the same board share one drawing (the same PNG).
func TestPicture_inStateMailsAndRefusals(t *testing.T) {
	svc := newRenderService(t)
	l := loadedAt(t, 30)
	last := l.Events[len(l.Events)-1]
	var pngs [][]byte
	for _, p := range l.Seats() {
		m, err := svc.stateMail(l, l.State, p, l.Events[len(l.Events)-1:], reply{})
		if err != nil {
			t.Fatal(err)
		}
		pic, err := picturecheck.Read(m.Raw)
		if err != nil {
			t.Fatalf("state mail to %s: %v", p.Name, err)
		}
		if !strings.HasPrefix(pic.Alt, "Board after "+last.Player+"&#39;s move.") || !strings.Contains(pic.Alt, "regions held") {
			t.Errorf("alt text %q: want whose move and who holds what", pic.Alt)
		}
		pngs = append(pngs, pic.PNG)
		r, err := svc.refusal(l, p, "paused", nil, "<x@example.org>")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := picturecheck.Read(r.Raw); err != nil {
			t.Fatalf("refusal to %s: %v", p.Name, err)
		}
	}
	for _, b := range pngs[1:] {
		if string(b) != string(pngs[0]) {
			t.Error("readers of one board got different pictures")
		}
	}
}

// TestPicture_leftOutOfATooLargeMail: a mail that the picture would make larger than
// MaxMailBytes goes without it, its HTML part still whole (no <img> left pointing at a
// missing part).
func TestPicture_leftOutOfATooLargeMail(t *testing.T) {
	svc := newRenderService(t)
	svc.opts.MaxMailBytes = 64 << 10
	l := loadedAt(t, 30)
	m, err := svc.stateMail(l, l.State, l.Seats()[0], l.Events[len(l.Events)-1:], reply{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Raw) > 64<<10 {
		t.Fatalf("mail of %d bytes, over the limit", len(m.Raw))
	}
	parts, err := mailParts(m.Raw)
	if err != nil {
		t.Fatal(err)
	}
	if parts["text/html"] == "" || strings.Contains(parts["text/html"], "cid:") || parts["image/png"] != "" {
		t.Errorf("parts %v: want the HTML without the picture", keys(parts))
	}
}

// TestPicture_namesFromTheCatalogues: no text of a picture is a key of the game's
// data (a terrain, symbol or piece key such as "blackmountain", "laras_ghost", or a
// symbol's term "mine symbol"), in English or Italian, for every map game and
// number of players, at states of self-played games: the legend shows the printed
// names.
func TestPicture_namesFromTheCatalogues(t *testing.T) {
	checked := 0
	games := []pictureGame{{"smallworld", []int{2, 3, 4, 5}}, {"underground", []int{2, 3, 4, 5}}, {"necromancer", []int{3, 6}}}
	eachPictureScene(t, games, 9, 60, 240, true, func(tr *i18n.Bundle, c pictureCase, view any, sc *scene.Scene) {
		keys := map[string]bool{}
		for _, r := range view.(*smallworld.View).Regions {
			keys[r.Terrain] = true
			for _, sym := range r.Symbols {
				keys[sym], keys[sym+" symbol"] = true, true
			}
			for k := range r.Pieces {
				keys[k] = true
			}
		}
		for _, it := range sc.Items {
			if txt, ok := it.(*scene.Text); ok {
				if rawKey(tr, keys, txt.Text) {
					t.Errorf("%s: the picture shows %q, a key of the game's data", c, txt.Text)
				}
				checked++
			}
		}
	})
	if checked == 0 {
		t.Fatal("no text checked")
	}
}

// pictureGame is a game and its numbers of players, for eachPictureScene.
type pictureGame struct {
	kind    string
	players []int
}

// pictureCase is one picture of eachPictureScene: its game, number of players and
// language.
type pictureCase struct {
	kind string
	n    int
	lang i18n.Lang
}

func (c pictureCase) String() string { return fmt.Sprintf("%s, %d players, %s", c.kind, c.n, c.lang) }

// eachPictureScene plays a self-played game (seed) of each kind and number of
// players and calls f with the scene of the picture of the view (an observer's, or
// the first seat's) every every commands to command last, in English and in Italian.
func eachPictureScene(t *testing.T, list []pictureGame, seed int64, every, last int, observer bool, f func(tr *i18n.Bundle, c pictureCase, view any, sc *scene.Scene)) {
	t.Helper()
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	for _, g := range list {
		for _, n := range g.players {
			reader := selfplay.Seats(n)[0].Name
			if observer {
				reader = engine.Observer
			}
			var views []any
			_, err := selfplay.Play(games.Registry()[g.kind], selfplay.Config{Seed: seed, Players: n}, func(s selfplay.Step) error {
				if s.N%every == 0 {
					views = append(views, s.State.View(reader))
				}
				if s.N == last {
					return stop
				}
				return nil
			})
			if err != nil && !errors.Is(err, stop) {
				t.Fatal(err)
			}
			for _, lang := range []i18n.Lang{i18n.English, i18n.Italian} {
				for _, v := range views {
					sc, err := draw.Scene(draw.Input{View: v, Changed: []string{"1"}, Words: PictureWords(tr, lang, g.kind)})
					if err != nil {
						t.Fatal(err)
					}
					f(tr, pictureCase{g.kind, n, lang}, v, sc)
				}
			}
		}
	}
}

// rawKey reports whether text shows a key of the game's data as it is: the key
// itself, a key whose printed name differs from it in any case ("Blackmountain"), a
// symbol's term ("Mine Symbol"), or a key's underscore.
func rawKey(tr *i18n.Bundle, keys map[string]bool, text string) bool {
	if keys[text] || strings.Contains(text, "_") || strings.HasSuffix(strings.ToLower(text), " symbol") {
		return true
	}
	for k := range keys {
		if strings.EqualFold(k, text) && templates.DisplayName(tr, "en", k) != k {
			return true
		}
	}
	return false
}

// TestPicture_textsFit: every text of a picture lies within its width (measured in
// the font), and a text on an Empire card or panel within it, in English and
// Italian, for every game and number of players, at states of self-played games (the
// legend's longest lines, the Necromancer's, the cards' and the players' names);
// only a text in a box (a map cell) may be cut short to fit it, never an Empire
// card's: the legend's
// long lines are wrapped whole (Dungeoneer's "the card's number, as the mail's map
// lists it (m01: The Sunken Gate)" was cut to 70 characters, "… (m01: La Po…", and
// fitted the width so).
func TestPicture_textsFit(t *testing.T) {
	checked := 0
	games := []pictureGame{{"smallworld", []int{2, 5}}, {"underground", []int{2, 5}}, {"necromancer", []int{3, 6}}, {"empire", []int{2, 4}}, {"dungeoneer", []int{2, 4}}}
	eachPictureScene(t, games, 3, 50, 200, false, func(_ *i18n.Bundle, c pictureCase, _ any, sc *scene.Scene) {
		var cards, boxes []*scene.Rect // Empire's cards and panels; every box (a card, a map cell)
		for _, it := range sc.Items {
			if r, ok := it.(*scene.Rect); ok {
				boxes = append(boxes, r)
				if r.Radius == 5 {
					cards = append(cards, r)
				}
			}
		}
		inBox := func(p scene.Point) bool {
			return slices.ContainsFunc(boxes, func(r *scene.Rect) bool { return p.X > r.Min.X && p.X < r.Max.X && p.Y > r.Min.Y && p.Y < r.Max.Y })
		}
		for _, it := range sc.Items {
			txt, ok := it.(*scene.Text)
			if !ok {
				continue
			}
			w, err := raster.Measure(txt)
			if err != nil {
				t.Fatal(err)
			}
			x0 := txt.At.X
			switch txt.Anchor {
			case scene.Middle:
				x0 -= w / 2
			case scene.End:
				x0 -= w
			}
			if x0 < 0 || x0+w > sc.Width+0.5 {
				t.Errorf("%s: %q runs from x %.0f to %.0f, out of the picture's %.0f", c, txt.Text, x0, x0+w, sc.Width)
			}
			if strings.HasSuffix(txt.Text, "…") && !inBox(txt.At) {
				// Only a box's text is fitted to it; the legend wraps its lines.
				t.Errorf("%s: %q is cut short", c, txt.Text)
			}
			for _, r := range cards {
				in := txt.At.X > r.Min.X && txt.At.X < r.Max.X && txt.At.Y > r.Min.Y && txt.At.Y < r.Max.Y
				if in && (x0 < r.Min.X || x0+w > r.Max.X) {
					t.Errorf("%s: %q runs from x %.0f to %.0f, out of its card's %.0f–%.0f", c, txt.Text, x0, x0+w, r.Min.X, r.Max.X)
				}
				if in && strings.HasSuffix(txt.Text, "…") {
					// An Empire card's name, action and ability are whole (two cards a
					// row; three left "3 armate da piazzare oppure 4 p…").
					t.Errorf("%s: %q is cut short on its card", c, txt.Text)
				}
			}
			checked++
		}
	})
	if checked == 0 {
		t.Fatal("no text checked")
	}
}
