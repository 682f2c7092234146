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
	"github.com/turnmail/turnmail/templates"
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

// PageRecord returns a game replayed, as its pages show it. prev, when not nil, is
// a record of the game the pages hold from an earlier version: the states after
// the events the log still has as prev has them are taken from it, and only the
// events after them are replayed.
func (s *Service) PageRecord(ctx context.Context, id string, prev *page.Record) (*page.Record, error) {
	l, err := s.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	if l.State == nil {
		return nil, fmt.Errorf("game %s has not started: %w", id, store.ErrNotFound)
	}
	return s.pageRecord(l, prev)
}

// pageRecord is a loaded game as its pages show it: the state after every event
// (the pages show any of them; a Loaded holds only what a mail needs), those after
// the events it shares with prev (nil: none) taken from prev, the others replayed
// from the last of them. Load verified the log's hashes: this replay does not again.
func (s *Service) pageRecord(l *Loaded, prev *page.Record) (*page.Record, error) {
	a := l.Archive()
	unhashed := slices.Clone(a.Events)
	for i := range unhashed {
		unhashed[i].Hash = ""
	}
	shared := sharedStates(prev, l.Game.ID, a)
	states := make([]engine.State, 0, len(a.Events)+1)
	if shared > 0 {
		states = append(states, prev.States[:shared]...)
	} else {
		initial, err := s.setupOf(l, a)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", l.Game.ID, err)
		}
		states = append(states, initial)
	}
	f := engine.Fold{Seed: l.Seed, Events: unhashed, Base: states[len(states)-1], BaseSeq: len(states) - 1, Journal: true, Keep: true,
		StateAt: func(seq int) (engine.State, error) { return states[seq], nil },
		Visit: func(_ int, st engine.State) error {
			states = append(states, st)
			return nil
		}}
	if _, err := f.Run(-1); err != nil {
		return nil, fmt.Errorf("replay game %s: %w", l.Game.ID, err)
	}
	s.replays.Add(1)
	s.replayed.Add(int64(len(a.Events) + 1 - max(shared, 1)))
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
	rec.Tell = s.tell
	rec.PictureWords = func(lang i18n.Lang) draw.Words { return PictureWords(s.tr, lang, kind) }
	return rec, nil
}

// setupOf returns the setup's state of l, whose archive is a: its history's, or,
// for a game loaded without one (an import's), started anew.
func (s *Service) setupOf(l *Loaded, a *engine.Archive) (engine.State, error) {
	if l.hist != nil {
		return l.hist.at(0)
	}
	g, err := s.games.Lookup(a.Game)
	if err != nil {
		return nil, err
	}
	es, err := a.SetupOf()
	if err != nil {
		return nil, err
	}
	initial, _, err := engine.Start(g, es, a.SetupOutcomes)
	return initial, err
}

// sharedStates counts the states of prev (a record of game id) that stand as they
// are for the archive a of the game now: the setup's and those after the events a
// begins with as prev has them (0 when prev is nil or of another game).
func sharedStates(prev *page.Record, id string, a *engine.Archive) int {
	if prev == nil || prev.ID != id || prev.Kind != a.Game || len(prev.Players) != len(a.Players) ||
		len(prev.Events) > len(a.Events) || len(prev.States) != len(prev.Events)+1 {
		return 0
	}
	for i, p := range a.Players {
		if prev.Players[i] != p.Name {
			return 0
		}
	}
	for i, e := range prev.Events {
		n := a.Events[i]
		if e.Kind != n.Kind || e.Player != n.Player || e.Command != n.Command || e.Hash != n.Hash {
			return 0
		}
	}
	return len(prev.States)
}

// tell says an event that is not a move on a game's page (page.Record.Tell) as the
// mails tell it: an undo with the move it took back, an administrative event but a
// player's own settings (theirs only) and messages (on a player's own pages only,
// those they could read: never on the public page, which anyone may read).
func (s *Service) tell(lang i18n.Lang, viewer string, e engine.Event, takenBack string) string {
	se := store.Event{Kind: e.Kind, Player: e.Player, Command: e.Command}
	switch e.Kind {
	case engine.KindUndo:
		u, _ := readUndo(e.Command) // one that does not read says "taken back"
		return u.sentence(s.tr, lang, takenBack)
	case engine.KindAdmin:
		if isPref(se) && e.Player != viewer || isChat(se) && (viewer == engine.Observer || !chatVisible(se, viewer)) {
			return ""
		}
		return s.adminSentence(se, lang)
	}
	return ""
}

// Teller returns what tells the events of a game that are not moves on its pages and
// in its replay files (page.Record.Tell) as the service does, without a service
// (turnmail replay --html).
func Teller(tr *i18n.Bundle, tmpl *templates.Set) func(lang i18n.Lang, viewer string, e engine.Event, takenBack string) string {
	s := &Service{tr: tr, tmpl: tmpl, opts: Options{Clock: time.Now}}
	return s.tell
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
	rec, err := s.pageRecord(l, nil)
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
