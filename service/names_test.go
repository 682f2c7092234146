package service_test

import (
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine/games"
)

// TestLobby_reservedNames: a player name that reads as the service's (its display
// name, its address's local part), as host, or as another player's in the game —
// by case, look-alike digits or letters — is refused at once, in the writer's
// language; names derived from an address step around them.
func TestLobby_reservedNames(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, games.Registry())
	carol := "carol@" + domain
	id := f.lobbyGame(carol, "")
	tests := []struct {
		name, from, line, want string
	}{
		{"the service's name", "p1@" + domain, "join " + id + " turnmail", "The name turnmail is reserved for the service (or the host)"},
		{"the service's name, upper case with a digit one", "p2@" + domain, "join " + id + " TURNMAI1", "The name TURNMAI1 is reserved"},
		{"host with a zero", "p3@" + domain, "join " + id + " h0st", "The name h0st is reserved"},
		{"another player's with a digit one", "p4@" + domain, "join " + id + " caro1", "The name caro1 reads too much like carol, who plays in game " + id},
		{"another player's in capitals", "p5@" + domain, "join " + id + " CAROL", "The name CAROL is taken in game " + id},
		{"Cyrillic letters", "p6@" + domain, "join " + id + " сarol", "A player name is one word of letters, digits, - or _."},
		{"in Italian, taken", "zed@" + domain, "unisciti " + id + " carol", "Il nome carol è già preso nella partita " + id},
		{"in Italian", "it1@" + domain, "unisciti " + id + " turnmail", "Il nome turnmail è riservato al servizio (o all'organizzatore); scegline un altro: unisciti " + id + " NOME."},
		{"in Italian, a look-alike", "it2@" + domain, "unisciti " + id + " car0l", "Il nome car0l somiglia troppo a carol, che gioca nella partita " + id},
	}
	for _, tt := range tests { // each from its own address: answers to mails that change nothing are limited per address
		f.receive(f.mail(tt.from, svcAddr, tt.line+"\n"))
		if body := f.lastBody(tt.from); !strings.Contains(body, tt.want) {
			t.Errorf("%s: %q answered\n%s\nwant %q", tt.name, tt.line, body, tt.want)
		}
	}
	if seats := f.seats(id); len(seats) != 1 {
		t.Fatalf("seats %v after refused joins, want carol alone", seats)
	}

	// Names derived from addresses: turnmail@… and host@… get a number, a
	// look-alike of a player's name too.
	for _, addr := range []string{"turnmail@example.org", "host@example.org", "CAR0L@example.org"} {
		if res := f.confirmed(addr, "join "+id+"\n"); res.Status == "" {
			t.Fatalf("join from %s: %+v", addr, res)
		}
	}
	if got, want := strings.Join(f.seats(id), " "), "carol turnmail2 host2 car0l2"; got != want {
		t.Errorf("seats %q, want %q", got, want)
	}
}
