package service

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
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
	rec, err := s.PageRecord(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.States) != 2 || len(rec.Events) != 1 || rec.Players[0] != "ann" || rec.Lang != "en" {
		t.Errorf("record: %d states, %d events, players %q, lang %q", len(rec.States), len(rec.Events), rec.Players, rec.Lang)
	}
	if got := rec.EventWords("it", engine.Event{Kind: engine.KindUndo, Command: "forced by the host, taking back ann: add 2"}); !strings.Contains(got, "organizzatore") {
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
