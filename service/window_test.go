package service_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
)

// volley is a game with a response window of several players: the current player
// shouts, and every other player is asked to respond ("pass") before the turn moves
// on. It ends after three shouts.
type volley struct{}

func (volley) Name() string { return "volley" }
func (volley) New(setup engine.Setup, _ *engine.Rand) (engine.State, error) {
	var s volleyState
	for _, p := range setup.Players {
		s.Players = append(s.Players, p.Name)
	}
	return s, nil
}

type volleyState struct {
	Players []string
	Current int
	Asked   []string
	Shouts  int
}

func (s volleyState) Apply(player, cmd string, _ *engine.Rand) (engine.State, error) {
	if !slices.Contains(s.ToAct(), player) || !slices.Contains(s.Legal(player), cmd) {
		return nil, engine.Illegal("%s may not %s now", player, cmd)
	}
	if cmd == "shout" {
		s.Shouts++
		s.Asked = slices.DeleteFunc(slices.Clone(s.Players), func(p string) bool { return p == player })
		return s, nil
	}
	s.Asked = slices.DeleteFunc(slices.Clone(s.Asked), func(p string) bool { return p == player })
	if len(s.Asked) == 0 {
		s.Current = (s.Current + 1) % len(s.Players)
	}
	return s, nil
}

func (s volleyState) Legal(player string) []string {
	switch {
	case !slices.Contains(s.ToAct(), player):
		return nil
	case len(s.Asked) > 0:
		return []string{"pass"}
	}
	return []string{"shout"}
}

func (s volleyState) ToAct() []string {
	switch {
	case s.Finished():
		return nil
	case len(s.Asked) > 0:
		return s.Asked
	}
	return []string{s.Players[s.Current]}
}

func (s volleyState) Turn() int                { return s.Shouts + 1 }
func (s volleyState) Finished() bool           { return s.Shouts >= 3 && len(s.Asked) == 0 }
func (s volleyState) Winners() []string        { return nil }
func (s volleyState) View(string) any          { return s }
func (s volleyState) Hash() string             { return engine.HashJSON(s) }
func (s volleyState) Responding(p string) bool { return slices.Contains(s.Asked, p) }

// TestResponse_windowOfSeveral: when one of several players asked for a response
// answers, the others, still asked the same, get no second mail; the next window
// asks them again.
func TestResponse_windowOfSeveral(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	f := newFixtureOptions(t, engine.Registry{"tally": testgame.Tally{}, "volley": volley{}}, func(o *service.Options) {
		o.RepliesPerHour = 1000
		o.Clock = func() time.Time { return now }
	})
	id, err := f.svc.CreateGame(context.Background(), service.NewGame{Kind: "volley", Players: []engine.Player{
		{Name: "ann", Email: "ann@" + domain}, {Name: "bob", Email: "bob@" + domain}, {Name: "cy", Email: "cy@" + domain}}})
	if err != nil {
		t.Fatal(err)
	}
	send := func(seat int, who, body string) {
		t.Helper()
		if res := f.receive(f.mail(who+"@"+domain, f.svc.ReplyAddress(id, seat), body)); res.Status != service.StatusApplied {
			t.Fatalf("%s %q: %+v", who, body, res)
		}
	}
	send(0, "ann", "shout\n")
	cy := len(f.mailsTo("cy@" + domain))
	send(1, "bob", "pass\n")
	if got := len(f.mailsTo("cy@" + domain)); got != cy {
		t.Errorf("cy, still asked the same, got %d more mails after bob's pass", got-cy)
	}
	send(2, "cy", "pass\n") // the window closes; bob shouts next, ann and cy are asked
	send(1, "bob", "shout\n")
	if got := len(f.mailsTo("cy@" + domain)); got <= cy {
		t.Errorf("cy, asked in a new window, got no mail")
	}
}
