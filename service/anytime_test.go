package service_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
)

// queuedBody is the body of the last queued mail to who ("" when none).
func (f *fixture) queuedBody(who string) string {
	body := ""
	for _, m := range f.queued() {
		if m.To[0].Address == who+"@"+domain {
			body = m.Body
		}
	}
	return body
}

// TestAnyTime_mails: the commands a player may send at any moment (engine.AnyTimer)
// are listed apart, under their own heading — in the mail of the player who waits, and
// after the choices of a player asked to respond or to move — so that a player out of
// turn learns that they may; a player sends one out of turn and nothing waits for it.
func TestAnyTime_mails(t *testing.T) {
	const heading = "At any moment, even out of your turn, you may send:\n    cheer\n"
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f, id := newDuel(t, &now, service.Settings{})
	checks := []struct {
		who, want, choices string // choices: the lines under "What you can send" ("" when waiting)
	}{
		{"ann", heading, "    attack\n"},
		{"bob", "It is ann's move\n", ""},
	}
	for _, c := range checks {
		body := f.queuedBody(c.who)
		if !strings.Contains(body, c.want) || !strings.Contains(body, heading) {
			t.Errorf("%s's opening mail lacks %q:\n%s", c.who, c.want, body)
		}
		if strings.Contains(body, "You may also send") {
			t.Errorf("%s's mail lists cheer as what else to send now:\n%s", c.who, body)
		}
		if c.choices == "" {
			continue
		}
		_, moves, _ := strings.Cut(body, "What you can send, one command per line:")
		moves, rest, _ := strings.Cut(moves, "\n\n")
		if !strings.Contains(moves+"\n", c.choices) || strings.Contains(moves, "cheer") || !strings.Contains(rest, heading) {
			t.Errorf("%s's choices are not apart from the commands of any moment:\n%s", c.who, body)
		}
	}
	if res := f.send(id, "bob", "cheer"); res.Status != service.StatusApplied {
		t.Fatalf("bob cheers out of turn: %+v", res)
	}
	if res := f.send(id, "ann", "attack"); res.Status != service.StatusApplied {
		t.Fatalf("attack: %+v", res)
	}
	_, st := duelOf(t, f, id)
	if !st.Asked || len(st.Cheers) != 1 || st.Cheers[0] != "bob" {
		t.Fatalf("after bob's cheer and ann's attack: %+v", st)
	}
	body := f.queuedBody("bob")
	_, moves, _ := strings.Cut(body, "What you can send, one command per line:")
	moves, rest, _ := strings.Cut(moves, "\n\n")
	for _, want := range []string{"    block\n", "    dodge\n", "    pass\n"} {
		if !strings.Contains(moves+"\n", want) {
			t.Errorf("bob's response mail lacks %q among the choices:\n%s", want, body)
		}
	}
	if strings.Contains(moves, "cheer") || !strings.Contains(rest, heading) {
		t.Errorf("bob's response mail does not list cheer apart:\n%s", body)
	}
}

// TestAnyTime_standingOrder: a standing order answers what the player is asked, never
// with a command of any moment, though Legal lists it first.
func TestAnyTime_standingOrder(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f, id := newDuel(t, &now, service.Settings{})
	f.send(id, "bob", "respond always")
	f.send(id, "ann", "attack")
	if _, st := duelOf(t, f, id); len(st.Cheers) != 0 || len(st.Responses) != 1 || st.Responses[0] != "bob: block" {
		t.Fatalf("respond always: responses %v cheers %v, want bob: block and no cheer", st.Responses, st.Cheers)
	}
}

// TestAnyTime_italian: the heading is in the reader's language.
func TestAnyTime_italian(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f, _ := newDuel(t, &now, service.Settings{Lang: "it"})
	if body := f.queuedBody("bob"); !strings.Contains(body, "In qualsiasi momento, anche fuori dal tuo turno, puoi inviare:\n    cheer\n") {
		t.Errorf("bob's Italian mail:\n%s", body)
	}
}

// TestAnyTime_dungeoneer: in a Dungeoneer game, the player whose hero has an activated
// ability (Ilvo) reads in the mail that comes while another plays that they may use
// it at any moment ("Sempre"; "Un’abilità speciale di un eroe è un Favore che può
// essere utilizzato in qualsiasi momento").
func TestAnyTime_dungeoneer(t *testing.T) {
	reg := engine.Registry{"tally": testgame.Tally{}, "dungeoneer": dungeoneer.Game{}}
	f := newFixtureRegistry(t, 100000, reg)
	ctx := context.Background()
	for seed := int64(1); seed < 40; seed++ {
		ng := service.NewGame{Kind: "dungeoneer", Seed: seed}
		for _, n := range []string{"ann", "bob"} {
			ng.Players = append(ng.Players, engine.Player{Name: n, Email: n + "@" + domain})
		}
		id, err := f.svc.CreateGame(ctx, ng)
		if err != nil {
			t.Fatal(err)
		}
		l, err := f.svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range l.State.View("").(dungeoneer.View).Players {
			if p.Hero != "h2" || slices.Contains(l.State.ToAct(), p.Name) {
				continue
			}
			body := f.lastBody(p.Name + "@" + domain)
			_, any, ok := strings.Cut(body, "At any moment, even out of your turn, you may send:\n")
			if any, _, _ = strings.Cut(any, "\n\n"); !ok || !strings.Contains(any+"\n", "    ability\n") {
				t.Fatalf("seed %d: %s (Ilvo) waits and is not told of the ability:\n%s", seed, p.Name, body)
			}
			return
		}
	}
	t.Fatal("no seed gave Ilvo to the player who waits")
}
