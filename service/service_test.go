package service_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

const (
	domain = "games.example"
	secret = "0123456789abcdef0123"
)

// loadTemplates loads the templates once for the fixtures (a *templates.Set is only
// read).
var loadTemplates = sync.OnceValues(templates.Load)

type fixture struct {
	t    *testing.T
	st   *store.Store
	svc  *service.Service
	game string
	// reply is each player's reply address.
	reply map[string]string
	n     int
}

func newFixture(t *testing.T, repliesPerHour int) *fixture {
	t.Helper()
	return newFixtureRegistry(t, repliesPerHour, engine.Registry{"tally": testgame.Tally{}})
}

// newFixtureRegistry is newFixture with the games of reg, which must have tally.
func newFixtureRegistry(t *testing.T, repliesPerHour int, reg engine.Registry) *fixture {
	t.Helper()
	return newFixtureOptions(t, reg, func(o *service.Options) { o.RepliesPerHour = repliesPerHour })
}

// newFixtureOptions is newFixtureRegistry with the service options set by opts.
func newFixtureOptions(t *testing.T, reg engine.Registry, opts func(*service.Options)) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tmpl, err := loadTemplates()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	o := service.Options{
		Address: "turnmail@" + domain, Secret: []byte(secret),
		Clock: func() time.Time { return now }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		NoPictures: true, // the pictures' tests are picture_test.go's and the render test's
	}
	opts(&o)
	svc, err := service.New(st, reg, tmpl, o)
	if err != nil {
		t.Fatal(err)
	}
	id, err := svc.CreateGame(ctx, service.NewGame{Kind: "tally", Players: []engine.Player{
		{Name: "alice", Email: "Alice@" + domain}, {Name: "bob", Email: "bob@" + domain},
	}})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, st: st, svc: svc, game: id, reply: map[string]string{}}
	f.reply["alice"] = svc.ReplyAddress(id, 0)
	f.reply["bob"] = svc.ReplyAddress(id, 1)
	return f
}

// mail builds a raw mail; headers are extra header lines.
func (f *fixture) mail(from, to, body string, headers ...string) []byte {
	f.n++
	h := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: <m%d@client.example>\r\n", from, to, f.n)
	for _, x := range headers {
		h += x + "\r\n"
	}
	return []byte(h + "\r\n" + body)
}

func (f *fixture) receive(raw []byte) service.Result {
	f.t.Helper()
	res, err := f.svc.Receive(context.Background(), store.InboxMsg{Mailbox: "INBOX", Raw: raw})
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

// queued returns the mails queued since the opening mails, as parsed messages.
func (f *fixture) queued() []*parse.Message {
	f.t.Helper()
	rows, err := f.st.Outbox(context.Background(), "", "")
	if err != nil {
		f.t.Fatal(err)
	}
	var out []*parse.Message
	for _, r := range rows {
		m, err := parse.Parse(r.Raw, nil)
		if err != nil {
			f.t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func TestReceive_outcomes(t *testing.T) {
	tests := []struct {
		name       string
		from, to   func(f *fixture) string
		body       string
		headers    []string
		wantStatus string
		wantReason string
		wantEvents int
		// wantMailTo lists who gets a mail (beyond the opening ones), with a text each
		// must contain.
		wantMailTo map[string]string
	}{
		{
			name: "legal move", body: "add 3\n", wantStatus: "applied", wantEvents: 1,
			wantMailTo: map[string]string{"alice@" + domain: "alice sent: add 3", "bob@" + domain: "alice sent: add 3"},
		},
		{
			name: "from is matched case-insensitively", from: func(*fixture) string { return "ALICE@games.EXAMPLE" },
			body: "add 1\n", wantStatus: "applied", wantEvents: 1,
			wantMailTo: map[string]string{"alice@" + domain: "alice sent: add 1", "bob@" + domain: "alice sent: add 1"},
		},
		{
			name: "several lines stop at the first illegal", body: "add 1\n# comment\nadd 2\nadd 42\nadd 3\n",
			wantStatus: "applied", wantReason: "line 4", wantEvents: 2,
			wantMailTo: map[string]string{"alice@" + domain: "Not applied — line 4: add 42", "bob@" + domain: "alice sent: add 2"},
		},
		{
			name: "illegal first line", body: "add 0\n", wantStatus: "rejected", wantReason: "from 1 to 9",
			wantMailTo: map[string]string{"alice@" + domain: "Not applied — line 1: add 0"},
		},
		{
			name: "no command", body: "thanks!\n# nothing\n", wantStatus: "rejected", wantReason: "unknown command",
			wantMailTo: map[string]string{"alice@" + domain: "add <1-9>"},
		},
		{
			name: "only comments", body: "# nothing\n\n", wantStatus: "rejected", wantReason: "No command",
			wantMailTo: map[string]string{"alice@" + domain: "No command was found"},
		},
		{
			name: "forged From", from: func(*fixture) string { return "mallory@evil.example" },
			body: "add 9\n", wantStatus: "rejected", wantReason: "is not the address of alice",
		},
		{
			name: "other player's token", from: func(*fixture) string { return "bob@" + domain },
			body: "add 9\n", wantStatus: "rejected", wantReason: "is not the address of alice",
		},
		{
			name: "tampered token", to: func(f *fixture) string { return strings.Replace(f.reply["alice"], ".0.", ".1.", 1) },
			body: "add 9\n", wantStatus: "rejected", wantReason: "invalid reply token",
		},
		{
			name: "unknown sender without token", from: func(*fixture) string { return "stranger@example.org" },
			to: func(*fixture) string { return "turnmail@" + domain }, body: "add 1\n", wantStatus: "ignored", wantReason: "unknown sender",
		},
		{
			name: "player without token gets the how-to", to: func(*fixture) string { return "turnmail@" + domain },
			body: "add 1\n", wantStatus: "rejected", wantReason: "no reply token",
			wantMailTo: map[string]string{"alice@" + domain: "not through a game's reply address"},
		},
		{
			name: "a mistyped lobby command is named", to: func(*fixture) string { return "turnmail@" + domain },
			body: "nwe tally\n", wantStatus: "rejected", wantReason: "no reply token",
			wantMailTo: map[string]string{"alice@" + domain: `"nwe" is not a command of the service address either: write help for the list.`},
		},
		{
			name: "a first word's bidi override is not repeated", to: func(*fixture) string { return "turnmail@" + domain },
			body: "nwe\u202etally\n", wantStatus: "rejected", wantReason: "no reply token",
			wantMailTo: map[string]string{"alice@" + domain: `"nwetally" is not a command`},
		},
		{
			name: "a long first word is cut", to: func(*fixture) string { return "turnmail@" + domain },
			body: strings.Repeat("x", 5000) + "\n", wantStatus: "rejected", wantReason: "no reply token",
			wantMailTo: map[string]string{"alice@" + domain: `"` + strings.Repeat("x", 40) + `…" is not a command`},
		},
		{
			name: "auto-reply", body: "I am away\n", headers: []string{"Auto-Submitted: auto-replied"},
			wantStatus: "ignored", wantReason: "auto-generated",
		},
		{
			name: "our own mail coming back", from: func(*fixture) string { return "turnmail@" + domain },
			body: "add 1\n", wantStatus: "ignored", wantReason: "own mail",
		},
		{
			name: "our own mail via a list", body: "add 1\n", headers: []string{"X-Turnmail: 1"},
			wantStatus: "ignored", wantReason: "own mail",
		},
		{
			name: "token in Delivered-To only", to: func(*fixture) string { return "games-list@example.org" },
			headers: []string{"Delivered-To: PLACEHOLDER"}, body: "add 2\n", wantStatus: "applied", wantEvents: 1,
			wantMailTo: map[string]string{"alice@" + domain: "alice sent: add 2", "bob@" + domain: "alice sent: add 2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, 30)
			opening := len(f.queued())
			from, to := "alice@"+domain, f.reply["alice"]
			if tt.from != nil {
				from = tt.from(f)
			}
			if tt.to != nil {
				to = tt.to(f)
			}
			headers := make([]string, len(tt.headers))
			for i, h := range tt.headers {
				headers[i] = strings.Replace(h, "PLACEHOLDER", f.reply["alice"], 1)
			}
			res := f.receive(f.mail(from, to, tt.body, headers...))
			if res.Status != tt.wantStatus || !strings.Contains(res.Reason, tt.wantReason) {
				t.Fatalf("status %q reason %q, want %q containing %q", res.Status, res.Reason, tt.wantStatus, tt.wantReason)
			}
			if n, _ := f.st.LastSeq(context.Background(), f.game); n != tt.wantEvents {
				t.Errorf("%d events, want %d", n, tt.wantEvents)
			}
			mails := f.queued()[opening:]
			if len(mails) != len(tt.wantMailTo) {
				var to []string
				for _, m := range mails {
					to = append(to, m.To[0].Address)
				}
				t.Fatalf("mails to %v, want to %v", to, tt.wantMailTo)
			}
			for _, m := range mails {
				want, ok := tt.wantMailTo[m.To[0].Address]
				if !ok || !strings.Contains(m.Body, want) {
					t.Errorf("mail to %s:\n%s\nwant it to contain %q", m.To[0].Address, m.Body, want)
				}
				if m.Header.Get("Auto-Submitted") == "" || m.Header.Get("X-Turnmail") == "" {
					t.Errorf("mail to %s lacks Auto-Submitted or X-Turnmail", m.To[0].Address)
				}
			}
		})
	}
}

func TestReceive_duplicateAppliedOnce(t *testing.T) {
	f := newFixture(t, 30)
	raw := f.mail("alice@"+domain, f.reply["alice"], "add 5\n")
	first := f.receive(raw)
	second := f.receive(raw)
	if first.Status != "applied" || !second.Duplicate || second.Status != "applied" {
		t.Fatalf("first %+v, second %+v", first, second)
	}
	noID := []byte("From: alice@" + domain + "\r\nTo: " + f.reply["alice"] + "\r\n\r\nadd 1\r\n")
	f.receive(noID)
	if res := f.receive(noID); !res.Duplicate {
		t.Fatalf("a mail without Message-ID received twice was not recognised: %+v", res)
	}
	if n, _ := f.st.LastSeq(context.Background(), f.game); n != 2 {
		t.Fatalf("%d events, want 2", n)
	}
}

func TestReceive_replyLimit(t *testing.T) {
	f := newFixture(t, 2)
	opening := len(f.queued())
	for i := 0; i < 4; i++ {
		res := f.receive(f.mail("alice@"+domain, f.reply["alice"], "add 0\n"))
		if res.Status != "rejected" {
			t.Fatalf("mail %d: %+v", i, res)
		}
		if limited := strings.Contains(res.Reason, "not sent: limit of 2 answers per hour"); limited != (i >= 2) {
			t.Errorf("mail %d: reason %q", i, res.Reason)
		}
	}
	refusals, notices := 0, 0
	for _, m := range f.queued()[opening:] {
		if strings.Contains(m.Body, "Mail to you was held back") {
			notices++
		} else {
			refusals++
		}
	}
	if refusals != 2 || notices != 1 {
		t.Fatalf("%d refusals and %d notices of held mail sent, want 2 (the limit) and 1", refusals, notices)
	}
}

func TestProcessPending_afterCrash(t *testing.T) {
	f := newFixture(t, 30)
	// A mail stored but never interpreted, as after a crash between the two steps.
	raw := f.mail("alice@"+domain, f.reply["alice"], "add 4\n")
	if _, _, err := f.st.AddInbox(context.Background(), store.InboxMsg{Mailbox: "INBOX", Raw: raw, MessageID: fmt.Sprintf("m%d@client.example", f.n), Status: "pending", ReceivedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	n, err := f.svc.ProcessPending(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("ProcessPending = %d, %v", n, err)
	}
	if n, _ := f.svc.ProcessPending(context.Background()); n != 0 {
		t.Fatalf("second ProcessPending processed %d", n)
	}
	l, err := f.svc.Load(context.Background(), f.game)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.State.(testgame.State).Scores["alice"]; got != 4 {
		t.Fatalf("alice has %d, want 4", got)
	}
}

func TestLoad_archiveRoundTrip(t *testing.T) {
	f := newFixture(t, 30)
	f.receive(f.mail("alice@"+domain, f.reply["alice"], "add 4\nadd 5\n"))
	f.receive(f.mail("bob@"+domain, f.reply["bob"], "add 1\n"))
	l, err := f.svc.Load(context.Background(), f.game)
	if err != nil {
		t.Fatal(err)
	}
	a := l.Archive()
	if len(a.Events) != 3 || a.Events[2].Player != "bob" || a.Events[0].Hash == "" {
		t.Fatalf("archive events: %+v", a.Events)
	}
	s, err := engine.Replay(engine.Registry{"tally": testgame.Tally{}}, a, -1)
	if err != nil {
		t.Fatal(err)
	}
	if s.Hash() != l.State.Hash() {
		t.Fatal("the exported archive replays to another state")
	}
	id, err := f.svc.Import(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	l2, err := f.svc.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if l2.State.Hash() != l.State.Hash() || len(l2.Events) != 3 {
		t.Fatal("the imported game differs")
	}
}

func TestReceive_tooLargeIsAnsweredNotApplied(t *testing.T) {
	f := newFixture(t, 30)
	opening := len(f.queued())
	body := "add 3\n" + strings.Repeat(strings.Repeat("z", 76)+"\n", (1<<20)/77+10)
	res := f.receive(f.mail("alice@"+domain, f.reply["alice"], body))
	if res.Status != "rejected" || !strings.Contains(res.Reason, "too large") {
		t.Fatalf("%+v", res)
	}
	if n, _ := f.st.LastSeq(context.Background(), f.game); n != 0 {
		t.Fatalf("%d events, want 0", n)
	}
	mails := f.queued()[opening:]
	if len(mails) != 1 || mails[0].To[0].Address != "alice@"+domain || !strings.Contains(mails[0].Body, "too large to read") {
		t.Fatalf("want one refusal to alice, got %d mails", len(mails))
	}
	// A stranger's oversize mail gets nothing.
	res = f.receive(f.mail("stranger@example.org", "turnmail@"+domain, body))
	if res.Status != "rejected" || len(f.queued()) != opening+1 {
		t.Fatalf("stranger: %+v, %d mails", res, len(f.queued())-opening)
	}
}

// TestCreateGame_idTaken: a random game id that is already taken is drawn again,
// for a new game and for an imported one; the mails name the id finally used.
func TestCreateGame_idTaken(t *testing.T) {
	f := newFixture(t, 100)
	ctx := context.Background()
	service.DrawGameIDs(f.svc, f.game, "ta-2222")
	id, err := f.svc.CreateGame(ctx, service.NewGame{Kind: "tally", Players: []engine.Player{
		{Name: "carol", Email: "carol@" + domain}, {Name: "dave", Email: "dave@" + domain},
	}})
	if err != nil || id != "ta-2222" {
		t.Fatalf("CreateGame with a taken id = %q, %v; want ta-2222", id, err)
	}
	l, err := f.svc.Load(ctx, f.game)
	if err != nil {
		t.Fatal(err)
	}
	service.DrawGameIDs(f.svc, f.game, "ta-2222", "ta-3333")
	id, err = f.svc.Import(ctx, l.Archive())
	if err != nil || id != "ta-3333" {
		t.Fatalf("Import with taken ids = %q, %v; want ta-3333", id, err)
	}
	for _, m := range f.queued() {
		if to := m.To[0].Address; strings.HasPrefix(to, "carol@") && !strings.Contains(m.Subject, "ta-2222") {
			t.Errorf("carol's mail %q does not name ta-2222", m.Subject)
		}
	}
}
