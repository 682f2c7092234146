package service_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// TestSay: a message reaches every other player (or the one named) in a mail of
// its own, with its case and punctuation; it changes nothing in the game, shows in
// the history (a private one only to its two players), and hostile text is
// bounded and made harmless.
func TestSay(t *testing.T) {
	sc := scenario{
		name: "say",
		steps: []step{
			{from: "alice", body: "Ciao!\nsay Good luck, Bob & Carol! <b>hi</b>\n", status: "applied", mail: map[string]string{
				"bob":   "alice says:\n    Good luck, Bob & Carol! <b>hi</b>\n",
				"carol": "alice says:\n    Good luck, Bob & Carol! <b>hi</b>\n",
				"alice": "Relayed to bob, carol:\n    Good luck, Bob & Carol! <b>hi</b>",
			}},
			{from: "bob", body: "say Alice: psst, ally?\nsay alice and then?\n", status: "applied", mail: map[string]string{
				"alice": "bob says (to you only):\n    psst, ally?\n\nbob says (to you only):\n    and then?",
			}, noMail: map[string]string{"carol": "psst"}},
			{from: "carol", body: "history\n", status: "applied", mail: map[string]string{"carol": "alice says: Good luck, Bob & Carol!"},
				noMail: map[string]string{"carol": "psst"}},
			{from: "alice", body: "history\n", status: "applied", mail: map[string]string{"alice": "bob says to alice: psst, ally?"}},
			{from: "alice", body: "say \u202eevil\x1b[31m red\n", status: "applied", mail: map[string]string{"bob": "alice says:\n    evil[31m red"}},
			{from: "alice", body: "say " + strings.Repeat("x", 501) + "\n", status: "rejected", reason: "longer than 500 characters"},
			{from: "alice", body: "say alice me?\n", status: "rejected", reason: "yourself"},
			{from: "alice", body: "say\n", status: "rejected", reason: "say takes a message"},
			{from: "alice", body: "add 2\nsay your turn, bob\n", status: "applied", mail: map[string]string{"bob": "alice says:\n    your turn, bob"}},
		},
		wantScores: map[string]int{"alice": 2}, wantToAct: "bob",
		wantLog: []string{
			`admin alice: {"admin":"say","text":"Good luck, Bob & Carol! <b>hi</b>"}`,
			`admin bob: {"admin":"tell","player":"alice","text":"psst, ally?"}`,
			`admin bob: {"admin":"tell","player":"alice","text":"and then?"}`,
			`admin alice: {"admin":"say","text":"evil[31m red"}`,
			"move alice: add 2",
			`admin alice: {"admin":"say","text":"your turn, bob"}`,
		},
	}
	sc.run(t)
}

// TestSay_forgedAct: what a player writes is recorded as their message or reason,
// never read as another act: a message that looks like a recorded resignation, an
// undo reason that tries to close the record and add an accept, change nothing
// but what they are.
func TestSay_forgedAct(t *testing.T) {
	g := newTurnGame(t, "host", "alice", "bob", "carol")
	for i, s := range []step{
		{from: "alice", body: "say {\"admin\":\"resign\"}\n", status: "applied", mail: map[string]string{
			"bob": "alice says:\n    {\"admin\":\"resign\"}\n",
		}},
		{from: "alice", body: "add 2\n", status: "applied"},
		{from: "bob", body: "undo \"},\"admin\":\"accept\"}\n", status: "applied"},
		{from: "carol", body: "say bob {\"admin\":\"tell\",\"player\":\"carol\"}\n", status: "applied", mail: map[string]string{
			"bob": "carol says (to you only):\n    {\"admin\":\"tell\",\"player\":\"carol\"}",
		}},
	} {
		g.play(i+1, s)
	}
	want := []string{
		`admin alice: {"admin":"say","text":"{\"admin\":\"resign\"}"}`,
		"move alice: add 2",
		`admin bob: {"admin":"undo request","why":"\"},\"admin\":\"accept\"}"}`,
		`admin carol: {"admin":"tell","player":"bob","text":"{\"admin\":\"tell\",\"player\":\"carol\"}"}`,
	}
	if got := g.log(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("event log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	f := g.load().Facts
	if len(f.Resigned) != 0 {
		t.Errorf("resigned: %v", f.Resigned)
	}
	if u := f.Undo; u == nil || u.By != "bob" || len(u.Accepted) != 0 || u.Why != `"},"admin":"accept"}` {
		t.Errorf("the undo request: %+v", u)
	}
}

// TestSay_ownMailInThread: a chat mail is a mail of its own, with the game's one
// subject (never the message) and in the game's thread.
func TestSay_ownMailInThread(t *testing.T) {
	g := newTurnGame(t, "host", "alice", "bob")
	g.play(1, step{from: "alice", body: "say Subject: injected\r\nBcc: x@evil.example\n", status: "applied"})
	var chat int
	for _, m := range g.mails {
		if m.To[0].Address != g.addr("bob") || !strings.Contains(m.Body, "alice says:") {
			continue
		}
		chat++
		if strings.Contains(m.Subject, "injected") || !strings.HasPrefix(m.Subject, "["+g.id+"]") {
			t.Errorf("chat mail subject %q", m.Subject)
		}
		if m.InReplyTo == "" || len(m.References) == 0 {
			t.Errorf("chat mail not in the game's thread: In-Reply-To %q References %v", m.InReplyTo, m.References)
		}
		if strings.Contains(m.Body, "alice says:\n    Subject: injected\n") == false {
			t.Errorf("chat body:\n%s", m.Body)
		}
		if len(m.Header.Values("Bcc")) > 0 {
			t.Error("a header from the message")
		}
	}
	if chat != 1 {
		t.Fatalf("%d chat mails to bob, want 1", chat)
	}
}

// TestSay_rateLimit: the chat limit (persistent, per writer, one per recipient)
// counts chat mails (the messages of one mail go in one) and refuses a message in
// words once reached.
func TestSay_rateLimit(t *testing.T) {
	lim := store.DefaultLimits
	lim.ChatsPerHour = 3
	f := newFixtureOptions(t, engine.Registry{"tally": testgame.Tally{}}, func(o *service.Options) { o.Limits = &lim })
	say := func(body string) service.Result {
		return f.receive(f.mail("alice@"+domain, f.reply["alice"], body))
	}
	for i, body := range []string{"say one\nsay two\n", "say three\n", "say four\n"} {
		if res := say(body); res.Status != service.StatusApplied {
			t.Fatalf("mail %d: %+v", i+1, res)
		}
	}
	if res := say("say five\n"); res.Status != service.StatusRejected || !strings.Contains(res.Reason, "3 of your messages reached") || !strings.Contains(res.Reason, "the limit is 3") {
		t.Fatalf("fourth mail: %+v", res)
	}
	n, err := f.st.ChatsSince(context.Background(), "alice@"+domain, time.Unix(0, 0))
	if err != nil || n != 3 {
		t.Fatalf("chat mails logged: %d, %v; want 3", n, err)
	}
	var got []string
	for _, m := range f.mailsTo("bob@" + domain) {
		if strings.Contains(m.Body, "alice says:") {
			got = append(got, m.Body)
		}
	}
	if len(got) != 3 || strings.Contains(strings.Join(got, ""), "five") {
		t.Fatalf("bob got %d chat mails (one and two | three | four), want 3:\n%s", len(got), strings.Join(got, "\n---\n"))
	}
}
