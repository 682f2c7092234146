package e2e

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/turnmail/turnmail/config"
)

// TestExposed_idleConnections attacks a running daemon's embedded servers as a user
// of the same host would: hundreds of idle connections to IMAP and SMTP, more than
// the caps. The servers hold no more than their caps (the connections beyond are
// closed with a reason), /healthz answers ok, a player still logs in and reads her
// mail, and her move is processed and answered (the service's own connections
// log in too).
func TestExposed_idleConnections(t *testing.T) {
	t.Parallel()
	const perAddress = 20
	h := newHarness(t, harnessOptions{games: testRegistry(), configure: func(c *config.Config) {
		c.Embedded.MaxConnections, c.Embedded.MaxConnectionsPerAddress = 2*perAddress, perAddress
	}})
	health := httptest.NewServer(h.d.HealthHandler())
	defer health.Close()
	ann, ben := h.addr("ann"), h.addr("ben")
	game := h.newGame("tally", 1, "", "ann", "ben")
	ra := replyTo(t, h.waitMail(ann, "game "+game))

	for _, srv := range []struct{ proto, addr, greeting, busy string }{
		{"imap", h.imapAddr, "* OK", "* BYE Too many connections"},
		{"smtp", h.smtpAddr, "220 ", "421 4.7.0 Too many connections"},
	} {
		const n = 300
		var conns []net.Conn
		greeted := 0
		for i := 0; i < n; i++ {
			c, err := net.Dial("tcp", srv.addr)
			if err != nil {
				t.Fatalf("%s: connection %d: %v", srv.proto, i, err)
			}
			defer c.Close()
			_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
			if l, _ := bufio.NewReader(c).ReadString('\n'); strings.HasPrefix(l, srv.greeting) {
				greeted++
			}
			conns = append(conns, c)
		}
		// Every connection was greeted (each new one closed the oldest idle
		// one); only the newest perAddress are still open, the others read a
		// reason and were closed.
		lines, errs := make([]string, n), make([]error, n)
		var wg sync.WaitGroup
		for i, c := range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Long enough that a loaded machine still reads what the closed
				// ones were sent (a deadline passed before Read reads nothing).
				_ = c.SetReadDeadline(time.Now().Add(time.Second))
				lines[i], errs[i] = bufio.NewReader(c).ReadString('\n')
			}()
		}
		wg.Wait()
		open, told := 0, 0
		for i := range conns {
			var ne net.Error
			switch {
			case errors.As(errs[i], &ne) && ne.Timeout():
				open++
			case strings.HasPrefix(lines[i], srv.busy):
				told++
			case !errors.Is(errs[i], io.EOF):
				t.Errorf("%s: an idle connection read %q, %v", srv.proto, lines[i], errs[i])
			}
		}
		if greeted != n || open > perAddress || told < n-perAddress {
			t.Errorf("%s: %d idle connections: %d greeted, %d still open (cap %d), %d told %q", srv.proto, n, greeted, open, perAddress, told, srv.busy)
		}
		t.Logf("%s: %d idle connections from one host: %d still open, %d closed with %q", srv.proto, n, open, told, srv.busy)
	}

	resp, err := http.Get(health.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != "ok" {
		t.Errorf("/healthz under the flood: %d %q", resp.StatusCode, body)
	}
	// A player logs in (waitMail reads over IMAP) and sends a move (SMTP); the
	// service reads it and answers both players.
	h.send(ann, ra, "Re", "add 3\n")
	h.waitMail(ann, "add 3")
	h.waitMail(ben, "add 3")
}

// TestExposed_invitationToAnotherDomain: the embedded SMTP server takes mail for
// another domain only from the service, logged in: the host's invitation to
// carol@example.org reaches carol's local mailbox, and she joins by answering it
// from there, while a stranger's mail to her is refused without login.
func TestExposed_invitationToAnotherDomain(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOptions{games: testRegistry()})
	ann, carol := h.addr("ann"), "carol@example.org"
	game, hostAddr := openHosted(t, h, ann, "new tally")
	h.send(ann, hostAddr, "x", "invite "+game+" "+carol+"\n")
	h.waitMail(ann, "The invitation to game "+game+" went to "+carol+".")
	h.confirm(carol, "yes", ann+" invites you to play tally in game "+game)
	h.waitMail(carol, "You play in game "+game+" (tally) as carol")

	err := sendPlain(h.smtpAddr, "stranger@"+h.domain, []string{carol}, strings.NewReader("Subject: x\r\n\r\nspam\r\n"))
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 554 {
		t.Errorf("a stranger's mail to another domain without login: %v, want 554", err)
	}
}
