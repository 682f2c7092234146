package service_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// limitsFixture is a fixture with the default limits and a clock the test moves;
// restart replaces the service by a new one on the same store, as a restart does.
type limitsFixture struct {
	*fixture
	now  time.Time
	opts service.Options
}

func newLimitsFixture(t *testing.T) *limitsFixture {
	t.Helper()
	lf := &limitsFixture{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	lf.fixture = newFixtureOptions(t, engine.Registry{"tally": testgame.Tally{}}, func(o *service.Options) {
		o.Clock = func() time.Time { return lf.now }
		lf.opts = *o
	})
	return lf
}

func (lf *limitsFixture) restart() {
	lf.t.Helper()
	tmpl, err := templates.Load()
	if err != nil {
		lf.t.Fatal(err)
	}
	svc, err := service.New(lf.st, engine.Registry{"tally": testgame.Tally{}}, tmpl, lf.opts)
	if err != nil {
		lf.t.Fatal(err)
	}
	lf.svc = svc
}

// autoReply is what a careless auto-responder sends: no Auto-Submitted, a Re:
// subject, and text that is no command.
func (lf *limitsFixture) autoReply(from, to string) []byte {
	lf.n++
	return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: [turnmail] game\r\nMessage-ID: <auto%d@client.example>\r\n\r\nThank you for your mail. I will read it when I am back.\r\n", from, to, lf.n))
}

// heldNotice is the first words of the notice that mail was held back.
const heldNotice = "Mail to you was held back"

// answersTo splits the mails to addr into answers and notices of held mail.
func (f *fixture) answersTo(addr string) (answers, notices int) {
	for _, m := range f.mailsTo(addr) {
		if strings.Contains(m.Body, heldNotice) {
			notices++
		} else {
			answers++
		}
	}
	return answers, notices
}

// TestLimits_autoResponderStops: an auto-responder at a host's and at an
// observer's address, writing back to every mail it gets, gets at most
// IdleAnswersPerHour answers in an hour and IdleAnswersPerDay in a day, although the
// service restarts in between (the limits are in the database); beside them, one
// notice per hold that mail is held back (a few a day: one per hourly hold, then one
// for the daily one).
func TestLimits_autoResponderStops(t *testing.T) {
	lim := store.DefaultLimits
	for _, who := range []string{"host", "observer"} {
		t.Run(who, func(t *testing.T) {
			lf := newLimitsFixture(t)
			addr := who + "@elsewhere.example"
			if who == "host" {
				lf.lobbyGame(addr, "")
			} else if res := lf.confirmed(addr, "observe "+lf.game+"\n"); res.Status != service.StatusApplied {
				t.Fatalf("observe: %+v", res)
			}
			before, _ := lf.answersTo(addr)
			start := lf.now
			hour, hourNotices := 0, 0
			// Every 2 minutes for a day.
			for i := 1; lf.now.Before(start.Add(24 * time.Hour)); i++ {
				lf.now = lf.now.Add(2 * time.Minute)
				if i == 10 || i%180 == 0 { // once in the first hour, then every 6 hours
					lf.restart()
				}
				res := lf.receive(lf.autoReply(addr, svcAddr))
				if res.Status == service.StatusApplied {
					t.Fatalf("auto-reply %d applied something: %+v", i, res)
				}
				if i == 30 { // the first hour
					hour, hourNotices = lf.answersTo(addr)
					hour -= before
				}
			}
			day, notices := lf.answersTo(addr)
			day -= before
			if hour < 1 || hour > lim.IdleAnswersPerHour || hourNotices != 1 {
				t.Errorf("%d answers and %d notices in the first hour, want 1 to %d and 1", hour, hourNotices, lim.IdleAnswersPerHour)
			}
			if day > lim.IdleAnswersPerDay || notices < 1 || notices > lim.IdleAnswersPerDay/lim.IdleAnswersPerHour+1 {
				t.Errorf("%d answers and %d notices in a day, want at most %d and 1 to %d", day, notices, lim.IdleAnswersPerDay, lim.IdleAnswersPerDay/lim.IdleAnswersPerHour+1)
			}
			t.Logf("%s: %d answers in the first hour, %d in a day, to 720 auto-replies; %d notices of held mail", who, hour, day, notices)
		})
	}
}

// TestLimits_forgedFromReflection: `games` twenty times a mail, sent a hundred times
// in a day with the victim's address forged in From: each mail is answered once
// (bounded work), and the victim gets at most IdleAnswersPerDay of them.
func TestLimits_forgedFromReflection(t *testing.T) {
	lf := newLimitsFixture(t)
	victim := "victim@elsewhere.example"
	for i := 0; i < 100; i++ {
		lf.now = lf.now.Add(14 * time.Minute)
		lf.receive(lf.mail(victim, svcAddr, strings.Repeat("games\n", 20)))
	}
	got, notices := lf.answersTo(victim)
	if lim := store.DefaultLimits; got < 1 || got > lim.IdleAnswersPerDay || notices > lim.IdleAnswersPerDay/lim.IdleAnswersPerHour+1 {
		t.Fatalf("the victim got %d answers and %d notices of held mail in a day, want 1 to %d and at most %d", got, notices, lim.IdleAnswersPerDay, lim.IdleAnswersPerDay/lim.IdleAnswersPerHour+1)
	}
	rows, err := lf.st.FailedInbox(context.Background()) // nothing failed on the way
	if err != nil || len(rows) > 0 {
		t.Fatalf("failed mails %v, err %v", rows, err)
	}
}

// TestLimits_invitationSpam: six hosts each open a game and send two mails of 19
// invitations to addresses that never wrote to us. Each host's invitations stop at
// FirstContactsPerWriterPerDay and all of them at FirstContactsPerDay; an address
// that wrote to us is not a first contact, but gets at most ContactsPerAddressPerDay;
// the next day the caps start again.
func TestLimits_invitationSpam(t *testing.T) {
	lim := store.DefaultLimits
	lf := newLimitsFixture(t)
	friend := "friend@elsewhere.example"
	lf.receive(lf.mail(friend, svcAddr, "help\n")) // wrote to us
	invitations := func() (byHost map[int]int, toFriend int) {
		byHost = map[int]int{}
		for _, m := range lf.queued() {
			var day, h int
			if _, err := fmt.Sscanf(m.To[0].Address, "victim-%d-%d-", &day, &h); err == nil {
				byHost[h]++
			}
			if m.To[0].Address == friend {
				toFriend++
			}
		}
		return byHost, toFriend - 1 // the answer to help
	}
	var reasons []string
	send := func(day int) {
		for h := 0; h < 6; h++ {
			host := fmt.Sprintf("host%d@spam.example", h)
			g := lf.lobbyGame(host, "")
			for j := 0; j < 2; j++ {
				var body strings.Builder
				for k := 0; k < 18; k++ {
					fmt.Fprintf(&body, "invite %s victim-%d-%d-%d-%d@elsewhere.example\n", g, day, h, j, k)
				}
				fmt.Fprintf(&body, "invite %s %s\n", g, friend)
				lf.now = lf.now.Add(time.Minute)
				res := lf.asHost(host, g, body.String())
				if res.Status == service.StatusFailed {
					t.Fatalf("invitations: %+v", res)
				}
				reasons = append(reasons, res.Reason)
			}
		}
	}
	send(0)
	byHost, toFriend := invitations()
	total := 0
	for h, n := range byHost {
		total += n
		if n > lim.FirstContactsPerWriterPerDay {
			t.Errorf("host %d sent %d invitations, want at most %d", h, n, lim.FirstContactsPerWriterPerDay)
		}
	}
	if total != lim.FirstContactsPerDay {
		t.Errorf("%d first-contact invitations in all, want the global cap %d (%v)", total, lim.FirstContactsPerDay, byHost)
	}
	if toFriend != lim.ContactsPerAddressPerDay {
		t.Errorf("%d invitations to an address that wrote to us, want %d", toFriend, lim.ContactsPerAddressPerDay)
	}
	lf.now = lf.now.Add(25 * time.Hour)
	send(1)
	byHost2, _ := invitations()
	total2 := 0
	for _, n := range byHost2 {
		total2 += n
	}
	if total2-total != lim.FirstContactsPerDay {
		t.Errorf("the next day, %d more invitations, want %d", total2-total, lim.FirstContactsPerDay)
	}
	// The inbox rows say why (as the results do).
	if !strings.Contains(strings.Join(reasons, "\n"), "limit of 20 first-contact mails per day caused by host") {
		t.Errorf("no result says the invitations were held back:\n%s", strings.Join(reasons, "\n"))
	}
}

// TestLimits_friendlyGameNeverLimited plays a whole turn-a-day game by mail with
// the default limits: opened, an invitation, a join, an observer, the lobby's
// games, the start, a move a day each, and the usual mistakes (a move out of turn,
// a mail without its reply token, a mail with no command, the same move twice).
// No mail is ever held back, and every move's state mail reaches both players and
// the observer.
func TestLimits_friendlyGameNeverLimited(t *testing.T) {
	ctx := context.Background()
	lf := newLimitsFixture(t)
	alice, bob, carol := "alice@friends.example", "bob@friends.example", "carol@friends.example"
	var results []service.Result
	send := func(from, to, body string) service.Result {
		t.Helper()
		res := lf.receive(lf.mail(from, to, body))
		results = append(results, res)
		return res
	}
	g := lf.lobbyGame(alice, "turns=true target=60")
	lf.now = lf.now.Add(time.Hour)
	send(alice, lf.svc.HostAddress(g), "invite "+g+" "+bob+"\n")
	lf.now = lf.now.Add(3 * time.Hour)
	send(bob, lf.confirmAddr(bob), "yes\n") // the invitation's reply: bob joins
	send(carol, svcAddr, "games\n")
	send(carol, svcAddr, "observe "+g+"\n")
	send(carol, lf.confirmAddr(carol), "yes\n")
	lf.now = lf.now.Add(time.Hour)
	send(alice, svcAddr, "games\n")
	if res := send(alice, lf.svc.HostAddress(g), "start "+g+"\n"); res.Status != service.StatusApplied {
		t.Fatalf("start: %+v", res)
	}
	reply := map[string]string{alice: lf.svc.ReplyAddress(g, 0), bob: lf.svc.ReplyAddress(g, 1)}
	other := map[string]string{alice: bob, bob: alice}
	moves := 0
	for day := 0; ; day++ {
		l, err := lf.svc.Load(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if l.State.Finished() {
			break
		}
		if day > 60 {
			t.Fatal("the game did not end")
		}
		lf.now = lf.now.Add(24 * time.Hour)
		mover := alice
		if l.State.ToAct()[0] == "bob" {
			mover = bob
		}
		switch day % 5 {
		case 1:
			send(other[mover], reply[other[mover]], "add 3\n") // not their turn
		case 2:
			send(mover, svcAddr, "add 2\n") // no reply token
		case 3:
			send(mover, reply[mover], "# thinking\n") // no command
		}
		lf.now = lf.now.Add(time.Hour)
		before := len(lf.queued())
		if res := send(mover, reply[mover], fmt.Sprintf("add %d\n", 1+day%3)); res.Applied != 1 {
			t.Fatalf("day %d: the move of %s: %+v", day, mover, res)
		}
		moves++
		if got := len(lf.queued()) - before; got != 3 {
			t.Fatalf("day %d: %d state mails after the move, want 3 (both players and the observer)", day, got)
		}
		if day%7 == 4 {
			send(mover, reply[mover], fmt.Sprintf("add %d\n", 1+day%3)) // sent twice: now out of turn
		}
	}
	for i, res := range results {
		if strings.Contains(res.Reason, "not sent") || res.Status == service.StatusFailed {
			t.Errorf("mail %d: %+v", i, res)
		}
	}
	t.Logf("%d mails, %d moves, %d mails queued, none held back", len(results), moves, len(lf.queued()))
}
