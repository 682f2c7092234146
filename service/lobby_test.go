package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

const svcAddr = "turnmail@" + domain

// lobbyGame opens a tally game by mail from host and returns its id.
func (f *fixture) lobbyGame(host, options string) string {
	f.t.Helper()
	before := f.gameIDs()
	if res := f.receive(f.mail(host, svcAddr, "new tally "+options+"\n")); res.Status != service.StatusApplied {
		f.t.Fatalf("new tally %s: %+v", options, res)
	}
	for id := range f.gameIDs() {
		if !before[id] {
			return id
		}
	}
	f.t.Fatal("no game was opened")
	return ""
}

// gameIDs is the set of stored games.
func (f *fixture) gameIDs() map[string]bool {
	f.t.Helper()
	gs, err := f.st.Games(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]bool{}
	for _, g := range gs {
		out[g.ID] = true
	}
	return out
}

// seats lists a game's player names in seat order.
func (f *fixture) seats(id string) []string {
	f.t.Helper()
	_, players, err := f.st.Game(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, p := range players {
		out = append(out, p.Name)
	}
	return out
}

// mailsTo returns the queued mails to addr.
func (f *fixture) mailsTo(addr string) []*parse.Message {
	f.t.Helper()
	var out []*parse.Message
	for _, m := range f.queued() {
		if len(m.To) > 0 && strings.EqualFold(m.To[0].Address, addr) {
			out = append(out, m)
		}
	}
	return out
}

// confirmAddr returns the one-time reply address of the newest confirmation
// request to addr ("" when there is none).
func (f *fixture) confirmAddr(addr string) string {
	f.t.Helper()
	ms := f.mailsTo(addr)
	for i := len(ms) - 1; i >= 0; i-- {
		for _, r := range ms[i].ReplyTo {
			if strings.Contains(r.Address, ".confirm.") {
				return r.Address
			}
		}
	}
	return ""
}

// confirm replies body ("yes", "no") from addr to the newest confirmation request
// to addr.
func (f *fixture) confirm(addr, body string) service.Result {
	f.t.Helper()
	to := f.confirmAddr(addr)
	if to == "" {
		f.t.Fatalf("no confirmation request to %s", addr)
	}
	return f.receive(f.mail(addr, to, body+"\n"))
}

// confirmed sends body from addr to the service address and confirms what it asks
// for: the result of the confirmation.
func (f *fixture) confirmed(addr, body string) service.Result {
	f.t.Helper()
	if res := f.receive(f.mail(addr, svcAddr, body)); res.Status == service.StatusIgnored {
		f.t.Fatalf("%q from %s: %+v", body, addr, res)
	}
	return f.confirm(addr, "yes")
}

// asHost sends body from the host of game id to the game's host reply address.
func (f *fixture) asHost(host, id, body string) service.Result {
	f.t.Helper()
	return f.receive(f.mail(host, f.svc.HostAddress(id), body))
}

// TestLobby_mailIsOneTransaction: when the second command of a lobby mail fails in
// the database (a fault retrying cannot fix), the first one's effect (a stored
// confirmation request) is not kept either: the mail is quarantined whole, its
// writer told once. After the fault is fixed, Retry applies both, once.
func TestLobby_mailIsOneTransaction(t *testing.T) {
	f := newFixture(t, 100)
	ctx := context.Background()
	ann, cy := "ann@"+domain, "cy@"+domain
	g1 := f.lobbyGame(ann, "")
	trigger := `CREATE TRIGGER inject_failure BEFORE INSERT ON players WHEN NEW.email = '` + cy + `'
	BEGIN SELECT RAISE(ABORT, 'injected failure'); END`
	if _, err := f.st.DB().Exec(trigger); err != nil {
		t.Fatal(err)
	}
	raw := f.mail(cy, svcAddr, "join "+g1+"\nnew tally\n")
	stored := func() []store.InboxMsg {
		var out []store.InboxMsg
		rows, err := f.st.DB().Query(`SELECT id, status FROM inbox WHERE raw = ?`, raw)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var m store.InboxMsg
			if err := rows.Scan(&m.ID, &m.Status); err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
		}
		return out
	}
	confirmations := func() int {
		var n int
		if err := f.st.DB().QueryRow(`SELECT count(*) FROM confirmations`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	games := len(f.gameIDs())
	res, err := f.svc.Receive(ctx, store.InboxMsg{Mailbox: "INBOX", Raw: raw})
	if err != nil || res.Status != service.StatusFailed || !strings.Contains(res.Reason, "injected failure") {
		t.Fatalf("the failing mail: %+v, %v; want quarantined with the error", res, err)
	}
	if n := confirmations(); n != 0 || len(f.gameIDs()) != games {
		t.Errorf("the first command's confirmation was kept (%d) or a game opened", n)
	}
	if m := stored(); len(m) != 1 || m[0].Status != store.InboxFailed {
		t.Fatalf("the failed mail is stored as %+v, want once, failed", m)
	}
	if m := f.mailsTo(cy); len(m) != 1 || !strings.Contains(m[0].Subject, "could not be processed") {
		t.Fatalf("cy got %d mails, want one saying the mail could not be processed", len(m))
	}
	if res := f.receive(raw); !res.Duplicate || res.Status != service.StatusFailed {
		t.Fatalf("the quarantined mail offered again: %+v, want a duplicate, still failed", res)
	}

	if _, err := f.st.DB().Exec(`DROP TRIGGER inject_failure`); err != nil {
		t.Fatal(err)
	}
	res, err = f.svc.Retry(ctx, res.InboxID)
	if err != nil || res.Status != service.StatusApplied {
		t.Fatalf("retry: %+v, %v", res, err)
	}
	if _, err := f.svc.Retry(ctx, res.InboxID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("retry of a mail no longer quarantined: %v, want ErrNotFound", err)
	}
	if res := f.receive(raw); !res.Duplicate || res.Status != service.StatusApplied {
		t.Fatalf("the mail received a third time: %+v", res)
	}
	if m := stored(); len(m) != 1 {
		t.Errorf("the mail was stored %d times, want once", len(m))
	}
	if n := confirmations(); n != 1 || len(f.gameIDs()) != games+1 {
		t.Errorf("after the retry: %d confirmations, %d new games; want 1 and 1", n, len(f.gameIDs())-games)
	}
	// The failure notice, the answer (game opened; the join waits) and the request.
	if m := f.mailsTo(cy); len(m) != 3 || !strings.Contains(m[1].Body+m[2].Body, "is open") || f.confirmAddr(cy) == "" {
		dumpMails(f, cy)
		t.Fatalf("cy got %d mails, want the failure notice, the answer and the confirmation request", len(m))
	}
}

// TestLobby_laterCommandsSeeEarlier: the commands of one mail see each other's effects
// before anything is committed.
func TestLobby_laterCommandsSeeEarlier(t *testing.T) {
	f := newFixture(t, 100)
	ann, cy := "ann@"+domain, "cy@"+domain
	g := f.lobbyGame(ann, "")
	f.confirmed(cy, "join "+g+"\nleave "+g+"\njoin "+g+" cyrus\n")
	if got := f.seats(g); len(got) != 2 || got[1] != "cyrus" {
		t.Fatalf("seats %v, want ann and cyrus", got)
	}
	m := f.mailsTo(cy)
	if len(m) != 2 { // the confirmation request (the only answer to the commands) and the answer
		t.Fatalf("%d mails, want 2", len(m))
	}
	for _, want := range []string{"as cy.", "You left game " + g, "as cyrus."} {
		if !strings.Contains(m[1].Body, want) {
			t.Errorf("answer lacks %q:\n%s", want, m[1].Body)
		}
	}
	f.receive(f.mail(ann, svcAddr, "new tally\ngames\n"))
	m = f.mailsTo(ann)
	if last := m[len(m)-1].Body; strings.Count(last, " tally  players: ") != 2 || !strings.Contains(last, g+" tally  players: 2 ") {
		t.Errorf("the game list does not show the game opened by the same mail:\n%s", last)
	}
}

// TestLobbyNew_optionsChecked: new refuses unknown options, bad values and a number
// of seats the game does not allow, saying which and what is accepted, and creates
// nothing; good options open the game.
func TestLobbyNew_optionsChecked(t *testing.T) {
	reg := games.Registry()
	reg["tally"] = testgame.Tally{}
	tests := []struct {
		line string
		want []string // in the answer; an "error" answer unless wantOpen
		open bool
	}{
		{"new smallworld map=atlantis", []string{"map=atlantis: use map=smallworld-2p|", "Nothing was created"}, false},
		{"new smallworld colour=red", []string{`smallworld has no option "colour"`, "map="}, false},
		{"new smallworld players=6", []string{"players=6: smallworld is for 2 to 5 players"}, false},
		{"new smallworld map=3", []string{"map=3: use map=smallworld-2p"}, false},
		{"new empire layout=star", []string{"layout=star: use layout=t|ring"}, false},
		{"new empire long=yes", []string{"long=yes: use long=true|false"}, false},
		{"new empire players=5", []string{"players=5: empire is for 2 to 4 players"}, false},
		{"new empire faces=1a,1b", []string{"both faces of board 1"}, false},
		{"new tally colour=red", []string{`tally: unknown option "colour"`}, false},
		{"new dungeoneer map=vista", []string{"map=vista: use map=explore|view", "Nothing was created"}, false},
		{"new dungeoneer colour=red", []string{`dungeoneer has no option "colour" (its options: map=explore|view)`}, false},
		{"new smallworld map=smallworld-3p players=3", []string{"is open"}, true},
		{"new empire encounters=dragon,portals layout=ring players=4", []string{"is open"}, true},
		{"new tally target=20", []string{"is open"}, true},
		{"new dungeoneer map=view players=3", []string{"is open"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			f := newFixtureWith(t, reg)
			before := len(f.gameIDs())
			res := f.receive(f.mail("ann@"+domain, svcAddr, tt.line+"\n"))
			if opened := len(f.gameIDs()) - before; opened != map[bool]int{true: 1, false: 0}[tt.open] {
				t.Fatalf("%d games opened (%+v)", opened, res)
			}
			wantStatus := service.StatusRejected
			if tt.open {
				wantStatus = service.StatusApplied
			}
			if res.Status != wantStatus {
				t.Errorf("status %s, want %s", res.Status, wantStatus)
			}
			m := f.mailsTo("ann@" + domain)
			if len(m) != 1 {
				t.Fatalf("%d answers", len(m))
			}
			for _, w := range tt.want {
				if !strings.Contains(m[0].Body, w) {
					t.Errorf("answer lacks %q:\n%s", w, m[0].Body)
				}
			}
		})
	}
}

// TestLobbyJoin_engineMost: without players=, a game takes as many players as its
// engine allows, and no more.
func TestLobbyJoin_engineMost(t *testing.T) {
	reg := games.Registry()
	f := newFixtureWith(t, reg)
	f.receive(f.mail("p0@"+domain, svcAddr, "new empire\n"))
	var id string
	for g := range f.gameIDs() {
		if strings.HasPrefix(g, "em") {
			id = g
		}
	}
	for i := 1; i <= 4; i++ {
		addr := "p" + string(rune('0'+i)) + "@" + domain
		if i < 4 {
			f.confirmed(addr, "join "+id+"\n")
		} else {
			f.receive(f.mail(addr, svcAddr, "join "+id+"\n"))
		}
	}
	if got := f.seats(id); len(got) != 4 {
		t.Fatalf("seats %v, want 4 (empire is for 2 to 4)", got)
	}
	if m := f.mailsTo("p4@" + domain); len(m) != 1 || !strings.Contains(m[0].Body, "is full (4 players)") {
		t.Fatalf("the fifth player was not told the game is full")
	}
}

// newFixtureWith is newFixture with another game registry (the fixture's own game is
// a tally game, so the registry must have tally).
func newFixtureWith(t *testing.T, reg engine.Registry) *fixture {
	t.Helper()
	if _, ok := reg["tally"]; !ok {
		reg["tally"] = testgame.Tally{}
	}
	return newFixtureRegistry(t, 100, reg)
}

// dumpMails logs the mails queued to addr (for a failing test).
func dumpMails(f *fixture, addr string) {
	for _, m := range f.mailsTo(addr) {
		f.t.Logf("--- %s reply-to %v\n%s", m.Subject, m.ReplyTo, m.Body)
	}
}

// TestLobbyJoin_greetsHost: the notice that a player joined greets the host who
// plays by the name the players know them by (not "Hello host,"), in the host's
// language.
func TestLobbyJoin_greetsHost(t *testing.T) {
	for lang, want := range map[string]string{"en": "Hello p0,", "it": "Ciao p0,"} {
		t.Run(lang, func(t *testing.T) {
			f := newFixtureOptions(t, engine.Registry{"tally": testgame.Tally{}}, func(o *service.Options) { o.Language = i18n.Lang(lang) })
			host := "p0@" + domain
			id := f.lobbyGame(host, "")
			f.confirmed("p1@"+domain, "join "+id+"\n")
			var joined string
			for _, m := range f.mailsTo(host) {
				if strings.Contains(m.Body, "p1@"+domain) {
					joined = m.Body
				}
			}
			if !strings.Contains(joined, "\n"+want+"\n") || strings.Contains(joined, "host,") {
				t.Errorf("the join notice does not greet the host as %q:\n%s", want, joined)
			}
		})
	}
}
