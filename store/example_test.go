package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/turnmail/turnmail/store"
)

// Example shows one turn of the loop: a mail stored raw, its command committed with
// the resulting notification, and the notification sent.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "turnmail-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	s, err := store.Open(ctx, filepath.Join(dir, "turnmail.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	// The host creates a game.
	err = s.CreateGame(ctx, store.Game{ID: "sw-7k3p", Kind: "smallworld", Setup: json.RawMessage(`{"seed":42}`), Status: store.GameRunning},
		[]store.Player{{Seat: 0, Name: "alice", Email: "alice@example.org", Active: true}}, nil)
	if err != nil {
		log.Fatal(err)
	}

	// The watcher stores a mail before anything reads it; a rescan finds it again.
	raw := []byte("Message-ID: <1@example.org>\r\n\r\npick 1\r\n")
	id, _, err := s.AddInbox(ctx, store.InboxMsg{MessageID: "<1@example.org>", Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: raw})
	if err != nil {
		log.Fatal(err)
	}
	_, dup, _ := s.AddInbox(ctx, store.InboxMsg{MessageID: "<1@example.org>", Mailbox: "INBOX", UIDValidity: 2, UID: 1, Raw: raw})
	fmt.Println("rescan is a duplicate:", dup)

	// The game service applies the command against the last seq it replayed.
	last, err := s.LastSeq(ctx, "sw-7k3p")
	if err != nil {
		log.Fatal(err)
	}
	wake := s.Notify()
	err = s.Commit(ctx, store.Commit{
		GameID: "sw-7k3p", ExpectSeq: last,
		Events:  []store.Event{{Player: "alice", Command: "pick 1", MessageID: "<1@example.org>", At: time.Now()}},
		Outbox:  []store.OutMail{{GameID: "sw-7k3p", Kind: "state", From: "turnmail@example.org", To: []string{"alice@example.org"}, Raw: []byte("...")}},
		InboxID: id,
	})
	if err != nil {
		log.Fatal(err)
	}
	// The same command sent against the old state is stale.
	err = s.Commit(ctx, store.Commit{GameID: "sw-7k3p", ExpectSeq: last, Events: []store.Event{{Player: "alice", Command: "pick 1"}}})
	fmt.Println("stale:", errors.Is(err, store.ErrStaleSeq))

	// The sender wakes and drains the outbox.
	<-wake
	due, err := s.DueOutbox(ctx, time.Now(), 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range due {
		if err := s.MarkSent(ctx, m.ID, time.Now()); err != nil {
			log.Fatal(err)
		}
		fmt.Println("sent", m.Kind, "to", m.To)
	}
	// Output:
	// rescan is a duplicate: true
	// stale: true
	// sent state to [alice@example.org]
}
