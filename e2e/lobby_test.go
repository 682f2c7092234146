package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/store"
)

var openedRe = regexp.MustCompile(`Game (ta-[0-9a-z]+) \(tally\) is open`)

// TestLobbyGameByMail creates, joins, starts and finishes a game entirely by mail,
// with an observer, the in-game commands status/legal/history, and the refusals for
// bad lobby mail.
func TestLobbyGameByMail(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, cy, svc := h.addr("ann"), h.addr("ben"), h.addr("cy"), h.addr("turnmail")

	h.send(ann, svc, "help", "help\n")
	h.waitMail(ann, "new GAME [option=value …]", "join GAME-ID")

	h.send(ann, svc, "a game", "new tally target=10 turns=true players=2 deadline=weekdays 20:00 Europe/Rome\n")
	m := h.waitMail(ann, "is open", "You are its host")
	id := openedRe.FindStringSubmatch(m.Body)
	if id == nil {
		t.Fatalf("no game id in:\n%s", m.Body)
	}
	game := id[1]
	if !strings.Contains(m.Body, "weekdays 20:00 Europe/Rome") {
		t.Errorf("the deadline setting is not confirmed:\n%s", m.Body)
	}

	// Lobby errors: a non-host start, an unknown command from a known address, a
	// stranger's chatter (ignored), a missing game id. A join waits for the
	// joiner's confirmation; the host's commands go to the host reply address.
	h.send(ben, svc, "x", "join "+game+"\n")
	h.confirm(ben, "yes", "    join "+game)
	h.waitMail(ben, "You play in game "+game+" (tally) as ben")
	joined := h.waitMail(ann, "ben ("+ben+") joined your game "+game)
	hostAddr := replyTo(t, joined)
	if !strings.Contains(hostAddr, ".host.") || hostAddr != replyTo(t, m) {
		t.Errorf("the mails to the host carry %s and %s, want the game's host reply address", hostAddr, replyTo(t, m))
	}
	h.send(ben, svc, "x", "start "+game+"\n")
	if refused := h.waitMail(ben, "Only the host of game "+game+" may send start"); strings.Contains(refused.Body, ann) {
		t.Errorf("the refusal names the host:\n%s", refused.Body)
	}
	h.send(ann, svc, "x", "strat "+game+"\n")
	h.waitMail(ann, "This is not a command turnmail knows", "start GAME-ID")
	stranger := h.send("nobody@example.org", svc, "hi", "hello there\n")
	if st, reason := h.settled(stranger); st != "ignored" {
		t.Errorf("a stranger's chatter: %s %s", st, reason)
	}
	h.send(cy, svc, "x", "join\n")
	h.waitMail(cy, "join needs the game's id")
	h.send(cy, svc, "x", "games\n")
	if list := h.waitMail(cy, game, "players: 2 of 2"); strings.Contains(list.Body, ann) || strings.Contains(list.Body, ben) {
		t.Errorf("the games list shows addresses:\n%s", list.Body)
	}
	h.send(cy, svc, "x", "join "+game+"\n")
	h.waitMail(cy, "is full")
	h.send(cy, svc, "x", "rules tally\nobserve "+game+"\n")
	h.waitMail(cy, "Tally (a test game)", "Some of your commands wait for your confirmation")
	h.confirm(cy, "yes", "    observe "+game)
	h.waitMail(cy, "You observe game "+game)
	h.waitMail(ann, cy+" now observes game "+game)

	h.send(ann, hostAddr, "go", "start "+game+"\n")
	h.waitMail(ann, "has started with ann, ben")
	a := h.waitMail(ann, "A new game of tally", "Your move")
	h.waitMail(ben, "A new game of tally", "It is ann's move")
	h.waitMail(cy, "You observe this game", "It is ann's move")
	ra := replyTo(t, a)

	h.send(ann, ra, "Re", "add 9\n")
	b := h.waitMail(ben, "ann sent: add 9", "Your move")
	rb := replyTo(t, b)
	h.waitMail(cy, "ann sent: add 9")
	h.send(ben, rb, "Re", "status\nlegal\nhistory 5\n")
	// One answer to one mail: the state with the legal commands and the history.
	h.waitMail(ben, "Turn 2", "Your move", "You may send now", "add <1-9>", "pass", "The last event of game", "1. ann: add 9")
	h.send(ben, rb, "Re", "pass\n")
	h.waitMail(ann, "ben sent: pass", "Your move")
	h.send(ann, ra, "Re", "add 1\n")
	h.waitMail(ann, "is over", "Winner: ann")
	h.waitMail(ben, "is over", "Winner: ann")
	h.waitMail(cy, "is over", "Winner: ann")
	g, _, err := h.d.Store.Game(context.Background(), game)
	if err != nil || g.Status != store.GameFinished {
		t.Fatalf("game %s: status %q, %v", game, g.Status, err)
	}
	// The observer never got a reply address for the game.
	h.quietOutbox()
	for _, m := range h.unexpected(cy) {
		if strings.Contains(m.Body, "your moves go to") {
			t.Errorf("the observer got a player's mail:\n%s", m.Body)
		}
	}
}
