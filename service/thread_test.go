package service_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
)

// newGameFixture is a fixture whose game is a new game of kind between alice and
// bob with the settings st, the service's clock reading now.
func newGameFixture(t *testing.T, kind string, st service.Settings, now time.Time) *fixture {
	t.Helper()
	reg := games.Registry()
	reg["tally"] = testgame.Tally{}
	f := newFixtureOptions(t, reg, func(o *service.Options) { o.Clock = func() time.Time { return now } })
	id, err := f.svc.CreateGame(context.Background(), service.NewGame{Kind: kind, Seed: 7, Settings: st, Players: []engine.Player{
		{Name: "alice", Email: "alice@" + domain}, {Name: "bob", Email: "bob@" + domain},
	}})
	if err != nil {
		t.Fatal(err)
	}
	f.game = id
	f.reply["alice"] = f.svc.ReplyAddress(id, 0)
	f.reply["bob"] = f.svc.ReplyAddress(id, 1)
	return f
}

// gameMailsTo returns the queued mails of the fixture's game to addr, oldest first
// (in English or Italian).
func (f *fixture) gameMailsTo(addr string) []*parse.Message {
	var out []*parse.Message
	for _, m := range f.queued() {
		if strings.EqualFold(m.To[0].Address, addr) && (strings.Contains(m.Body, "game "+f.game) || strings.Contains(m.Body, "partita "+f.game)) {
			out = append(out, m)
		}
	}
	return out
}

// legalWith returns the first concrete legal command of player starting with verb.
func (f *fixture) legalWith(player, verb string) string {
	f.t.Helper()
	l, err := f.svc.Load(context.Background(), f.game)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range l.State.Legal(player) {
		if strings.HasPrefix(c, verb) && !strings.ContainsAny(c, "<[|") {
			return c
		}
	}
	f.t.Fatalf("%s has no concrete %q command: %v", player, verb, l.State.Legal(player))
	return ""
}

// TestThread_onePerPlayer plays a game with moves, a refused line, a refusal, a
// notice and a state answer, and checks that every mail of the game to a player has
// the one subject and refers to the root: the first mail that player received.
func TestThread_onePerPlayer(t *testing.T) {
	f := newGameFixture(t, "tally", service.Settings{}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	alice, bob := "alice@"+domain, "bob@"+domain
	for _, m := range []struct{ from, to, body string }{
		{alice, f.reply["alice"], "add 3\n"},
		{bob, f.reply["bob"], "add 2\nadd 42\n"},
		{alice, f.reply["alice"], "add 42\n"},
		{alice, f.reply["alice"], "history\n"},
		{bob, f.reply["bob"], "status\n"},
		{bob, f.reply["bob"], "undo\n"},
		{alice, f.reply["alice"], "legal\n"},
	} {
		f.receive(f.mail(m.from, m.to, m.body))
	}
	subject := ""
	for _, addr := range []string{alice, bob} {
		mails := f.gameMailsTo(addr)
		if len(mails) < 5 {
			t.Fatalf("%d mails to %s, want at least 5", len(mails), addr)
		}
		root := mails[0]
		if !strings.Contains(root.Body, "A new game of") || len(root.References) != 0 || root.InReplyTo != "" {
			t.Fatalf("the first mail to %s is not a thread root (References %q In-Reply-To %q):\n%s", addr, root.References, root.InReplyTo, root.Body)
		}
		if subject == "" {
			subject = root.Subject
			if want := "[" + f.game + "] tally"; subject != want {
				t.Errorf("subject %q, want %q", subject, want)
			}
		}
		prev := root.MessageID
		for i, m := range mails {
			if m.Subject != subject {
				t.Errorf("mail %d to %s: subject %q, want %q\n%s", i, addr, m.Subject, subject, m.Body)
			}
			if i == 0 {
				continue
			}
			if len(m.References) == 0 || m.References[0] != root.MessageID {
				t.Errorf("mail %d to %s: References %q do not start with the root %q", i, addr, m.References, root.MessageID)
			}
			// The parent is the mail answered (the player's own) or the previous one.
			if m.InReplyTo != prev && !strings.HasSuffix(m.InReplyTo, "@client.example") {
				t.Errorf("mail %d to %s: In-Reply-To %q, want %q or the player's mail", i, addr, m.InReplyTo, prev)
			}
			if last := m.References[len(m.References)-1]; last != m.InReplyTo && m.InReplyTo != root.MessageID {
				t.Errorf("mail %d to %s: References %q do not end with the parent %q", i, addr, m.References, m.InReplyTo)
			}
			prev = m.MessageID
		}
	}
}

// TestLessMail_smallWorldTurn: a Small World turn sent in three mails gives the
// waiting player one mail, when the turn ends, naming all three moves; with notify
// every they get one per mail.
func TestLessMail_smallWorldTurn(t *testing.T) {
	for _, tc := range []struct {
		notify string
		want   int
	}{{"", 1}, {"turn", 1}, {"every", 3}} {
		t.Run("notify="+tc.notify, func(t *testing.T) {
			f := newGameFixture(t, "smallworld", service.Settings{}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
			alice, bob := "alice@"+domain, "bob@"+domain
			if tc.notify != "" {
				if res := f.receive(f.mail(bob, f.reply["bob"], "notify "+tc.notify+"\n")); res.Status != "applied" {
					t.Fatalf("notify %s: %s %s", tc.notify, res.Status, res.Reason)
				}
			}
			before := len(f.gameMailsTo(bob))
			var moves []string
			for _, verb := range []string{"pick", "conquer", "done"} {
				cmd := f.legalWith("alice", verb)
				if res := f.receive(f.mail(alice, f.reply["alice"], cmd+"\n")); res.Status != "applied" {
					t.Fatalf("%s: %s %s", cmd, res.Status, res.Reason)
				}
				moves = append(moves, cmd)
			}
			got := f.gameMailsTo(bob)[before:]
			if len(got) != tc.want {
				t.Fatalf("bob got %d mails during alice's turn, want %d", len(got), tc.want)
			}
			last := got[len(got)-1].Body
			if !strings.HasPrefix(last, "Your move") {
				t.Errorf("bob's last mail does not give him the move:\n%s", last)
			}
			if tc.want == 1 {
				// The account in words: the combo taken, the region conquered; alice's
				// score is hers alone, so bob reads that her turn ended, and his own begins.
				region := strings.TrimPrefix(moves[1], "conquer ")
				for _, w := range []string{"alice took ", "alice (", "conquered region " + region + " ", "alice ended the turn", "bob begins turn 1"} {
					if !strings.Contains(last, w) {
						t.Errorf("bob's mail does not tell %q:\n%s", w, last)
					}
				}
				if strings.Contains(last, "alice scored") {
					t.Errorf("bob's mail tells alice's secret score:\n%s", last)
				}
			}
			for _, m := range f.gameMailsTo(alice) {
				if strings.Contains(m.Body, "notify") && !strings.Contains(m.Body, "notify every|turn") {
					t.Errorf("alice is told of bob's own setting:\n%s", m.Body)
				}
			}
			if n := len(f.gameMailsTo(alice)); n < 4 {
				t.Errorf("alice got %d mails, want the opening and an answer to each of her 3", n)
			}
		})
	}
}

// TestTime_gameZone: times are shown in the game's zone from its deadline, across
// the end of summer time in Europe/Rome (25 Oct 2026), and in a player's own tz.
func TestTime_gameZone(t *testing.T) {
	for _, tc := range []struct {
		name     string
		now      time.Time
		st       service.Settings
		tz       string // bob's own tz, "" for none
		wantDue  string
		wantNone string
	}{
		{"summer time", time.Date(2026, 10, 23, 6, 0, 0, 0, time.UTC), service.Settings{Deadline: "daily 21:00 Europe/Rome"}, "", "Fri 23 Oct 21:00 CEST", "19:00 UTC"},
		// At least 12h after the turn begins: the next evening, after the clocks went back.
		{"across the change", time.Date(2026, 10, 24, 8, 0, 0, 0, time.UTC), service.Settings{Deadline: "daily 21:00 Europe/Rome"}, "", "Sun 25 Oct 21:00 CET", "20:00 UTC"},
		{"tz= option", time.Date(2026, 10, 24, 8, 0, 0, 0, time.UTC), service.Settings{Deadline: "24h", TZ: "Europe/Rome"}, "", "Sun 25 Oct 09:00 CET", "08:00 UTC"},
		{"no zone", time.Date(2026, 10, 24, 8, 0, 0, 0, time.UTC), service.Settings{Deadline: "24h"}, "", "Sun 25 Oct 08:00 UTC", "CET"},
		{"player's tz", time.Date(2026, 10, 23, 6, 0, 0, 0, time.UTC), service.Settings{Deadline: "daily 21:00 Europe/Rome"}, "america/new_york", "Fri 23 Oct 15:00 EDT", "CEST"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newGameFixture(t, "tally", tc.st, tc.now)
			bob := "bob@" + domain
			if tc.tz != "" {
				if res := f.receive(f.mail(bob, f.reply["bob"], "tz "+tc.tz+"\n")); res.Status != "applied" {
					t.Fatalf("tz: %s %s", res.Status, res.Reason)
				}
			}
			f.receive(f.mail(bob, f.reply["bob"], "legal\n"))
			mails := f.gameMailsTo(bob)
			last := mails[len(mails)-1].Body
			if !strings.Contains(last, "Your move — by "+tc.wantDue) || strings.Contains(last, tc.wantNone) {
				t.Errorf("bob's legal answer does not show the deadline %q (or shows %q):\n%s", tc.wantDue, tc.wantNone, last)
			}
		})
	}
}

// TestPrefs_refused: bad tz and notify arguments are answered, not recorded.
func TestPrefs_refused(t *testing.T) {
	f := newGameFixture(t, "tally", service.Settings{}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	bob := "bob@" + domain
	for _, body := range []string{"tz Mars/Olympus", "tz ../../etc/passwd", "tz local", "tz " + strings.Repeat("a", 5000), "tz", "notify sometimes", "notify"} {
		res := f.receive(f.mail(bob, f.reply["bob"], body+"\n"))
		if res.Status != "rejected" {
			t.Errorf("%.40q: status %s, want rejected", body, res.Status)
		}
	}
	if n, _ := f.st.LastSeq(context.Background(), f.game); n != 0 {
		t.Errorf("%d events recorded, want none", n)
	}
}

// TestThread_subjectBounded: the subject is the game's id and title, whatever names
// the players have (a name never makes it long, and it never changes as players
// join).
func TestThread_subjectBounded(t *testing.T) {
	f := newFixture(t, 30)
	var players []engine.Player
	for i := range 8 {
		players = append(players, engine.Player{Name: fmt.Sprintf("p%d%s", i, strings.Repeat("x", 200)), Email: fmt.Sprintf("p%d@%s", i, domain)})
	}
	id, err := f.svc.CreateGame(context.Background(), service.NewGame{Kind: "tally", Seed: 1, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, m := range f.queued() {
		if !strings.Contains(m.Subject, id) {
			continue
		}
		seen++
		if m.Subject != "["+id+"] tally" {
			t.Errorf("subject %q (%d bytes): want the game's id and title", m.Subject, len(m.Subject))
		}
	}
	if seen != len(players) {
		t.Errorf("%d opening mails, want %d", seen, len(players))
	}
}

// TestThread_lobbyInGameThread: from the game's opening in the lobby on, every mail
// about the game has its one subject and stands in its reader's thread: the host's
// answer to new is the host's root, the notice that bob joined refers to it, bob's
// answer to join is his root and his opening mail refers to it (only the
// confirmation request, to an address that may not want the game's mail, has a
// subject of its own).
func TestThread_lobbyInGameThread(t *testing.T) {
	f := newFixture(t, 100)
	host, bob := "host@"+domain, "bob@"+domain
	id := f.lobbyGame(host, "")
	if res := f.confirmed(bob, "join "+id+"\n"); res.Status != service.StatusApplied {
		t.Fatalf("join: %+v", res)
	}
	if res := f.asHost(host, id, "start "+id+"\n"); res.Status != service.StatusApplied {
		t.Fatalf("start: %+v", res)
	}
	subject := "[" + id + "] tally"
	for _, addr := range []string{host, bob} {
		var root *parse.Message
		for _, m := range f.mailsTo(addr) {
			if !strings.Contains(m.Subject+m.Body, id) {
				continue // the fixture's other game
			}
			if strings.Contains(m.Subject, "confirm") || strings.Contains(m.Body, ".confirm.") || len(m.ReplyTo) > 0 && strings.Contains(m.ReplyTo[0].Address, ".confirm.") {
				continue // the confirmation request
			}
			if m.Subject != subject {
				t.Errorf("mail to %s: subject %q, want %q:\n%s", addr, m.Subject, subject, m.Body)
				continue
			}
			if root == nil {
				root = m
				continue
			}
			if len(m.References) == 0 || m.References[0] != root.MessageID {
				t.Errorf("mail to %s: References %q, want the root %s first:\n%s", addr, m.References, root.MessageID, m.Body)
			}
		}
		if root == nil {
			t.Errorf("no mail of the game to %s", addr)
		}
	}
}
