package service

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/store"
)

// TestAuthenticate: every kind of principal a received mail may prove, and the
// hostile mails that claim one without the proof, each refused with its reason.
func TestAuthenticate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := pagesService(t, Settings{}) // its clock: 27 November 2026, 12:00 UTC
	db, now := s.store, s.opts.Clock()
	newGame := func() string {
		id, err := s.CreateGame(ctx, NewGame{Kind: "tally", Host: "host@games.example",
			Players: []engine.Player{{Name: "ann", Email: "ann@games.example"}, {Name: "ben", Email: "ben@games.example"}},
			Options: map[string]json.RawMessage{"target": json.RawMessage("5")}})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	game, other := newGame(), newGame()
	// ben's seat went to a new address (epoch 1): the reply address of epoch 0 is dead.
	if err := db.Commit(ctx, store.Commit{GameID: game, ExpectSeq: 0,
		Players: []store.Player{{GameID: game, Seat: 1, Name: "ben", Email: "bea@games.example", Role: "player", Active: true, Epoch: 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := db.Commit(ctx, store.Commit{Confirmations: []store.Confirmation{
		{Code: "c0de1", Address: "carol@games.example", Actor: "carol@games.example", GameID: game, CreatedAt: now, ExpiresAt: now.Add(time.Hour)},
		{Code: "c0de2", Address: "list@games.example", Actor: "host@games.example", GameID: game, Grant: grantList, AnyFrom: true, CreatedAt: now, ExpiresAt: now.Add(time.Hour)},
		{Code: "old", Address: "carol@games.example", Actor: "carol@games.example", GameID: game, CreatedAt: now.Add(-2 * time.Hour), ExpiresAt: now.Add(-time.Hour)},
	}}); err != nil {
		t.Fatal(err)
	}
	seat := func(g string, seat int) string { return s.ReplyAddress(g, seat) }
	host := func(g string) string { return s.HostAddress(g) }
	confirm := func(code string) string { return s.confirmAddress(code) }
	forged := auth.ReplyAddress("turnmail", "games.example", auth.Token([]byte("another secret, sixteen bytes+"), game, 0))
	tests := []struct {
		name, from, to string
		extra          string // more header lines
		want           principalKind
		wantWho        string // the seat's name, the host's game, the confirmation's code
		wantReason     string // for a refusal
	}{
		{name: "a seat from its address", from: "ann@games.example", to: seat(game, 0), want: principalSeat, wantWho: "ann"},
		{name: "a seat from its address in capitals", from: "Ann@Games.Example", to: seat(game, 0), want: principalSeat, wantWho: "ann"},
		{name: "a handed seat from its new address", from: "bea@games.example", to: seat(game, 1+epochStride), want: principalSeat, wantWho: "ben"},
		{name: "the host at the host address", from: "host@games.example", to: host(game), want: principalHost, wantWho: game},
		{name: "a confirmation from the address asked", from: "carol@games.example", to: confirm("c0de1"), want: principalConfirmation, wantWho: "c0de1"},
		{name: "a list's confirmation from any member", from: "dave@games.example", to: confirm("c0de2"), want: principalConfirmation, wantWho: "c0de2"},
		{name: "the service address", from: "dave@games.example", to: "turnmail@games.example", want: principalStranger},
		{name: "a player at the service address is a stranger", from: "ann@games.example", to: "turnmail@games.example", want: principalStranger},
		{name: "a bounce", from: "MAILER-DAEMON@mx.example", to: "turnmail@games.example",
			extra: "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n", want: principalBounce},

		// Hostile: a forged From with a genuine reply address, a token for another game …
		{name: "forged From with a seat's genuine reply address", from: "eve@evil.test", to: seat(game, 0),
			wantReason: "From eve@evil.test is not the address of ann"},
		{name: "another player's From with a seat's reply address", from: "bea@games.example", to: seat(game, 0),
			wantReason: "From bea@games.example is not the address of ann"},
		{name: "a seat's token of another game", from: "ann@games.example", to: seat(other, 1),
			wantReason: "From ann@games.example is not the address of ben"},
		{name: "a revoked seat epoch from the old address", from: "ben@games.example", to: seat(game, 1),
			wantReason: "reply address no longer valid: the seat of ben was handed to another player"},
		{name: "a revoked seat epoch from the new address", from: "bea@games.example", to: seat(game, 1),
			wantReason: "reply address no longer valid"},
		{name: "an epoch not issued yet", from: "ann@games.example", to: seat(game, 2*epochStride),
			wantReason: "reply address no longer valid"},
		{name: "a seat that does not exist", from: "ann@games.example", to: seat(game, 7), wantReason: "reply token names an unknown seat"},
		{name: "a game that does not exist", from: "ann@games.example", to: seat("zz-none", 0), wantReason: "reply token names an unknown game"},
		{name: "a token made with another secret", from: "ann@games.example", to: forged, wantReason: "invalid reply token"},
		{name: "a token with a changed game", from: "ann@games.example", to: strings.Replace(seat(game, 0), game, other, 1), wantReason: "invalid reply token"},
		{name: "forged From at the host address", from: "eve@evil.test", to: host(game), wantReason: "is not the host of " + game},
		{name: "a player at the host address", from: "ann@games.example", to: host(game), wantReason: "is not the host of " + game},
		{name: "the host at another game's host address", from: "host@games.example", to: host("zz-none"), wantReason: "host reply address of an unknown game"},
		{name: "a confirmation from another address", from: "eve@evil.test", to: confirm("c0de1"), wantReason: "confirmation from another address"},
		{name: "an expired confirmation", from: "carol@games.example", to: confirm("old"), wantReason: "confirmation address unknown, used or expired"},
		{name: "an unknown confirmation", from: "carol@games.example", to: confirm("nope"), wantReason: "confirmation address unknown, used or expired"},
		{name: "our own mail", from: "turnmail@games.example", to: seat(game, 0), wantReason: "turnmail's own mail"},
		{name: "an auto-reply", from: "ann@games.example", to: seat(game, 0), extra: "Auto-Submitted: auto-replied\r\n", wantReason: "auto-generated mail"},
		{name: "no From", from: "", to: seat(game, 0), wantReason: "no From address"},
	}
	for i, tc := range tests {
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: hi\r\nMessage-ID: <a%d@games.example>\r\n%s\r\n", tc.from, tc.to, i, tc.extra)
		if tc.want == principalBounce {
			raw += "--b\r\nContent-Type: text/plain\r\n\r\nfailed\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example\r\n\r\nFinal-Recipient: rfc822; x@y.example\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n--b--\r\n"
		} else {
			raw += "add 1\r\n"
		}
		p, err := s.authenticate(ctx, s.route(s.prepareInbox(store.InboxMsg{Raw: []byte(raw), Size: int64(len(raw))})))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if p.kind != tc.want {
			t.Errorf("%s: principal %d (%+v), want %d", tc.name, p.kind, p.refused, tc.want)
			continue
		}
		who := ""
		switch p.kind {
		case principalSeat:
			who = p.player.Name
			if p.l == nil || p.l.Game.ID != game {
				t.Errorf("%s: the seat's game is not %s", tc.name, game)
			}
		case principalHost:
			who = p.gameID
			if cred := p.credential(); !cred.proven || cred.grant != grantHost || cred.game != game {
				t.Errorf("%s: the host proves %+v", tc.name, cred)
			}
		case principalConfirmation:
			who = p.conf.Code
			if cred := p.credential(); !cred.proven || cred.game != game || cred.consented != p.conf.Address || cred.grant != p.conf.Grant {
				t.Errorf("%s: the confirmation proves %+v", tc.name, cred)
			}
		case principalStranger, principalBounce:
			if cred := p.credential(); cred.proven {
				t.Errorf("%s: proves %+v", tc.name, cred)
			}
		case principalRefused:
			if p.refused.Status == StatusApplied || !strings.Contains(p.refused.Reason, tc.wantReason) || tc.wantReason == "" {
				t.Errorf("%s: refused %+v, want the reason %q", tc.name, p.refused, tc.wantReason)
			}
			if cred := p.credential(); cred.proven {
				t.Errorf("%s: a refusal proves %+v", tc.name, cred)
			}
		}
		if who != tc.wantWho {
			t.Errorf("%s: proves %q, want %q", tc.name, who, tc.wantWho)
		}
	}
}
