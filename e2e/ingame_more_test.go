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

// gameStatus is a game's status in the store.
func gameStatus(t *testing.T, h *harness, game string) string {
	t.Helper()
	g, _, err := h.d.Store.Game(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	return g.Status
}

// settledAs waits for mail id to be processed and fails unless it got status with a
// reason containing reason.
func settledAs(t *testing.T, h *harness, id, status, reason string) {
	t.Helper()
	if st, why := h.settled(id); st != status || !strings.Contains(why, reason) {
		t.Fatalf("mail %s: %s %q, want %s with %q", id, st, why, status, reason)
	}
}

// TestInGame_pauseResume: the host (who plays) pauses and resumes by replying to a
// game mail; another player cannot. While paused a move is refused with the reason
// and no deadline fires; after the resume the deadlines count from it, and each
// state mail shows the deadline of its reader's new turn.
func TestInGame_pauseResume(t *testing.T) {
	t.Parallel()
	clock := newFakeClock() // Mon 23 Nov 09:00 UTC
	h := newHarness(t, harnessOptions{games: testRegistry(), clock: clock})
	ann, ben := h.addr("ann"), h.addr("ben")
	game := turnGame(t, h, ann, service.Settings{Remind: []string{"none"}})
	ra := replyTo(t, h.waitMail(ann, "Your move", "Your move — by Tue 24 Nov 09:00 UTC"))
	rb := replyTo(t, h.waitMail(ben, "It is ann's move"))

	h.send(ben, rb, "Re", "pause\n")
	h.waitMail(ben, "Only the host of game "+game+" ("+ann+") may pause the game.")
	if st := gameStatus(t, h, game); st != store.GameRunning {
		t.Fatalf("a non-host's pause: status %s", st)
	}
	h.send(ann, ra, "Re", "pause\n")
	h.waitMail(ann, "Game "+game+" is paused by the host")
	h.waitMail(ben, "Game "+game+" is paused by the host")
	if st := gameStatus(t, h, game); st != store.GamePaused {
		t.Fatalf("after the host's pause: status %s", st)
	}

	id := h.send(ann, ra, "Re", "add 3\n")
	settledAs(t, h, id, "rejected", "The game is paused by its host")
	h.waitMail(ann, "The game is paused by its host; moves are accepted again when it resumes.")
	h.send(ben, rb, "Re", "resume\n")
	h.waitMail(ben, "Only the host of game "+game+" ("+ann+") may resume the game.")
	h.send(ann, ra, "Re", "pause\n")
	h.waitMail(ann, "The game is paused already")

	clock.Advance(48 * time.Hour) // far beyond ann's deadline: Wed 25 Nov 09:00
	if n := h.tick(); n != 0 {
		t.Fatalf("%d timers fired in a paused game", n)
	}

	h.send(ann, ra, "Re", "resume\n")
	h.waitMail(ann, "Game "+game+" has resumed", "Your move")
	h.waitMail(ben, "Game "+game+" has resumed", "It is ann's move")
	if st := gameStatus(t, h, game); st != store.GameRunning {
		t.Fatalf("after the resume: status %s", st)
	}
	if n := h.tick(); n != 0 {
		t.Fatalf("%d timers fired right after the resume", n)
	}
	h.send(ann, ra, "Re", "status\n")
	h.waitMail(ann, "Your move", "Your move — by Thu 26 Nov 09:00 UTC")

	clock.Advance(time.Hour)
	id = h.send(ann, ra, "Re", "add 3\n")
	settledAs(t, h, id, "applied", "")
	h.waitMail(ben, "ann sent: add 3", "Your move", "Your move — by Thu 26 Nov 10:00 UTC")

	clock.Advance(24*time.Hour + time.Minute)
	if n := h.tick(); n != 1 {
		t.Fatalf("%d timers fired at ben's deadline, want 1", n)
	}
	h.waitMail(ben, "Your deadline in game "+game+" passed")
	h.waitMail(ann, "ben sent: pass", "Your move", "Your move — by Fri 27 Nov 10:01 UTC")
}

// TestInGame_replaceByHost: the host (who plays) hands a seat to another address by
// replying to a game mail; a non-host cannot; the old address is refused from then on.
func TestInGame_replaceByHost(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, cy, dan := h.addr("ann"), h.addr("ben"), h.addr("cy"), h.addr("dan")
	game := turnGame(t, h, ann, service.Settings{})
	ra := replyTo(t, h.waitMail(ann, "Your move"))
	rb := replyTo(t, h.waitMail(ben, "It is ann's move"))

	h.send(ben, rb, "Re", "replace ann "+dan+"\n")
	h.waitMail(ben, "Only the host of game "+game+" ("+ann+") may hand a seat to another player.") // ben plays: he knows the host
	h.send(ann, ra, "Re", "replace zed "+cy+"\n")
	h.waitMail(ann, `There is no player "zed" in this game.`)
	h.send(ann, ra, "Re", "replace ben "+ann+"\n")
	h.waitMail(ann, ann+" plays in this game already.")

	h.send(ann, ra, "Re", "replace ben "+cy+"\n")
	h.waitMail(ann, cy+" was asked to confirm taking over the seat of ben")
	h.confirm(cy, "yes", ann+", the host of game "+game+" (tally), asks you to take over", "the seat of ben")
	c := h.waitMail(cy, "You take over the seat ben", "It is ann's move")
	h.waitMail(ben, "has handed your seat (ben) to another player")
	h.waitMail(ann, "The seat ben in game "+game+" now belongs to "+cy)
	rc := replyTo(t, c)
	if rc == rb {
		t.Fatal("the substitute got the old reply address")
	}

	h.send(ann, ra, "Re", "add 2\n")
	h.waitMail(cy, "ann sent: add 2", "Your move")
	id := h.send(ben, rb, "Re", "add 1\n")
	settledAs(t, h, id, "rejected", "no longer valid")
	id = h.send(cy, rc, "Re", "add 1\n")
	settledAs(t, h, id, "applied", "")
	h.waitMail(ann, "ben sent: add 1", "Your move")

	h.quietOutbox()
	for _, m := range h.unexpected(dan) {
		t.Errorf("dan got a mail from a refused replace:\n%s", m.Body)
	}
}

// TestInGame_resignedTurnsSkipped: in a three-player game a resigned player's turns
// are skipped and the others play on; when one player is left, they win.
func TestInGame_resignedTurnsSkipped(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, cy := h.addr("ann"), h.addr("ben"), h.addr("cy")
	game, err := h.d.Service.CreateGame(context.Background(), service.NewGame{
		Kind: "tally", Options: map[string]json.RawMessage{"turns": json.RawMessage("true")},
		Players: []engine.Player{{Name: "ann", Email: ann}, {Name: "ben", Email: ben}, {Name: "cy", Email: cy}},
		Host:    h.addr("host"),
	})
	if err != nil {
		t.Fatal(err)
	}
	ra := replyTo(t, h.waitMail(ann, "Your move"))
	rb := replyTo(t, h.waitMail(ben, "It is ann's move"))
	rc := replyTo(t, h.waitMail(cy, "It is ann's move"))
	resign := func(who, reply string) {
		t.Helper()
		h.send(who, reply, "Re", "resign\n")
		m := h.waitMail(who, "Resigning cannot be taken back")
		code := codeRe.FindString(m.Body)
		if code == "" {
			t.Fatalf("no code:\n%s", m.Body)
		}
		h.send(who, reply, "Re", code+"\n")
	}

	h.send(ann, ra, "Re", "add 1\n")
	h.waitMail(ben, "ann sent: add 1", "Your move")
	resign(ben, rb) // on ben's turn: it is skipped at once
	h.waitMail(ann, "ben resigned from game "+game)
	h.waitMail(cy, "ben sent: pass", "Your move")
	id := h.send(ben, rb, "Re", "add 9\n")
	settledAs(t, h, id, "rejected", "You resigned from this game")

	h.send(cy, rc, "Re", "add 2\n")
	h.waitMail(ann, "cy sent: add 2", "Your move")
	h.send(ann, ra, "Re", "add 3\n")
	h.waitMail(cy, "ann sent: add 3", "ben sent: pass", "Your move")
	if s := score(t, h, game, "ann"); s != 4 {
		t.Fatalf("ann has %d, want 4", s)
	}

	resign(cy, rc)
	for _, who := range []string{ann, ben, cy} {
		h.waitMail(who, "The game "+game+" is over", "Winner: ann")
	}
	if st := gameStatus(t, h, game); st != store.GameFinished {
		t.Fatalf("status %s, want finished", st)
	}
}
