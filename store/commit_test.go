package store

import (
	"context"
	"errors"
	"testing"
)

// batchFixture is a store with a running game sw-b001 (no events) and a pending
// inbox row, and the batch a lobby mail would commit: a new game, a seat and an event
// in sw-b001, and the answer that settles the inbox row.
func batchFixture(t *testing.T) (*Store, int64, Batch) {
	t.Helper()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-b001")
	inboxID, _, err := s.AddInbox(context.Background(), InboxMsg{MessageID: "<lobby@x>", Raw: []byte("new\njoin")})
	if err != nil {
		t.Fatal(err)
	}
	b := Batch{
		Games: []NewGame{{
			Game:    Game{ID: "sw-b002", Kind: "smallworld", Host: "carol@example.org"},
			Players: []Player{{Seat: 0, Name: "carol", Email: "carol@example.org", Active: true}},
		}},
		Commits: []Commit{
			{GameID: "sw-b001", Players: []Player{{Seat: 1000, Name: "observer:dan", Email: "dan@example.org", Role: RoleObserver, Active: true}}},
			{GameID: "sw-b001", Events: []Event{{Kind: "admin", Player: "alice", Command: "pause"}}, GameStatus: GamePaused, Outbox: []OutMail{mail("sw-b001", "bob@example.org")}},
			{Outbox: []OutMail{mail("", "carol@example.org")}, InboxID: inboxID, InboxStatus: InboxApplied},
		},
	}
	return s, inboxID, b
}

// batchEffects counts what a batch from batchFixture wrote.
func batchEffects(t *testing.T, s *Store) (games, seats, events, outbox int, inbox string) {
	t.Helper()
	games = count(t, s, `SELECT count(*) FROM games`)
	seats = count(t, s, `SELECT count(*) FROM players`)
	events = count(t, s, `SELECT count(*) FROM events`)
	outbox = count(t, s, `SELECT count(*) FROM outbox`)
	if err := s.DB().QueryRow(`SELECT status FROM inbox`).Scan(&inbox); err != nil {
		t.Fatal(err)
	}
	return
}

func TestStore_CommitBatch_applies(t *testing.T) {
	s, _, b := batchFixture(t)
	if err := s.CommitBatch(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	games, seats, events, outbox, inbox := batchEffects(t, s)
	if games != 2 || seats != 4 || events != 1 || outbox != 2 || inbox != InboxApplied {
		t.Fatalf("games %d seats %d events %d outbox %d inbox %s; want 2 4 1 2 applied", games, seats, events, outbox, inbox)
	}
	g, players, err := s.Game(context.Background(), "sw-b002")
	if err != nil || g.Status != GameOpen || len(players) != 1 || players[0].Name != "carol" {
		t.Fatalf("created game %+v %+v %v", g, players, err)
	}
	if g, _, _ := s.Game(context.Background(), "sw-b001"); g.Status != GamePaused {
		t.Fatalf("status %s, want paused", g.Status)
	}
}

// TestStore_CommitBatch_allOrNothing: whichever part fails, nothing of the batch is
// written and the inbox row stays pending.
func TestStore_CommitBatch_allOrNothing(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(t *testing.T, s *Store, b *Batch)
		want  error
	}{
		{"existing game id", func(t *testing.T, s *Store, b *Batch) {
			b.Games[0].Game.ID = "sw-b001"
		}, ErrDuplicate},
		{"stale sequence in a later commit", func(t *testing.T, s *Store, b *Batch) {
			b.Commits[1].ExpectSeq = 5
		}, ErrStaleSeq},
		{"taken name in a later commit", func(t *testing.T, s *Store, b *Batch) {
			b.Commits[0].Players[0].Name = "alice"
		}, ErrDuplicate},
		{"statement failing in the last commit", func(t *testing.T, s *Store, b *Batch) {
			injectFailure(t, s, `BEFORE UPDATE ON inbox`)
		}, nil},
		{"unknown inbox row", func(t *testing.T, s *Store, b *Batch) {
			b.Commits[2].InboxID = 999
		}, ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, b := batchFixture(t)
			tt.spoil(t, s, &b)
			err := s.CommitBatch(context.Background(), b)
			if err == nil {
				t.Fatal("the batch was committed")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			games, seats, events, outbox, inbox := batchEffects(t, s)
			if games != 1 || seats != 2 || events != 0 || outbox != 0 || inbox != InboxPending {
				t.Fatalf("after a failed batch: games %d seats %d events %d outbox %d inbox %s; want 1 2 0 0 pending", games, seats, events, outbox, inbox)
			}
		})
	}
}

// injectFailure makes every statement matching when (a trigger clause such as
// "BEFORE UPDATE ON inbox") fail, as a full disk or a bug would.
func injectFailure(t *testing.T, s *Store, when string) {
	t.Helper()
	if _, err := s.DB().Exec(`CREATE TRIGGER inject_failure ` + when + ` BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
		t.Fatal(err)
	}
}

// TestStore_CommitBatch_storesMail: a mail not stored yet (Commit.Inbox) is stored by
// the batch with its outcome, and the caller learns its id; a failing batch stores it
// not at all.
func TestStore_CommitBatch_storesMail(t *testing.T) {
	for _, fail := range []bool{false, true} {
		s, _, b := batchFixture(t)
		in := &InboxMsg{MessageID: "<new@x>", Raw: []byte("join")}
		last := &b.Commits[len(b.Commits)-1]
		last.InboxID, last.Inbox = 0, in
		if fail {
			b.Commits[1].ExpectSeq = 5
		}
		err := s.CommitBatch(context.Background(), b)
		if (err != nil) != fail {
			t.Fatalf("fail=%v: error %v", fail, err)
		}
		n := count(t, s, `SELECT count(*) FROM inbox WHERE message_id = '<new@x>' AND status = 'applied' AND processed_at IS NOT NULL`)
		if fail && (n != 0 || in.ID != 0) || !fail && (n != 1 || in.ID == 0) {
			t.Fatalf("fail=%v: %d rows stored, id %d", fail, n, in.ID)
		}
	}
}
