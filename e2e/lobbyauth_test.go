package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// The attacks of issue 10 ("Nobody acts or gets mail in someone else's name"),
// each played over the embedded servers by a stranger who can send mail with any
// From header but reads only her own mailbox.

// forge sends body to the address to with the header From: claimed, from the
// envelope sender (the attacker's own server), and returns its Message-ID.
func (h *harness) forge(envelope, claimed, to, body string) string {
	h.t.Helper()
	id := fmt.Sprintf("forged.%d@evil.example", time.Now().UnixNano())
	h.sendRaw(envelope, to, h.rawMail(id, claimed, to, "x", body))
	return id
}

// drain returns the mails to addr not read yet (after the outbox is quiet) and
// forgets them.
func (h *harness) drain(addr string) []*parse.Message {
	h.t.Helper()
	h.quietOutbox()
	got := h.unexpected(addr)
	h.unread[addr] = nil
	return got
}

// openHosted opens a game by mail from host with the given new line and returns
// its id and its host reply address (the Reply-To of the answer).
func openHosted(t *testing.T, h *harness, host, line string) (id, hostAddr string) {
	t.Helper()
	h.send(host, h.addr("turnmail"), "a game", line+"\n")
	m := h.waitMail(host, "is open", "You are its host")
	g := openedRe.FindStringSubmatch(m.Body)
	if g == nil {
		t.Fatalf("no game id in:\n%s", m.Body)
	}
	hostAddr = replyTo(t, m)
	if !strings.Contains(hostAddr, ".host.") || !strings.Contains(m.Body, hostAddr) {
		t.Fatalf("the answer to new does not carry the host reply address (Reply-To %s):\n%s", hostAddr, m.Body)
	}
	return g[1], hostAddr
}

// gameRow reads a game, its players and its number of events.
func gameRow(t *testing.T, h *harness, id string) (store.Game, []store.Player, int) {
	t.Helper()
	g, players, err := h.d.Store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g, players, h.events(id)
}

// TestLobbyAuth_forgedHostCommands: every host command sent to the service address
// with a forged From: <host> does nothing. The real host gets one confirmation
// request saying exactly what was asked (and nothing else); the attacker, the
// players and the address named in the command get nothing. The games list gave
// the attacker no host address to forge in the first place. When the host declines,
// nothing happens; when the host confirms, the command is done.
func TestLobbyAuth_forgedHostCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	host, ann, ben, mallory, svc := h.addr("host"), h.addr("ann"), h.addr("ben"), h.addr("mallory"), h.addr("turnmail")
	running := turnGame(t, h, host, service.Settings{})
	ra := replyTo(t, h.waitMail(ann, "Your move"))
	h.waitMail(ben, "It is ann's move")
	h.send(ann, ra, "Re", "add 3\n")
	h.waitMail(ben, "ann sent: add 3", "Your move")
	open := openGame(t, h, host, "new tally turns=true players=3")
	victim := h.addr("victim")

	h.send(mallory, svc, "x", "games\n")
	list := h.waitMail(mallory, open)
	if strings.Contains(list.Body, host) || strings.Contains(list.Body, ".host.") {
		t.Errorf("the games list shows the host's address:\n%s", list.Body)
	}
	for _, who := range []string{host, ann, ben, mallory, victim} {
		h.drain(who)
	}

	tests := []struct{ name, game, line string }{
		{"replace hands mallory a seat", running, "replace " + running + " ann " + mallory},
		{"undo force", running, "undo " + running + " force"},
		{"pause", running, "pause " + running},
		{"set", running, "set " + running + " deadline=1h"},
		{"start", open, "start " + open},
		{"invite", open, "invite " + open + " " + victim},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g0, p0, e0 := gameRow(t, h, tt.game)
			id := h.forge(mallory, host, svc, tt.line+"\n")
			h.settled(id)
			h.quietOutbox()
			g1, p1, e1 := gameRow(t, h, tt.game)
			if e1 != e0 || g1.Status != g0.Status || string(g1.Settings) != string(g0.Settings) || fmt.Sprint(p1) != fmt.Sprint(p0) {
				t.Errorf("the forged %q changed the game: status %s→%s, events %d→%d, seats %v→%v", tt.line, g0.Status, g1.Status, e0, e1, p0, p1)
			}
			for _, who := range []string{mallory, ann, ben, victim} {
				if got := h.drain(who); len(got) != 0 {
					t.Errorf("%s got %d mails, first %q:\n%s", who, len(got), got[0].Subject, got[0].Body)
				}
			}
			got := h.drain(host)
			if len(got) != 1 || !strings.Contains(got[0].Body, "Someone asked turnmail, from your address") ||
				!strings.Contains(got[0].Body, "    "+tt.line) || !strings.Contains(replyTo(t, got[0]), ".confirm.") {
				t.Fatalf("the host got %d mails, want one confirmation request for %q", len(got), tt.line)
			}
			if strings.Contains(got[0].Subject, mallory) {
				t.Errorf("the request's Subject has the attacker's text: %q", got[0].Subject)
			}
			// The host declines (requests waiting for one address are capped).
			h.unread[host] = got
			h.confirm(host, "no")
			h.quietOutbox()
			if _, _, e := gameRow(t, h, tt.game); e != e0 {
				t.Errorf("the declined %q changed the game", tt.line)
			}
		})
	}

	// The real host declines a request: still nothing; confirms another: done.
	h.forge(mallory, host, svc, "pause "+running+"\n")
	h.confirm(host, "no", "    pause "+running)
	h.quietOutbox()
	if g, _, _ := gameRow(t, h, running); g.Status != store.GameRunning {
		t.Fatalf("a declined pause paused the game: %s", g.Status)
	}
	h.send(host, svc, "x", "pause "+running+"\n")
	h.confirm(host, "yes", "    pause "+running)
	h.waitMail(host, "Done: pause for game "+running)
	if g, _, _ := gameRow(t, h, running); g.Status != store.GamePaused {
		t.Fatalf("the confirmed pause: status %s", g.Status)
	}
	if got := h.drain(mallory); len(got) != 0 {
		t.Errorf("mallory got %q", got[0].Subject)
	}
}

// TestLobbyAuth_inviteSpamRelay: a host cannot use invitations to mail strangers:
// each address gets one confirmation request per game, whose Subject is ours (the
// host's address text appears only in the body), and nothing more — however often
// it is invited — until it answers; an address that declines is never invited to
// that game again, and one that accepts takes the seat.
func TestLobbyAuth_inviteSpamRelay(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	spammer := h.addr("win-a-prize.visit-evil.test.claim")
	const n = 19
	game, hostAddr := openHosted(t, h, spammer, "new tally turns=true players=5")
	// At the service address an invitation waits for the host's confirmation.
	h.send(spammer, h.addr("turnmail"), "x", "invite "+game+" "+h.addr("v0")+"\n")
	h.confirm(spammer, "yes", "    invite "+game+" "+h.addr("v0"))
	h.waitMail(spammer, "The invitation to game "+game+" went to")

	var invites strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&invites, "invite %s %s\n", game, h.addr(fmt.Sprintf("v%d", i)))
	}
	for range 3 { // the same invitations, three times
		h.settled(h.send(spammer, hostAddr, "x", invites.String()))
	}
	for i := 0; i <= n; i++ {
		v := h.addr(fmt.Sprintf("v%d", i))
		got := h.drain(v)
		if len(got) != 1 {
			t.Fatalf("%s got %d mails, want one invitation", v, len(got))
		}
		if strings.Contains(got[0].Subject, "win-a-prize") || strings.Contains(got[0].Subject, "evil") {
			t.Errorf("the invitation's Subject has the inviter's text: %q", got[0].Subject)
		}
		if !strings.Contains(got[0].Body, spammer+" invites you") || !strings.Contains(replyTo(t, got[0]), ".confirm.") {
			t.Errorf("the invitation does not name the inviter in its body or lacks a one-time address:\n%s", got[0].Body)
		}
		h.unread[v] = got // for confirm below
	}
	last := h.drain(spammer)
	if len(last) == 0 || !strings.Contains(last[len(last)-1].Body, "was asked about game "+game+" before and did not accept; nothing was sent") {
		t.Errorf("the repeated invitations were not refused")
	}

	// v1 declines: never invited again. v2 accepts: seated.
	h.confirm(h.addr("v1"), "no")
	h.confirm(h.addr("v2"), "yes")
	h.waitMail(h.addr("v2"), "You play in game "+game)
	h.settled(h.send(spammer, hostAddr, "x", "invite "+game+" "+h.addr("v1")+"\n"))
	if got := h.drain(h.addr("v1")); len(got) != 0 {
		t.Errorf("v1 declined but got %q", got[0].Subject)
	}
}

// TestLobbyAuth_forgedSubscriptions: observe and join with a forged From do not
// subscribe or seat the victim: the victim gets one confirmation request (about
// the game, once), the players hear of no observer, and a move sends the victim
// nothing. A victim who declines is not asked about the game again.
func TestLobbyAuth_forgedSubscriptions(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	host, ann, ben, mallory, svc := h.addr("host"), h.addr("ann"), h.addr("ben"), h.addr("mallory"), h.addr("turnmail")
	victim, victim2 := h.addr("victim"), h.addr("victim2")
	running := turnGame(t, h, host, service.Settings{})
	ra := replyTo(t, h.waitMail(ann, "Your move"))
	h.waitMail(ben, "It is ann's move")
	open := openGame(t, h, host, "new tally turns=true players=3")

	for range 3 {
		h.settled(h.forge(mallory, victim, svc, "observe "+running+"\n"))
		h.settled(h.forge(mallory, victim2, svc, "join "+open+"\n"))
	}
	h.send(ann, ra, "Re", "add 3\n")
	h.waitMail(ben, "ann sent: add 3")
	for _, v := range []string{victim, victim2} {
		got := h.drain(v)
		if len(got) != 1 || !strings.Contains(got[0].Body, "Someone asked turnmail, from your address ("+v+")") {
			t.Fatalf("%s got %d mails, want one confirmation request", v, len(got))
		}
		h.unread[v] = got
	}
	if _, players, _ := gameRow(t, h, running); len(players) != 2 {
		t.Errorf("the forged observe added a row: %v", players)
	}
	if got := seatNames(t, h, open); len(got) != 1 {
		t.Errorf("the forged join seated someone: %v", got)
	}
	for _, who := range []string{ann, ben, host, mallory} {
		for _, m := range h.drain(who) {
			if strings.Contains(m.Body, "observes") || strings.Contains(m.Body, "joined") || who == mallory {
				t.Errorf("%s got %q:\n%s", who, m.Subject, m.Body)
			}
		}
	}

	// The victim declines: a later forged observe mails nobody.
	h.confirm(victim, "no", "    observe "+running)
	h.quietOutbox()
	h.settled(h.forge(mallory, victim, svc, "observe "+running+"\n"))
	if got := h.drain(victim); len(got) != 0 {
		t.Errorf("the victim declined but got %q", got[0].Subject)
	}
	// The genuine owner of victim2 confirms: seated.
	h.confirm(victim2, "yes", "    join "+open)
	h.waitMail(victim2, "You play in game "+open)
}

// TestLobbyAuth_privateGames: games lists public open games only, with no address;
// a private game takes players by invitation only, and observers with the host's
// approval (asked at most once per address); players are told who observes.
func TestLobbyAuth_privateGames(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, bob, cy, dan, eve, svc := h.addr("ann"), h.addr("bob"), h.addr("cy"), h.addr("dan"), h.addr("eve"), h.addr("turnmail")
	private, hostAddr := openHosted(t, h, ann, "new tally turns=true players=3 private=true")
	public := openGame(t, h, bob, "new tally turns=true")

	h.send(cy, svc, "x", "games\n")
	list := h.waitMail(cy, "Open games you can join", public)
	listed, _, _ := strings.Cut(list.Body, "\n-- \n") // the signature names the service address
	for _, hidden := range []string{private, ann, bob, "@"} {
		if strings.Contains(listed, hidden) {
			t.Errorf("the games list shows %q:\n%s", hidden, list.Body)
		}
	}
	h.send(cy, svc, "x", "join "+private+"\n")
	h.waitMail(cy, "Game "+private+" takes players by invitation only.")

	// The host invites cy at the host reply address (the Reply-To of the answer).
	h.send(ann, hostAddr, "x", "invite "+private+" "+cy+"\n")
	h.waitMail(ann, "The invitation to game "+private+" went to "+cy)
	h.confirm(cy, "yes", ann+" invites you to play tally in game "+private)
	h.waitMail(cy, "You play in game "+private)
	h.send(ann, hostAddr, "go", "start "+private+"\n")
	h.waitMail(ann, "has started with ann, cy")

	// dan asks to observe: he confirms, the host approves, the players are told.
	h.send(dan, svc, "x", "observe "+private+"\n")
	h.confirm(dan, "yes", "    observe "+private)
	h.waitMail(dan, "Game "+private+" is private: its host was asked to approve you")
	h.confirm(ann, "yes", dan+" asks to observe your private game "+private)
	h.waitMail(dan, "You observe this game")
	h.waitMail(ann, dan+" now observes game "+private)
	h.waitMail(cy, dan+" now observes game "+private)

	// eve is denied, and the host is not asked about her again.
	h.send(eve, svc, "x", "observe "+private+"\n")
	h.confirm(eve, "yes", "    observe "+private)
	h.confirm(ann, "no", eve+" asks to observe your private game "+private)
	h.quietOutbox()
	h.send(eve, svc, "x", "observe "+private+"\n")
	h.quietOutbox()
	for _, m := range h.drain(ann) {
		if strings.Contains(m.Body, eve) {
			t.Errorf("the host was asked about eve again:\n%s", m.Body)
		}
	}
	_, players, _ := gameRow(t, h, private)
	for _, p := range players {
		if p.Email == eve {
			t.Errorf("eve observes the private game")
		}
	}
}

// TestLobbyAuth_listConsent: new … list= mails the list one confirmation request;
// the list gets the game's mail only once someone on it replies to that request.
func TestLobbyAuth_listConsent(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, club, member, svc := h.addr("ann"), h.addr("ben"), h.addr("club"), h.addr("member"), h.addr("turnmail")
	game, hostAddr := openHosted(t, h, ann, "new tally turns=true players=2 list="+club)
	req := h.waitMail(club, confirmMark, "as its mailing list", "Anyone who received this mail may confirm")
	h.send(ben, svc, "x", "join "+game+"\n")
	h.confirm(ben, "yes")
	h.waitMail(ann, "joined your game "+game)
	h.send(ann, hostAddr, "go", "start "+game+"\n")
	ra := replyTo(t, h.waitMail(ann, "Your move"))
	h.send(ann, ra, "Re", "add 2\n")
	rb := replyTo(t, h.waitMail(ben, "ann sent: add 2", "Your move"))
	if got := h.drain(club); len(got) != 0 {
		t.Fatalf("the list got %q before anyone on it confirmed", got[0].Subject)
	}
	// A member of the list replies (from their own address) to the request.
	h.settled(h.send(member, replyTo(t, req), "Re: "+req.Subject, "yes\n"))
	h.send(ben, rb, "Re", "add 1\n")
	h.waitMail(club, "ben sent: add 1")
}
