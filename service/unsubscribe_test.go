package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/emersion/go-message"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// TestListUnsubscribe: the state mails to an observer and to a game's mailing list
// carry List-Unsubscribe, a mailto of the lobby command "unobserve GAME-ID" to the
// service address; players' mail does not. The mail a client sends for it, as it
// is, ends the observer's mail.
func TestListUnsubscribe(t *testing.T) {
	f := newFixture(t, 100)
	ctx := context.Background()
	club, carol := "club@lists.example", "carol@"+domain
	g, err := f.svc.CreateGame(ctx, service.NewGame{Kind: "tally", Options: map[string]json.RawMessage{"turns": json.RawMessage("true")}, Players: []engine.Player{
		{Name: "alice", Email: "alice@" + domain}, {Name: "bob", Email: "bob@" + domain}},
		Settings: service.Settings{List: club}})
	if err != nil {
		t.Fatal(err)
	}
	if res := f.confirmed(carol, "observe "+g+"\n"); res.Status != service.StatusApplied {
		t.Fatalf("observe: %+v", res)
	}
	moved := len(f.rows(t))
	// The move ends alice's turn (observers and the list get a mail per turn).
	if res := f.receive(f.mail("alice@"+domain, f.svc.ReplyAddress(g, 0), "add 3\n")); res.Status != service.StatusApplied {
		t.Fatalf("move: %+v", res)
	}
	want := "<mailto:turnmail@" + domain + "?subject=unobserve%20" + g + "&body=unobserve%20" + g + ">"
	got := map[string]string{}
	for _, r := range f.rows(t)[moved:] {
		e, err := message.Read(bytes.NewReader(r.Raw))
		if err != nil {
			t.Fatal(err)
		}
		got[r.To[0]] = e.Header.Get("List-Unsubscribe")
	}
	for _, to := range []string{carol, club, "alice@" + domain} {
		if _, ok := got[to]; !ok {
			t.Fatalf("no state mail to %s after the move (mails to %v)", to, got)
		}
	}
	for to, h := range got {
		if public := to == carol || to == club; public && h != want {
			t.Errorf("List-Unsubscribe to %s = %q, want %q", to, h, want)
		} else if !public && h != "" {
			t.Errorf("List-Unsubscribe to the player %s = %q", to, h)
		}
	}
	// The client mails the URI's subject and body to its address; like every
	// command that acts for its sender, it is confirmed by one reply (a forged
	// unobserve must not unsubscribe anyone).
	res := f.confirmed(carol, "unobserve "+g+"\n")
	if res.Status != service.StatusApplied {
		t.Fatalf("unobserve: %+v", res)
	}
	for _, p := range f.load(g).Players {
		if strings.EqualFold(p.Email, carol) {
			t.Errorf("carol still has a seat: %+v", p)
		}
	}
}

// rows are every outbox row.
func (f *fixture) rows(t *testing.T) []store.OutMail {
	t.Helper()
	rows, err := f.st.Outbox(context.Background(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
