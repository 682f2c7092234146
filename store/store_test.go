package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// mustOpen opens a fresh store in a temporary directory and closes it at the end of
// the test.
func mustOpen(tb testing.TB) *Store {
	tb.Helper()
	return mustOpenPath(tb, filepath.Join(tb.TempDir(), "turnmail.db"))
}

func mustOpenPath(tb testing.TB, path string) *Store {
	tb.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// mustCreateGame creates a running game with two players.
func mustCreateGame(tb testing.TB, s *Store, id string) Game {
	tb.Helper()
	g := Game{
		ID: id, Kind: "smallworld",
		Options: json.RawMessage(`{"map":"smallworld-2p"}`),
		Setup:   json.RawMessage(`{"seed":42}`),
		Status:  GameRunning, Host: "host@example.org",
	}
	players := []Player{
		{Seat: 0, Name: "alice", Email: "Alice@Example.org", Active: true},
		{Seat: 1, Name: "bob", Email: "bob@example.org", Active: true},
	}
	if err := s.CreateGame(context.Background(), g, players, nil); err != nil {
		tb.Fatal(err)
	}
	return g
}

func mail(gameID, to string) OutMail {
	return OutMail{GameID: gameID, Kind: "state", From: "turnmail@example.org", To: []string{to}, Raw: []byte("Subject: x\r\n\r\nhello\r\n")}
}

func count(tb testing.TB, s *Store, query string, args ...any) int {
	tb.Helper()
	var n int
	if err := s.DB().QueryRow(query, args...).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

func TestOpen_Migrations(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	for i := range 3 {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		v, err := s.Version(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := v, len(migrations); got != want {
			t.Fatalf("open %d: version %d, want %d", i, got, want)
		}
		if got, want := count(t, s, `SELECT count(*) FROM schema_version`), len(migrations); got != want {
			t.Fatalf("open %d: %d schema_version rows, want %d", i, got, want)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("NewerSchema", func(t *testing.T) {
		s := mustOpenPath(t, path)
		if _, err := s.DB().Exec(`INSERT INTO schema_version (version, applied_at) VALUES (999, 'x')`); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if _, err := Open(ctx, path); err == nil {
			t.Fatal("opened a database with a newer schema")
		}
	})
}

func TestOpen_Pragmas(t *testing.T) {
	s := mustOpen(t)
	for _, tt := range []struct{ pragma, want string }{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", fmt.Sprint(DefaultBusyTimeout.Milliseconds())},
		{"synchronous", "2"},
	} {
		var got string
		if err := s.DB().QueryRow("PRAGMA " + tt.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("PRAGMA %s = %q, want %q", tt.pragma, got, tt.want)
		}
	}
}

func TestOpen_Memory(t *testing.T) {
	ctx := context.Background()
	s := mustOpenPath(t, ":memory:")
	var fk int
	if err := s.DB().QueryRow(`PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign_keys = %d, %v", fk, err)
	}
	mustCreateGame(t, s, "sw-mem1")
	// Every call must see the same in-memory database.
	for range 3 {
		if _, _, err := s.Game(ctx, "sw-mem1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Commit(ctx, Commit{GameID: "sw-mem1", Events: []Event{{Player: "alice", Command: "pick 1"}}}); err != nil {
		t.Fatal(err)
	}
}

func TestOpen_OddPath(t *testing.T) {
	// Characters that mean something in a file: URI.
	path := filepath.Join(t.TempDir(), "a?b#c%d", "turnmail.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	s := mustOpenPath(t, path)
	mustCreateGame(t, s, "sw-odd1")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not created at %s", path)
	}
}

func TestStore_Reopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	s := mustOpenPath(t, path)
	mustCreateGame(t, s, "sw-keep")
	ev := Event{Player: "alice", Command: "conquer 3 roll", Outcomes: json.RawMessage(`{"die": 2}`), Hash: "h1", At: time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)}
	if err := s.Commit(ctx, Commit{GameID: "sw-keep", Events: []Event{ev}, Outbox: []OutMail{mail("sw-keep", "bob@example.org")}}); err != nil {
		t.Fatal(err)
	}
	inboxID, _, err := s.AddInbox(ctx, InboxMsg{MessageID: "<m1@x>", Raw: []byte("raw")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetCursor(ctx, "INBOX", 7, 99); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMeta(ctx, "secret", "s3cr3t"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = mustOpenPath(t, path)
	g, players, err := s.Game(ctx, "sw-keep")
	if err != nil {
		t.Fatal(err)
	}
	if g.Kind != "smallworld" || len(players) != 2 {
		t.Fatalf("game after reopen: %+v %+v", g, players)
	}
	events, err := s.Events(ctx, "sw-keep")
	if err != nil {
		t.Fatal(err)
	}
	ev.GameID, ev.Seq = "sw-keep", 1
	if len(events) != 1 || !reflect.DeepEqual(events[0], ev) {
		t.Fatalf("events after reopen: %+v, want %+v", events, ev)
	}
	if m, err := s.Inbox(ctx, inboxID); err != nil || string(m.Raw) != "raw" {
		t.Fatalf("inbox after reopen: %+v, %v", m, err)
	}
	if v, u, err := s.Cursor(ctx, "INBOX"); err != nil || v != 7 || u != 99 {
		t.Fatalf("cursor after reopen: %d %d %v", v, u, err)
	}
	if v, err := s.Meta(ctx, "secret"); err != nil || v != "s3cr3t" {
		t.Fatalf("meta after reopen: %q %v", v, err)
	}
	if mails, err := s.Outbox(ctx, "sw-keep", OutboxPending); err != nil || len(mails) != 1 {
		t.Fatalf("outbox after reopen: %+v %v", mails, err)
	}
}

func TestStore_CreateGame(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	created := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	g := Game{
		ID: "sw-7k3p", Kind: "smallworld",
		Options:       json.RawMessage(`{"map": "smallworld-3p"}`),
		Setup:         json.RawMessage(`{"seed":42,"races":["Ratmen"]}`),
		SetupOutcomes: json.RawMessage(`{"races":["Elves","Ratmen"]}`),
		Host:          "host@example.org", List: "list@example.org", ThreadID: "<root@x>",
		CreatedAt: created,
	}
	players := []Player{
		{Seat: 1, Name: "bob", Email: " BOB@example.org", Active: true},
		{Seat: 0, Name: "alice", Email: "alice@example.org", Active: true},
		{Seat: 2, Name: "carol", Email: "carol@example.org", Role: RoleObserver},
	}
	if err := s.CreateGame(ctx, g, players, []OutMail{mail("sw-7k3p", "alice@example.org"), mail("sw-7k3p", "bob@example.org")}); err != nil {
		t.Fatal(err)
	}
	got, gotPlayers, err := s.Game(ctx, "sw-7k3p")
	if err != nil {
		t.Fatal(err)
	}
	want := g
	want.Status, want.UpdatedAt = GameOpen, created
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("game:\n got %+v\nwant %+v", got, want)
	}
	wantPlayers := []Player{
		{GameID: "sw-7k3p", Seat: 0, Name: "alice", Email: "alice@example.org", Role: RolePlayer, Active: true},
		{GameID: "sw-7k3p", Seat: 1, Name: "bob", Email: "bob@example.org", Role: RolePlayer, Active: true},
		{GameID: "sw-7k3p", Seat: 2, Name: "carol", Email: "carol@example.org", Role: RoleObserver},
	}
	if !reflect.DeepEqual(gotPlayers, wantPlayers) {
		t.Fatalf("players:\n got %+v\nwant %+v", gotPlayers, wantPlayers)
	}
	if n := count(t, s, `SELECT count(*) FROM outbox WHERE game_id = ?`, "sw-7k3p"); n != 2 {
		t.Fatalf("%d outbox rows, want 2", n)
	}

	for _, tt := range []struct {
		name    string
		id      string
		players []Player
		status  string
		want    error
	}{
		{"DuplicateID", "sw-7k3p", nil, "", ErrDuplicate},
		{"DuplicateSeat", "sw-aaaa", []Player{{Seat: 0, Name: "a", Email: "a@x"}, {Seat: 0, Name: "b", Email: "b@x"}}, "", ErrDuplicate},
		{"DuplicateName", "sw-bbbb", []Player{{Seat: 0, Name: "Ann", Email: "a@x"}, {Seat: 1, Name: "ann", Email: "b@x"}}, "", ErrDuplicate},
		{"BadStatus", "sw-cccc", nil, "lost", nil},
		{"BadRole", "sw-dddd", []Player{{Seat: 0, Name: "a", Email: "a@x", Role: "king"}}, "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := s.CreateGame(ctx, Game{ID: tt.id, Kind: "smallworld", Status: tt.status}, tt.players,
				[]OutMail{mail("", "x@example.org")})
			if err == nil {
				t.Fatal("no error")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			// Nothing of the failed game is left behind.
			if tt.id != "sw-7k3p" {
				if _, _, err := s.Game(ctx, tt.id); !errors.Is(err, ErrNotFound) {
					t.Fatalf("failed game exists: %v", err)
				}
			}
			if n := count(t, s, `SELECT count(*) FROM outbox`); n != 2 {
				t.Fatalf("%d outbox rows after a failed create, want 2", n)
			}
		})
	}

	t.Run("NotFound", func(t *testing.T) {
		if _, _, err := s.Game(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("error %v, want ErrNotFound", err)
		}
	})
}

func TestStore_Games(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	if games, err := s.Games(ctx); err != nil || len(games) != 0 {
		t.Fatalf("empty store: %v %v", games, err)
	}
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, id := range []string{"sw-0001", "sw-0003", "sw-0002"} {
		at := base.Add(time.Duration([]int{1, 3, 2}[i]) * time.Hour)
		if err := s.CreateGame(ctx, Game{ID: id, Kind: "smallworld", CreatedAt: at}, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	games, err := s.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range games {
		got = append(got, g.ID)
	}
	if want := []string{"sw-0003", "sw-0002", "sw-0001"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("games %v, want %v", got, want)
	}
}

func TestStore_SetGameStatus(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-st01")
	for _, tt := range []struct {
		name, id, status string
		want             error
	}{
		{"Pause", "sw-st01", GamePaused, nil},
		{"Finish", "sw-st01", GameFinished, nil},
		{"Missing", "nope", GamePaused, ErrNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := s.SetGameStatus(ctx, tt.id, tt.status)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if err == nil {
				g, _, err := s.Game(ctx, tt.id)
				if err != nil {
					t.Fatal(err)
				}
				if g.Status != tt.status {
					t.Fatalf("status %q, want %q", g.Status, tt.status)
				}
			}
		})
	}
	if err := s.SetGameStatus(ctx, "sw-st01", "bogus"); err == nil {
		t.Fatal("invalid status accepted")
	}
}

// snapshot is everything a Commit may touch.
type snapshot struct {
	events  []Event
	outbox  int
	inbox   InboxMsg
	status  string
	updated time.Time
}

func takeSnapshot(t *testing.T, s *Store, gameID string, inboxID int64) snapshot {
	t.Helper()
	ctx := context.Background()
	var sn snapshot
	var err error
	if sn.events, err = s.Events(ctx, gameID); err != nil {
		t.Fatal(err)
	}
	sn.outbox = count(t, s, `SELECT count(*) FROM outbox`)
	if sn.inbox, err = s.Inbox(ctx, inboxID); err != nil {
		t.Fatal(err)
	}
	g, _, err := s.Game(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	sn.status, sn.updated = g.Status, g.UpdatedAt
	return sn
}

func TestStore_Commit(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-c001")
	inboxID, _, err := s.AddInbox(ctx, InboxMsg{MessageID: "<move1@x>", Raw: []byte("conquer 3")})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("Applies", func(t *testing.T) {
		err := s.Commit(ctx, Commit{
			GameID: "sw-c001", ExpectSeq: 0,
			Events: []Event{
				{Seq: 1, Player: "alice", Command: "pick 1", MessageID: "<move1@x>"},
				{Player: "alice", Command: "conquer 3"},
			},
			Outbox:     []OutMail{mail("sw-c001", "alice@example.org"), mail("sw-c001", "bob@example.org")},
			InboxID:    inboxID,
			GameStatus: GameRunning,
		})
		if err != nil {
			t.Fatal(err)
		}
		events, err := s.Events(ctx, "sw-c001")
		if err != nil {
			t.Fatal(err)
		}
		if len(events) != 2 || events[0].Seq != 1 || events[1].Seq != 2 || events[1].Command != "conquer 3" {
			t.Fatalf("events %+v", events)
		}
		m, err := s.Inbox(ctx, inboxID)
		if err != nil {
			t.Fatal(err)
		}
		if m.Status != InboxApplied || m.GameID != "sw-c001" || m.ProcessedAt == nil {
			t.Fatalf("inbox row %+v", m)
		}
		if n := count(t, s, `SELECT count(*) FROM outbox WHERE game_id = 'sw-c001' AND status = 'pending'`); n != 2 {
			t.Fatalf("%d outbox rows, want 2", n)
		}
		if seq, err := s.LastSeq(ctx, "sw-c001"); err != nil || seq != 2 {
			t.Fatalf("LastSeq %d %v, want 2", seq, err)
		}
	})

	// Every failing commit must leave everything as it was.
	other, _, err := s.AddInbox(ctx, InboxMsg{MessageID: "<move2@x>", Raw: []byte("conquer 4")})
	if err != nil {
		t.Fatal(err)
	}
	good := func() Commit {
		return Commit{
			GameID: "sw-c001", ExpectSeq: 2,
			Events:  []Event{{Player: "bob", Command: "conquer 4"}},
			Outbox:  []OutMail{mail("sw-c001", "bob@example.org")},
			InboxID: other, GameStatus: GameFinished,
		}
	}
	for _, tt := range []struct {
		name   string
		change func(c *Commit)
		want   error
	}{
		{"StaleSeq", func(c *Commit) { c.ExpectSeq = 1 }, ErrStaleSeq},
		{"AheadSeq", func(c *Commit) { c.ExpectSeq = 5 }, ErrStaleSeq},
		{"WrongEventSeq", func(c *Commit) { c.Events[0].Seq = 7 }, nil},
		{"WrongEventGame", func(c *Commit) { c.Events[0].GameID = "sw-other" }, nil},
		{"MissingGame", func(c *Commit) { c.GameID = "nope"; c.Events[0].GameID = "" }, ErrNotFound},
		{"MissingInbox", func(c *Commit) { c.InboxID = 12345 }, ErrNotFound},
		{"BadGameStatus", func(c *Commit) { c.GameStatus = "won" }, nil},
		{"BadInboxStatus", func(c *Commit) { c.InboxStatus = "eaten" }, nil},
		{"BadOutcomesJSON", func(c *Commit) { c.Events[0].Outcomes = json.RawMessage(`{"die":`) }, nil},
		{"BadMail", func(c *Commit) { c.Outbox = append(c.Outbox, OutMail{From: "x@y"}) }, nil},
		{"OutboxUnknownGame", func(c *Commit) { c.Outbox[0].GameID = "nope" }, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := takeSnapshot(t, s, "sw-c001", other)
			c := good()
			tt.change(&c)
			err := s.Commit(ctx, c)
			if err == nil {
				t.Fatal("commit succeeded")
			}
			t.Log(err)
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			after := takeSnapshot(t, s, "sw-c001", other)
			if !reflect.DeepEqual(before, after) {
				t.Fatalf("failed commit changed the store:\nbefore %+v\n after %+v", before, after)
			}
		})
	}

	t.Run("AfterFailures", func(t *testing.T) {
		if err := s.Commit(ctx, good()); err != nil {
			t.Fatal(err)
		}
		g, _, err := s.Game(ctx, "sw-c001")
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != GameFinished {
			t.Fatalf("status %q", g.Status)
		}
	})

	t.Run("NoEvents", func(t *testing.T) {
		// A refusal: inbox row settled, refusal queued, no events.
		id, _, err := s.AddInbox(ctx, InboxMsg{MessageID: "<bad@x>", Raw: []byte("fly 99")})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Commit(ctx, Commit{GameID: "sw-c001", ExpectSeq: 3, Outbox: []OutMail{mail("sw-c001", "bob@example.org")},
			InboxID: id, InboxStatus: InboxRejected, InboxError: "no region 99"})
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.Inbox(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if m.Status != InboxRejected || m.Error != "no region 99" {
			t.Fatalf("inbox %+v", m)
		}
		if seq, _ := s.LastSeq(ctx, "sw-c001"); seq != 3 {
			t.Fatalf("LastSeq %d, want 3", seq)
		}
	})
}

func TestStore_Commit_NoGame(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	id, _, err := s.AddInbox(ctx, InboxMsg{MessageID: "<ooo@x>", Raw: []byte("out of office")})
	if err != nil {
		t.Fatal(err)
	}
	// An ignored mail: the inbox row is settled, nothing else.
	if err := s.Commit(ctx, Commit{InboxID: id, InboxStatus: InboxIgnored, InboxError: "auto-generated"}); err != nil {
		t.Fatal(err)
	}
	m, err := s.Inbox(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != InboxIgnored || m.Error != "auto-generated" || m.GameID != "" || m.ProcessedAt == nil {
		t.Fatalf("inbox row %+v", m)
	}
	// A refusal to a stranger: mail about no game.
	id2, _, _ := s.AddInbox(ctx, InboxMsg{MessageID: "<who@x>", Raw: []byte("hi")})
	if err := s.Commit(ctx, Commit{InboxID: id2, InboxStatus: InboxRejected, Outbox: []OutMail{mail("", "who@x")}}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, `SELECT count(*) FROM outbox WHERE game_id IS NULL`); n != 1 {
		t.Fatalf("%d outbox rows, want 1", n)
	}
	for _, c := range []Commit{
		{Events: []Event{{Command: "x"}}},
		{GameStatus: GameFinished},
		{ExpectSeq: 3},
	} {
		if err := s.Commit(ctx, c); err == nil {
			t.Errorf("Commit(%+v) without a game accepted", c)
		}
	}
	if err := s.Commit(ctx, Commit{InboxID: 999}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing inbox row: %v", err)
	}
}

func TestStore_Commit_Concurrent(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-race")
	const n = 8
	for round := range 3 {
		var (
			wg    sync.WaitGroup
			start = make(chan struct{})
			errs  = make([]error, n)
		)
		for i := range n {
			wg.Go(func() {
				<-start
				errs[i] = s.Commit(ctx, Commit{
					GameID: "sw-race", ExpectSeq: round,
					Events: []Event{{Player: "alice", Command: fmt.Sprintf("move %d", i)}},
					Outbox: []OutMail{mail("sw-race", "bob@example.org")},
				})
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case errors.Is(err, ErrStaleSeq):
			default:
				t.Fatalf("round %d: unexpected error %v", round, err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d commits won, want 1", round, won)
		}
	}
	if seq, err := s.LastSeq(ctx, "sw-race"); err != nil || seq != 3 {
		t.Fatalf("LastSeq %d %v, want 3", seq, err)
	}
	if got := count(t, s, `SELECT count(*) FROM outbox`); got != 3 {
		t.Fatalf("%d outbox rows, want 3 (one per winning commit)", got)
	}
}

// TestStore_Commit_TwoStores races two Stores (two pools, as two processes would
// be) on one file: the in-process write lock does not help, BEGIN IMMEDIATE and the
// busy timeout must.
func TestStore_Commit_TwoStores(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "two.db")
	a := mustOpenPath(t, path)
	b := mustOpenPath(t, path)
	mustCreateGame(t, a, "sw-two")
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		st := a
		if i%2 == 1 {
			st = b
		}
		wg.Go(func() {
			errs[i] = st.Commit(ctx, Commit{GameID: "sw-two", Events: []Event{{Player: "bob", Command: "done"}}})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
		} else if !errors.Is(err, ErrStaleSeq) {
			t.Fatalf("unexpected error %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d commits won, want 1", won)
	}
}

func TestStore_Events(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-ev01")
	mustCreateGame(t, s, "sw-ev02")
	outcomes := []json.RawMessage{
		nil,
		json.RawMessage(`{"die": 2}`),
		json.RawMessage("{\"z\":1,\n  \"a\":[3, 1,2],\"u\":\"\\u00e9\"}"), // key order, spacing and escapes kept
		json.RawMessage(`[]`),
	}
	at := time.Date(2025, 6, 1, 9, 30, 0, 123456789, time.FixedZone("CEST", 2*3600))
	seq := 0
	for i, o := range outcomes {
		e := Event{Kind: "", Player: "alice", Command: fmt.Sprintf("cmd %d", i), Outcomes: o, Hash: fmt.Sprintf("h%d", i), At: at.Add(time.Duration(i) * time.Minute), MessageID: fmt.Sprintf("<%d@x>", i)}
		if i == 3 {
			e.At = time.Time{}
			e.Kind = "undo"
		}
		if err := s.Commit(ctx, Commit{GameID: "sw-ev01", ExpectSeq: seq, Events: []Event{e}}); err != nil {
			t.Fatal(err)
		}
		seq++
		// Interleave another game's events.
		if err := s.Commit(ctx, Commit{GameID: "sw-ev02", ExpectSeq: i, Events: []Event{{Player: "bob", Command: "x"}}}); err != nil {
			t.Fatal(err)
		}
	}
	events, err := s.Events(ctx, "sw-ev01")
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != len(outcomes) {
		t.Fatalf("%d events, want %d", len(events), len(outcomes))
	}
	for i, e := range events {
		if e.Seq != i+1 || e.GameID != "sw-ev01" || e.Command != fmt.Sprintf("cmd %d", i) {
			t.Errorf("event %d: %+v", i, e)
		}
		if !bytes.Equal(e.Outcomes, outcomes[i]) || (outcomes[i] == nil) != (e.Outcomes == nil) {
			t.Errorf("event %d outcomes %q, want %q", i, e.Outcomes, outcomes[i])
		}
		if i < 3 && !e.At.Equal(at.Add(time.Duration(i)*time.Minute)) {
			t.Errorf("event %d at %v", i, e.At)
		}
	}
	if !events[3].At.IsZero() || events[3].Kind != "undo" {
		t.Errorf("event 4: %+v", events[3])
	}

	t.Run("Empty", func(t *testing.T) {
		mustCreateGame(t, s, "sw-ev03")
		events, err := s.Events(ctx, "sw-ev03")
		if err != nil || len(events) != 0 {
			t.Fatalf("%v %v", events, err)
		}
		if seq, err := s.LastSeq(ctx, "sw-ev03"); err != nil || seq != 0 {
			t.Fatalf("LastSeq %d %v", seq, err)
		}
	})
	t.Run("NotFound", func(t *testing.T) {
		if _, err := s.Events(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Events: %v", err)
		}
		if _, err := s.LastSeq(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("LastSeq: %v", err)
		}
	})
	t.Run("AppendOnly", func(t *testing.T) {
		for _, q := range []string{
			`UPDATE events SET command = 'cheat' WHERE game_id = 'sw-ev01'`,
			`DELETE FROM events WHERE game_id = 'sw-ev01'`,
		} {
			if _, err := s.DB().Exec(q); err == nil {
				t.Errorf("%s: allowed", q)
			}
		}
	})
}

func TestStore_AddInbox(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	ids := map[string]int64{}
	for _, tt := range []struct {
		name    string
		msg     InboxMsg
		dup     bool
		sameAs  string // name of the earlier case whose id is returned
		wantKey string
	}{
		{name: "First", msg: InboxMsg{MessageID: "<a@x>", Raw: []byte("one"), Mailbox: "INBOX", UIDValidity: 1, UID: 10}, wantKey: "<a@x>"},
		{name: "SameMessageID", msg: InboxMsg{MessageID: "<a@x>", Raw: []byte("one, rescanned"), UIDValidity: 2, UID: 3}, dup: true, sameAs: "First"},
		{name: "MessageIDNoBrackets", msg: InboxMsg{MessageID: " a@x ", Raw: []byte("other")}, dup: true, sameAs: "First"},
		{name: "OtherMessageID", msg: InboxMsg{MessageID: "<b@x>", Raw: []byte("one")}, wantKey: "<b@x>"},
		{name: "NoMessageID", msg: InboxMsg{Raw: []byte("no id")}, wantKey: DedupeKey("", []byte("no id"))},
		{name: "SameRaw", msg: InboxMsg{Raw: []byte("no id"), UID: 99}, dup: true, sameAs: "NoMessageID"},
		{name: "OtherRaw", msg: InboxMsg{Raw: []byte("no id either")}, wantKey: DedupeKey("", []byte("no id either"))},
		{name: "ExplicitKey", msg: InboxMsg{DedupeKey: "custom", Raw: []byte("x")}, wantKey: "custom"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := count(t, s, `SELECT count(*) FROM inbox`)
			id, dup, err := s.AddInbox(ctx, tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			if dup != tt.dup {
				t.Fatalf("duplicate = %v, want %v", dup, tt.dup)
			}
			m, err := s.Inbox(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			after := count(t, s, `SELECT count(*) FROM inbox`)
			if tt.dup {
				if id != ids[tt.sameAs] {
					t.Fatalf("duplicate id %d, want %d (%s)", id, ids[tt.sameAs], tt.sameAs)
				}
				if after != before {
					t.Fatal("duplicate wrote a row")
				}
				if tt.msg.UID == m.UID && tt.msg.UID != 0 {
					t.Fatal("duplicate overwrote the stored row")
				}
				return
			}
			ids[tt.name] = id
			if after != before+1 {
				t.Fatalf("%d rows, want %d", after, before+1)
			}
			if m.DedupeKey != tt.wantKey || m.Status != InboxPending || !bytes.Equal(m.Raw, tt.msg.Raw) ||
				m.UIDValidity != tt.msg.UIDValidity || m.UID != tt.msg.UID || m.ReceivedAt.IsZero() || m.ProcessedAt != nil {
				t.Fatalf("stored %+v", m)
			}
		})
	}
	if n := count(t, s, `SELECT count(*) FROM inbox`); n != 5 {
		t.Fatalf("%d inbox rows, want 5", n)
	}
	if key := DedupeKey("", []byte("no id")); !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(key) {
		t.Fatalf("hash key %q", key)
	}
	if _, err := s.Inbox(ctx, 4242); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Inbox(missing): %v", err)
	}
}

func TestStore_PendingInbox(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-in01")
	var ids []int64
	for i := range 5 {
		id, _, err := s.AddInbox(ctx, InboxMsg{MessageID: fmt.Sprintf("<%d@x>", i), Raw: []byte("m")})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := s.SetInboxStatus(ctx, ids[1], InboxIgnored, "", ""); err != nil {
		t.Fatal(err)
	}
	if err := s.SetInboxStatus(ctx, ids[3], InboxFailed, "boom", "sw-in01"); err != nil {
		t.Fatal(err)
	}
	pending, err := s.PendingInbox(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, m := range pending {
		got = append(got, m.ID)
	}
	if want := []int64{ids[0], ids[2], ids[4]}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pending %v, want %v", got, want)
	}
	if pending, _ := s.PendingInbox(ctx, 2); len(pending) != 2 || pending[0].ID != ids[0] {
		t.Fatalf("limit 2: %+v", pending)
	}
	m, err := s.Inbox(ctx, ids[3])
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != InboxFailed || m.Error != "boom" || m.GameID != "sw-in01" || m.ProcessedAt == nil {
		t.Fatalf("errored row %+v", m)
	}
	// Re-queue after a fix.
	if err := s.SetInboxStatus(ctx, ids[3], InboxPending, "", ""); err != nil {
		t.Fatal(err)
	}
	if m, _ := s.Inbox(ctx, ids[3]); m.Status != InboxPending || m.ProcessedAt != nil || m.GameID != "sw-in01" {
		t.Fatalf("re-queued row %+v", m)
	}
	if err := s.SetInboxStatus(ctx, 999, InboxApplied, "", ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing row: %v", err)
	}
	if err := s.SetInboxStatus(ctx, ids[0], "eaten", "", ""); err == nil {
		t.Fatal("invalid status accepted")
	}
}

func TestStore_Outbox(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-out1")
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

	if _, ok, err := s.NextOutboxAttempt(ctx); err != nil || ok {
		t.Fatalf("NextOutboxAttempt on empty outbox: %v %v", ok, err)
	}
	// Queued out of order; DueOutbox orders by next attempt, then id.
	mails := []OutMail{
		{GameID: "sw-out1", Kind: "state", From: "t@x", To: []string{"a@x", "b@x"}, Raw: []byte("1"), NextAttempt: t0.Add(2 * time.Minute), CreatedAt: t0},
		{GameID: "sw-out1", Kind: "state", From: "t@x", To: []string{"a@x"}, Raw: []byte("2"), NextAttempt: t0, CreatedAt: t0},
		{Kind: "refusal", From: "t@x", To: []string{"z@x"}, Raw: []byte("3"), NextAttempt: t0, CreatedAt: t0},
		{GameID: "sw-out1", Kind: "state", From: "t@x", To: []string{"b@x"}, Raw: []byte("4"), NextAttempt: t0.Add(time.Hour), CreatedAt: t0},
	}
	if err := s.Enqueue(ctx, mails...); err != nil {
		t.Fatal(err)
	}
	raws := func(ms []OutMail) string {
		var b []byte
		for _, m := range ms {
			b = append(b, m.Raw...)
		}
		return string(b)
	}
	for _, tt := range []struct {
		now   time.Time
		limit int
		want  string
	}{
		{t0.Add(-time.Second), 0, ""},
		{t0, 0, "23"},
		{t0.Add(2 * time.Minute), 0, "231"},
		{t0.Add(2 * time.Hour), 0, "2314"},
		{t0.Add(2 * time.Hour), 2, "23"},
	} {
		due, err := s.DueOutbox(ctx, tt.now, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if got := raws(due); got != tt.want {
			t.Errorf("DueOutbox(%v, %d) = %q, want %q", tt.now, tt.limit, got, tt.want)
		}
	}
	due, _ := s.DueOutbox(ctx, t0.Add(2*time.Hour), 0)
	first := due[2] // raw "1": two recipients
	if !reflect.DeepEqual(first.To, []string{"a@x", "b@x"}) || first.Status != OutboxPending || first.GameID != "sw-out1" || !first.CreatedAt.Equal(t0) {
		t.Fatalf("mail %+v", first)
	}
	if next, ok, err := s.NextOutboxAttempt(ctx); err != nil || !ok || !next.Equal(t0) {
		t.Fatalf("NextOutboxAttempt = %v %v %v, want %v", next, ok, err, t0)
	}

	id2, id3, id1 := due[0].ID, due[1].ID, due[2].ID
	// 2: sent. 3: retried twice, then failed. 1: retried once.
	sentAt := t0.Add(time.Second)
	if err := s.MarkSent(ctx, id2, sentAt); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRetry(ctx, id3, t0.Add(5*time.Minute), "421 busy"); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRetry(ctx, id3, t0.Add(10*time.Minute), "421 still busy"); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRetry(ctx, id1, t0.Add(3*time.Minute), "timeout"); err != nil {
		t.Fatal(err)
	}
	if got := raws(must(s.DueOutbox(ctx, t0.Add(4*time.Minute), 0))); got != "1" {
		t.Fatalf("due after retries %q, want %q", got, "1")
	}
	if got := raws(must(s.DueOutbox(ctx, t0.Add(10*time.Minute), 0))); got != "13" {
		t.Fatalf("due after retries %q, want %q", got, "13")
	}
	if next, _, _ := s.NextOutboxAttempt(ctx); !next.Equal(t0.Add(3 * time.Minute)) {
		t.Fatalf("NextOutboxAttempt = %v", next)
	}
	if err := s.MarkFailed(ctx, id3, "550 no such user"); err != nil {
		t.Fatal(err)
	}

	all := must(s.Outbox(ctx, "", ""))
	byID := map[int64]OutMail{}
	for _, m := range all {
		byID[m.ID] = m
	}
	if len(all) != 4 {
		t.Fatalf("%d mails, want 4", len(all))
	}
	if m := byID[id2]; m.Status != OutboxSent || m.SentAt == nil || !m.SentAt.Equal(sentAt) || m.Attempts != 0 {
		t.Errorf("sent mail %+v", m)
	}
	if m := byID[id3]; m.Status != OutboxFailed || m.Attempts != 3 || m.LastError != "550 no such user" || m.SentAt != nil {
		t.Errorf("failed mail %+v", m)
	}
	if m := byID[id1]; m.Status != OutboxPending || m.Attempts != 1 || m.LastError != "timeout" || !m.NextAttempt.Equal(t0.Add(3*time.Minute)) {
		t.Errorf("retried mail %+v", m)
	}

	t.Run("Filters", func(t *testing.T) {
		for _, tt := range []struct {
			game, status string
			want         string
		}{
			{"", "", "1234"},
			{"sw-out1", "", "124"},
			{"sw-out1", OutboxPending, "14"},
			{"", OutboxFailed, "3"},
			{"", OutboxSent, "2"},
			{"nope", "", ""},
		} {
			if got := raws(must(s.Outbox(ctx, tt.game, tt.status))); got != tt.want {
				t.Errorf("Outbox(%q, %q) = %q, want %q", tt.game, tt.status, got, tt.want)
			}
		}
	})

	t.Run("Transitions", func(t *testing.T) {
		for _, tt := range []struct {
			name string
			do   func() error
			want error
		}{
			{"SentAgain", func() error { return s.MarkSent(ctx, id2, t0) }, nil},
			{"RetryFailed", func() error { return s.MarkRetry(ctx, id3, t0, "x") }, nil},
			{"FailSent", func() error { return s.MarkFailed(ctx, id2, "x") }, nil},
			{"MissingSent", func() error { return s.MarkSent(ctx, 999, t0) }, ErrNotFound},
			{"MissingRetry", func() error { return s.MarkRetry(ctx, 999, t0, "x") }, ErrNotFound},
			{"MissingFailed", func() error { return s.MarkFailed(ctx, 999, "x") }, ErrNotFound},
		} {
			t.Run(tt.name, func(t *testing.T) {
				err := tt.do()
				if err == nil {
					t.Fatal("no error")
				}
				if tt.want != nil && !errors.Is(err, tt.want) {
					t.Fatalf("error %v, want %v", err, tt.want)
				}
			})
		}
		// The failed transitions changed nothing.
		if m := must(s.Outbox(ctx, "", OutboxFailed)); len(m) != 1 || m[0].Attempts != 3 {
			t.Fatalf("failed mail changed: %+v", m)
		}
	})

	t.Run("SentAllAtomic", func(t *testing.T) {
		// id1 is pending, id2 already sent: all or nothing.
		at := t0.Add(time.Minute)
		if err := s.MarkSentAll(ctx, []SentMark{{id1, at}, {id2, at}}); err == nil {
			t.Fatal("MarkSentAll with a sent mail: no error")
		}
		if m := must(s.Outbox(ctx, "", OutboxPending)); len(m) != 2 {
			t.Fatalf("pending after a failed MarkSentAll: %d mails, want 2 (nothing marked)", len(m))
		}
		if err := s.MarkSentAll(ctx, []SentMark{{id1, at}}); err != nil {
			t.Fatal(err)
		}
		for _, m := range must(s.Outbox(ctx, "", OutboxSent)) {
			if m.ID == id1 && (m.SentAt == nil || !m.SentAt.Equal(at)) {
				t.Errorf("mail %d sent at %v, want %v", id1, m.SentAt, at)
			}
		}
		if m := must(s.Outbox(ctx, "", OutboxPending)); len(m) != 1 {
			t.Errorf("pending after MarkSentAll: %d mails, want 1", len(m))
		}
	})

	t.Run("Invalid", func(t *testing.T) {
		for _, m := range []OutMail{
			{To: []string{"a@x"}, Raw: []byte("x")},
			{From: "t@x", Raw: []byte("x")},
			{From: "t@x", To: []string{"a@x"}},
		} {
			if err := s.Enqueue(ctx, m); err == nil {
				t.Errorf("Enqueue(%+v) accepted", m)
			}
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestStore_Notify(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-n001")

	fired := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		case <-time.After(2 * time.Second):
			return false
		}
	}
	quiet := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return false
		default:
			return true
		}
	}

	for _, tt := range []struct {
		name string
		do   func() error
		wake bool
	}{
		{"Enqueue", func() error { return s.Enqueue(ctx, mail("", "a@x")) }, true},
		{"Commit", func() error {
			return s.Commit(ctx, Commit{GameID: "sw-n001", Events: []Event{{Player: "alice", Command: "pick 1"}}, Outbox: []OutMail{mail("sw-n001", "a@x")}})
		}, true},
		{"CreateGameWithMail", func() error {
			return s.CreateGame(ctx, Game{ID: "sw-n002", Kind: "smallworld"}, nil, []OutMail{mail("sw-n002", "a@x")})
		}, true},
		{"StaleCommit", func() error {
			s.Commit(ctx, Commit{GameID: "sw-n001", ExpectSeq: 0, Outbox: []OutMail{mail("sw-n001", "a@x")}})
			return nil
		}, false},
		{"MarkSent", func() error { return s.MarkSent(ctx, 1, time.Now()) }, false},
		{"AddInbox", func() error { _, _, err := s.AddInbox(ctx, InboxMsg{Raw: []byte("x")}); return err }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ch := s.Notify()
			if !quiet(ch) {
				t.Fatal("fresh channel already closed")
			}
			// A waiter in another goroutine, as the sender would be.
			woke := make(chan bool, 1)
			if tt.wake {
				go func() { woke <- fired(ch) }()
			}
			if err := tt.do(); err != nil {
				t.Fatal(err)
			}
			if tt.wake {
				if !<-woke {
					t.Fatal("not woken")
				}
				if s.Notify() == ch {
					t.Fatal("channel not replaced")
				}
			} else if !quiet(ch) {
				t.Fatal("woken")
			}
		})
	}

	t.Run("Concurrent", func(t *testing.T) {
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				for range 10 {
					ch := s.Notify()
					if err := s.Enqueue(ctx, mail("", fmt.Sprintf("c%d@x", i))); err != nil {
						t.Error(err)
						return
					}
					if !fired(ch) {
						t.Error("not woken")
						return
					}
				}
			})
		}
		wg.Wait()
	})
}

func TestStore_Cursor(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	for _, tt := range []struct {
		name         string
		set          bool
		mailbox      string
		validity     uint32
		uid          uint32
		wantV, wantU uint32
	}{
		{name: "Unknown", mailbox: "INBOX"},
		{name: "Set", set: true, mailbox: "INBOX", validity: 1, uid: 10, wantV: 1, wantU: 10},
		{name: "Advance", set: true, mailbox: "INBOX", validity: 1, uid: 12, wantV: 1, wantU: 12},
		{name: "NewValidity", set: true, mailbox: "INBOX", validity: 2, uid: 0, wantV: 2, wantU: 0},
		{name: "MaxUint32", set: true, mailbox: "Other", validity: 1<<32 - 1, uid: 1<<32 - 2, wantV: 1<<32 - 1, wantU: 1<<32 - 2},
		{name: "Independent", mailbox: "INBOX", wantV: 2, wantU: 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.set {
				if err := s.SetCursor(ctx, tt.mailbox, tt.validity, tt.uid); err != nil {
					t.Fatal(err)
				}
			}
			v, u, err := s.Cursor(ctx, tt.mailbox)
			if err != nil {
				t.Fatal(err)
			}
			if v != tt.wantV || u != tt.wantU {
				t.Fatalf("Cursor = %d, %d, want %d, %d", v, u, tt.wantV, tt.wantU)
			}
		})
	}
}

func TestStore_Meta(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	if _, err := s.Meta(ctx, "secret"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing key: %v", err)
	}
	for _, v := range []string{"one", "two", ""} {
		if err := s.SetMeta(ctx, "secret", v); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Meta(ctx, "secret"); err != nil || got != v {
			t.Fatalf("Meta = %q, %v, want %q", got, err, v)
		}
	}
}

func TestNewGameID(t *testing.T) {
	for _, tt := range []struct{ kind, prefix string }{
		{"smallworld", "sw"},
		{"underground", "swu"},
		{"empire", "eme"},
		{"dungeoneer", "dn"},
		{"Some Other Game", "sog"},
		{"chess", "ch"},
		{"", "g"},
	} {
		id := NewGameID(tt.kind)
		if !regexp.MustCompile(`^` + tt.prefix + `-[0-9a-hjkmnp-tv-z]{4}$`).MatchString(id) {
			t.Errorf("NewGameID(%q) = %q, want %s-xxxx", tt.kind, id, tt.prefix)
		}
	}
	seen := map[string]bool{}
	for range 200 {
		seen[NewGameID("smallworld")] = true
	}
	if len(seen) < 190 {
		t.Fatalf("only %d distinct ids in 200 draws", len(seen))
	}
}

func TestStore_OutboxCounts(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-cnt1")
	if err := s.Enqueue(ctx,
		OutMail{GameID: "sw-cnt1", From: "t@x", To: []string{"a@x"}, Raw: []byte("1")},
		OutMail{GameID: "sw-cnt1", From: "t@x", To: []string{"b@x"}, Raw: []byte("2")},
		OutMail{From: "t@x", To: []string{"z@x"}, Raw: []byte("3")},
	); err != nil {
		t.Fatal(err)
	}
	all, err := s.Outbox(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.MarkSent(ctx, all[0].ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkFailed(ctx, all[2].ID, "550 no such user"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		game string
		want map[string]int
	}{
		{"", map[string]int{OutboxSent: 1, OutboxPending: 1, OutboxFailed: 1}},
		{"sw-cnt1", map[string]int{OutboxSent: 1, OutboxPending: 1}},
		{"sw-none", map[string]int{}},
	} {
		got, err := s.OutboxCounts(ctx, tt.game)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("OutboxCounts(%q) = %v, want %v", tt.game, got, tt.want)
		}
	}
	// The counts come from an index, never from the mails themselves (a host's
	// outbox holds years of rendered mail).
	rows, err := s.DB().Query(`EXPLAIN QUERY PLAN SELECT status, count(*) FROM outbox WHERE (?1 = '' OR game_id = ?1) GROUP BY status`, "")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if p := strings.Join(plan, "; "); !strings.Contains(p, "COVERING INDEX outbox_status") {
		t.Errorf("OutboxCounts query plan %q: not from the covering index", p)
	}
}
