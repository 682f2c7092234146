package store

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// BenchmarkCommit measures one Commit of one event and five outbox mails (a move
// and the state mails to a five-player table), on a file database with
// synchronous=FULL.
func BenchmarkCommit(b *testing.B) {
	ctx := context.Background()
	s := mustOpen(b)
	mustCreateGame(b, s, "sw-bench")
	raw := make([]byte, 8<<10) // a typical multipart state mail
	for i := range raw {
		raw[i] = 'a' + byte(i%26)
	}
	mails := make([]OutMail, 5)
	for i := range mails {
		mails[i] = OutMail{GameID: "sw-bench", Kind: "state", From: "turnmail@example.org",
			To: []string{fmt.Sprintf("p%d@example.org", i)}, Raw: raw}
	}
	seq := 0
	b.ReportAllocs()
	for b.Loop() {
		err := s.Commit(ctx, Commit{
			GameID: "sw-bench", ExpectSeq: seq,
			Events: []Event{{Player: "alice", Command: "conquer 12 roll", Outcomes: json.RawMessage(`{"die":2}`),
				Hash: "3f2a9c", At: time.Now(), MessageID: "<m@example.org>"}},
			Outbox: mails,
		})
		if err != nil {
			b.Fatal(err)
		}
		seq++
	}
}

// BenchmarkEvents measures loading a 200-event game log.
func BenchmarkEvents(b *testing.B) {
	ctx := context.Background()
	s := mustOpen(b)
	mustCreateGame(b, s, "sw-bench")
	events := make([]Event, 200)
	for i := range events {
		events[i] = Event{Player: "alice", Command: fmt.Sprintf("conquer %d", i%40), Outcomes: json.RawMessage(`{"die":2}`),
			Hash: "3f2a9c", At: time.Now(), MessageID: fmt.Sprintf("<%d@example.org>", i)}
	}
	if err := s.Commit(ctx, Commit{GameID: "sw-bench", Events: events}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		got, err := s.Events(ctx, "sw-bench")
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != 200 {
			b.Fatalf("%d events", len(got))
		}
	}
}
