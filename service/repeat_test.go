package service_test

import (
	"html"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine/smallworld"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/templates/doc"
)

// TestRepeat_sameMailAgain: a copy of a player's last mail (a new Message-ID, the
// same commands) with nothing changed in the game since is answered "you sent this
// already" and changes nothing, whether the first was applied or refused; a mail
// with other commands, or the same after another player moved, is read as usual;
// asking for one's state again is never a repeat, nor a copy whose first move
// applies again.
func TestRepeat_sameMailAgain(t *testing.T) {
	f := newGameFixture(t, "smallworld", service.Settings{}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	alice, bob := "alice@"+domain, "bob@"+domain
	events := func() int { return len(f.load(f.game).Events) }
	send := func(from, who, body string) service.Result {
		t.Helper()
		return f.receive(f.mail(from, f.reply[who], body))
	}
	f.play("alice", alice, "pick 1")
	n := events()
	if res := send(alice, "alice", "pick 1\n"); res.Status != service.StatusRejected || events() != n {
		t.Fatalf("the copy of an applied mail: %+v, %d events (want %d)", res, events(), n)
	}
	if body := f.lastMailTo(alice); !strings.Contains(oneLine(body), "You sent this mail already") || !strings.Contains(body, "The first one was applied.") || strings.Contains(body, "Regions") {
		t.Errorf("the answer to the copy:\n%s", body)
	}
	if res := send(alice, "alice", "conquer 999\n"); res.Status != service.StatusRejected {
		t.Fatalf("conquer 999: %+v", res)
	}
	if res := send(alice, "alice", "Conquer  999 # again\n"); res.Status != service.StatusRejected || !strings.Contains(f.lastMailTo(alice), "The first one was answered then.") {
		t.Errorf("the copy of a refused mail: %+v\n%s", res, f.lastMailTo(alice))
	}
	for range 2 {
		if res := send(alice, "alice", "status\n"); res.Status != service.StatusApplied || strings.Contains(f.lastMailTo(alice), "already") {
			t.Errorf("status asked again: %+v", res)
		}
	}
	f.play("alice", alice, f.legalWith("alice", "conquer"))
	// A copy whose move applies again now is no repeat: the same redeployment twice.
	l := f.load(f.game)
	var redeploy string
	for _, r := range l.State.View("alice").(*smallworld.View).Regions {
		if r.Owner != nil && *r.Owner == "alice" {
			redeploy = "redeploy " + strconv.Itoa(r.ID) + "=" + strconv.Itoa(r.Tokens+l.State.View("alice").(*smallworld.View).Players[0].Hand)
		}
	}
	f.play("alice", alice, redeploy)
	f.play("alice", alice, redeploy)
	f.play("alice", alice, "done")
	f.play("bob", bob, "pick 1")
	if res := send(bob, "bob", "done\n"); res.Status != service.StatusApplied {
		t.Fatalf("bob's done: %+v", res)
	}
	f.play("alice", alice, "done") // alice's turn 2, nothing else done by her since her last done
	if res := send(bob, "bob", "done\n"); res.Status != service.StatusApplied {
		t.Errorf("bob's done after alice moved is not a copy: %+v", res)
	}
}

// TestForgiving_typos: a mistyped command word in a game reply gets the nearest
// legal command ("conquisat 22" → "conquista 22") instead of the whole list; a
// mistyped game id in the lobby gets the nearest game the sender may know of, and a
// private game is never named to a stranger; a greeting before the first lobby
// command ("Ciao! unisciti …") is skipped; a name keeps the case it was written in.
func TestForgiving_typos(t *testing.T) {
	f := newGameFixture(t, "smallworld", service.Settings{Lang: "it"}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	alice := "alice@" + domain
	f.play("alice", alice, "prendi 1")
	conquer := f.legalWith("alice", "conquer")
	region := strings.TrimPrefix(conquer, "conquer ")
	res := f.receive(f.mail(alice, f.reply["alice"], "conquisat "+region+"\n"))
	body := oneLine(f.lastMailTo(alice))
	if res.Status != service.StatusRejected || !strings.Contains(body, `"conquisat" non è un comando: intendevi conquista `+region+"?") || strings.Contains(res.Reason, "possible:") {
		t.Errorf("conquisat %s: %+v\n%s", region, res, body)
	}
	// In the HTML part the suggestion is a tap: a reply to alice's address that sends it.
	suggested := func(addr, replyTo, cmd string) {
		t.Helper()
		parts, err := service.MailParts(f.lastRawTo(addr))
		if err != nil {
			t.Fatal(err)
		}
		link := `<a href="` + html.EscapeString(doc.Mailto(replyTo, "", "")) + `?subject=`
		at := strings.Index(parts["text/html"], link)
		if at < 0 || !strings.Contains(parts["text/html"][at:], "body="+strings.ReplaceAll(cmd, " ", "%20")+`">`+cmd+`</a>?`) {
			t.Errorf("no link that sends %q to %s in the HTML part:\n%s", cmd, replyTo, parts["text/html"])
		}
	}
	suggested(alice, f.reply["alice"], "conquista "+region)
	for i, long := range []string{strings.Repeat("x", 5000), "zzzzzzzzzzzzzzzzzz 1"} {
		if res := f.receive(f.mail(alice, f.reply["alice"], long+"\n")); res.Status != service.StatusRejected || strings.Contains(res.Reason, "did you mean") {
			t.Errorf("hostile line %d: %+v", i, res)
		}
	}

	open := f.lobbyGame("host@"+domain, "")
	private := f.lobbyGame("host@"+domain, "private=true")
	stranger := "dave@" + domain
	typo := open[:len(open)-1] + "q" // one letter off
	// The suggestion is the answer: no list of every command after it.
	if res := f.receive(f.mail(stranger, svcAddr, "join "+typo+"\n")); !strings.Contains(f.lastBody(stranger), "did you mean join "+open+"?") || strings.Contains(f.lastBody(stranger), "this list") {
		t.Errorf("join %s: %+v\n%s", typo, res, f.lastBody(stranger))
	}
	suggested(stranger, svcAddr, "join "+open)
	typo = private[:len(private)-1] + "q"
	f.receive(f.mail(stranger, svcAddr, "join "+typo+"\n"))
	if strings.Contains(f.lastBody(stranger), private) {
		t.Errorf("a stranger is told of the private game %s:\n%s", private, f.lastBody(stranger))
	}
	if res := f.receive(f.mail(stranger, svcAddr, "Ciao! unisciti "+open+" Davide\n")); res.Status == service.StatusIgnored {
		t.Fatalf("a greeting before unisciti: %+v", res)
	}
	f.confirm(stranger, "sì")
	if seats := f.seats(open); !slices.Contains(seats, "Davide") {
		t.Errorf("seats of %s: %v, want Davide as written", open, seats)
	}
}

// TestForgiving_typoOnALaterLine: a mistyped command word on a line after the
// commands (not read as a command) is quoted with the command it may have meant,
// for the state after the lines applied, as a link in the HTML part; a line of
// prose gets no suggestion.
func TestForgiving_typoOnALaterLine(t *testing.T) {
	f := newGameFixture(t, "smallworld", service.Settings{Lang: "it"}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	alice := "alice@" + domain
	f.play("alice", alice, "prendi 1")
	conquer := f.legalWith("alice", "conquer")
	region := strings.TrimPrefix(conquer, "conquer ")
	res := f.receive(f.mail(alice, f.reply["alice"], "conquista "+region+"\nconquisat 99\nGrazie a tutti, bella partita\n"))
	if res.Status != service.StatusApplied || res.Applied != 1 {
		t.Fatalf("conquista %s: %+v", region, res)
	}
	body := oneLine(f.lastMailTo(alice))
	for _, want := range []string{"riga 2: conquisat 99 — intendevi conquista 99?", "riga 3: Grazie a tutti, bella partita"} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in:\n%s", want, body)
		}
	}
	if strings.Contains(body, "bella partita — intendevi") {
		t.Errorf("a suggestion for prose:\n%s", body)
	}
	parts, err := service.MailParts(f.lastRawTo(alice))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(parts["text/html"], `body=conquista%2099">conquista 99</a>?`) {
		t.Errorf("the suggestion is no link in the HTML part:\n%s", parts["text/html"])
	}
}
