package e2e

import (
	"testing"
	"time"

	"github.com/turnmail/turnmail/service"
)

// TestSet_deadlineTakesEffect: the host lengthens the deadline of a running game by
// mail; the players are told, the old deadline passes without firing (also after a
// restart: the change is in the game's log), and the new one fires once.
func TestSet_deadlineTakesEffect(t *testing.T) {
	t.Parallel()
	clock := newFakeClock() // Mon 23 Nov 09:00 UTC
	opts := harnessOptions{games: testRegistry(), clock: clock}
	h := newHarness(t, opts)
	ann, ben, host, svc := h.addr("ann"), h.addr("ben"), h.addr("host"), h.addr("turnmail")
	game := turnGame(t, h, host, service.Settings{Remind: []string{"none"}})
	h.waitMail(ann, "Your move", "Your move — by Tue 24 Nov 09:00 UTC")

	h.send(ben, svc, "x", "set "+game+" deadline=48h\n")
	h.waitMail(ben, "Only the host of game "+game)
	h.send(host, svc, "x", "set "+game+" deadline=48h expiry=pause\n")
	h.confirm(host, "yes", "    set "+game+" deadline=48h expiry=pause") // at the service address: confirmed by reply
	h.waitMail(host, "The settings of game "+game+" are now:", "deadline: 2d after the turn begins", "when a deadline passes: pause")
	h.waitMail(ann, "The host changed the settings of game "+game, "Your current deadline: Wed 25 Nov 09:00 UTC")
	h.waitMail(ben, "The host changed the settings of game "+game)

	h = h.restart(opts)
	clock.Advance(25 * time.Hour) // past the old deadline
	if n := h.tick(); n != 0 {
		t.Fatalf("%d timers fired at the old deadline", n)
	}
	clock.Advance(23 * time.Hour) // the new one
	if n := h.tick(); n != 1 {
		t.Fatalf("%d timers fired at the new deadline, want 1", n)
	}
	h.waitMail(ben, "ann's deadline in game "+game+" passed (Wed 25 Nov 09:00 UTC)", "paused")
	if n := h.tick(); n != 0 {
		t.Fatalf("a second tick fired %d timers", n)
	}
	if n := h.events(game); n != 2 {
		t.Fatalf("%d events, want 2 (set, deadline passed)", n)
	}
}
