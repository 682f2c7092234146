package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/compose"
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
	return s.pageRecord(l)
}

// pageRecord is a loaded game as its pages show it: its log replayed, the state
// after every event kept (the pages show any of them; a Loaded holds only what a
// mail needs). Load verified the log's hashes: this replay does not again.
func (s *Service) pageRecord(l *Loaded) (*page.Record, error) {
	a := l.Archive()
	unhashed := *a
	unhashed.Events = slices.Clone(a.Events)
	for i := range unhashed.Events {
		unhashed.Events[i].Hash = ""
	}
	states, err := engine.ReplayAll(s.games, &unhashed, -1)
	if err != nil {
		return nil, fmt.Errorf("replay game %s: %w", l.Game.ID, err)
	}
	rec := &page.Record{ID: l.Game.ID, Kind: l.Game.Kind, Events: a.Events, States: states,
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
	return rec, nil
}

// pageLink is the address of the web page a state mail to p links: a player's own
// private page; an observer's, the public page, or their own link to the public view
// when the game is private; the mailing list's, the public page (none for a private
// game). "" when the service has no pages (Options.PageURL).
func (s *Service) pageLink(l *Loaded, p store.Player) string {
	if s.opts.PageURL == "" || l.State == nil {
		return ""
	}
	private := l.Settings.Private
	switch {
	case p.Email == "" && private: // the list of a private game
		return ""
	case p.Role != store.RoleObserver || private:
		return s.opts.PageURL + "p/" + auth.PageToken(s.opts.Secret, l.Game.ID, p.Seat, p.Epoch) + "/"
	}
	return s.opts.PageURL + "g/" + l.Game.ID + "/"
}

// MaxReplaySteps bounds the events of a game whose end-of-game mail attaches its
// replay: writing every step's picture costs a few milliseconds each, and a longer
// game's replay would not fit in a mail anyway (it is on the web, and `turnmail
// replay GAME.json --html FILE` writes it from the host's export).
const MaxReplaySteps = 600

// replayFile is the replay of a finished game as the end-of-game mail attaches it:
// the public view of every step (the same file for every reader: it holds nobody's
// secrets), in lang, within a fifth of the mail size limit (compressed, or with
// fewer pictures, when it must be). ok is false when there is none: the game has too
// many steps or does not fit. Files are kept per game, last event and language, so
// that all the readers of one end share one.
func (s *Service) replayFile(l *Loaded, lang i18n.Lang) (compose.Attachment, bool) {
	if s.opts.NoPictures || l.State == nil {
		return compose.Attachment{}, false
	}
	key := fmt.Sprintf("%s\x00%d\x00%s", l.Game.ID, l.LastSeq(), lang)
	s.replayFiles.mu.Lock()
	defer s.replayFiles.mu.Unlock()
	if f, ok := s.replayFiles.files[key]; ok {
		return f, f.Data != nil
	}
	f, err := s.writeReplay(l, lang)
	if err != nil {
		s.log.Info("no replay attached to the end-of-game mail", "game", l.Game.ID, "err", err)
	}
	if len(s.replayFiles.files) >= 8 {
		clear(s.replayFiles.files)
	}
	if s.replayFiles.files == nil {
		s.replayFiles.files = map[string]compose.Attachment{}
	}
	s.replayFiles.files[key] = f
	return f, f.Data != nil
}

// replayFiles are the replay files last written (see replayFile).
type replayFiles struct {
	mu    sync.Mutex
	files map[string]compose.Attachment // Data nil: none could be written
}

// writeReplay writes the public replay file of a game in lang.
func (s *Service) writeReplay(l *Loaded, lang i18n.Lang) (compose.Attachment, error) {
	if len(l.Events) > MaxReplaySteps {
		return compose.Attachment{}, fmt.Errorf("%d events, more than %d", len(l.Events), MaxReplaySteps)
	}
	rec, err := s.pageRecord(l)
	if err != nil {
		return compose.Attachment{}, err
	}
	rd := rec.ReaderOf(engine.Observer, "")
	rd.Lang = lang
	r, err := page.Build(rec, rd, s.tr)
	if err != nil {
		return compose.Attachment{}, err
	}
	w, err := page.New(s.tr)
	if err != nil {
		return compose.Attachment{}, err
	}
	var b bytes.Buffer
	if _, err := w.File(&b, r, page.FileOptions{MaxBytes: int(s.opts.MaxMailBytes / 5)}); err != nil {
		return compose.Attachment{}, err
	}
	return compose.Attachment{Name: l.Game.ID + ".html", ContentType: "text/html; charset=utf-8", Data: b.Bytes()}, nil
}
