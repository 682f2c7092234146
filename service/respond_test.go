package service_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
)

// duel is a game with responses: the two players take turns to "attack"; the other
// is then asked to respond ("block", "dodge" or "pass") out of turn. Either may
// "cheer" at any moment (engine.AnyTimer), which answers nothing. The game ends after
// four attacks.
type duel struct{}

func (duel) Name() string { return "duel" }
func (duel) New(setup engine.Setup, _ *engine.Rand) (engine.State, error) {
	return duelState{Players: []string{setup.Players[0].Name, setup.Players[1].Name}}, nil
}

type duelState struct {
	Players   []string
	Current   int
	Asked     bool     // the other player is asked to respond
	Responses []string // "bob: block" …
	Cheers    []string // who cheered, in order
	Attacks   int
}

func (s duelState) other() string { return s.Players[1-s.Current] }

func (s duelState) Apply(player, cmd string, _ *engine.Rand) (engine.State, error) {
	if cmd == "cheer" && !s.Finished() && slices.Contains(s.Players, player) {
		s.Cheers = append(slices.Clone(s.Cheers), player)
		return s, nil
	}
	if !slices.Contains(s.ToAct(), player) || !slices.Contains(s.Legal(player), cmd) {
		return nil, engine.Illegal("%s may not %s now", player, cmd)
	}
	s.Responses = slices.Clone(s.Responses)
	if s.Asked {
		s.Responses = append(s.Responses, player+": "+cmd)
		s.Asked, s.Current = false, 1-s.Current
	} else {
		s.Asked, s.Attacks = true, s.Attacks+1
	}
	return s, nil
}

// Legal lists "cheer" first, so that a standing order reading Legal in order would
// take it if it did not leave the commands of any moment out.
func (s duelState) Legal(player string) []string {
	switch {
	case s.Finished():
		return nil
	case !slices.Contains(s.ToAct(), player):
		return []string{"cheer"}
	case s.Asked:
		return []string{"cheer", "block", "dodge", "pass"}
	}
	return []string{"cheer", "attack"}
}

func (s duelState) AnyTime(string) []string {
	if s.Finished() {
		return nil
	}
	return []string{"cheer"}
}

func (s duelState) ToAct() []string {
	switch {
	case s.Finished():
		return nil
	case s.Asked:
		return []string{s.other()}
	}
	return []string{s.Players[s.Current]}
}

func (s duelState) Turn() int                { return s.Attacks + 1 }
func (s duelState) Finished() bool           { return s.Attacks >= 4 && !s.Asked }
func (s duelState) Winners() []string        { return nil }
func (s duelState) View(string) any          { return s }
func (s duelState) Hash() string             { return engine.HashJSON(s) }
func (s duelState) Responding(p string) bool { return s.Asked && p == s.other() }
func (s duelState) SkipCommands(p string) []string {
	if s.Responding(p) {
		return []string{"pass"}
	}
	return []string{"attack"}
}

// newDuel starts a duel between ann and bob with the settings given as options.
func newDuel(t *testing.T, now *time.Time, settings service.Settings) (*fixture, string) {
	t.Helper()
	f := newFixtureOptions(t, engine.Registry{"tally": testgame.Tally{}, "duel": duel{}}, func(o *service.Options) {
		o.RepliesPerHour = 1000
		o.Clock = func() time.Time { return *now }
	})
	id, err := f.svc.CreateGame(context.Background(), service.NewGame{Kind: "duel", Settings: settings, Players: []engine.Player{
		{Name: "ann", Email: "ann@" + domain}, {Name: "bob", Email: "bob@" + domain}}})
	if err != nil {
		t.Fatal(err)
	}
	return f, id
}

func (f *fixture) send(id, who, body string) service.Result {
	f.t.Helper()
	seat := map[string]int{"ann": 0, "bob": 1}[who]
	return f.receive(f.mail(who+"@"+domain, f.svc.ReplyAddress(id, seat), body))
}

func duelOf(t *testing.T, f *fixture, id string) (*service.Loaded, duelState) {
	t.Helper()
	l, err := f.svc.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return l, l.State.(duelState)
}

// TestResponse_deadline: a player asked to respond has the response deadline (2
// hours by default, response= changes it) instead of the turn's 24 hours, gets a
// mail with the choices and that deadline, and when it passes the response is
// declined (pass) even under expiry=pause: a response never stops the game.
func TestResponse_deadline(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings service.Settings
		want     time.Duration
	}{
		{"default", service.Settings{Expiry: service.ExpiryPause}, 2 * time.Hour},
		{"response=30m", service.Settings{Expiry: service.ExpiryPause, Response: "30m"}, 30 * time.Minute},
		{"response=none", service.Settings{Response: "none"}, 24 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
			f, id := newDuel(t, &now, tc.settings)
			l, _ := duelOf(t, f, id)
			if d := l.Deadlines(); len(d) != 1 || d[0].Due.Sub(now) != 24*time.Hour {
				t.Fatalf("ann's turn: deadlines %+v, want 24h", d)
			}
			if res := f.send(id, "ann", "attack"); res.Status != service.StatusApplied {
				t.Fatalf("attack: %+v", res)
			}
			l, _ = duelOf(t, f, id)
			d := l.Deadlines()
			if len(d) != 1 || d[0].Player != "bob" || d[0].Due.Sub(now) != tc.want {
				t.Fatalf("bob asked to respond: deadlines %+v, want bob's in %v", d, tc.want)
			}
			var toBob string
			for _, m := range f.queued() {
				if m.To[0].Address == "bob@"+domain {
					toBob = m.Body
				}
			}
			for _, want := range []string{"    block\n", "    dodge\n", "    pass\n", l.Deadlines()[0].Due.Format("15:04")} {
				if !strings.Contains(toBob, want) {
					t.Errorf("bob's mail lacks %q:\n%s", want, toBob)
				}
			}
			if tc.want == 24*time.Hour {
				return
			}
			now = now.Add(tc.want + time.Minute)
			if _, err := f.svc.Tick(context.Background()); err != nil {
				t.Fatal(err)
			}
			l, s := duelOf(t, f, id)
			if l.Game.Status != "running" || !slices.Equal(s.Responses, []string{"bob: pass"}) || s.Asked {
				t.Errorf("after the response deadline: status %s, responses %v, asked %v; want running, bob passed", l.Game.Status, s.Responses, s.Asked)
			}
		})
	}
}

// TestResponse_standingOrders: a player's standing order answers for them in the
// same mail that asks, so the attacker's turn goes on without a round trip; "ask"
// (and an order for a card that is not playable) leaves the choice to a mail;
// malformed orders are refused with what to write.
func TestResponse_standingOrders(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f, id := newDuel(t, &now, service.Settings{})
	steps := []struct {
		who, body, status string
		responses         []string
		reason            string
	}{
		{"bob", "respond with dodge", service.StatusApplied, nil, ""},
		{"ann", "attack", service.StatusApplied, []string{"bob: dodge"}, ""},
		{"bob", "respond never", service.StatusApplied, []string{"bob: dodge"}, ""},
		{"bob", "attack", service.StatusApplied, []string{"bob: dodge"}, ""}, // ann has no order: asked
		{"ann", "respond always", service.StatusApplied, []string{"bob: dodge", "ann: block"}, ""},
		{"ann", "attack", service.StatusApplied, []string{"bob: dodge", "ann: block", "bob: pass"}, ""},
		{"bob", "respond with " + strings.Repeat("x", 200), service.StatusRejected, nil, "Write respond auto"},
		{"bob", "respond sometimes", service.StatusRejected, nil, "Write respond auto"},
		{"ann", "respond with fireball", service.StatusApplied, nil, ""}, // not a possible response: ask
		{"bob", "attack", service.StatusApplied, []string{"bob: dodge", "ann: block", "bob: pass"}, ""},
		{"ann", "respond ask", service.StatusApplied, []string{"bob: dodge", "ann: block", "bob: pass"}, ""},
	}
	for i, s := range steps {
		res := f.send(id, s.who, s.body)
		if res.Status != s.status || !strings.Contains(res.Reason, s.reason) {
			t.Fatalf("step %d (%s: %s): %s %q, want %s %q", i, s.who, s.body, res.Status, res.Reason, s.status, s.reason)
		}
		if _, st := duelOf(t, f, id); s.responses != nil && !slices.Equal(st.Responses, s.responses) {
			t.Fatalf("step %d (%s: %s): responses %v, want %v", i, s.who, s.body, st.Responses, s.responses)
		}
	}
	// ann holds "respond ask": bob's last attack waits for her mail.
	if _, st := duelOf(t, f, id); !st.Asked || st.other() != "ann" {
		t.Errorf("ann was not left to answer: %+v", st)
	}
}
