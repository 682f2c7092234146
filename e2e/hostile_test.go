package e2e

import (
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/turnmail/turnmail/mail/parse"
)

// hostileMail is one attack of TestHostileMail: raw mail sent over SMTP while a game
// is in progress, and the outcome it must have.
type hostileMail struct {
	name string
	// raw is the mail; copies > 1 delivers it that many times.
	raw    []byte
	copies int
	// envelope is the SMTP MAIL FROM (default alice); rcpt the RCPT TO (default
	// alice's reply address in the tally game).
	envelope, rcpt string
	// status is the inbox status the mail must settle with, reason a text its
	// reason must hold.
	status, reason string
	// tally and sw are how many events the mail must add to each game; tallyMax,
	// when set, allows 1..tallyMax instead of exactly tally.
	tally, tallyMax, sw int
	// answers is how many mails each player gets because of it (alice, bob); no
	// one else may get any.
	alice, bob int
	// check, when set, looks at the answers.
	check func(t *testing.T, answers []*parse.Message)
}

// TestHostileMail: hostile and broken mail — header injection, MIME bombs, bytes
// that are no text, huge numbers and argument lists, almost-valid reply tokens,
// auto-replies, forged bounces, duplicates, hundreds of recipients — sent over SMTP
// while a game is in progress each gets its defined outcome (status, events, who is
// answered), and the move a player sends after it is applied and answered to both
// players; /healthz stays ok. How long each hostile mail took to settle is logged
// (-v), not asserted.
func TestHostileMail(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("hostile mail end to end: not in -short")
	}
	h := newHarness(t, harnessOptions{games: testRegistry()})
	alice, bob, service := h.addr("alice"), h.addr("bob"), h.addr("turnmail")
	victim := h.addr("victim")
	tally := h.newGame("tally", 1, "", "alice", "bob")
	ra := replyTo(t, h.waitMail(alice, "game "+tally))
	rb := replyTo(t, h.waitMail(bob, "game "+tally))
	sw := h.newGame("smallworld", 7, "", "alice", "bob")
	rsw := replyTo(t, h.waitMail(alice, "game "+sw, "Your move"))
	h.waitMail(bob, "game "+sw)

	hdr := func(from, to, subject string, extra ...string) string {
		s := ""
		if from != "" {
			s += "From: " + from + "\r\n"
		}
		if to != "" {
			s += "To: " + to + "\r\n"
		}
		return s + "Subject: " + subject + "\r\nDate: " + time.Now().Format(time.RFC1123Z) + "\r\n" + strings.Join(extra, "")
	}
	// mk is a mail with header block head (each field ending in CRLF) and a
	// text/plain body, with a fresh Message-ID unless noID.
	seq := 0
	mk := func(head, body string) []byte {
		seq++
		return []byte(fmt.Sprintf("%sMessage-ID: <hostile%d.%d@client.example>\r\nMIME-Version: 1.0\r\n%s\r\n%s",
			head, seq, time.Now().UnixNano(), ctIfMissing(head), crlf(body)))
	}
	mkNoID := func(head, body string) []byte {
		return []byte(head + "MIME-Version: 1.0\r\n" + ctIfMissing(head) + "\r\n" + crlf(body))
	}
	plain := func(body string) []byte { return mk(hdr(alice, ra, "Re: game"), body) }
	b64 := func(s string) string { return wrap76(base64.StdEncoding.EncodeToString([]byte(s))) }

	noInjection := func(t *testing.T, answers []*parse.Message) {
		t.Helper()
		for _, m := range answers {
			if m.Header.Get("Bcc") != "" || m.Header.Get("X-Injected") != "" {
				t.Errorf("answer %q carries an injected header: Bcc %q X-Injected %q", m.Subject, m.Header.Get("Bcc"), m.Header.Get("X-Injected"))
			}
			if len(m.Subject) > 998 {
				t.Errorf("answer subject of %d characters", len(m.Subject))
			}
		}
	}
	cleanAnswer := func(t *testing.T, answers []*parse.Message) {
		t.Helper()
		for _, m := range answers {
			if !utf8.ValidString(m.Body) || strings.ContainsAny(m.Body, "\x00\u202e") {
				t.Errorf("answer %q carries NUL, invalid UTF-8 or a bidi override: %q", m.Subject, m.Body)
			}
			if len(m.Body) > 64<<10 {
				t.Errorf("answer %q is %d bytes: the hostile line is echoed whole", m.Subject, len(m.Body))
			}
		}
	}

	digits := strings.Repeat("9", 100000)
	var pairs strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&pairs, " a%d=b", i)
	}
	var manyHeaders strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&manyHeaders, "X-Junk-%d: %d\r\n", i, i)
	}
	var nested strings.Builder // 1,000 levels of multipart/mixed, "add 1" innermost
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&nested, "--n%d\r\nContent-Type: multipart/mixed; boundary=\"n%d\"\r\n\r\n", i, i+1)
	}
	nested.WriteString("--n1000\r\nContent-Type: text/plain\r\n\r\nadd 1\r\n--n1000--\r\n")
	for i := 999; i >= 0; i-- {
		fmt.Fprintf(&nested, "--n%d--\r\n", i)
	}
	var parts strings.Builder // 10,000 parts, each "add 1"
	for i := 0; i < 10000; i++ {
		parts.WriteString("--p\r\nContent-Type: text/plain\r\n\r\nadd 1\r\n")
	}
	parts.WriteString("--p--\r\n")
	htmlBomb := strings.Repeat("<div><span>\r\n", 60000) + "add 1\r\n" + strings.Repeat("</span></div>\r\n", 10000) // 930 KB, under the limit
	utf16Body := func(s string) string {
		u := utf16.Encode([]rune("\ufeff" + s))
		b := make([]byte, 2*len(u))
		for i, c := range u {
			b[2*i], b[2*i+1] = byte(c), byte(c>>8)
		}
		return wrap76(base64.StdEncoding.EncodeToString(b))
	}
	longLine := strings.Repeat("x", 10000)
	var manyTo, badFirst strings.Builder
	for i := 0; i < 500; i++ {
		if i > 0 {
			manyTo.WriteString(",\r\n ")
			badFirst.WriteString(",\r\n ")
		}
		manyTo.WriteString(ra)
		switch {
		case i == 499:
			badFirst.WriteString(ra)
		case i%2 == 0:
			badFirst.WriteString(tamper(rb))
		default:
			badFirst.WriteString(rb)
		}
	}
	dsn := func(id string) []byte {
		return []byte("From: MAILER-DAEMON@evil.test\r\nTo: " + service + "\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <" + id + "@evil.test>\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nYour mail could not be delivered.\r\n" +
			"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; evil.test\r\n\r\nFinal-Recipient: rfc822; " + bob + "\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 forged\r\n--b--\r\n")
	}
	token := strings.TrimPrefix(strings.SplitN(ra, "@", 2)[0], "turnmail+")
	atDomain := "@" + h.domain
	dupNoID := mkNoID(hdr(alice, ra, "Re: game"), "add 2\n")

	applied := func(name string, raw []byte) hostileMail {
		return hostileMail{name: name, raw: raw, status: "applied", tally: 1, alice: 1, bob: 1}
	}
	vectors := []hostileMail{
		// Header injection: nothing from outside reaches a header of an answer raw.
		func() hostileMail {
			v := applied("CR in the Subject", mk(hdr(alice, ra, "Re: game\rBcc: "+victim), "add 1\n"))
			v.check = noInjection
			return v
		}(),
		func() hostileMail {
			v := applied("encoded CRLF in the Subject", mk(hdr(alice, ra, "=?utf-8?q?Re=3A_game=0D=0ABcc=3A_"+strings.ReplaceAll(victim, "@", "=40")+"=0D=0AX-Injected=3A_1?="), "add 1\n"))
			v.check = noInjection
			return v
		}(),
		func() hostileMail {
			v := applied("encoded CRLF in the From display name", mk(hdr("=?utf-8?q?Alice=0D=0ABcc=3A_"+strings.ReplaceAll(victim, "@", "=40")+"=0D=0AX-Injected=3A_1?= <"+alice+">", ra, "Re: game"), "add 1\n"))
			v.check = noInjection
			return v
		}(),
		func() hostileMail {
			v := applied("10,000-character Subject", mk(hdr(alice, ra, longLine), "add 1\n"))
			v.check = noInjection
			return v
		}(),
		func() hostileMail {
			v := applied("10,000-character From display name", mk(hdr(longLine+" <"+alice+">", ra, "Re: game"), "add 1\n"))
			v.check = noInjection
			return v
		}(),
		applied("10,000-character unknown header", mk(hdr(alice, ra, "Re: game", "X-Long: "+longLine+"\r\n"), "add 1\n")),
		applied("5,000 headers", mk(hdr(alice, ra, "Re: game", manyHeaders.String()), "add 1\n")),
		applied("two From headers, the player's first", mk(hdr(alice, ra, "Re: game", "From: mallory@evil.test\r\n"), "add 1\n")),
		{name: "two From headers, a stranger's first", raw: mk(hdr("mallory@evil.test", ra, "Re: game", "From: "+alice+"\r\n"), "add 1\n"),
			status: "rejected", reason: "is not the address of alice"},
		{name: "two To headers, the other player's token first", raw: mk(hdr(alice, rb, "Re: game", "To: "+ra+"\r\n"), "add 1\n"),
			status: "rejected", reason: "is not the address of bob"},
		{name: "no From", raw: mk(hdr("", ra, "Re: game"), "add 1\n"), status: "ignored", reason: "no From"},
		{name: "From: <>", raw: mk(hdr("<>", ra, "Re: game"), "add 1\n"), status: "ignored", reason: "no From"},
		{name: "From: undisclosed-recipients:;", raw: mk(hdr("undisclosed-recipients:;", ra, "Re: game"), "add 1\n"), status: "ignored", reason: "no From"},
		// The server records the envelope recipient (Delivered-To), which carries the token.
		applied("To: undisclosed-recipients:; (token only in the envelope)", mk(hdr(alice, "undisclosed-recipients:;", "Re: game"), "add 1\n")),
		// MIME bombs: bounded walks, the player told what was (not) read.
		{name: "1,000 nested multiparts", raw: mk(hdr(alice, ra, "Re: game", "Content-Type: multipart/mixed; boundary=\"n0\"\r\n"), nested.String()),
			status: "rejected", reason: "no command", alice: 1},
		{name: "10,000 parts of add 1", raw: mk(hdr(alice, ra, "Re: game", "Content-Type: multipart/mixed; boundary=\"p\"\r\n"), parts.String()),
			status: "applied", tally: 1, tallyMax: 100, alice: 1, bob: 1},
		applied("base64 with garbage after the text", mk(hdr(alice, ra, "Re: game", "Content-Transfer-Encoding: base64\r\n"), b64("add 1\n")+"\r\n!!!*** not base64 ***%%%\r\n====\r\n")),
		applied("a charset that does not exist", mk(hdr(alice, ra, "Re: game", "Content-Type: text/plain; charset=x-klingon-9\r\n"), "add 1\n")),
		applied("UTF-16 text/plain", mk(hdr(alice, ra, "Re: game", "Content-Type: text/plain; charset=utf-16\r\nContent-Transfer-Encoding: base64\r\n"), utf16Body("add 1\r\n"))),
		// golang.org/x/net/html refuses more than 512 levels of nesting: no text at all.
		{name: "text/html only, 1 MB of nested tags", raw: mk(hdr(alice, ra, "Re: game", "Content-Type: text/html; charset=utf-8\r\n"), htmlBomb),
			status: "rejected", reason: "no command", alice: 1},
		applied("quoted-printable soft-break storm", mk(hdr(alice, ra, "Re: game", "Content-Transfer-Encoding: quoted-printable\r\n"), "a"+strings.Repeat("=\r\n", 250000)+"dd 1\r\n")),
		// Bytes that are no text inside commands.
		func() hostileMail {
			v := applied("NUL bytes in the body", plain("add 1\x00\x00\nadd\x00 2\n"))
			v.tally = 2
			v.check = cleanAnswer
			return v
		}(),
		{name: "invalid UTF-8 in a command", raw: plain("add \xff\xfe1\n"), status: "rejected", reason: "not \"ÿþ1\"", alice: 1, check: cleanAnswer},
		func() hostileMail {
			v := applied("zero-width characters inside a command", plain("a\u200bdd\u200c 1\u2060\n"))
			v.check = cleanAnswer
			return v
		}(),
		{name: "RTL override inside a command", raw: plain("\u202eadd 1\u202c\n"), status: "applied", tally: 1, alice: 1, bob: 1, check: cleanAnswer},
		// Huge arguments, written as base64 so that no SMTP line is too long.
		{name: "add with a 100,000-digit number", raw: mk(hdr(alice, ra, "Re: game", "Content-Transfer-Encoding: base64\r\n"), b64("add "+digits+"\n")),
			status: "rejected", reason: "longer than 1000 characters", alice: 1, check: cleanAnswer},
		{name: "conquer with a 100,000-digit number", raw: mk(hdr(alice, rsw, "Re: game", "Content-Transfer-Encoding: base64\r\n"), b64("conquer "+digits+"\n")), rcpt: rsw,
			status: "rejected", reason: "longer than 1000 characters", alice: 1, check: cleanAnswer},
		{name: "redeploy with 5,000 a=b pairs", raw: mk(hdr(alice, rsw, "Re: game", "Content-Transfer-Encoding: base64\r\n"), b64("redeploy"+pairs.String()+"\n")), rcpt: rsw,
			status: "rejected", reason: "longer than 1000 characters", alice: 1, check: cleanAnswer},
		// Reply tokens that are almost valid: refused, nobody answered.
		{name: "token with a wrong HMAC", raw: mk(hdr(alice, tamper(ra), "Re: game"), "add 1\n"), rcpt: tamper(ra), status: "rejected", reason: "invalid reply token"},
		{name: "truncated token", raw: mk(hdr(alice, "turnmail+"+token[:len(token)-3]+atDomain, "Re: game"), "add 1\n"), rcpt: "turnmail+" + token[:len(token)-3] + atDomain,
			status: "rejected", reason: "invalid reply token"},
		{name: "token with an extra +", raw: mk(hdr(alice, "turnmail+"+token+"+x"+atDomain, "Re: game"), "add 1\n"), rcpt: "turnmail+" + token + "+x" + atDomain,
			status: "rejected", reason: "invalid reply token"},
		// Mail systems may upper-case local parts: the token is case-insensitive.
		applied("uppercase token", mk(hdr(alice, "turnmail+"+strings.ToUpper(token)+atDomain, "Re: game"), "add 1\n")),
		{name: "valid token of another game", raw: mk(hdr(alice, rsw, "Re: game"), "add 1\n"), rcpt: rsw,
			status: "rejected", reason: "unknown command", alice: 1},
		{name: "the player's auto-reply", raw: mk(hdr(alice, ra, "Re: game", "Auto-Submitted: auto-replied\r\n"), "add 1\n"), status: "ignored", reason: "auto-generated"},
		// A forged bounce naming a player is never answered and marks nothing (it
		// refers to no mail turnmail sent; checked after the table).
		{name: "forged bounce naming a player", raw: dsn("dsn1"), envelope: "-", rcpt: service, status: "ignored", reason: "not believed"},
		// The same mail three times: applied once.
		{name: "the same mail 3 times, with a Message-ID", raw: plain("add 3\n"), copies: 3, status: "applied", tally: 1, alice: 1, bob: 1},
		{name: "the same mail 3 times, without a Message-ID", raw: dupNoID, copies: 3, status: "applied", tally: 1, alice: 1, bob: 1},
		{name: "500 recipients, all the player's reply address", raw: mk(hdr(alice, manyTo.String(), "Re: game"), "add 1\n"), status: "applied", tally: 1, alice: 1, bob: 1},
		{name: "500 recipients, the first a forged token", raw: mk(hdr(alice, badFirst.String(), "Re: game"), "add 1\n"), status: "rejected", reason: "invalid reply token"},
	}

	var timings []string
	for i, v := range vectors {
		if v.copies == 0 {
			v.copies = 1
		}
		if v.envelope == "" {
			v.envelope = alice
		}
		if v.envelope == "-" {
			v.envelope = ""
		}
		if v.rcpt == "" {
			v.rcpt = ra
		}
		t.Run(v.name, func(t *testing.T) {
			prev := lastInboxID(t, h)
			tally0, sw0 := h.events(tally), h.events(sw)
			start := time.Now()
			via := "SMTP"
			if longestLine(v.raw) > 998 {
				// SMTP limits lines to 1,000 bytes and the embedded server refuses
				// longer ones; a laxer MTA (or IMAP APPEND) would deliver the mail as
				// it is: so do that.
				via = "delivered into the mailbox (lines too long for SMTP)"
			}
			for range v.copies {
				var err error
				if via == "SMTP" {
					err = sendPlain(h.smtpAddr, v.envelope, []string{v.rcpt}, strings.NewReader(string(v.raw)))
				} else {
					err = h.d.Mail.Deliver(context.Background(), service, v.raw)
				}
				if err != nil {
					t.Fatalf("send: %v", err)
				}
			}
			rows := h.settledAfter(prev)
			took := time.Since(start)
			timings = append(timings, fmt.Sprintf("%-60s %8.0f ms  %d bytes  %s", v.name, float64(took)/float64(time.Millisecond), len(v.raw), via))
			if len(rows) != 1 {
				t.Errorf("%d inbox rows, want 1: %v", len(rows), rows)
			}
			r := rows[0]
			if r.status != v.status || !strings.Contains(strings.ToLower(r.reason), strings.ToLower(v.reason)) {
				t.Errorf("status %q reason %q, want %q containing %q", r.status, r.reason, v.status, v.reason)
			}
			h.quietOutbox()
			if v.copies > 1 {
				// The copies were delivered before the marker; they are handled in order.
				h.settled(h.send(h.addr("nobody"), service, "marker", "hello\n"))
				h.quietOutbox()
			}
			dt, ds := h.events(tally)-tally0, h.events(sw)-sw0
			if v.tallyMax > 0 && (dt < v.tally || dt > v.tallyMax) || v.tallyMax == 0 && dt != v.tally || ds != v.sw {
				t.Errorf("events added: tally %d, smallworld %d; want %d (up to %d) and %d", dt, ds, v.tally, v.tallyMax, v.sw)
			}
			answers := h.unexpected(alice)
			if len(answers) != v.alice {
				t.Errorf("alice got %d mails, want %d: %s", len(answers), v.alice, subjects(answers))
			}
			if got := h.unexpected(bob); len(got) != v.bob {
				t.Errorf("bob got %d mails, want %d: %s", len(got), v.bob, subjects(got))
			} else {
				answers = append(answers, got...)
			}
			for _, who := range []string{victim, h.addr("mallory"), h.addr("nobody")} {
				if got := h.unexpected(who); len(got) != 0 {
					t.Errorf("%s got %d mails: %s", who, len(got), subjects(got))
				}
			}
			if v.check != nil {
				v.check(t, answers)
			}
			h.unread[alice], h.unread[bob] = nil, nil

			// The next move, from the other player each time, is applied and answered
			// to both.
			mover, moverReply, other := alice, ra, bob
			if i%2 == 1 {
				mover, moverReply, other = bob, rb, alice
			}
			id := h.send(mover, moverReply, "Re: game", "add 1\n")
			if status, reason := h.settled(id); status != "applied" {
				t.Fatalf("the move after it: status %q (%s)", status, reason)
			}
			h.waitMail(mover, "Since your last mail:", strings.SplitN(mover, "@", 2)[0]+" sent: add 1")
			h.waitMail(other, strings.SplitN(mover, "@", 2)[0]+" sent: add 1")
			h.quietOutbox()
			h.unread[alice], h.unread[bob] = nil, nil
			h.unexpected(alice)
			h.unexpected(bob)
			h.unread[alice], h.unread[bob] = nil, nil

			rec := httptest.NewRecorder()
			h.d.HealthHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
			if rec.Code != http.StatusOK {
				t.Errorf("/healthz = %d %s", rec.Code, rec.Body)
			}
		})
	}
	t.Logf("time from the end of SMTP DATA to the mail settled:\n%s", strings.Join(timings, "\n"))
	_, players, err := h.d.Store.Game(context.Background(), tally)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range players {
		if p.Unreachable != "" {
			t.Errorf("%s is marked unreachable by a forged bounce that refers to no mail turnmail sent: %q", p.Name, p.Unreachable)
		}
	}
}

// inboxRow is one stored incoming mail's outcome.
type inboxRow struct {
	id             int64
	messageID      string
	status, reason string
}

func lastInboxID(t *testing.T, h *harness) int64 {
	t.Helper()
	var id sql.NullInt64
	if err := h.d.Store.DB().QueryRow(`SELECT max(id) FROM inbox`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id.Int64
}

// settledAfter waits until a mail stored after inbox row prev is settled and every
// mail stored after prev is, and returns them.
func (h *harness) settledAfter(prev int64) []inboxRow {
	h.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		rows, err := h.d.Store.DB().Query(`SELECT id, message_id, status, error FROM inbox WHERE id > ? ORDER BY id`, prev)
		if err != nil {
			h.t.Fatal(err)
		}
		var out []inboxRow
		pending := false
		for rows.Next() {
			var r inboxRow
			if err := rows.Scan(&r.id, &r.messageID, &r.status, &r.reason); err != nil {
				h.t.Fatal(err)
			}
			pending = pending || r.status == "pending"
			out = append(out, r)
		}
		if err := rows.Close(); err != nil {
			h.t.Fatal(err)
		}
		if len(out) > 0 && !pending {
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.t.Fatalf("no mail after inbox row %d was settled", prev)
	return nil
}

func subjects(ms []*parse.Message) string {
	var s []string
	for _, m := range ms {
		s = append(s, fmt.Sprintf("%q", m.Subject))
	}
	return strings.Join(s, ", ")
}

// ctIfMissing is a text/plain Content-Type field unless head has one.
func ctIfMissing(head string) string {
	if strings.Contains(strings.ToLower(head), "content-type:") {
		return ""
	}
	return "Content-Type: text/plain; charset=utf-8\r\n"
}

// crlf turns lone LFs into CRLF (a body given with CRLF already stays as it is).
func crlf(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// wrap76 breaks s into lines of 76 characters.
func wrap76(s string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76] + "\r\n")
		s = s[76:]
	}
	return b.String() + s + "\r\n"
}

// longestLine is the length of the longest line of raw.
func longestLine(raw []byte) int {
	n := 0
	for _, l := range strings.Split(string(raw), "\n") {
		n = max(n, len(l))
	}
	return n
}

// TestHostileFlood: a stranger sends mails of close to the size limit built to cost
// the most to parse (HTML that x/net/html works hardest on); a player's move sent
// right after them is applied and answered to both players, and /healthz stays ok.
// How long the move waited is logged (-v), not asserted: mail is handled in order,
// so it waits for the flood to be parsed. Six mails (two of each shape) in make
// test, twenty under TURNMAIL_SOAK=1 (make soak).
func TestHostileFlood(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("hostile flood end to end: not in -short")
	}
	h := newHarness(t, harnessOptions{games: testRegistry()})
	alice, bob, service := h.addr("alice"), h.addr("bob"), h.addr("turnmail")
	game := h.newGame("tally", 1, "", "alice", "bob")
	ra := replyTo(t, h.waitMail(alice, "game "+game))
	h.waitMail(bob, "game "+game)

	n := 6
	if os.Getenv("TURNMAIL_SOAK") == "1" {
		n = 20
	}
	shapes := []string{"<font><p>\r\n", "<li>x\r\n", "<a href=x>y\r\n"}
	limit := int(h.cfg.Limits.MaxMessageBytes)
	start := time.Now()
	for i := range n {
		unit := shapes[i%len(shapes)]
		body := strings.Repeat(unit, (limit-2000)/len(unit))
		raw := fmt.Sprintf("From: mallory@evil.test\r\nTo: %s\r\nSubject: flood %d\r\nMessage-ID: <flood%d@evil.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/html\r\n\r\n%s", service, i, i, body)
		if err := sendPlain(h.smtpAddr, "mallory@evil.test", []string{service}, strings.NewReader(raw)); err != nil {
			t.Fatalf("send: %v", err)
		}
	}
	sent := time.Now()
	id := h.send(alice, ra, "Re: game", "add 1\n")
	if status, reason := h.settled(id); status != "applied" {
		t.Fatalf("the move after the flood: status %q (%s)", status, reason)
	}
	h.waitMail(alice, "Since your last mail:", "alice sent: add 1")
	h.waitMail(bob, "alice sent: add 1")
	answered := time.Now()
	for i := range n {
		if status, reason := h.settled(fmt.Sprintf("flood%d@evil.test", i)); status == "applied" || status == "failed" {
			t.Errorf("flood mail %d: %s (%s)", i, status, reason)
		}
	}
	h.quietOutbox()
	if got := h.unexpected("mallory@evil.test"); len(got) > 1 {
		t.Errorf("the stranger got %d mails", len(got))
	}
	rec := httptest.NewRecorder()
	h.d.HealthHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("/healthz = %d %s", rec.Code, rec.Body)
	}
	t.Logf("%d mails of %d KB sent in %v; the move after them was answered to both players %v later (%v per flood mail)",
		n, limit/1024, sent.Sub(start).Round(time.Millisecond), answered.Sub(sent).Round(time.Millisecond), (answered.Sub(sent) / time.Duration(n)).Round(time.Millisecond))
}
