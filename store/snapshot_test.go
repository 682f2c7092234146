package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestStore_Snapshots: a snapshot is written with the events of a commit, read back as
// the newest of its format at or before an event, and only the newest KeepSnapshots
// of a game stay; a snapshot after the game's last event, or without a state, fails
// the whole commit.
func TestStore_Snapshots(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-s001")
	if _, err := s.LatestSnapshot(ctx, "sw-s001", "f1", 100); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no snapshot yet: %v", err)
	}
	seq := 0
	commit := func(sn *Snapshot) error {
		c := Commit{GameID: "sw-s001", ExpectSeq: seq, Events: []Event{{Player: "alice", Command: "pass", Hash: fmt.Sprint("h", seq+1)}}}
		if sn != nil {
			c.Snapshots = []Snapshot{*sn}
		}
		err := s.Commit(ctx, c)
		if err == nil {
			seq++
		}
		return err
	}
	for i := 1; i <= 10; i++ {
		var sn *Snapshot
		if i%2 == 0 {
			sn = &Snapshot{Seq: i, Format: "f1", Hash: fmt.Sprint("h", i), State: []byte(fmt.Sprint("state", i)), Extra: []byte(`{"n":1}`)}
		}
		if err := commit(sn); err != nil {
			t.Fatal(err)
		}
	}
	if err := commit(&Snapshot{Seq: 11, Format: "f2", Hash: "h11", State: []byte("other")}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		format  string
		upTo    int
		wantSeq int // 0: none
	}{
		{"f1", 100, 10}, {"f1", 9, 8}, {"f1", 8, 8}, {"f1", 7, 0}, {"f2", 11, 11}, {"f3", 11, 0},
	}
	for _, tt := range tests {
		sn, err := s.LatestSnapshot(ctx, "sw-s001", tt.format, tt.upTo)
		if tt.wantSeq == 0 {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("%s up to %d: %+v, %v; want none", tt.format, tt.upTo, sn, err)
			}
			continue
		}
		wantState := "other"
		if tt.format == "f1" {
			wantState = fmt.Sprint("state", tt.wantSeq)
		}
		if err != nil || sn.Seq != tt.wantSeq || string(sn.State) != wantState || sn.Hash != fmt.Sprint("h", tt.wantSeq) {
			t.Errorf("%s up to %d: %+v, %v; want the snapshot after event %d", tt.format, tt.upTo, sn, err, tt.wantSeq)
		}
	}
	if n := count(t, s, `SELECT count(*) FROM snapshots`); n != KeepSnapshots {
		t.Errorf("%d snapshots kept, want %d", n, KeepSnapshots)
	}
	for _, bad := range []*Snapshot{{Seq: seq + 2, Format: "f1", State: []byte("x")}, {Seq: 1, Format: "f1"}, {Seq: 1, State: []byte("x")}, {GameID: "sw-other", Seq: 1, Format: "f1", State: []byte("x")}} {
		before := seq
		if err := commit(bad); err == nil {
			t.Errorf("snapshot %+v: committed", bad)
		}
		if last, _ := s.LastSeq(ctx, "sw-s001"); last != before {
			t.Errorf("snapshot %+v: the commit's event was written", bad)
		}
	}
}

// TestStore_SnapshotsOfOneCommit: a commit of many events (an imported game) may
// store several snapshots; the newest KeepSnapshots stay, and one of them after the
// last event fails the whole commit.
func TestStore_SnapshotsOfOneCommit(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-s002")
	var events []Event
	for i := 1; i <= 10; i++ {
		events = append(events, Event{Player: "alice", Command: "pass", Hash: fmt.Sprint("h", i)})
	}
	var sns []Snapshot
	for i := 2; i <= 10; i += 2 {
		sns = append(sns, Snapshot{Seq: i, Format: "f1", Hash: fmt.Sprint("h", i), State: []byte(fmt.Sprint("state", i))})
	}
	if err := s.Commit(ctx, Commit{GameID: "sw-s002", Events: events, Snapshots: append(sns, Snapshot{Seq: 11, Format: "f1", State: []byte("x")})}); err == nil {
		t.Fatal("a snapshot after the last event: committed")
	}
	if err := s.Commit(ctx, Commit{GameID: "sw-s002", Events: events, Snapshots: sns}); err != nil {
		t.Fatal(err)
	}
	for upTo, want := range map[int]int{10: 10, 9: 8, 7: 6, 5: 0} {
		sn, err := s.LatestSnapshot(ctx, "sw-s002", "f1", upTo)
		if got := sn.Seq; want == 0 && !errors.Is(err, ErrNotFound) || want != 0 && (err != nil || got != want || string(sn.State) != fmt.Sprint("state", want)) {
			t.Errorf("up to %d: %+v, %v; want the snapshot after event %d", upTo, sn, err, want)
		}
	}
	if n := count(t, s, `SELECT count(*) FROM snapshots WHERE game_id = 'sw-s002'`); n != KeepSnapshots {
		t.Errorf("%d snapshots kept, want %d", n, KeepSnapshots)
	}
}

// TestStore_EventsAfter: the events after a sequence number, in order.
func TestStore_EventsAfter(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-s002")
	var events []Event
	for i := 1; i <= 5; i++ {
		events = append(events, Event{Player: "alice", Command: fmt.Sprint("add ", i)})
	}
	if err := s.Commit(ctx, Commit{GameID: "sw-s002", Events: events}); err != nil {
		t.Fatal(err)
	}
	for after, want := range map[int]int{0: 5, 3: 2, 5: 0, 9: 0} {
		got, err := s.EventsAfter(ctx, "sw-s002", after)
		if err != nil || len(got) != want || want > 0 && got[0].Seq != after+1 {
			t.Errorf("after %d: %d events (%v), want %d from %d", after, len(got), err, want, after+1)
		}
	}
	if _, err := s.EventsAfter(ctx, "sw-none", 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("events of an unknown game: %v, want ErrNotFound", err)
	}
}
