package service_test

import (
	"context"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
)

// TestBounds_oneAnswerPerMail: however often a mail repeats the service commands,
// its sender gets one answer, with each command answered once, and nobody else
// gets anything.
func TestBounds_oneAnswerPerMail(t *testing.T) {
	tests := []struct {
		name, body string
		// want are texts the one answer contains exactly once.
		want []string
	}{
		{name: "10,000 status lines", body: strings.Repeat("status\n", 10000), want: []string{"add <1-9>"}},
		{name: "10,000 legal lines", body: strings.Repeat("legal\n", 10000), want: []string{"You may send now"}},
		{
			name: "info commands mixed", body: strings.Repeat("legal\nhistory 5\nhelp\nstatus\n", 2500),
			want: []string{"You may send now", "No event yet in game", "turnmail runs board games", "Also: map (the whole board)"},
		},
		{
			name: "answers and a refused line", body: "legal\nhistory\nadd 42\n",
			want: []string{"You may send now", "No event yet in game", "Not applied — line 3: add 42"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, 30)
			opening := len(f.queued())
			res := f.receive(f.mail("alice@"+domain, f.reply["alice"], tt.body))
			if res.Status != service.StatusApplied {
				t.Fatalf("status %q (%s), want applied", res.Status, res.Reason)
			}
			mails := f.queued()[opening:]
			if len(mails) != 1 || mails[0].To[0].Address != "alice@"+domain {
				t.Fatalf("%d mails, want one answer to alice", len(mails))
			}
			for _, w := range tt.want {
				if n := strings.Count(mails[0].Body, w); n != 1 {
					t.Errorf("the answer has %q %d times, want once:\n%s", w, n, mails[0].Body)
				}
			}
		})
	}
}

// TestBounds_lobbyAnswersOnce: repeated lobby service commands are answered once.
func TestBounds_lobbyAnswersOnce(t *testing.T) {
	f := newFixture(t, 30)
	opening := len(f.queued())
	f.receive(f.mail("carol@example.org", "turnmail@"+domain, strings.Repeat("help\ngames\nrules tally\n", 3000)))
	mails := f.queued()[opening:]
	if len(mails) != 1 {
		t.Fatalf("%d mails, want one answer", len(mails))
	}
	for _, w := range []string{"turnmail runs board games", "There is no open game", "Tally (a test game)"} {
		if n := strings.Count(mails[0].Body, w); n != 1 {
			t.Errorf("the answer has %q %d times, want once:\n%s", w, n, mails[0].Body)
		}
	}
}

// TestBounds_commandLines: at most MaxCommandLines lines of a mail are read, and
// the answer says where reading stopped.
func TestBounds_commandLines(t *testing.T) {
	tests := []struct {
		name      string
		to        string // "" for alice's reply address
		body      string
		wantSeq   int
		wantMails int
		want      string
	}{
		{name: "10,000 moves", body: strings.Repeat("add 1\n", 10000), wantSeq: 100, wantMails: 2,
			want: "Lines after line 100 of your mail were not read: turnmail reads at most 100 commands"},
		{name: "moves after comments", body: "# my moves\n\n" + strings.Repeat("add 1\n", 150), wantSeq: 100, wantMails: 2,
			want: "Lines after line 102 of your mail were not read"},
		{name: "a refused line before the limit", body: "add 1\nadd 42\n" + strings.Repeat("add 1\n", 200), wantSeq: 1, wantMails: 2,
			want: "Not applied — line 2: add 42"},
		{name: "a line too long", body: "add 1\nadd " + strings.Repeat("9", 5000) + "\n", wantSeq: 1, wantMails: 2,
			want: "longer than 1000 characters"},
		{name: "lobby", to: "turnmail@" + domain, body: strings.Repeat("observe nosuchgame\n", 1000), wantMails: 1,
			want: "Lines after line 20 of your mail were not read: turnmail reads at most 20 commands"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, 30)
			opening := len(f.queued())
			to := tt.to
			if to == "" {
				to = f.reply["alice"]
			}
			f.receive(f.mail("alice@"+domain, to, tt.body))
			if n, _ := f.st.LastSeq(context.Background(), f.game); n != tt.wantSeq {
				t.Errorf("%d events, want %d", n, tt.wantSeq)
			}
			mails := f.queued()[opening:]
			if len(mails) != tt.wantMails {
				t.Fatalf("%d mails, want %d", len(mails), tt.wantMails)
			}
			answer := f.mailsTo("alice@" + domain)
			if body := answer[len(answer)-1].Body; !strings.Contains(body, tt.want) {
				t.Errorf("the answer does not say %q:\n%.3000s", tt.want, body)
			}
			if strings.Contains(tt.want, "Not applied") && strings.Contains(answer[len(answer)-1].Body, "were not read") {
				t.Error("reading stopped at the refused line, not at the limit, but the answer says it did")
			}
		})
	}
}

// TestBounds_mailSize: a game with thousands of events sends state mails under the
// size limit that list the last events and point to history; history N is bounded,
// and a mail still too large is cut to the limit and says so.
func TestBounds_mailSize(t *testing.T) {
	const limit = 24 << 10
	f := newFixtureOptions(t, engine.Registry{"tally": testgame.Tally{}}, func(o *service.Options) {
		o.MaxCommandLines, o.MaxMailBytes = 5000, limit
	})
	opening := len(f.queued())
	long := strings.Repeat("add 9 # a long move\n", 5000)
	for _, p := range []string{"alice", "bob"} {
		if res := f.receive(f.mail(p+"@"+domain, f.reply[p], long)); res.Applied != 5000 {
			t.Fatalf("%s: %d lines applied (%s), want 5000", p, res.Applied, res.Reason)
		}
	}
	f.receive(f.mail("alice@"+domain, f.reply["alice"], "history 100000\n"))
	rows, err := f.st.Outbox(context.Background(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if len(r.Raw) > limit {
			t.Errorf("a %s mail to %v is %d bytes, over the limit of %d", r.Kind, r.To, len(r.Raw), limit)
		}
	}
	mails := f.queued()[opening:]
	if len(mails) != 5 {
		t.Fatalf("%d mails, want 5 (two state mails per move mail, one history)", len(mails))
	}
	for _, m := range mails[:4] {
		if !strings.Contains(m.Body, "the last 50 of 5000 events; reply with history N") {
			t.Errorf("state mail to %s does not cut the history:\n%.2000s", m.To[0].Address, m.Body)
		}
		if !strings.Contains(m.Body, "add <1-9>") {
			t.Errorf("state mail to %s lost its legal commands", m.To[0].Address)
		}
	}
	history := mails[4].Body
	if !strings.Contains(history, "The last 500 events") || !strings.Contains(history, "The rest of this mail was cut") {
		t.Errorf("history 100000 is not bounded to 500 events and cut to the size limit:\n%.1000s", history)
	}
}

// TestBounds_noticesToOthers: a mail that repeats a command telling the other
// players sends each of them one notice of a kind (the last), and its sender one
// answer.
func TestBounds_noticesToOthers(t *testing.T) {
	g := newTurnGame(t, "ann", "ann", "ben", "cat")
	res := g.receive(g.mail(g.addr("ann"), g.svc.ReplyAddress(g.id, g.seat("ann")), strings.Repeat("pause\nresume\n", 500)))
	if res.Status != service.StatusApplied || res.Applied != 100 {
		t.Fatalf("status %q, %d lines applied (%s), want applied, 100", res.Status, res.Applied, res.Reason)
	}
	count := map[string]int{}
	for _, m := range g.newMails() {
		count[m.To[0].Address]++
	}
	want := map[string]int{g.addr("ann"): 1, g.addr("ben"): 2, g.addr("cat"): 2} // paused, resumed
	for who, n := range want {
		if count[who] != n {
			t.Errorf("%d mails to %s, want %d (all: %v)", count[who], who, n, count)
		}
	}
	answer := g.mails[len(g.mails)-1]
	for _, m := range g.mails {
		if m.To[0].Address == g.addr("ann") {
			answer = m
		}
	}
	for _, w := range []string{"is paused by", "has resumed"} {
		if n := strings.Count(answer.Body, w); n != 1 {
			t.Errorf("ann's answer says %q %d times, want once:\n%s", w, n, answer.Body)
		}
	}
}
