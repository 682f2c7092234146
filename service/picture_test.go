package service

import (
	"errors"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/picturecheck"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/store"
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
			l.States = []engine.State{s.State}
			return nil
		}
		l.Events = append(l.Events, store.Event{Seq: s.N, Kind: engine.KindMove, Player: s.Player, Command: s.Command})
		l.States = append(l.States, s.State)
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
		m, err := svc.stateMail(l, l.State, p, l.Events[len(l.Events)-1:], nil, nil, nil, "")
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
	m, err := svc.stateMail(l, l.State, l.Seats()[0], l.Events[len(l.Events)-1:], nil, nil, nil, "")
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
