package service_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// rawMail is a raw mail with exactly these From, To and Message-ID headers
// (Message-ID left out when msgID is "").
func rawMail(from, to, msgID, body string) []byte {
	h := "From: " + from + "\r\nTo: " + to + "\r\nSubject: hello\r\n"
	if msgID != "" {
		h += "Message-ID: " + msgID + "\r\n"
	}
	return []byte(h + "\r\n" + body)
}

// TestReceive_hostileHeaders: mail whose Message-ID, From or command names an
// address or id that cannot stand in a header is answered without it or refused
// with the reason, never fails, and the next valid move is applied.
func TestReceive_hostileHeaders(t *testing.T) {
	f := newFixture(t, 100)
	open := f.lobbyGame(hostAddr, "")
	running := f.hostedGame(hostAddr, "")
	longID := "<" + strings.Repeat("x", 260) + "@evil.test>"
	tests := []struct {
		name       string
		raw        []byte
		wantStatus string
		// wantAnswer is the address that gets the one answer, with a text it must
		// hold; "" means no mail at all.
		wantAnswer, wantText string
		// badID must appear in no header of the answer.
		badID string
	}{
		{
			name: "message-id with a space, in a game", raw: rawMail("alice@"+domain, f.reply["alice"], "<a b@evil.test>", "add 1\n"),
			wantStatus: service.StatusApplied, wantAnswer: "alice@" + domain, wantText: "add 1", badID: "a b@evil.test",
		},
		{
			name: "message-id with a space, at the service address", raw: rawMail("carol@"+domain, svcAddr, "<c d@evil.test>", "help\n"),
			wantStatus: service.StatusApplied, wantAnswer: "carol@" + domain, wantText: "new GAME", badID: "c d@evil.test",
		},
		{
			name: "message-id too long", raw: rawMail("carol@"+domain, svcAddr, longID, "help\n"),
			wantStatus: service.StatusApplied, wantAnswer: "carol@" + domain, wantText: "new GAME", badID: strings.Repeat("x", 260),
		},
		{
			name: "message-id with a control character", raw: rawMail("carol@"+domain, svcAddr, "<a\x01b@evil.test>", "help\n"),
			wantStatus: service.StatusApplied, wantAnswer: "carol@" + domain, wantText: "new GAME", badID: "a\x01b",
		},
		{
			name: "From with a quoted local part and a space", raw: rawMail(`"a b"@evil.test`, svcAddr, "<q1@evil.test>", "help\n"),
			wantStatus: service.StatusRejected,
		},
		{
			name: "From with a quoted local part and a comma opens a game", raw: rawMail(`"a,b"@evil.test`, svcAddr, "<q2@evil.test>", "new tally\n"),
			wantStatus: service.StatusRejected,
		},
		{
			name: "From with a quoted local part writes to a game", raw: rawMail(`Eve <"a,b"@evil.test>`, f.reply["bob"], "<q3@evil.test>", "add 1\n"),
			wantStatus: service.StatusRejected,
		},
		{
			name: "invite a quoted local part", raw: rawMail(hostAddr, svcAddr, "<q4@client.example>", "invite "+open+` "a,b"@victim.test`+"\n"),
			wantStatus: service.StatusRejected, wantAnswer: hostAddr, wantText: `"a,b"@victim.test cannot be used as a mail address: quoted local parts`,
		},
		{
			name: "invite a local part that is not ASCII", raw: rawMail(hostAddr, svcAddr, "<q5@client.example>", "invite "+open+" zoë@victim.test\n"),
			wantStatus: service.StatusRejected, wantAnswer: hostAddr, wantText: "zoë@victim.test cannot be used as a mail address: it contains 'ë'",
		},
		{
			name: "new with list= a quoted local part with a space", raw: rawMail(hostAddr, svcAddr, "<q6@client.example>", `new tally list="a b"@victim.test`+"\n"),
			wantStatus: service.StatusRejected, wantAnswer: hostAddr, wantText: `list="a b"@victim.test cannot be used as a mail address`,
		},
		{
			name: "replace with a quoted local part", raw: rawMail(hostAddr, svcAddr, "<q7@client.example>", "replace "+running+` bob "a,b"@victim.test`+"\n"),
			wantStatus: service.StatusRejected, wantAnswer: hostAddr, wantText: `"a,b"@victim.test cannot be used as a mail address`,
		},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, before := len(f.gameIDs()), len(f.queued())
			res, err := f.svc.Receive(ctx, store.InboxMsg{Mailbox: "INBOX", Raw: tt.raw})
			if err != nil {
				t.Fatalf("Receive: %v", err)
			}
			if res.Status != tt.wantStatus {
				t.Errorf("status %q (%s), want %q", res.Status, res.Reason, tt.wantStatus)
			}
			if n := len(f.gameIDs()); n != games {
				t.Errorf("%d games, want %d: nothing may be created", n, games)
			}
			rows, err := f.st.Outbox(ctx, "", "")
			if err != nil {
				t.Fatal(err)
			}
			var answers []*parse.Message
			for _, r := range rows[before:] {
				for _, to := range r.To {
					if strings.Contains(to, "evil.test") || strings.Contains(to, "victim.test") {
						t.Errorf("mail queued to %q", to)
					}
				}
				if tt.badID != "" && strings.Contains(string(headerBlock(r.Raw)), tt.badID) {
					t.Errorf("the answer's header holds %q:\n%s", tt.badID, headerBlock(r.Raw))
				}
				m, _ := parse.Parse(r.Raw, nil)
				if m.To[0].Address == tt.wantAnswer {
					answers = append(answers, m)
				}
			}
			switch {
			case tt.wantAnswer == "" && len(rows) != before:
				t.Errorf("%d mails queued, want none", len(rows)-before)
			case tt.wantAnswer != "" && len(answers) != 1:
				t.Errorf("%d answers to %s, want 1", len(answers), tt.wantAnswer)
			case tt.wantAnswer != "" && !strings.Contains(answers[0].Body, tt.wantText):
				t.Errorf("the answer does not say %q:\n%s", tt.wantText, answers[0].Body)
			}
			// The next valid move is applied.
			if res := f.receive(f.mail("bob@"+domain, f.reply["bob"], "add 1\n")); res.Status != service.StatusApplied {
				t.Errorf("a valid move after it: %+v", res)
			}
		})
	}
}

// headerBlock is the header of a raw mail.
func headerBlock(raw []byte) []byte {
	h, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	return []byte(h)
}

// TestImport_nameWithLineBreak: a player name from an imported archive that holds
// a line break and control characters reaches the state mails' subject as one
// encoded line, not as a header of its own nor raw.
func TestImport_nameWithLineBreak(t *testing.T) {
	f := newFixture(t, 100)
	a := &engine.Archive{Format: engine.ArchiveFormat, Game: "tally", Options: map[string]json.RawMessage{"turns": json.RawMessage("true")},
		Players: []engine.Player{{Name: "zoë\r\nBcc: victim@victim.test\x1b[2J", Email: "zoe@" + domain}, {Name: "bob", Email: "bob@" + domain}}}
	before := len(f.queued())
	id, err := f.svc.Import(context.Background(), a)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	mails := f.queued()[before:]
	if len(mails) != 2 {
		t.Fatalf("%d mails, want 2", len(mails))
	}
	want := "[" + id + "] tally" // the game's one subject: no name in it, whatever names come in
	rows, err := f.st.Outbox(context.Background(), id, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if h := headerBlock(r.Raw); strings.ContainsAny(string(h), "\x1bë") {
			t.Errorf("raw control or non-ASCII character in the header:\n%s", h)
		}
	}
	for _, m := range mails {
		if m.Header.Get("Bcc") != "" {
			t.Errorf("a Bcc header: %q", m.Header.Get("Bcc"))
		}
		if m.To[0].Address == "bob@"+domain && m.Subject != want {
			t.Errorf("bob's subject %q, want %q", m.Subject, want)
		}
	}
}

// TestCommandAddresses_refused: an address that cannot receive mail is refused
// where a game is created or a player imported, naming the problem.
func TestCommandAddresses_refused(t *testing.T) {
	f := newFixture(t, 100)
	ctx := context.Background()
	for _, addr := range []string{`"a b"@evil.test`, `"a,b"@evil.test`, "a@evil..test", "a@[127.0.0.1]"} {
		_, err := f.svc.CreateGame(ctx, service.NewGame{Kind: "tally", Players: []engine.Player{
			{Name: "ann", Email: addr}, {Name: "bob", Email: "bob@" + domain},
		}})
		if err == nil || !strings.Contains(err.Error(), "cannot be used") {
			t.Errorf("CreateGame with %s: %v", addr, err)
		}
		_, err = f.svc.CreateGame(ctx, service.NewGame{Kind: "tally", Host: addr, Players: []engine.Player{
			{Name: "ann", Email: "ann@" + domain}, {Name: "bob", Email: "bob@" + domain},
		}})
		if err == nil || !strings.Contains(err.Error(), "cannot be used") {
			t.Errorf("CreateGame with host %s: %v", addr, err)
		}
		a := &engine.Archive{Format: engine.ArchiveFormat, Game: "tally", Players: []engine.Player{
			{Name: "ann", Email: addr}, {Name: "bob", Email: "bob@" + domain},
		}}
		if _, err := f.svc.Import(ctx, a); err == nil || !strings.Contains(err.Error(), "cannot be used") {
			t.Errorf("Import with %s: %v", addr, err)
		}
	}
}

// TestReceive_duplicateWithoutMessageID: the same mail without Message-ID,
// delivered twice with other trace fields (Received, Delivered-To, Return-Path),
// is recognised the second time and applies nothing more.
func TestReceive_duplicateWithoutMessageID(t *testing.T) {
	f := newFixture(t, 100)
	sent := "From: alice@" + domain + "\r\nTo: " + f.reply["alice"] + "\r\nDate: Sun, 22 Nov 2026 11:59:00 +0000\r\nSubject: Re: move\r\n\r\nadd 1\r\n"
	first := f.receive([]byte("Return-Path: <alice@" + domain + ">\r\nReceived: from mx1.example by mx2.example; Sun, 22 Nov 2026 11:59:01 +0000\r\nDelivered-To: turnmail@" + domain + "\r\n" + sent))
	mails := len(f.queued())
	second := f.receive([]byte("Received: from mx3.example by mx4.example; Sun, 22 Nov 2026 12:30:00 +0000\r\nReceived: from mx1.example by mx3.example; Sun, 22 Nov 2026 12:29:59 +0000\r\n" + sent))
	if first.Status != service.StatusApplied || first.Duplicate {
		t.Fatalf("first delivery: %+v", first)
	}
	if !second.Duplicate || second.InboxID != first.InboxID {
		t.Fatalf("second delivery: %+v, want the duplicate of mail %d", second, first.InboxID)
	}
	if n, _ := f.st.LastSeq(context.Background(), f.game); n != 1 {
		t.Errorf("%d events, want 1", n)
	}
	if n := len(f.queued()); n != mails {
		t.Errorf("%d mails queued by the second delivery, want none", n-mails)
	}
}
