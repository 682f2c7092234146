package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/scene/draw"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/web/page"
)

// The game's web pages (issue 25) read the games through these three methods, which
// make the Service a web.Source.

// PageGames lists the games with a public page, newest first: started and not
// private.
func (s *Service) PageGames(ctx context.Context) ([]page.Summary, error) {
	games, err := s.store.Games(ctx)
	if err != nil {
		return nil, err
	}
	var out []page.Summary
	for _, g := range games {
		if g.Status == store.GameOpen || g.Status == "" || settingsOf(g.Settings).Private {
			continue
		}
		_, players, err := s.store.Game(ctx, g.ID)
		if err != nil {
			return nil, err
		}
		sum := page.Summary{ID: g.ID, Kind: g.Kind, Finished: g.Status == store.GameFinished}
		for _, p := range players {
			if p.Role == "" || p.Role == store.RolePlayer {
				sum.Players = append(sum.Players, p.Name)
			}
		}
		out = append(out, sum)
		if len(out) == 100 {
			break
		}
	}
	return out, nil
}

// PageHead returns what a game's pages need before replaying it: two small reads.
// An unknown game is an error wrapping store.ErrNotFound.
func (s *Service) PageHead(ctx context.Context, id string) (page.Head, error) {
	g, players, err := s.store.Game(ctx, id)
	if err != nil {
		return page.Head{}, err
	}
	seq, err := s.store.LastSeq(ctx, id)
	if err != nil {
		return page.Head{}, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%s\x00", seq, g.Status, g.UpdatedAt.Format(time.RFC3339Nano), g.Settings)
	head := page.Head{Private: settingsOf(g.Settings).Private, Started: g.Status != store.GameOpen && g.Status != ""}
	for _, p := range players {
		fmt.Fprintf(h, "%d\x00%s\x00%s\x00%s\x00%d\x00", p.Seat, p.Name, p.Email, p.Role, p.Epoch)
		head.Seats = append(head.Seats, page.Seat{Seat: p.Seat, Epoch: p.Epoch, Name: p.Name, Observer: p.Role == store.RoleObserver})
	}
	head.Version = hex.EncodeToString(h.Sum(nil)[:12])
	return head, nil
}

// PageRecord returns a game replayed, as its pages show it.
func (s *Service) PageRecord(ctx context.Context, id string) (*page.Record, error) {
	l, err := s.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	if l.State == nil {
		return nil, fmt.Errorf("game %s has not started: %w", id, store.ErrNotFound)
	}
	return s.pageRecord(l), nil
}

// pageRecord is a loaded game as its pages show it.
func (s *Service) pageRecord(l *Loaded) *page.Record {
	a := l.Archive()
	rec := &page.Record{ID: l.Game.ID, Kind: l.Game.Kind, Events: a.Events, States: l.States,
		Paused: l.Game.Status == store.GamePaused, Resigned: l.Facts.Resigned,
		Lang: s.langOf(l.Settings, ""), Zone: l.Settings.location(""),
		Langs: map[string]i18n.Lang{}, Zones: map[string]*time.Location{}, Deadlines: map[string]time.Time{}}
	for _, p := range a.Players {
		rec.Players = append(rec.Players, p.Name)
	}
	for _, p := range l.Players {
		rec.Langs[p.Name] = s.langOf(l.Settings, p.Name)
		rec.Zones[p.Name] = l.Settings.location(p.Name)
	}
	if over, winners := gameOver(l, l.State); over && !l.State.Finished() {
		rec.Over, rec.Winners = true, winners
	}
	for _, d := range l.Deadlines() {
		rec.Deadlines[d.Player] = d.Due
	}
	kind := l.Game.Kind
	rec.EventWords = func(lang i18n.Lang, e engine.Event) string { return EventWords(s.tr, lang, kind, e.Kind, e.Command) }
	rec.PictureWords = func(lang i18n.Lang) draw.Words { return PictureWords(s.tr, lang, kind) }
	return rec
}
