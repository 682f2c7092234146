package service_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
)

// TestOutOfTurn_dungeoneer: a Dungeoneer hero whose turn it is not challenges, by
// mail, another hero standing in its space, with the Movement it saved at the end of
// its turn — a special action «dentro o fuori dal proprio turno» (issue 21). The mail
// that tells the waiting player whose move it is lists the challenge under "At any
// moment"; nobody waits for that player (it is never to act for it); its command is
// taken when it arrives, in Italian words, and the turn of the player to act goes on
// where it was. Sent again, it is refused with the reason (one standard attack a turn).
func TestOutOfTurn_dungeoneer(t *testing.T) {
	reg := engine.Registry{"tally": testgame.Tally{}, "dungeoneer": dungeoneer.Game{}}
	f := newFixtureRegistry(t, 100000, reg)
	ctx := context.Background()
	ng := service.NewGame{Kind: "dungeoneer", Seed: 3}
	for _, n := range []string{"ann", "bob"} {
		ng.Players = append(ng.Players, engine.Player{Name: n, Email: n + "@" + domain})
	}
	id, err := f.svc.CreateGame(ctx, ng)
	if err != nil {
		t.Fatal(err)
	}
	load := func() (*service.Loaded, dungeoneer.View) {
		t.Helper()
		l, err := f.svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return l, l.State.View("").(dungeoneer.View)
	}
	// The first round without a move: each player sends what a missed deadline sends
	// (done, the first placement, the first discard); both heroes stay at the
	// Entrance, and the second one ends its turn with a Movement saved.
	l, v := load()
	for v.Turn == 1 {
		who := l.State.ToAct()[0]
		cmd := l.State.(engine.Skipper).SkipCommands(who)[0]
		if res := f.send(id, who, cmd); res.Status != service.StatusApplied {
			t.Fatalf("%s %q: %+v", who, cmd, res)
		}
		l, v = load()
	}
	cur := *v.Current
	waiter := "ann"
	if cur == "ann" {
		waiter = "bob"
	}
	me := v.Players[slices.IndexFunc(v.Players, func(p dungeoneer.PlayerView) bool { return p.Name == waiter })]
	if me.Saved != 1 || v.Phase != "lord" || !slices.Equal(l.State.ToAct(), []string{cur}) {
		t.Fatalf("%s saved %d; phase %s, to act %v", waiter, me.Saved, v.Phase, l.State.ToAct())
	}
	body := f.lastBody(waiter + "@" + domain)
	_, anyTime, ok := strings.Cut(body, "At any moment, even out of your turn, you may send:\n")
	if !strings.HasPrefix(body, "It is "+cur+"'s move\n") {
		t.Errorf("%s's mail does not start with %s's turn:\n%s", waiter, cur, body)
	}
	if anyTime, _, _ = strings.Cut(anyTime, "\n\n"); !ok || !strings.Contains(anyTime, "    challenge "+cur+" melee   # with the Movement you saved\n") {
		t.Fatalf("%s's mail does not offer the challenge:\n%s", waiter, body)
	}
	events := len(l.Events)
	if res := f.send(id, waiter, "sfida "+cur+" mischia"); res.Status != service.StatusApplied {
		t.Fatalf("the challenge out of turn: %+v", res)
	}
	l, v = load()
	me = v.Players[slices.IndexFunc(v.Players, func(p dungeoneer.PlayerView) bool { return p.Name == waiter })]
	if len(l.Events) != events+1 || l.Events[events].Player != waiter || l.Events[events].Command != "challenge "+cur+" melee" {
		t.Fatalf("events %d → %d, the last %+v", events, len(l.Events), l.Events[len(l.Events)-1])
	}
	if me.Saved != 0 || !me.Struck || *v.Current != cur || v.Phase != "lord" || !slices.Equal(l.State.ToAct(), []string{cur}) {
		t.Fatalf("after the challenge: saved %d struck %v; current %s phase %s to act %v", me.Saved, me.Struck, *v.Current, v.Phase, l.State.ToAct())
	}
	// The player to act goes on.
	if res := f.send(id, cur, "done"); res.Status != service.StatusApplied {
		t.Fatalf("%s's done after the challenge: %+v", cur, res)
	}
	res := f.send(id, waiter, "challenge "+cur+" melee")
	if res.Status != service.StatusRejected || !strings.Contains(res.Reason, "standard attack this turn") {
		t.Fatalf("the second challenge: %+v", res)
	}
}
