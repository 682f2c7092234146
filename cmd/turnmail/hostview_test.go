package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// hostViewGame is a game made for the host view test and what it should show.
type hostViewGame struct {
	id string
	// clock is when the game starts (its first deadline is 24 h later).
	clock time.Time
	// players are the seats; bounce and resign name who bounces and who resigns.
	players        []string
	bounce, resign string
}

// setUp creates the game on its own service (whose clock is g.clock) and plays the
// bounce and the resignation through it as mail.
func (g *hostViewGame) setUp(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	tmpl, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	now := g.clock
	svc, err := service.New(st, games.Registry(), tmpl, service.Options{
		Address: "turnmail@example.org", Secret: []byte("host-view-test-secret-0123"),
		Clock: func() time.Time { return now }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ng := service.NewGame{Kind: "smallworld", Seed: 7, Host: "host@example.org"}
	for _, p := range g.players {
		ng.Players = append(ng.Players, engine.Player{Name: p, Email: p + "@example.org"})
	}
	if g.id, err = svc.CreateGame(ctx, ng); err != nil {
		t.Fatal(err)
	}
	receive := func(raw string) service.Result {
		t.Helper()
		res, err := svc.Receive(ctx, store.InboxMsg{Mailbox: "INBOX", Raw: []byte(raw)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if g.bounce != "" {
		addr := g.bounce + "@example.org"
		// A bounce counts only when it returns a mail we sent to addr.
		sent, err := st.Outbox(context.Background(), g.id, "")
		if err != nil {
			t.Fatal(err)
		}
		returned := ""
		for _, m := range sent {
			if m.To[0] == addr {
				returned = m.MessageID
			}
		}
		res := receive("From: MAILER-DAEMON@example.org\r\nTo: turnmail@example.org\r\nSubject: Undelivered Mail\r\nMessage-ID: <dsn." + g.id + "@mx>\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nNot delivered.\r\n" +
			"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx\r\n\r\nFinal-Recipient: rfc822; " + addr + "\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 user unknown\r\n" +
			"--b\r\nContent-Type: text/rfc822-headers\r\n\r\nMessage-ID: <" + returned + ">\r\n\r\n--b--\r\n")
		if !strings.Contains(res.Reason, "marked unreachable") {
			t.Fatalf("bounce of %s: %+v", addr, res)
		}
	}
	if g.resign != "" {
		seat := -1
		for i, p := range g.players {
			if p == g.resign {
				seat = i
			}
		}
		from, to := g.resign+"@example.org", svc.ReplyAddress(g.id, seat)
		mail := func(n int, body string) string {
			return fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re\r\nMessage-ID: <r%d.%s@client>\r\n\r\n%s\r\n", from, to, n, g.id, body)
		}
		receive(mail(1, "resign"))
		code := confirmLine(t, st, g.id, from)
		if res := receive(mail(2, code)); res.Status != service.StatusApplied {
			t.Fatalf("resignation of %s: %+v", g.resign, res)
		}
	}
}

var confirmRe = regexp.MustCompile(`resign confirm [a-z0-9]+`)

// confirmLine finds the resignation line mailed to addr in a game.
func confirmLine(t *testing.T, st *store.Store, game, addr string) string {
	t.Helper()
	mails, err := st.Outbox(context.Background(), game, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mails {
		p, err := parse.Parse(m.Raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.To[0] == addr {
			if c := confirmRe.FindString(p.Body); c != "" {
				return c
			}
		}
	}
	t.Fatalf("no resignation code mailed to %s", addr)
	return ""
}

// columns reads a tabwriter table: for each row, the cell under each header.
func columns(t *testing.T, out string) []map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	header := lines[0]
	names := regexp.MustCompile(`\S+( \S+)*`).FindAllStringIndex(header, -1) // cells are two spaces apart
	var rows []map[string]string
	for _, l := range lines[1:] {
		row := map[string]string{}
		for i, n := range names {
			end := len(l)
			if i+1 < len(names) {
				end = min(names[i+1][0], len(l))
			}
			if n[0] < end {
				row[header[n[0]:n[1]]] = strings.TrimSpace(l[n[0]:end])
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// TestHostView: turnmail games and show report each game's next deadline, who is
// late, the unreachable (bounced) addresses, who resigned, the pending and failed
// mail of its outbox, and the mail the limits held back in the last day.
func TestHostView(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	// The commands compare deadlines with the wall clock: one game's deadline is long
	// past, the other's far ahead.
	late := &hostViewGame{clock: time.Date(2001, 3, 5, 10, 0, 0, 0, time.UTC), players: []string{"ann", "ben", "cy"}, bounce: "ben", resign: "cy"}
	ahead := &hostViewGame{clock: time.Date(2999, 3, 5, 10, 0, 0, 0, time.UTC), players: []string{"dan", "eve"}}
	late.setUp(t, st)
	ahead.setUp(t, st)
	// One of the late game's mails failed for good; the rest are pending (no sender runs).
	mails, err := st.Outbox(context.Background(), late.id, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.MarkFailed(context.Background(), mails[0].ID, "550 mailbox full"); err != nil {
		t.Fatal(err)
	}
	pending := map[string]int{late.id: len(mails) - 1}
	if mails, err = st.Outbox(context.Background(), ahead.id, ""); err != nil {
		t.Fatal(err)
	}
	pending[ahead.id] = len(mails)
	// The limits held back a reminder to dan in the last day: mail to him resumes in
	// an hour.
	heldAt := time.Now().Add(-time.Minute)
	if _, err := st.DB().Exec(`INSERT INTO held (at, rcpt, game_id, kind, class, why, until) VALUES (?, 'dan@example.org', ?, 'notice', 'notification', 'limit', ?)`,
		heldAt.UnixMilli(), ahead.id, heldAt.Add(time.Hour).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	st.Close()

	out, err := run(t, "", "games", "--database", db)
	if err != nil {
		t.Fatalf("games: %v\n%s", err, out)
	}
	want := map[string]map[string]string{
		late.id: {"STATUS": "running", "TO ACT": "ann", "NEXT DEADLINE": "2001-03-06T10:00:00Z", "LATE": "ann",
			"BOUNCED": "ben@example.org", "RESIGNED": "cy", "PENDING MAIL": fmt.Sprint(pending[late.id]), "FAILED MAIL": "1", "HELD MAIL (24H)": "-"},
		ahead.id: {"STATUS": "running", "TO ACT": "dan", "NEXT DEADLINE": "2999-03-06T10:00:00Z", "LATE": "-",
			"BOUNCED": "-", "RESIGNED": "-", "PENDING MAIL": fmt.Sprint(pending[ahead.id]), "FAILED MAIL": "0",
			"HELD MAIL (24H)": "1: dan@example.org until " + heldAt.Add(time.Hour).UTC().Format("15:04 UTC")},
	}
	rows := columns(t, out)
	if len(rows) != len(want) {
		t.Fatalf("games lists %d games, want %d:\n%s", len(rows), len(want), out)
	}
	for _, row := range rows {
		w, ok := want[row["GAME"]]
		if !ok {
			t.Fatalf("games lists an unknown game %q:\n%s", row["GAME"], out)
		}
		for col, v := range w {
			if row[col] != v {
				t.Errorf("games: game %s, %s = %q, want %q\n%s", row["GAME"], col, row[col], v, out)
			}
		}
	}

	tests := []struct {
		game    string
		want    []string
		notWant []string
	}{
		{late.id, []string{
			"ben@example.org", "UNREACHABLE (", "550 5.1.1 user unknown",
			"cy@example.org", "  resigned",
			"deadline of ann: 2001-03-06T10:00:00Z  LATE",
			"FAILED mail to ", ": 550 mailbox full",
			fmt.Sprintf("%d pending, 1 failed", pending[late.id]),
		}, []string{"deadline of cy"}},
		{ahead.id, []string{
			"deadline of dan: 2999-03-06T10:00:00Z\n",
			fmt.Sprintf("%d pending, 0 failed", pending[ahead.id]),
		}, []string{"UNREACHABLE", "resigned", "LATE", "FAILED"}},
	}
	for _, tt := range tests {
		out, err := run(t, "", "show", tt.game, "--database", db)
		if err != nil {
			t.Fatalf("show %s: %v\n%s", tt.game, err, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("show %s lacks %q:\n%s", tt.game, w, out)
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(out, w) {
				t.Errorf("show %s has %q:\n%s", tt.game, w, out)
			}
		}
	}
	// Each line of show names the seat it is about.
	out, _ = run(t, "", "show", late.id, "--database", db)
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "UNREACHABLE") && !strings.Contains(l, " ben ") || strings.Contains(l, "  resigned") && !strings.Contains(l, " cy ") {
			t.Errorf("show marks the wrong seat: %q", l)
		}
	}
}
