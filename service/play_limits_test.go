package service_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// turnsGame opens a tally game in turns between ann and ben (ann first) on lf's
// service, in lang; it returns its id.
func (lf *limitsFixture) turnsGame(lang string) string {
	lf.t.Helper()
	id, err := lf.svc.CreateGame(context.Background(), service.NewGame{Kind: "tally", Options: map[string]json.RawMessage{"turns": json.RawMessage("true")},
		Players:  []engine.Player{{Name: "ann", Email: "ann@" + domain}, {Name: "ben", Email: "ben@" + domain}},
		Settings: service.Settings{Lang: i18n.Lang(lang)}})
	if err != nil {
		lf.t.Fatal(err)
	}
	return id
}

// stateMailsTo counts the state mails of game id queued to addr.
func (lf *limitsFixture) stateMailsTo(id, addr string) int {
	lf.t.Helper()
	rows, err := lf.st.Outbox(context.Background(), id, "")
	if err != nil {
		lf.t.Fatal(err)
	}
	n := 0
	for _, m := range rows {
		if m.Kind == "state" && strings.EqualFold(m.To[0], addr) {
			n++
		}
	}
	return n
}

// TestLimits_fastPlayersGetEveryStateMail: two players who play quickly under the
// default limits, 60 accepted moves each in an hour (far past AnswersPerHour and
// NotificationsPerHour together), get every state mail: the answer to each move and
// the mail asking the other to move. Nothing is held back.
func TestLimits_fastPlayersGetEveryStateMail(t *testing.T) {
	lim := store.DefaultLimits
	lf := newLimitsFixture(t)
	id := lf.turnsGame("en")
	players := []string{"ann", "ben"}
	ann0, ben0 := lf.stateMailsTo(id, "ann@"+domain), lf.stateMailsTo(id, "ben@"+domain)
	const moves = 120 // 60 each, one every 30 seconds
	for i := range moves {
		lf.now = lf.now.Add(30 * time.Second)
		who := players[i%2]
		res := lf.receive(lf.mail(who+"@"+domain, lf.svc.ReplyAddress(id, i%2), "add 1\n"))
		if res.Status != service.StatusApplied || strings.Contains(res.Reason, "not sent") {
			t.Fatalf("move %d by %s: %+v", i+1, who, res)
		}
		// The answer to the mover and the mail asking the other to move.
		if got := lf.stateMailsTo(id, "ann@"+domain) - ann0; got != i+1 {
			t.Fatalf("after move %d: ann got %d state mails, want %d", i+1, got, i+1)
		}
		if got := lf.stateMailsTo(id, "ben@"+domain) - ben0; got != i+1 {
			t.Fatalf("after move %d: ben got %d state mails, want %d", i+1, got, i+1)
		}
	}
	if moves <= lim.AnswersPerHour+lim.NotificationsPerHour/2 {
		t.Fatalf("the test plays %d moves: not past the caps", moves)
	}
	held, err := lf.st.HeldMail(context.Background(), id, time.Time{})
	if err != nil || len(held) > 0 {
		t.Fatalf("held mail %+v, %v", held, err)
	}
}

// TestLimits_heldNotice: a player who asks for their state again and again (answers
// to mails that change nothing) meets the loop guard; then they get one short notice
// saying so and when mail resumes, in the game's language and their time, however
// many more are held until then; their moves are still answered; after the time
// their answers go out again, and the next hold is told again. The host sees the
// mails held back.
func TestLimits_heldNotice(t *testing.T) {
	lim := store.DefaultLimits
	for _, tt := range []struct{ lang, notice, resumes string }{
		{"en", "Mail to you was held back (answers to your mails)", "It resumes "},
		{"it", "Alcune mail per te sono state trattenute (risposte alle tue mail)", "La posta riprende "},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			lf := newLimitsFixture(t)
			id := lf.turnsGame(tt.lang)
			ann := "ann@" + domain
			status := func() service.Result {
				lf.now = lf.now.Add(time.Minute)
				return lf.receive(lf.mail(ann, lf.svc.ReplyAddress(id, 0), "status\n"))
			}
			notices := func() []string {
				var out []string
				for _, m := range lf.mailsTo(ann) {
					if strings.Contains(m.Body, tt.notice) {
						out = append(out, m.Body)
					}
				}
				return out
			}
			for i := range lim.IdleAnswersPerHour {
				if res := status(); strings.Contains(res.Reason, "not sent") {
					t.Fatalf("status %d held: %+v", i+1, res)
				}
			}
			start := lf.now
			for range 3 {
				if res := status(); !strings.Contains(res.Reason, "not sent") {
					t.Fatalf("status past the loop guard answered: %+v", res)
				}
			}
			got := notices()
			if len(got) != 1 {
				t.Fatalf("%d notices of held mail, want 1", len(got))
			}
			// The first answer counted leaves the hour at start-5m+1h.
			resume := start.Add(-time.Duration(lim.IdleAnswersPerHour-1) * time.Minute).Add(time.Hour)
			if !strings.Contains(got[0], tt.resumes) || !strings.Contains(got[0], resume.Format("15:04")) {
				t.Errorf("the notice does not say mail resumes at %s:\n%s", resume.Format("15:04"), got[0])
			}
			// A move is always answered, and the one asking ben to move goes out.
			ben0 := lf.stateMailsTo(id, "ben@"+domain)
			lf.now = lf.now.Add(time.Minute)
			if res := lf.receive(lf.mail(ann, lf.svc.ReplyAddress(id, 0), "add 2\n")); res.Status != service.StatusApplied || strings.Contains(res.Reason, "not sent") {
				t.Fatalf("a move while answers are held: %+v", res)
			}
			if lf.stateMailsTo(id, "ben@"+domain) != ben0+1 {
				t.Fatal("ben was not told it is his move")
			}
			// An hour later the answers go out again; a new hold is told again.
			lf.now = resume.Add(time.Hour + time.Minute)
			for i := range lim.IdleAnswersPerHour {
				lf.receive(lf.mail("ben@"+domain, lf.svc.ReplyAddress(id, 1), "add 1\n")) // ann's turn again
				if res := status(); strings.Contains(res.Reason, "not sent") {
					t.Fatalf("status %d after the hold: %+v", i+1, res)
				}
			}
			status()
			if got := notices(); len(got) != 2 {
				t.Fatalf("%d notices of held mail after a second hold, want 2", len(got))
			}
			held, err := lf.st.HeldMail(context.Background(), id, time.Time{})
			if err != nil || len(held) != 4 || held[0].Rcpt != ann || held[0].Kind == "" {
				t.Fatalf("held mail the host sees: %+v, %v", held, err)
			}
		})
	}
}

// TestLimits_playNeverHeld: with caps of two answers and two notifications an hour,
// every mail of play still goes out (the answer to each move and the state mail asking
// the other player to move), while the caps still hold back what is not play (here
// the answers to status).
func TestLimits_playNeverHeld(t *testing.T) {
	lim := store.DefaultLimits
	lim.AnswersPerHour, lim.NotificationsPerHour, lim.IdleAnswersPerHour = 2, 2, 2
	lf := newLimitsFixture(t)
	lf.opts.Limits = &lim
	lf.restart()
	id := lf.turnsGame("en")
	ann0, ben0 := lf.stateMailsTo(id, "ann@"+domain), lf.stateMailsTo(id, "ben@"+domain)
	for i := range 10 {
		lf.now = lf.now.Add(time.Minute)
		res := lf.receive(lf.mail([]string{"ann", "ben"}[i%2]+"@"+domain, lf.svc.ReplyAddress(id, i%2), "add 3\n"))
		if res.Status != service.StatusApplied || strings.Contains(res.Reason, "not sent") {
			t.Fatalf("move %d: %+v", i+1, res)
		}
	}
	if a, b := lf.stateMailsTo(id, "ann@"+domain)-ann0, lf.stateMailsTo(id, "ben@"+domain)-ben0; a != 10 || b != 10 {
		t.Fatalf("state mails: ann %d, ben %d; want 10 each (5 answers and 5 asking to move)", a, b)
	}
	held := 0
	for range 4 {
		lf.now = lf.now.Add(time.Minute)
		if res := lf.receive(lf.mail("ann@"+domain, lf.svc.ReplyAddress(id, 0), "status\n")); strings.Contains(res.Reason, "not sent") {
			held++
		}
	}
	if held != 2 {
		t.Fatalf("%d of 4 status answers held, want 2 (the cap of 2 answers an hour)", held)
	}
}
