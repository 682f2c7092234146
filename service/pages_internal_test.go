package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
	"github.com/turnmail/turnmail/web/page"
)

// pagesService is a service whose mails link pages at https://games.example/tm/, with
// a tally game between ann and ben (target 5, in turns).
func pagesService(t *testing.T, st Settings) (*Service, string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tmpl, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(db, engine.Registry{"tally": testgame.Tally{}}, tmpl, Options{
		Address: "turnmail@games.example", Secret: []byte("a secret of sixteen bytes or more"), PageURL: "https://games.example/tm/",
		Clock: func() time.Time { return time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC) }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.CreateGame(ctx, NewGame{Kind: "tally", Players: []engine.Player{{Name: "ann", Email: "ann@games.example"}, {Name: "ben", Email: "ben@games.example"}},
		Options: map[string]json.RawMessage{"target": json.RawMessage("5"), "turns": json.RawMessage("true")}, Settings: st})
	if err != nil {
		t.Fatal(err)
	}
	return s, id
}

// TestPageLink: a player's mail links their private page, an observer's and the
// list's the public page; in a private game an observer gets a link of their own to
// the public view and the list none; without pages, no link.
func TestPageLink(t *testing.T) {
	for _, private := range []bool{false, true} {
		s, id := pagesService(t, Settings{Private: private})
		l, err := s.Load(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		ann := l.Seats()[0]
		ann.Epoch = 3
		olga := store.Player{Seat: 2, Name: "olga", Email: "olga@games.example", Role: store.RoleObserver}
		list := store.Player{Role: store.RoleObserver}
		public := "https://games.example/tm/g/" + id + "/"
		for _, tc := range []struct {
			who  store.Player
			want string
		}{
			{ann, "https://games.example/tm/p/" + auth.PageToken(s.opts.Secret, id, 0, 3) + "/"},
			{olga, map[bool]string{false: public, true: "https://games.example/tm/p/" + auth.PageToken(s.opts.Secret, id, 2, 0) + "/"}[private]},
			{list, map[bool]string{false: public, true: ""}[private]},
		} {
			if got := s.pageLink(l, tc.who); got != tc.want {
				t.Errorf("private %v, %q: %q, want %q", private, tc.who.Name, got, tc.want)
			}
		}
		s.opts.PageURL = ""
		if got := s.pageLink(l, ann); got != "" {
			t.Errorf("without pages: %q", got)
		}
	}
}

// TestPageHead: the version changes with an event and with a seat handed over, not
// otherwise; a private game says so; an unknown game is store.ErrNotFound.
func TestPageHead(t *testing.T) {
	ctx := context.Background()
	s, id := pagesService(t, Settings{Private: true})
	h1, err := s.PageHead(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !h1.Private || !h1.Started || len(h1.Seats) != 2 || h1.Seats[1].Name != "ben" {
		t.Fatalf("head %+v", h1)
	}
	if h2, _ := s.PageHead(ctx, id); h2.Version != h1.Version {
		t.Error("the version changed with nothing")
	}
	if _, err := s.PageHead(ctx, "zz-none"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown game: %v", err)
	}
	l, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	next, _, err := engine.Step(l.State, l.Seed, 1, "ann", "add 2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.store.Commit(ctx, store.Commit{GameID: id, Events: []store.Event{{Seq: 1, Player: "ann", Command: "add 2", Hash: next.Hash()}}}); err != nil {
		t.Fatal(err)
	}
	h3, _ := s.PageHead(ctx, id)
	if h3.Version == h1.Version {
		t.Error("the version did not change with an event")
	}
	rec, err := s.PageRecord(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.States) != 2 || len(rec.Events) != 1 || rec.Players[0] != "ann" || rec.Lang != "en" {
		t.Errorf("record: %d states, %d events, players %q, lang %q", len(rec.States), len(rec.Events), rec.Players, rec.Lang)
	}
	if got := rec.Tell("it", engine.Observer, engine.Event{Kind: engine.KindUndo, Command: "forced by the host, taking back ann: add 2"}, "ann ha aggiunto 2"); got != "annullata dall'organizzatore: ann ha aggiunto 2" {
		t.Errorf("an undo in Italian: %q", got)
	}
}

// TestReplayFile: a finished game's mails attach its replay and say so; the file is
// the public view, fits its share of the mail, and is written once for every reader
// of one language.
func TestReplayFile(t *testing.T) {
	ctx := context.Background()
	s, id := pagesService(t, Settings{})
	l, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	state := l.State
	for i, m := range []struct{ who, cmd string }{{"ann", "add 3"}, {"ben", "add 1"}, {"ann", "add 2"}} {
		next, _, err := engine.Step(state, l.Seed, i+1, m.who, m.cmd, nil)
		if err != nil {
			t.Fatal(err)
		}
		l.Events = append(l.Events, store.Event{Seq: i + 1, Player: m.who, Command: m.cmd, Hash: next.Hash()})
		state = next
	}
	l.State = state
	if !state.Finished() {
		t.Fatal("the game goes on")
	}
	mails, err := s.stateMails(l, change{after: state, events: l.Events, author: "ann"})
	if err != nil {
		t.Fatal(err)
	}
	if len(mails) != 2 {
		t.Fatalf("%d mails", len(mails))
	}
	for _, m := range mails {
		raw := string(m.Raw)
		if !strings.Contains(raw, `filename=`+id+`.html`) && !strings.Contains(raw, `filename="`+id+`.html"`) {
			t.Errorf("the mail to %s attaches no replay", m.To[0])
		}
		if !strings.Contains(raw, "is attached as "+id+".html") {
			t.Errorf("the mail to %s does not say it attaches the replay", m.To[0])
		}
		if int64(len(raw)) > s.opts.MaxMailBytes {
			t.Errorf("the mail to %s has %d bytes", m.To[0], len(raw))
		}
	}
	f, ok := s.replayFile(l, "en")
	if !ok || !strings.Contains(string(f.Data), "The public view") || int64(len(f.Data)) > s.opts.MaxMailBytes/5 {
		t.Fatalf("replay file: %v, %d bytes", ok, len(f.Data))
	}
	if len(s.replayFiles.files) != 1 {
		t.Errorf("%d replay files written for one language", len(s.replayFiles.files))
	}
	s.opts.NoPictures = true
	if _, ok := s.replayFile(l, "it"); ok {
		t.Error("a replay file while pictures are off")
	}
}

// TestTell: a page tells the events that are not moves as the mails do — an undo
// with the move it took back, an administrative event in its sentence — but leaves
// out a player's own settings for everyone else and the messages on the public page
// and for whom they were not written; Teller, without a service, says the same.
func TestTell(t *testing.T) {
	s, _ := pagesService(t, Settings{})
	teller := Teller(s.tr, s.tmpl)
	admin := func(player, cmd string) engine.Event {
		return engine.Event{Kind: engine.KindAdmin, Player: player, Command: cmd}
	}
	for _, tc := range []struct {
		e      engine.Event
		viewer string
		told   bool
	}{
		{admin("ann", "say see you tomorrow"), "ben", true},
		{admin("ann", "say see you tomorrow"), engine.Observer, false},
		{admin("ann", "tell ben the left flank"), "ben", true},
		{admin("ann", "tell ben the left flank"), "ann", true},
		{admin("ann", "tell ben the left flank"), "cy", false},
		{admin("ann", "tz Europe/Rome"), "ann", true},
		{admin("ann", "tz Europe/Rome"), "ben", false},
		{admin("ann", "lang it"), engine.Observer, false},
		{admin("ann", "pause"), engine.Observer, true},
		{admin("", "pause"), engine.Observer, true},
		{admin("ben", "resign"), engine.Observer, true},
		{admin("ann", "undo request: I misclicked"), engine.Observer, true},
		{admin("host", "deadline passed ben: skip"), engine.Observer, true},
		{admin("ann", "vacation 2026-12-24 2026-12-28"), engine.Observer, true},
		{admin("host", "replace ben ben2@games.example"), engine.Observer, true},
	} {
		for _, lang := range []i18n.Lang{i18n.English, i18n.Italian} {
			got := s.tell(lang, tc.viewer, tc.e, "")
			want := ""
			if tc.told {
				want = s.adminSentence(store.Event{Kind: tc.e.Kind, Player: tc.e.Player, Command: tc.e.Command}, lang)
			}
			if got != want || tc.told && (got == "" || strings.Contains(got, ": "+tc.e.Command)) {
				t.Errorf("%q to %s in %s: %q, want %q", tc.e.Command, tc.viewer, lang, got, want)
			}
			if alone := teller(lang, tc.viewer, tc.e, ""); alone != got {
				t.Errorf("%q to %s in %s: Teller says %q, the service %q", tc.e.Command, tc.viewer, lang, alone, got)
			}
		}
	}
	undo := engine.Event{Kind: engine.KindUndo, Command: "agreed by ben, taking back ann: add 2"}
	if got := s.tell(i18n.English, engine.Observer, undo, "ann added 2"); got != "taken back, as ben agreed: ann added 2" {
		t.Errorf("an undo: %q", got)
	}
}

// selfPlayedService returns a service of pagesService that plays every game, and a
// whole Small World game of ann and ben, self-played, to import into it.
func selfPlayedService(t *testing.T) (*Service, *engine.Archive) {
	t.Helper()
	s, _ := pagesService(t, Settings{})
	s.games = games.Registry()
	a, err := selfplay.Play(s.games["smallworld"], selfplay.Config{Seed: 4, Players: 2}, func(selfplay.Step) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	return s, a
}

// TestPageRecord_fromPrev: a record built from the record of an earlier version
// replays only the events after those it shares, keeps their states, and is the same
// as a record built anew — also when an undo after the shared events takes back a
// move among them; a record of another game, or whose log differs, is not used.
func TestPageRecord_fromPrev(t *testing.T) {
	ctx := context.Background()
	s, a := selfPlayedService(t)
	// Event 12 takes back event 11, going back to the state after event 10.
	a.Events = append(append(a.Events[:11:11], engine.Event{Kind: engine.KindUndo, Command: "agreed by ben, taking back " + a.Events[10].Player + ": " + a.Events[10].Command},
		engine.Event{Kind: engine.KindAdmin, Player: "ann", Command: "say sorry"}), a.Events[10:40]...)
	id, err := s.Import(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := s.PageRecord(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	cut := func(rec *page.Record, n int) *page.Record {
		c := *rec
		c.Events, c.States = rec.Events[:n], rec.States[:n+1]
		return &c
	}
	for _, tc := range []struct {
		name     string
		prev     *page.Record
		replayed int
	}{
		{"the first 11 events", cut(fresh, 11), len(a.Events) - 11},
		{"the first 10 events", cut(fresh, 10), len(a.Events) - 10},
		{"every event", fresh, 0},
		{"none", nil, len(a.Events)},
		{"another game", func() *page.Record { c := cut(fresh, 10); c.ID = "sw-other"; return c }(), len(a.Events)},
		{"another log", func() *page.Record {
			c := cut(fresh, 10)
			c.Events = slices.Clone(c.Events)
			c.Events[3].Command = "conquer 1"
			return c
		}(), len(a.Events)},
	} {
		before := s.replayed.Load()
		rec, err := s.PageRecord(ctx, id, tc.prev)
		if err != nil {
			t.Fatal(err)
		}
		if got := int(s.replayed.Load() - before); got != tc.replayed {
			t.Errorf("%s: %d events replayed, want %d", tc.name, got, tc.replayed)
		}
		if len(rec.States) != len(fresh.States) {
			t.Fatalf("%s: %d states, want %d", tc.name, len(rec.States), len(fresh.States))
		}
		for i := range rec.States {
			if rec.States[i].Hash() != fresh.States[i].Hash() {
				t.Fatalf("%s: state %d differs", tc.name, i)
			}
			if i == 0 || rec.Events[i-1].Kind != engine.KindMove {
				continue
			}
			e := rec.Events[i-1]
			got := engine.Narrate(rec.States[i-1], e.Player, e.Command, rec.States[i], "ann")
			want := engine.Narrate(fresh.States[i-1], e.Player, e.Command, fresh.States[i], "ann")
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: event %d is told %v, anew %v", tc.name, i, got, want)
			}
		}
	}
}
