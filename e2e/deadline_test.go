package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// turnGame creates a tally game in turns mode between ann and ben, hosted by host.
func turnGame(t *testing.T, h *harness, host string, st service.Settings) string {
	t.Helper()
	id, err := h.d.Service.CreateGame(context.Background(), service.NewGame{
		Kind: "tally", Options: map[string]json.RawMessage{"turns": json.RawMessage("true")},
		Players: []engine.Player{{Name: "ann", Email: h.addr("ann")}, {Name: "ben", Email: h.addr("ben")}},
		Host:    host, Settings: st,
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestDeadline_skipAndRemindersAcrossRestart: reminders 12h and 1h before a 24h
// deadline, each sent once even across a restart, then the skip policy.
func TestDeadline_skipAndRemindersAcrossRestart(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	opts := harnessOptions{games: testRegistry(), clock: clock}
	h := newHarness(t, opts)
	ann, ben := h.addr("ann"), h.addr("ben")
	game := turnGame(t, h, h.addr("host"), service.Settings{})
	h.waitMail(ann, "Your move", "Your move — by Tue 24 Nov 09:00 UTC")

	clock.Advance(11 * time.Hour)
	if n := h.tick(); n != 0 {
		t.Fatalf("%d timers fired 13h before the deadline", n)
	}
	clock.Advance(time.Hour + time.Minute)
	if n := h.tick(); n != 1 {
		t.Fatalf("%d timers fired at the 12h reminder, want 1", n)
	}
	h.waitMail(ann, "Reminder: your move in game "+game, "in 11h59m")

	h = h.restart(opts)
	if n := h.tick(); n != 0 {
		t.Fatalf("after a restart %d timers fired again", n)
	}
	clock.Advance(11 * time.Hour)
	if n := h.tick(); n != 1 {
		t.Fatalf("%d timers fired at the 1h reminder, want 1", n)
	}
	h.waitMail(ann, "Reminder", "in 59m")
	if n := h.tick(); n != 0 {
		t.Fatalf("a second tick fired %d timers", n)
	}
	clock.Advance(time.Hour)
	if n := h.tick(); n != 1 {
		t.Fatalf("%d timers fired at the deadline, want 1", n)
	}
	h.waitMail(ann, "Your deadline in game "+game+" passed", "    pass")
	h.waitMail(ben, "ann sent: pass", "Your move")
	if n := h.events(game); n != 2 {
		t.Fatalf("%d events after the skip, want 2 (deadline, pass)", n)
	}
	h.quietOutbox()
	for _, m := range h.unexpected(ann) {
		if strings.Contains(m.Body, "Reminder") {
			t.Errorf("a reminder was sent twice:\n%s", m.Body)
		}
	}
}

// TestDeadline_pause: the pause policy stops the game until the host resumes it.
func TestDeadline_pause(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	h := newHarness(t, harnessOptions{games: testRegistry(), clock: clock})
	ann, ben, host := h.addr("ann"), h.addr("ben"), h.addr("host")
	game := turnGame(t, h, host, service.Settings{Expiry: service.ExpiryPause, Remind: []string{"none"}})
	a := h.waitMail(ann, "Your move")
	clock.Advance(25 * time.Hour)
	if n := h.tick(); n != 1 {
		t.Fatalf("%d timers fired", n)
	}
	h.waitMail(ben, "ann's deadline in game "+game+" passed", "paused")
	h.waitMail(host, "paused")
	id := h.send(ann, replyTo(t, a), "Re", "add 3\n")
	if st, reason := h.settled(id); st != "rejected" || !strings.Contains(reason, "paused") {
		t.Fatalf("a move in a paused game: %s %s", st, reason)
	}
	h.send(ben, h.addr("turnmail"), "x", "resume "+game+"\n")
	h.waitMail(ben, "Only the host of game "+game)
	h.send(host, h.addr("turnmail"), "x", "resume "+game+"\n")
	h.confirm(host, "yes", "    resume "+game) // at the service address: confirmed by reply
	h.waitMail(host, "Done: resume")
	h.waitMail(ann, "has resumed")
	id = h.send(ann, replyTo(t, a), "Re", "add 3\n")
	if st, reason := h.settled(id); st != "applied" {
		t.Fatalf("a move after resume: %s %s", st, reason)
	}
}

// TestDeadline_replaceAndSubstitute: the replace policy asks the host, who hands the
// seat to a substitute; the old address is refused from then on.
func TestDeadline_replaceAndSubstitute(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	h := newHarness(t, harnessOptions{games: testRegistry(), clock: clock})
	ann, ben, host, cy := h.addr("ann"), h.addr("ben"), h.addr("host"), h.addr("cy")
	game := turnGame(t, h, host, service.Settings{Expiry: service.ExpiryReplace, Remind: []string{"none"}})
	a := h.waitMail(ann, "Your move")
	h.waitMail(ben, "It is ann's move")
	clock.Advance(25 * time.Hour)
	if n := h.tick(); n != 1 {
		t.Fatalf("%d timers fired", n)
	}
	sub := h.waitMail(host, "Please find a substitute", "replace "+game+" ann ADDRESS")
	if !strings.Contains(replyTo(t, sub), ".host.") {
		t.Errorf("the mail to the host does not carry the host reply address: %s", replyTo(t, sub))
	}
	h.send(host, h.addr("turnmail"), "x", "replace "+game+" ann "+cy+"\n") // at the service address
	h.confirm(host, "yes", "    replace "+game+" ann "+cy)
	h.confirm(cy, "yes", "asks you to take over")
	c := h.waitMail(cy, "You take over the seat ann", "Your move")
	h.waitMail(ann, "has handed your seat (ann) to another player")
	h.waitMail(host, "now belongs to "+cy)
	rc := replyTo(t, c)
	if rc == replyTo(t, a) {
		t.Fatal("the substitute got the old reply address")
	}
	id := h.send(ann, replyTo(t, a), "Re", "add 1\n")
	if st, reason := h.settled(id); st != "rejected" || !strings.Contains(reason, "no longer valid") {
		t.Fatalf("the old player's move: %s %s", st, reason)
	}
	id = h.send(cy, rc, "Re", "add 2\n")
	if st, reason := h.settled(id); st != "applied" {
		t.Fatalf("the substitute's move: %s %s", st, reason)
	}
	h.waitMail(ben, "ann sent: add 2", "Your move")
}

// TestDeadline_vacation: a vacation stretches the player's deadline.
func TestDeadline_vacation(t *testing.T) {
	t.Parallel()
	clock := newFakeClock() // Mon 23 Nov 09:00 UTC; deadline Tue 09:00
	h := newHarness(t, harnessOptions{games: testRegistry(), clock: clock})
	ann := h.addr("ann")
	game := turnGame(t, h, h.addr("host"), service.Settings{Remind: []string{"none"}})
	a := h.waitMail(ann, "Your move")
	h.send(ann, replyTo(t, a), "Re", "vacation 2026-11-24 2026-11-25\n")
	h.waitMail(ann, "Your vacation Tue 24 November to Wed 25 November is recorded", "used 2 of 14 days", "Thu 26 Nov 09:00 UTC")
	l, err := h.d.Service.Load(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	if d := l.Deadlines(); len(d) != 1 || !d[0].Due.Equal(time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("deadlines %+v, want ann's on Thu 26 Nov 09:00", d)
	}
	clock.Advance(25 * time.Hour)
	if n := h.tick(); n != 0 {
		t.Fatalf("%d timers fired during the vacation", n)
	}
	clock.Advance(48 * time.Hour)
	if n := h.tick(); n != 1 {
		t.Fatalf("%d timers fired after the stretched deadline, want 1", n)
	}
	h.waitMail(ann, "Your deadline in game "+game+" passed")
	// Beyond the limit: refused with the count.
	h.send(ann, replyTo(t, a), "Re", "vacation 2026-12-01 2026-12-31\n")
	h.waitMail(ann, "That is 31 days; you have used 2 of the 14 days")
	g, _, _ := h.d.Store.Game(context.Background(), game)
	if g.Status != store.GameRunning {
		t.Fatalf("status %s", g.Status)
	}
}
