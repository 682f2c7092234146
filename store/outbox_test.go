package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestStore_OutboxByMessageID: the store records each queued mail's Message-ID from
// its header and finds the mail, with its recipient, by it (and by its id).
func TestStore_OutboxByMessageID(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	err := s.Enqueue(ctx,
		OutMail{From: "t@x.org", To: []string{"bob@x.org"}, Raw: []byte("Message-ID: <a.1@x.org>\r\nSubject: s\r\n\r\nbody")},
		OutMail{From: "t@x.org", To: []string{"ann@x.org"}, Raw: []byte("Subject: no id\r\n\r\nbody")},
	)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id   string
		want string // the recipient found, "" for none
	}{
		{"a.1@x.org", "bob@x.org"},
		{"<a.1@x.org>", ""},
		{"b.1@x.org", ""},
		{"", ""},
	}
	if m, err := s.OutboxMail(ctx, 1); err != nil || m.To[0] != "bob@x.org" || m.MessageID != "a.1@x.org" {
		t.Errorf("OutboxMail(1) = %+v, %v", m, err)
	}
	if _, err := s.OutboxMail(ctx, 3); !errors.Is(err, ErrNotFound) {
		t.Errorf("OutboxMail(3): %v, want ErrNotFound", err)
	}
	for _, tt := range tests {
		got, err := s.OutboxByMessageID(ctx, tt.id)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.want == "" && len(got) != 0:
			t.Errorf("%q: found %d mails, want none", tt.id, len(got))
		case tt.want != "" && (len(got) != 1 || got[0].To[0] != tt.want || got[0].MessageID != tt.id):
			t.Errorf("%q: found %+v, want one mail to %s", tt.id, got, tt.want)
		}
	}
}

// TestStore_Readers: queuing a game's thread mails records each reader's root (the
// first), last mail and the last event a state mail accounted for; other mail does not.
func TestStore_Readers(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t)
	if err := s.CreateGame(ctx, Game{ID: "sw-r001", Kind: "smallworld", Status: GameRunning}, nil, nil); err != nil {
		t.Fatal(err)
	}
	mail := func(id, to string, thread bool, seen int) OutMail {
		return OutMail{GameID: "sw-r001", From: "t@x.org", To: []string{to}, Thread: thread, Seen: seen,
			Raw: []byte("Message-ID: <" + id + ">\r\nSubject: s\r\n\r\nbody")}
	}
	for _, batch := range [][]OutMail{
		{mail("lobby@x.org", "ann@x.org", false, 0)}, // before the start: no thread
		{mail("open.ann@x.org", "Ann@x.org", true, 0), mail("open.bob@x.org", "bob@x.org", true, 0)},
		{mail("state.ann@x.org", "ann@x.org", true, 3), mail("notice.ann@x.org", "ann@x.org", true, 0)},
		{{GameID: "sw-r001", From: "t@x.org", To: []string{"bob@x.org"}, Thread: true, Raw: []byte("Subject: no id\r\n\r\nbody")}},
	} {
		if err := s.Enqueue(ctx, batch...); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Readers(ctx, "sw-r001")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Reader{
		"ann@x.org": {Root: "open.ann@x.org", Last: "notice.ann@x.org", Seen: 3},
		"bob@x.org": {Root: "open.bob@x.org", Last: "open.bob@x.org"},
	}
	if len(got) != len(want) {
		t.Fatalf("readers %+v, want %+v", got, want)
	}
	for addr, w := range want {
		if got[addr] != w {
			t.Errorf("reader %s = %+v, want %+v", addr, got[addr], w)
		}
	}
}

// TestStore_readersMigration: a database from before the readers table gets a reader
// per state-mail recipient of each game: root their first state mail, last their
// last mail, seen the game's last event.
func TestStore_readersMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGame(ctx, Game{ID: "sw-m001", Kind: "smallworld", Status: GameRunning}, nil, nil); err != nil {
		t.Fatal(err)
	}
	mail := func(kind, id, to string) OutMail {
		return OutMail{GameID: "sw-m001", Kind: kind, From: "t@x.org", To: []string{to}, Raw: []byte("Message-ID: <" + id + ">\r\n\r\nbody")}
	}
	if err := s.Enqueue(ctx, mail("notice", "joined@x.org", "ann@x.org"), mail("state", "open.ann@x.org", "ann@x.org"),
		mail("state", "open.bob@x.org", "bob@x.org"), mail("notice", "later.ann@x.org", "ann@x.org")); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(ctx, Commit{GameID: "sw-m001", Events: []Event{{Player: "ann", Command: "pick 1"}}}); err != nil {
		t.Fatal(err)
	}
	// Back to schema version 8 (the later migrations undone too).
	if _, err := s.DB().Exec(`DROP TABLE readers; DROP TABLE snapshots; DROP TABLE held; DELETE FROM schema_version WHERE version >= 9`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Readers(ctx, "sw-m001")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Reader{
		"ann@x.org": {Root: "open.ann@x.org", Last: "later.ann@x.org", Seen: 1},
		"bob@x.org": {Root: "open.bob@x.org", Last: "open.bob@x.org", Seen: 1},
	}
	if len(got) != len(want) || got["ann@x.org"] != want["ann@x.org"] || got["bob@x.org"] != want["bob@x.org"] {
		t.Errorf("readers after the migration %+v, want %+v", got, want)
	}
}
