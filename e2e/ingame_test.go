package e2e

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
)

func score(t *testing.T, h *harness, game, player string) int {
	t.Helper()
	l, err := h.d.Service.Load(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	return l.State.(testgame.State).Scores[player]
}

// TestUndo: an undo waits for the other player's accept; the host forces one; a
// non-host cannot pause.
func TestUndo(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, host := h.addr("ann"), h.addr("ben"), h.addr("host")
	game := turnGame(t, h, host, service.Settings{})
	ra := replyTo(t, h.waitMail(ann, "Your move"))
	rb := replyTo(t, h.waitMail(ben, "It is ann's move"))

	h.send(ann, ra, "Re", "add 5\n")
	h.waitMail(ben, "ann sent: add 5")
	h.send(ann, ra, "Re", "undo\n")
	h.waitMail(ann, "You asked to take back the move “ann: add 5”", "once accepted by: ben")
	h.waitMail(ben, "ann asks to take back the last move (ann: add 5)", "    accept")
	if s := score(t, h, game, "ann"); s != 5 {
		t.Fatalf("before consent ann has %d, want 5", s)
	}
	h.send(ben, rb, "Re", "accept\n")
	h.waitMail(ann, "taken back, as ben agreed: ann: add 5", "Your move")
	if s := score(t, h, game, "ann"); s != 0 {
		t.Fatalf("after consent ann has %d, want 0", s)
	}

	h.send(ann, ra, "Re", "add 7\n")
	h.waitMail(ben, "ann sent: add 7")
	h.send(ben, rb, "Re", "pause\n")
	h.waitMail(ben, "Only the host of game "+game+" ("+host+") may pause the game")
	h.send(ben, rb, "Re", "undo force\n")
	h.waitMail(ben, "Only the host of game "+game+" ("+host+") may force an undo")
	h.send(host, h.addr("turnmail"), "x", "undo "+game+" force\n")
	h.confirm(host, "yes", "    undo "+game+" force") // at the service address: confirmed by reply
	h.waitMail(host, "Done: undo")
	h.waitMail(ann, "taken back by the host: ann: add 7")
	if s := score(t, h, game, "ann"); s != 0 {
		t.Fatalf("after a forced undo ann has %d, want 0", s)
	}
	if n := h.events(game); n != 6 {
		t.Fatalf("%d events, want 6 (moves, request, accept, undos stay in the log)", n)
	}
}

var codeRe = regexp.MustCompile(`resign confirm ([a-z0-9]+)`)

// TestResign: resigning needs the code from the confirmation mail; the other player
// then wins.
func TestResign(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben := h.addr("ann"), h.addr("ben")
	game := turnGame(t, h, h.addr("host"), service.Settings{})
	ra := replyTo(t, h.waitMail(ann, "Your move"))
	h.send(ann, ra, "Re", "resign confirm nonsense\n")
	h.waitMail(ann, "To resign, send the exact line from the confirmation mail")
	h.send(ann, ra, "Re", "resign\n")
	m := h.waitMail(ann, "Resigning cannot be taken back")
	code := codeRe.FindStringSubmatch(m.Body)
	if code == nil {
		t.Fatalf("no code:\n%s", m.Body)
	}
	if n := h.events(game); n != 0 {
		t.Fatalf("asking to resign added %d events", n)
	}
	h.send(ann, ra, "Re", code[0]+"\n")
	h.waitMail(ben, "Game over: ben won", "ann resigned", "Winner: ben") // the account tells why
	h.waitMail(ben, "Hello ben", "ann resigned")
}

// TestListGame: public state goes once to the list with List-Id and Precedence: list;
// a non-player's post to the list and the list's copy of our own mail are ignored.
func TestListGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, ben, club, svc := h.addr("ann"), h.addr("ben"), h.addr("club"), h.addr("turnmail")
	game, err := h.d.Service.CreateGame(context.Background(), service.NewGame{
		Kind: "tally", Options: map[string]json.RawMessage{"turns": json.RawMessage("true")},
		Players: []engine.Player{{Name: "ann", Email: ann}, {Name: "ben", Email: ben}},
		Host:    ann, Settings: service.Settings{List: club},
	})
	if err != nil {
		t.Fatal(err)
	}
	ra := replyTo(t, h.waitMail(ann, "Your move"))
	h.waitMail(club, "You observe this game: this is the public view")
	h.send(ann, ra, "Re", "add 4\n")
	lm := h.waitMail(club, "ann sent: add 4")
	if lm.ListID != game+".turnmail.localhost" || lm.Precedence != "list" {
		t.Errorf("list mail: List-Id %q, Precedence %q", lm.ListID, lm.Precedence)
	}
	h.waitMail(ben, "ann sent: add 4", "Your move")
	before := h.events(game)

	// The list sends our mail back to us, and relays a stranger's "move".
	outs, err := h.d.Store.Outbox(context.Background(), game, "")
	if err != nil {
		t.Fatal(err)
	}
	var raw []byte
	for _, o := range outs {
		if o.To[0] == club {
			raw = o.Raw
		}
	}
	own := append([]byte("Delivered-To: "+svc+"\r\nList-Id: <club.turnmail.localhost>\r\n"), raw...)
	h.sendRaw(club, svc, own)
	id := "list-relay.1@club.example"
	h.sendRaw("stranger@example.org", svc, h.rawMail(id+"x", "stranger@example.org", club, "Re: game", "add 9\n", "List-Id: <club.turnmail.localhost>", "Precedence: list"))
	if st, reason := h.settled(id + "x"); st != "ignored" || !strings.Contains(reason, "mailing-list post") {
		t.Errorf("a stranger's post via the list: %s %s", st, reason)
	}
	h.quietOutbox()
	if n := h.events(game); n != before {
		t.Fatalf("list traffic changed the game: %d events, want %d", n, before)
	}
	for _, who := range []string{"stranger@example.org", club} {
		if got := h.unexpected(who); len(got) != 0 {
			t.Errorf("%s got %d unexpected mails, first %q", who, len(got), got[0].Subject)
		}
	}
}

// TestBounce: a delivery report marks the address unreachable and tells the host
// only when it returns a mail we sent to that address — naming its Message-ID, or
// sent to the VERP return path the mail went out with — and only in that mail's
// game; forged reports (no proof, or another player's mail as proof) change nothing
// and mail nobody.
func TestBounce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	host, ann, ben, svc := h.addr("host"), h.addr("ann"), h.addr("ben"), h.addr("turnmail")
	game := turnGame(t, h, host, service.Settings{})
	other := turnGame(t, h, host, service.Settings{})
	toAnn := h.waitMail(ann, "Your move", game)
	toBen := h.waitMail(ben, game)
	dsn := func(id, returned string) []byte { return h.dsn(svc, id, ben, returned) }
	unreachable := func(g string) bool {
		_, players, err := h.d.Store.Game(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		return players[1].Unreachable != ""
	}

	forged := []struct {
		id, to string
		raw    []byte
	}{
		{"forged0@mx", svc, dsn("forged0@mx", "")},
		{"forged1@mx", svc, dsn("forged1@mx", toAnn.MessageID)},
		{"forged2@mx", svc, dsn("forged2@mx", other+".0011223344556677@"+h.domain)},
		// To the return path of ann's own mail, naming ben.
		{"forged3@mx", toAnn.ReturnPath, h.dsn(toAnn.ReturnPath, "forged3@mx", ben, "")},
	}
	for _, f := range forged {
		h.sendRaw("", f.to, f.raw)
		if st, reason := h.settled(f.id); st != "ignored" || !strings.Contains(reason, "not believed") {
			t.Fatalf("forged bounce %s: %s %s", f.id, st, reason)
		}
	}
	h.quietOutbox()
	for _, m := range h.unexpected(host) {
		if strings.Contains(m.Subject, "bounced") {
			t.Fatalf("a forged bounce reached the host: %q", m.Subject)
		}
	}
	if unreachable(game) || unreachable(other) {
		t.Fatal("a forged bounce marked ben unreachable")
	}

	h.sendRaw("", svc, dsn("dsn1@mx", toBen.MessageID))
	if st, reason := h.settled("dsn1@mx"); st != "ignored" || !strings.Contains(reason, "marked unreachable") {
		t.Fatalf("bounce: %s %s", st, reason)
	}
	h.waitMail(host, "Mail to "+ben+" (ben in game "+game+") bounced", "550 5.1.1 user unknown")
	if !unreachable(game) {
		t.Fatal("ben is not marked unreachable")
	}
	if unreachable(other) {
		t.Fatalf("ben is marked unreachable in %s, whose mail did not bounce", other)
	}

	// A report to the return path of ben's mail in the other game, without its
	// Message-ID, proves itself too.
	toBenOther := h.waitMail(ben, other)
	if !strings.Contains(toBenOther.ReturnPath, "+bounce-") {
		t.Fatalf("ben's mail came with return path %q, want a VERP address", toBenOther.ReturnPath)
	}
	h.sendRaw("", toBenOther.ReturnPath, h.dsn(toBenOther.ReturnPath, "dsn2@mx", ben, ""))
	if st, reason := h.settled("dsn2@mx"); st != "ignored" || !strings.Contains(reason, "marked unreachable: "+ben+" in "+other) {
		t.Fatalf("bounce to the return path: %s %s", st, reason)
	}
	h.waitMail(host, "Mail to "+ben+" (ben in game "+other+") bounced")
}

// dsn is a delivery report sent to the address to, with Message-ID id, saying that
// mail to rcpt failed; returned, when not "", is the Message-ID of the mail it
// returns (in a text/rfc822-headers part).
func (h *harness) dsn(to, id, rcpt, returned string) []byte {
	m := "From: MAILER-DAEMON@turnmail.localhost\r\nTo: " + to + "\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <" + id + ">\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nYour mail could not be delivered.\r\n" +
		"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx\r\n\r\nFinal-Recipient: rfc822; " + rcpt + "\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 user unknown\r\n"
	if returned != "" {
		m += "--b\r\nContent-Type: text/rfc822-headers\r\n\r\nMessage-ID: <" + returned + ">\r\n\r\n"
	}
	return []byte(m + "--b--\r\n")
}
