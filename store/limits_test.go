package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLimits queues classified mails through Commit and checks which are queued:
// each cap stops the mail over it, the loop guard counts only since the last answer
// to a mail that changed something, and a held mail is named in the settled inbox
// row and in Held.
func TestLimits(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	lim := &Limits{AnswersPerHour: 4, IdleAnswersPerHour: 2, IdleAnswersPerDay: 3, NotificationsPerHour: 2,
		ContactsPerAddressPerDay: 1, FirstContactsPerWriterPerDay: 2, FirstContactsPerDay: 3, ChatsPerHour: 2}
	mail := func(to, class, cause string, idle bool) OutMail {
		return OutMail{Kind: "k", From: "turnmail@example.org", To: []string{to}, Raw: []byte("x"), Class: class, Cause: cause, Idle: idle}
	}
	type step struct {
		at   time.Duration
		m    OutMail
		sent bool
	}
	cases := []struct {
		name    string
		writers []string
		steps   []step
	}{
		{"idle answers: loop guard per hour", nil, []step{
			{0, mail("a@x.org", ClassAnswer, "a@x.org", true), true},
			{time.Minute, mail("a@x.org", ClassAnswer, "a@x.org", true), true},
			{2 * time.Minute, mail("a@x.org", ClassAnswer, "a@x.org", true), false},
			{61 * time.Minute, mail("a@x.org", ClassAnswer, "a@x.org", true), true},
			{62 * time.Minute, mail("a@x.org", ClassAnswer, "a@x.org", true), false}, // 3 a day
			{25 * time.Hour, mail("a@x.org", ClassAnswer, "a@x.org", true), true},
		}},
		{"a productive answer resets the loop guard, not the hourly cap", nil, []step{
			{0, mail("b@x.org", ClassAnswer, "b@x.org", true), true},
			{1, mail("b@x.org", ClassAnswer, "b@x.org", true), true},
			{2, mail("b@x.org", ClassAnswer, "b@x.org", false), true},
			{3, mail("b@x.org", ClassAnswer, "b@x.org", true), true},
			{4, mail("b@x.org", ClassAnswer, "b@x.org", false), false}, // 4 an hour
		}},
		{"notifications: loop guard only", nil, []step{
			{0, mail("c@x.org", ClassNotification, "d@x.org", false), true},
			{1, mail("c@x.org", ClassNotification, "d@x.org", false), true},
			{2, mail("c@x.org", ClassNotification, "d@x.org", false), false},
			{3, mail("c@x.org", ClassAnswer, "c@x.org", false), true},
		}},
		{"first contacts: per address, per writer, global", []string{"known@x.org"}, []step{
			{0, mail("v1@x.org", ClassContact, "h1@x.org", false), true},
			{1, mail("v1@x.org", ClassContact, "h1@x.org", false), false}, // 1 per address a day
			{2, mail("v2@x.org", ClassContact, "h1@x.org", false), true},
			{3, mail("v3@x.org", ClassContact, "h1@x.org", false), false}, // 2 per writer
			{4, mail("known@x.org", ClassContact, "h1@x.org", false), true},
			{5, mail("v4@x.org", ClassContact, "h2@x.org", false), true},
			{6, mail("v5@x.org", ClassContact, "h3@x.org", false), false}, // 3 in all
			{25 * time.Hour, mail("v5@x.org", ClassContact, "h3@x.org", false), true},
		}},
		{"chats: per writer, whatever the recipient, per hour", nil, []step{
			{0, mail("f@x.org", ClassChat, "W@x.org", false), true},
			{1, mail("g@x.org", ClassChat, "w@x.org", false), true},
			{2, mail("h@x.org", ClassChat, "w@x.org", false), false}, // 2 an hour per writer
			{3, mail("h@x.org", ClassChat, "z@x.org", false), true},
			{61 * time.Minute, mail("h@x.org", ClassChat, "w@x.org", false), true},
		}},
		{"play mail: no cap, and not counted by the others", nil, []step{
			{0, mail("p@x.org", ClassPlay, "p@x.org", false), true},
			{1, mail("p@x.org", ClassPlay, "p@x.org", false), true},
			{2, mail("p@x.org", ClassPlay, "q@x.org", false), true},
			{3, mail("p@x.org", ClassPlay, "q@x.org", false), true},
			{4, mail("p@x.org", ClassPlay, "q@x.org", false), true}, // past every cap of answers and notifications
			{5, mail("p@x.org", ClassAnswer, "p@x.org", false), true},
			{6, mail("p@x.org", ClassNotification, "q@x.org", false), true},
			{7, mail("p@x.org", ClassHold, "", false), true},
		}},
		{"the answer to an accepted move resets the loop guard", nil, []step{
			{0, mail("r@x.org", ClassAnswer, "r@x.org", true), true},
			{1, mail("r@x.org", ClassAnswer, "r@x.org", true), true},
			{2, mail("r@x.org", ClassPlay, "r@x.org", false), true},
			{3, mail("r@x.org", ClassAnswer, "r@x.org", true), true},
			{4, mail("r@x.org", ClassAnswer, "r@x.org", true), false}, // 3 a day
		}},
		{"unclassified mail is not limited", nil, []step{
			{0, mail("e@x.org", "", "", true), true},
			{1, mail("e@x.org", "", "", true), true},
			{2, mail("e@x.org", "", "", true), true},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustOpen(t)
			for _, w := range c.writers {
				if err := s.Commit(ctx, Commit{Writer: w, Now: t0.Add(-time.Hour)}); err != nil {
					t.Fatal(err)
				}
			}
			for i, st := range c.steps {
				var held []string
				in := &InboxMsg{DedupeKey: fmt.Sprint("k", i), Raw: []byte("x"), ReceivedAt: t0}
				err := s.Commit(ctx, Commit{Outbox: []OutMail{st.m}, Limits: lim, Now: t0.Add(st.at), Held: &held,
					Inbox: in, InboxStatus: InboxRejected, InboxError: "why"})
				if err != nil {
					t.Fatal(err)
				}
				if sent := len(held) == 0; sent != st.sent {
					t.Fatalf("step %d (%s to %s): sent %v, want %v (held %q)", i, st.m.Class, st.m.To[0], sent, st.sent, held)
				}
				got, err := s.Inbox(ctx, in.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !st.sent && (!strings.HasPrefix(got.Error, "why; k to ") || !strings.Contains(got.Error, "limit of")) {
					t.Errorf("step %d: inbox error %q does not say why the answer was held", i, got.Error)
				}
				if st.sent && got.Error != "why" {
					t.Errorf("step %d: inbox error %q, want %q", i, got.Error, "why")
				}
			}
			queued, err := s.Outbox(ctx, "", OutboxPending)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for _, st := range c.steps {
				if st.sent {
					want++
				}
			}
			if len(queued) != want {
				t.Errorf("%d mails queued, want %d", len(queued), want)
			}
		})
	}
}

// TestLimits_heldRecorded: a mail held back is recorded with when its reader's mail
// resumes (when the oldest mail its cap counts leaves the window); its reader is owed
// one notice, which a notice still in force covers, and the host sees it. A stranger
// whose contact mail is held back is owed none.
func TestLimits_heldRecorded(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := mustOpen(t)
	mustCreateGame(t, s, "sw-h001")
	lim := &Limits{NotificationsPerHour: 2, ContactsPerAddressPerDay: 1}
	send := func(at time.Duration, class, to string) {
		t.Helper()
		m := OutMail{GameID: "sw-h001", Kind: "reminder", From: "turnmail@example.org", To: []string{to}, Raw: []byte("x"), Class: class, Cause: "host@x.org"}
		if err := s.Commit(ctx, Commit{Outbox: []OutMail{m}, Limits: lim, Now: t0.Add(at)}); err != nil {
			t.Fatal(err)
		}
	}
	send(0, ClassNotification, "a@x.org")
	send(10*time.Minute, ClassNotification, "a@x.org")
	send(20*time.Minute, ClassNotification, "a@x.org") // held: resumes at t0+1h
	send(25*time.Minute, ClassContact, "v@x.org")
	send(26*time.Minute, ClassContact, "v@x.org") // held, no notice owed
	held, err := s.HeldMail(ctx, "sw-h001", t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(held) != 2 || held[1].Rcpt != "a@x.org" || !held[1].Until.Equal(t0.Add(time.Hour)) || held[0].Rcpt != "v@x.org" || !held[0].Until.Equal(t0.Add(25*time.Minute+24*time.Hour)) {
		t.Fatalf("held mail %+v", held)
	}
	notices, err := s.HoldsToNotice(ctx, t0.Add(30*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 || notices[0].Rcpt != "a@x.org" || len(notices[0].Held) != 1 || notices[0].Told {
		t.Fatalf("notices %+v, want one owed to a@x.org", notices)
	}
	if err := s.Commit(ctx, Commit{Noticed: []string{"A@x.org"}, Now: t0.Add(30 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	send(40*time.Minute, ClassNotification, "a@x.org") // held again before the told time
	notices, err = s.HoldsToNotice(ctx, t0.Add(45*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 || !notices[0].Told {
		t.Fatalf("notices %+v, want one covered by the notice sent", notices)
	}
	if err := s.Commit(ctx, Commit{Noticed: []string{"a@x.org"}, Now: t0.Add(45 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	send(70*time.Minute, ClassNotification, "a@x.org") // the window moved on: sent
	send(72*time.Minute, ClassNotification, "a@x.org")
	send(75*time.Minute, ClassNotification, "a@x.org") // held until t0+2h10: a new notice
	notices, err = s.HoldsToNotice(ctx, t0.Add(80*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 || notices[0].Told || !notices[0].Held[0].Until.Equal(t0.Add(130*time.Minute)) {
		t.Fatalf("notices %+v, want a new one owed, resuming at t0+2h10", notices)
	}
}
