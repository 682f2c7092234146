package service_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/service"
)

const hostAddr = "host@" + domain

// hostedGame creates a running tally game in turns mode between alice and bob with
// the given host, and returns its id.
func (f *fixture) hostedGame(host string, opts string) string {
	f.t.Helper()
	o := map[string]json.RawMessage{"turns": json.RawMessage("true")}
	if opts != "" {
		if err := json.Unmarshal([]byte(opts), &o); err != nil {
			f.t.Fatal(err)
		}
	}
	id, err := f.svc.CreateGame(context.Background(), service.NewGame{Kind: "tally", Options: o, Host: host,
		Players: []engine.Player{{Name: "alice", Email: "alice@" + domain}, {Name: "bob", Email: "bob@" + domain}}})
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

func (f *fixture) load(id string) *service.Loaded {
	f.t.Helper()
	l, err := f.svc.Load(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	return l
}

// TestSet_lobby: the host changes a running game's deadline settings at the service
// address; the change is an admin event (so the settings loaded from the log have
// it), the new deadline applies to the current turn, and everyone is told.
func TestSet_lobby(t *testing.T) {
	f := newFixture(t, 100)
	g := f.hostedGame(hostAddr, "")
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) // the fixture's clock
	res := f.asHost(hostAddr, g, "set "+g+" deadline=48h expiry=pause remind=6h\n")
	if res.Status != service.StatusApplied {
		t.Fatalf("%+v", res)
	}
	l := f.load(g)
	if n := len(l.Events); n != 1 || l.Events[0].Kind != engine.KindAdmin || l.Events[0].Command != `{"admin":"set","value":"deadline=48h expiry=pause remind=6h"}` || l.Events[0].Player != "host" {
		t.Fatalf("events %+v, want one admin event", l.Events)
	}
	if st := l.Settings; st.Deadline != "48h" || st.Expiry != service.ExpiryPause || len(st.Remind) != 1 {
		t.Errorf("settings %+v", st)
	}
	if d := l.Deadlines(); len(d) != 1 || !d[0].Due.Equal(start.Add(48*time.Hour)) {
		t.Errorf("deadlines %+v, want alice's 48h after the start", d)
	}
	if raw := l.Game.Settings; strings.Contains(string(raw), "48h") {
		t.Errorf("the stored settings changed too (%s): the log is the record", raw)
	}
	wants := map[string][]string{
		"alice@" + domain: {"The host changed the settings of game " + g + " (set deadline=48h expiry=pause remind=6h)", "deadline: 2d after the turn begins", "Your current deadline: Tue 24 Nov 12:00 UTC"},
		"bob@" + domain:   {"The host changed the settings", "when a deadline passes: pause"},
		hostAddr:          {"> set " + g, "The settings of game " + g + " are now:", "reminders: 6h before the deadline"},
	}
	for to, want := range wants {
		var all string
		for _, m := range f.mailsTo(to) {
			all += m.Body
		}
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("no %q in the mails to %s:\n%s", w, to, all)
			}
		}
	}
	if strings.Contains(f.mailsTo("bob@" + domain)[len(f.mailsTo("bob@"+domain))-1].Body, "Your current deadline") {
		t.Error("bob, who does not have to act, was given a deadline")
	}
}

// TestSet_refused: set is the host's, changes only the deadline settings, and checks
// their values; a refused set changes nothing and tells nobody else.
func TestSet_refused(t *testing.T) {
	tests := []struct {
		name, from, line, want string
	}{
		{"not the host", "alice@" + domain, "set GAME deadline=48h", "Only the host of game GAME may send set; the host sends host commands to the game's host address."},
		{"an engine option", hostAddr, "set GAME turns=false", "turns= cannot change once the game is created; set changes deadline=, remind=, expiry=, vacation="},
		{"the seats", hostAddr, "set GAME players=3", "players= cannot change"},
		{"a bad value", hostAddr, "set GAME deadline=soon", "deadline=soon: use a duration"},
		{"nothing to set", hostAddr, "set GAME", "Write set deadline=48h"},
		{"an unknown game", hostAddr, "set ta-zzzzz deadline=48h", "There is no game ta-zzzzz"},
		{"a finished game", hostAddr, "set FINISHED deadline=48h", "The game is over."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, 100)
			g := f.hostedGame(hostAddr, "")
			done := f.hostedGame(hostAddr, `{"target":3}`)
			f.receive(f.mail("alice@"+domain, f.svc.ReplyAddress(done, 0), "add 3\n"))
			before := len(f.mailsTo("bob@" + domain))
			line := strings.ReplaceAll(strings.ReplaceAll(tt.line, "FINISHED", done), "GAME", g)
			res := f.receive(f.mail(tt.from, svcAddr, line+"\n"))
			if res.Status != service.StatusRejected {
				t.Errorf("status %s, want rejected", res.Status)
			}
			m := f.mailsTo(tt.from)
			if want := strings.ReplaceAll(tt.want, "GAME", g); len(m) == 0 || !strings.Contains(m[len(m)-1].Body, want) {
				t.Errorf("answer lacks %q", want)
			}
			if n := len(f.load(g).Events); n != 0 {
				t.Errorf("%d events", n)
			}
			if n := len(f.mailsTo("bob@" + domain)); n != before {
				t.Errorf("bob got %d mails", n-before)
			}
		})
	}
}

// TestSet_inGame: a host who plays changes the settings in a reply to a game mail;
// another player may not.
func TestSet_inGame(t *testing.T) {
	f := newFixture(t, 100)
	g := f.hostedGame("alice@"+domain, "")
	res := f.receive(f.mail("bob@"+domain, f.svc.ReplyAddress(g, 1), "set deadline=1h\n"))
	if res.Status != service.StatusRejected || !strings.Contains(res.Reason, "Only the host") {
		t.Fatalf("bob's set: %+v", res)
	}
	res = f.receive(f.mail("alice@"+domain, f.svc.ReplyAddress(g, 0), "set deadline=weekdays 20:00 europe/rome\nlegal\n"))
	if res.Status != service.StatusApplied || res.Applied != 2 {
		t.Fatalf("alice's set: %+v", res)
	}
	l := f.load(g)
	if l.Settings.Deadline != "weekdays 20:00 Europe/Rome" {
		t.Errorf("deadline %q", l.Settings.Deadline)
	}
	// Sunday 22 Nov 12:00 UTC: the first weekday 20:00 Rome at least 12h on is Monday 19:00 UTC.
	if d := l.Deadlines(); len(d) != 1 || !d[0].Due.Equal(time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)) {
		t.Errorf("deadlines %+v", d)
	}
	m := f.mailsTo("alice@" + domain)
	if last := m[len(m)-1].Body; !strings.Contains(last, "Your move — by Mon 23 Nov 20:00 CET") {
		t.Errorf("legal after set does not show the new deadline:\n%s", last)
	}
	if m := f.mailsTo("bob@" + domain); !strings.Contains(m[len(m)-1].Body, "set deadline=weekdays 20:00 Europe/Rome") {
		t.Errorf("bob was not told:\n%s", m[len(m)-1].Body)
	}
}

// TestSet_openGame: before the start, set changes the stored settings (there is no
// log yet) and tells the players who joined.
func TestSet_openGame(t *testing.T) {
	f := newFixture(t, 100)
	g := f.lobbyGame(hostAddr, "deadline=24h")
	f.confirmed("cy@"+domain, "join "+g+"\n")
	res := f.confirmed(hostAddr, "set "+g+" deadline=2d vacation=3\n")
	if res.Status != service.StatusApplied {
		t.Fatalf("%+v", res)
	}
	l := f.load(g)
	if len(l.Events) != 0 || l.Settings.Deadline != "2d" || !strings.Contains(string(l.Game.Settings), `"vacation_days":3`) {
		t.Fatalf("events %d, settings %s", len(l.Events), l.Game.Settings)
	}
	if m := f.mailsTo("cy@" + domain); !strings.Contains(m[len(m)-1].Body, "vacation: up to 3 days per player") {
		t.Errorf("cy was not told:\n%s", m[len(m)-1].Body)
	}
}
