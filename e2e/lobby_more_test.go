package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// openGame opens a game by mail from host with the given `new` line and returns its id.
func openGame(t *testing.T, h *harness, host, line string) string {
	t.Helper()
	id, _ := openHosted(t, h, host, line)
	return id
}

// seatNames returns the names of a game's players (not observers), in seat order.
func seatNames(t *testing.T, h *harness, game string) []string {
	t.Helper()
	_, players, err := h.d.Store.Game(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range players {
		if p.Role != store.RoleObserver {
			out = append(out, p.Name)
		}
	}
	return out
}

// TestLobbyLeave: a player gives their seat back before the start (the host is told,
// games shows it, the seat can be taken again); a non-player, the host and anyone
// after the start are refused with the reason.
func TestLobbyLeave(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, cy, dan, svc := h.addr("ann"), h.addr("ben"), h.addr("cy"), h.addr("dan"), h.addr("turnmail")
	game := openGame(t, h, ann, "new tally turns=true players=2")

	h.send(ben, svc, "x", "join "+game+"\n")
	h.confirm(ben, "yes", "    join "+game)
	h.waitMail(ben, "You play in game "+game+" (tally) as ben")
	h.waitMail(ann, "ben ("+ben+") joined your game "+game)
	h.send(cy, svc, "x", "join "+game+"\n")
	h.waitMail(cy, "Game "+game+" is full (2 players)")

	h.send(dan, svc, "x", "leave "+game+"\n")
	h.waitMail(dan, "You do not play in game "+game+".")
	h.send(ann, svc, "x", "leave "+game+"\n")
	h.waitMail(ann, "The host cannot leave the game they opened.")

	h.send(ben, svc, "x", "leave "+game+"\n")
	h.confirm(ben, "yes", "    leave "+game)
	h.waitMail(ben, "You left game "+game+".")
	h.waitMail(ann, "ben ("+ben+") left your game "+game+".")
	h.send(dan, svc, "x", "games\n")
	h.waitMail(dan, game, "players: 1 of 2")
	if got := seatNames(t, h, game); strings.Join(got, ",") != "ann" {
		t.Fatalf("players after ben left: %v", got)
	}
	h.send(ben, svc, "x", "leave "+game+"\n")
	h.waitMail(ben, "You do not play in game "+game+".")

	// The freed seat can be taken.
	h.send(cy, svc, "x", "join "+game+"\n")
	h.confirm(cy, "yes", "    join "+game)
	h.waitMail(cy, "You play in game "+game+" (tally) as cy")
	h.send(dan, svc, "x", "games\n")
	h.waitMail(dan, game, "players: 2 of 2")
	h.send(ann, svc, "go", "start "+game+"\n")
	h.confirm(ann, "yes", "    start "+game)
	h.waitMail(ann, "has started with ann, cy")
	h.waitMail(cy, "A new game of tally", "It is ann's move")
	h.send(cy, svc, "x", "leave "+game+"\n")
	h.waitMail(cy, "Game "+game+" has started; to stop playing, reply to a game mail with resign.")
	if got := seatNames(t, h, game); strings.Join(got, ",") != "ann,cy" {
		t.Fatalf("players after the refused leave: %v", got)
	}

	h.quietOutbox()
	for _, m := range h.unexpected(ben) {
		t.Errorf("ben, who left, got a mail:\n%s", m.Body)
	}
}

// TestLobbyUnobserve: an observer who unobserves gets no more public mails; only an
// observer can unobserve.
func TestLobbyUnobserve(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, dan, svc := h.addr("ann"), h.addr("ben"), h.addr("dan"), h.addr("turnmail")
	game := turnGame(t, h, h.addr("host"), service.Settings{})
	ra := replyTo(t, h.waitMail(ann, "Your move"))
	rb := replyTo(t, h.waitMail(ben, "It is ann's move"))

	h.send(dan, svc, "x", "observe "+game+"\n")
	h.confirm(dan, "yes", "    observe "+game)
	h.waitMail(dan, "You observe game "+game)
	h.waitMail(dan, "You observe this game", "It is ann's move")
	h.waitMail(ann, dan+" now observes game "+game)
	h.waitMail(ben, dan+" now observes game "+game)
	h.send(ann, ra, "Re", "add 3\n")
	h.waitMail(dan, "ann sent: add 3", "It is ben's move")

	h.send(ann, svc, "x", "unobserve "+game+"\n")
	h.waitMail(ann, "You do not observe game "+game+".")
	h.send(dan, svc, "x", "unobserve "+game+"\n")
	h.confirm(dan, "yes", "    unobserve "+game)
	h.waitMail(dan, "You no longer observe game "+game+".")

	h.send(ben, rb, "Re", "add 4\n")
	h.waitMail(ann, "ben sent: add 4", "Your move")
	h.send(ann, ra, "Re", "add 5\n")
	h.waitMail(ben, "ann sent: add 5", "Your move")
	h.quietOutbox()
	for _, m := range h.unexpected(dan) {
		t.Errorf("dan got a mail after unobserving:\n%s", m.Body)
	}
	h.send(dan, svc, "x", "unobserve "+game+"\n")
	h.waitMail(dan, "You do not observe game "+game+".")
	if got := seatNames(t, h, game); strings.Join(got, ",") != "ann,ben" {
		t.Errorf("players: %v", got)
	}
}

// TestLobbyInvite: the host invites an address, which takes the seat by replying
// yes to the invitation (a confirmation request); anyone else's invitation, a bad
// address and an invitation after the start are refused.
func TestLobbyInvite(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, cy, dan, svc := h.addr("ann"), h.addr("ben"), h.addr("cy"), h.addr("dan"), h.addr("turnmail")
	game := openGame(t, h, ann, "new tally turns=true players=3")
	h.send(ben, svc, "x", "join "+game+"\n")
	h.confirm(ben, "yes")
	h.waitMail(ben, "You play in game "+game)
	hostAddr := replyTo(t, h.waitMail(ann, "ben ("+ben+") joined your game "+game))

	h.send(ben, svc, "x", "invite "+game+" "+dan+"\n")
	h.waitMail(ben, "Only the host of game "+game+" may send invite; the host sends host commands to the game's host address.")
	h.send(ann, hostAddr, "x", "invite "+game+" not-an-address\n")
	h.waitMail(ann, "not-an-address cannot be used as a mail address: it is not a mail address. Nobody was invited.")

	h.send(ann, hostAddr, "x", "invite "+game+" "+cy+"\n")
	h.waitMail(ann, "The invitation to game "+game+" went to "+cy+".")
	inv := h.confirm(cy, "yes", ann+" invites you to play tally in game "+game+" with ann, ben.")
	if strings.Contains(inv.Subject, ann) || !strings.Contains(replyTo(t, inv), ".confirm.") {
		t.Errorf("the invitation's Subject %q names the inviter, or its Reply-To %s is not a one-time address", inv.Subject, replyTo(t, inv))
	}
	h.waitMail(cy, "You play in game "+game+" (tally) as cy")
	h.waitMail(ann, "cy ("+cy+") joined your game "+game+". Players now: ann, ben, cy.")

	h.send(ann, hostAddr, "go", "start "+game+"\n")
	h.waitMail(ann, "has started with ann, ben, cy")
	h.waitMail(cy, "A new game of tally", "It is ann's move")
	h.send(ann, hostAddr, "x", "invite "+game+" "+dan+"\n")
	h.waitMail(ann, "Game "+game+" has started; invite people to observe it instead: observe "+game+".")

	h.quietOutbox()
	for _, m := range h.unexpected(dan) {
		t.Errorf("dan was never invited by the host but got:\n%s", m.Body)
	}
}
