package service_test

import (
	"context"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// dsn builds a delivery status notification for rcpt with the given diagnostic;
// extra is a header block added to the report, returned the Message-ID of the
// text/rfc822-headers part ("" for none).
func dsn(rcpt, diagnostic, extra, returned string) []byte {
	return dsnTo("turnmail@"+domain, rcpt, diagnostic, extra, returned)
}

// dsnTo is dsn sent to the address to.
func dsnTo(to, rcpt, diagnostic, extra, returned string) []byte {
	m := "From: MAILER-DAEMON@mx.example\r\nTo: " + to + "\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <dsn@mx.example>\r\n" + extra +
		"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n" +
		"--b\r\nContent-Type: text/plain\r\n\r\nYour mail could not be delivered.\r\n" +
		"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example\r\n\r\nFinal-Recipient: rfc822; " + rcpt +
		"\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: " + diagnostic + "\r\n"
	if returned != "" {
		m += "--b\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: turnmail@" + domain + "\r\nMessage-ID: <" + returned + ">\r\n\r\n"
	}
	return []byte(m + "--b--\r\n")
}

// TestBounce_proof: a delivery report marks a seat unreachable only when it names
// a Message-ID we sent to the failed recipient, or comes to the VERP return path of
// such a mail, and then only in the game that mail
// was about; the host's notice quotes a bounded one-line diagnostic.
func TestBounce_proof(t *testing.T) {
	bob, alice := "bob@"+domain, "alice@"+domain
	const diag = "smtp; 550 5.1.1 user unknown"
	tests := []struct {
		name string
		// raw builds the report from the opening mails of a game to bob and alice.
		raw        func(toBob, toAlice store.OutMail) []byte
		wantReason string
		wantMarked bool   // bob marked in the fixture's game
		wantNotice string // text of the host's notice, "" for no mail at all
	}{
		{
			name:       "forged: no Message-ID",
			raw:        func(_, _ store.OutMail) []byte { return dsn(bob, diag, "", "") },
			wantReason: "bounce not believed",
		},
		{
			name:       "forged: a Message-ID we never sent",
			raw:        func(_, _ store.OutMail) []byte { return dsn(bob, diag, "", "g.0000@"+domain) },
			wantReason: "bounce not believed",
		},
		{
			name: "forged by alice with the Message-ID of her own mail",
			raw: func(_, toAlice store.OutMail) []byte {
				return dsn(bob, diag, "In-Reply-To: <"+toAlice.MessageID+">\r\n", toAlice.MessageID)
			},
			wantReason: "bounce not believed",
		},
		{
			name: "forged by alice to the return path of her own mail",
			raw: func(_, toAlice store.OutMail) []byte {
				return dsnTo(verp(toAlice.ID, alice), bob, diag, "", "")
			},
			wantReason: "bounce not believed",
		},
		{
			name: "forged: a return path with another recipient's MAC",
			raw: func(toBob, _ store.OutMail) []byte {
				return dsnTo(verp(toBob.ID, alice), bob, diag, "", "")
			},
			wantReason: "bounce not believed",
		},
		{
			name: "genuine: to the VERP return path",
			raw: func(toBob, _ store.OutMail) []byte {
				return dsnTo(verp(toBob.ID, bob), bob, diag, "", "")
			},
			wantReason: "marked unreachable", wantMarked: true, wantNotice: "user unknown",
		},
		{
			name:       "genuine: returned headers",
			raw:        func(toBob, _ store.OutMail) []byte { return dsn(bob, diag, "", toBob.MessageID) },
			wantReason: "marked unreachable", wantMarked: true, wantNotice: "bounced: smtp; 550 5.1.1 user unknown",
		},
		{
			name: "genuine: the report's In-Reply-To",
			raw: func(toBob, _ store.OutMail) []byte {
				return dsn("BOB@"+domain, diag, "In-Reply-To: <"+toBob.MessageID+">\r\n", "")
			},
			wantReason: "marked unreachable", wantMarked: true, wantNotice: "user unknown",
		},
		{
			name: "genuine with a hostile diagnostic: one bounded line",
			raw: func(toBob, _ store.OutMail) []byte {
				return dsn(bob, "smtp; 550 visit\r\n http://evil.example/claim\x07 "+strings.Repeat("spam ", 100), "", toBob.MessageID)
			},
			wantReason: "marked unreachable", wantMarked: true, wantNotice: "550 visit http://evil.example/claim spam",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, 0)
			other, err := f.svc.CreateGame(ctx, service.NewGame{Kind: "tally", Host: "host@" + domain, Players: []engine.Player{
				{Name: "bob", Email: bob}, {Name: "alice", Email: alice},
			}})
			if err != nil {
				t.Fatal(err)
			}
			// The fixture's game has no host: give the bounced game one by
			// proving the bounce of the other game's mail instead.
			toBob, toAlice := opening(t, f.st, other, bob), opening(t, f.st, other, alice)
			before, _ := f.st.Outbox(ctx, "", "")
			res := f.receive(tt.raw(toBob, toAlice))
			if res.Status != service.StatusIgnored || !strings.Contains(res.Reason, tt.wantReason) {
				t.Fatalf("result %s %q, want ignored %q", res.Status, res.Reason, tt.wantReason)
			}
			for _, g := range []string{other, f.game} {
				_, players, err := f.st.Game(ctx, g)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range players {
					marked := p.Unreachable != ""
					want := tt.wantMarked && g == other && p.Email == bob
					if marked != want {
						t.Errorf("game %s, %s: unreachable %q, want marked %v", g, p.Email, p.Unreachable, want)
					}
				}
			}
			after, _ := f.st.Outbox(ctx, "", "")
			added := after[len(before):]
			if tt.wantNotice == "" {
				if len(added) != 0 {
					t.Fatalf("%d mails queued, first to %v", len(added), added[0].To)
				}
				return
			}
			if len(added) != 1 || added[0].To[0] != "host@"+domain {
				t.Fatalf("queued %d mails, want one to the host", len(added))
			}
			m, err := parse.Parse(added[0].Raw, nil)
			if err != nil {
				t.Fatal(err)
			}
			body := m.Body
			if !strings.Contains(body, tt.wantNotice) {
				t.Errorf("host notice lacks %q:\n%s", tt.wantNotice, body)
			}
			if strings.Contains(body, "spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam spam") {
				t.Errorf("host notice quotes the diagnostic unbounded")
			}
		})
	}
}

// verp is the return path turnmail sets on the outbox mail id to rcpt.
func verp(id int64, rcpt string) string {
	return auth.ReplyAddress("turnmail", domain, auth.BounceToken([]byte(secret), id, rcpt))
}

// opening returns the first mail queued in game to addr.
func opening(t *testing.T, st *store.Store, game, addr string) store.OutMail {
	t.Helper()
	rows, err := st.Outbox(context.Background(), game, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.To[0] == addr && r.MessageID != "" {
			return r
		}
	}
	t.Fatalf("no mail to %s in %s", addr, game)
	return store.OutMail{}
}
