package service_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// TestReceiveAll_groups: the mails of a burst are stored with their outcomes, and
// consecutive mails to different games share one transaction (one processed_at);
// a second mail to a game is decided only after the first is committed (it sees
// its effect); a copy of a mail in the same burst is a duplicate.
func TestReceiveAll_groups(t *testing.T) {
	f := newFixture(t, 100)
	ctx := context.Background()
	gameB, err := f.svc.CreateGame(ctx, service.NewGame{Kind: "tally", Players: []engine.Player{
		{Name: "carol", Email: "carol@" + domain}, {Name: "dave", Email: "dave@" + domain},
	}})
	if err != nil {
		t.Fatal(err)
	}
	carolRaw := f.mail("carol@"+domain, f.svc.ReplyAddress(gameB, 0), "add 2\n")
	mails := [][]byte{
		f.mail("alice@"+domain, f.reply["alice"], "add 1\n"),
		carolRaw,
		f.mail("bob@"+domain, f.reply["bob"], "add 3\n"), // bob's turn only after alice's move
		carolRaw,
		f.mail("mallory@"+domain, f.reply["alice"], "add 9\n"), // forged: rejected, stored
	}
	var ins []store.InboxMsg
	for _, raw := range mails {
		ins = append(ins, store.InboxMsg{Mailbox: "INBOX", Raw: raw})
	}
	res, err := f.svc.ReceiveAll(ctx, ins)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		status string
		dup    bool
	}{{service.StatusApplied, false}, {service.StatusApplied, false}, {service.StatusApplied, false}, {service.StatusApplied, true}, {service.StatusRejected, false}}
	if len(res) != len(want) {
		t.Fatalf("%d results, want %d: %+v", len(res), len(want), res)
	}
	for i, w := range want {
		if res[i].Status != w.status || res[i].Duplicate != w.dup || res[i].InboxID == 0 {
			t.Errorf("mail %d: %+v, want status %s duplicate %v and an inbox id", i, res[i], w.status, w.dup)
		}
	}
	if res[3].InboxID != res[1].InboxID {
		t.Errorf("the copy names inbox row %d, want the first's %d", res[3].InboxID, res[1].InboxID)
	}

	processed := func(id int64) string {
		var at string
		if err := f.st.DB().QueryRow(`SELECT processed_at FROM inbox WHERE id = ?`, id).Scan(&at); err != nil {
			t.Fatal(err)
		}
		return at
	}
	if a, c := processed(res[0].InboxID), processed(res[1].InboxID); a != c {
		t.Errorf("mails to two games committed apart (%s, %s), want together", a, c)
	}
	if a, b := processed(res[0].InboxID), processed(res[2].InboxID); a == b {
		t.Errorf("two mails to one game committed together (%s): the second was decided before the first was stored", a)
	}
	var n int
	if err := f.st.DB().QueryRow(`SELECT count(*) FROM inbox`).Scan(&n); err != nil || n != 4 {
		t.Errorf("%d inbox rows (%v), want 4", n, err)
	}

	for game, scores := range map[string]map[string]int{f.game: {"alice": 1, "bob": 3}, gameB: {"carol": 2}} {
		l, err := f.svc.Load(ctx, game)
		if err != nil {
			t.Fatal(err)
		}
		for p, want := range scores {
			if got := l.State.(testgame.State).Scores[p]; got != want {
				t.Errorf("%s: %s has %d, want %d", game, p, got, want)
			}
		}
	}
}

// TestReceiveAll_lostRaceFallsBackToEach: when the group's commit fails because
// another writer stored one of its mails first (here a trigger does, inside the
// same commit), the mails are processed again one by one: each applied once.
func TestReceiveAll_lostRaceFallsBackToEach(t *testing.T) {
	f := newFixture(t, 100)
	ctx := context.Background()
	gameB, err := f.svc.CreateGame(ctx, service.NewGame{Kind: "tally", Players: []engine.Player{
		{Name: "carol", Email: "carol@" + domain}, {Name: "dave", Email: "dave@" + domain},
	}})
	if err != nil {
		t.Fatal(err)
	}
	alice := f.mail("alice@"+domain, f.reply["alice"], "add 1\n")
	carol := f.mail("carol@"+domain, f.svc.ReplyAddress(gameB, 0), "add 2\n")
	key := store.DedupeKey(fmt.Sprintf("m%d@client.example", f.n), nil)
	trigger := fmt.Sprintf(`CREATE TRIGGER other_writer AFTER INSERT ON events WHEN NEW.command = 'add 1'
	BEGIN INSERT INTO inbox (dedupe_key, message_id, raw, received_at, status) VALUES ('%s', '', x'%x', '2026-11-22T12:00:00.000000000Z', 'pending'); END`, key, carol)
	if _, err := f.st.DB().Exec(trigger); err != nil {
		t.Fatal(err)
	}
	res, err := f.svc.ReceiveAll(ctx, []store.InboxMsg{{Mailbox: "INBOX", Raw: alice}, {Mailbox: "INBOX", Raw: carol}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Status != service.StatusApplied || res[1].Status != service.StatusApplied {
		t.Fatalf("results %+v, want both applied", res)
	}
	var rows int
	if err := f.st.DB().QueryRow(`SELECT count(*) FROM inbox`).Scan(&rows); err != nil || rows != 2 {
		t.Errorf("%d inbox rows (%v), want 2", rows, err)
	}
	for game, scores := range map[string]map[string]int{f.game: {"alice": 1}, gameB: {"carol": 2}} {
		l, err := f.svc.Load(ctx, game)
		if err != nil {
			t.Fatal(err)
		}
		for p, want := range scores {
			if got := l.State.(testgame.State).Scores[p]; got != want {
				t.Errorf("%s: %s has %d, want %d (applied once)", game, p, got, want)
			}
		}
	}
}
