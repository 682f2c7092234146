package service

import (
	"errors"
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
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	checked := 0
	for _, tc := range []struct {
		kind    string
		players []int
	}{{"smallworld", []int{2, 3, 4, 5}}, {"underground", []int{2, 3, 4, 5}}, {"necromancer", []int{3, 6}}} {
		for _, n := range tc.players {
			keys := map[string]bool{}
			var views []any
			_, err := selfplay.Play(games.Registry()[tc.kind], selfplay.Config{Seed: 9, Players: n}, func(s selfplay.Step) error {
				v := s.State.View(engine.Observer).(*smallworld.View)
				for _, r := range v.Regions {
					keys[r.Terrain] = true
					for _, sym := range r.Symbols {
						keys[sym], keys[sym+" symbol"] = true, true
					}
					for k := range r.Pieces {
						keys[k] = true
					}
				}
				if s.N%60 == 0 {
					views = append(views, v)
				}
				if s.N == 240 {
					return stop
				}
				return nil
			})
			if err != nil && !errors.Is(err, stop) {
				t.Fatal(err)
			}
			for _, lang := range []i18n.Lang{i18n.English, i18n.Italian} {
				for _, v := range views {
					sc, err := draw.Scene(draw.Input{View: v, Changed: []string{"1"}, Words: PictureWords(tr, lang, tc.kind)})
					if err != nil {
						t.Fatal(err)
					}
					for _, it := range sc.Items {
						txt, ok := it.(*scene.Text)
						if !ok {
							continue
						}
						if rawKey(tr, keys, txt.Text) {
							t.Errorf("%s, %d players, %s: the picture shows %q, a key of the game's data", tc.kind, n, lang, txt.Text)
						}
						checked++
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no text checked")
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
