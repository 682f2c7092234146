package mailserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"
)

// rawIMAP is a line-level IMAP client, to check the exact responses that
// mail clients such as mutt and Thunderbird rely on.
type rawIMAP struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
	n    int
}

func dialRaw(t *testing.T, addr string) *rawIMAP {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := &rawIMAP{t: t, conn: conn, r: bufio.NewReader(conn)}
	if greeting := c.line(); !strings.HasPrefix(greeting, "* OK ") {
		t.Fatalf("greeting %q", greeting)
	}
	return c
}

func (c *rawIMAP) line() string {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	l, err := c.r.ReadString('\n')
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	l = strings.TrimSuffix(l, "\r\n")
	// Inline literals so that responses are easy to match.
	if m := regexp.MustCompile(`\{(\d+)\}$`).FindStringSubmatch(l); m != nil {
		var n int
		fmt.Sscan(m[1], &n)
		buf := make([]byte, n)
		if _, err := io.ReadFull(c.r, buf); err != nil {
			c.t.Fatalf("read literal: %v", err)
		}
		l = l[:len(l)-len(m[0])] + "<" + string(buf) + ">" + c.line()
	}
	return l
}

func (c *rawIMAP) send(s string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.conn, "%s\r\n", s); err != nil {
		c.t.Fatal(err)
	}
}

// cmd sends a tagged command and returns the untagged lines and the tagged
// status line.
func (c *rawIMAP) cmd(command string) (untagged []string, status string) {
	c.t.Helper()
	c.n++
	tag := fmt.Sprintf("a%d", c.n)
	c.send(tag + " " + command)
	for {
		l := c.line()
		if strings.HasPrefix(l, tag+" ") {
			return untagged, strings.TrimPrefix(l, tag+" ")
		}
		untagged = append(untagged, l)
	}
}

// ok runs a command that must succeed and checks that every wanted pattern
// matches one of the untagged lines.
func (c *rawIMAP) ok(command string, want ...string) []string {
	c.t.Helper()
	untagged, status := c.cmd(command)
	if !strings.HasPrefix(status, "OK") {
		c.t.Fatalf("%s: %s\n%s", command, status, strings.Join(untagged, "\n"))
	}
	for _, w := range want {
		re := regexp.MustCompile(w)
		found := false
		for _, l := range untagged {
			found = found || re.MatchString(l)
		}
		if !found {
			c.t.Errorf("%s: no line matches %q in\n%s", command, w, strings.Join(untagged, "\n"))
		}
	}
	return untagged
}

func count(lines []string, pattern string) int {
	re := regexp.MustCompile(pattern)
	n := 0
	for _, l := range lines {
		if re.MatchString(l) {
			n++
		}
	}
	return n
}

// TestIMAP_Transcript replays the commands a classic client (mutt; Thunderbird
// sends the same kinds) issues, and checks the wire responses.
func TestIMAP_Transcript(t *testing.T) {
	srv := newTestServer(t, nil)
	ctx := context.Background()
	user := "turnmail@" + testDomain
	for i := range 2 {
		if err := srv.Deliver(ctx, fmt.Sprintf("turnmail+g%d@%s", i, testDomain), []byte(testMessage("p@x.org", user, fmt.Sprint("turn ", i), "pick 1"))); err != nil {
			t.Fatal(err)
		}
	}

	c := dialRaw(t, srv.IMAPAddr())
	c.ok("CAPABILITY", `^\* CAPABILITY IMAP4rev1 .*AUTH=PLAIN`)
	c.ok("AUTHENTICATE PLAIN " + "AHR1cm5tYWlsQHR1cm5tYWlsLmxvY2FsaG9zdAB0dXJubWFpbA==") // \0turnmail@turnmail.localhost\0turnmail
	caps := c.ok("CAPABILITY")
	for _, capName := range []string{"IDLE", "MOVE", "UIDPLUS", "NAMESPACE", "UNSELECT", "ESEARCH", "CHILDREN", "APPENDLIMIT="} {
		if !strings.Contains(caps[0], " "+capName) {
			t.Errorf("capability %s missing from %q", capName, caps[0])
		}
	}
	c.ok(`NAMESPACE`, `^\* NAMESPACE \(\("" "/"\)\) NIL NIL$`)
	c.ok(`LIST "" ""`, `^\* LIST \(\\Noselect\) "/" ""$`)
	c.ok(`CREATE Processed`)
	c.ok(`LSUB "" "*"`, `^\* LSUB \(.*\) "/" INBOX$`, `^\* LSUB \(.*\\Subscribed.*\) "/" "?Processed"?$`)
	c.ok(`LIST "" "*"`, `^\* LIST \(\\HasNoChildren\) "/" INBOX$`)
	c.ok(`STATUS INBOX (MESSAGES UNSEEN UIDNEXT UIDVALIDITY RECENT)`, `^\* STATUS INBOX \(MESSAGES 2 UIDNEXT 3 UIDVALIDITY \d+ UNSEEN 2 RECENT 0\)$`)
	c.ok(`SELECT INBOX`, `^\* 2 EXISTS$`, `^\* OK \[UIDVALIDITY \d+\]`, `^\* OK \[UIDNEXT 3\]`, `^\* OK \[UNSEEN 1\]`, `^\* OK \[PERMANENTFLAGS \(.*\\\*\)\]`)
	c.ok(`FETCH 1:* (UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[HEADER.FIELDS (FROM SUBJECT DELIVERED-TO)])`,
		`^\* 1 FETCH \(UID 1 FLAGS \(\) INTERNALDATE "[^"]+" RFC822.SIZE \d+ BODY\[HEADER.FIELDS \("FROM" "SUBJECT" "DELIVERED-TO"\)\] <Delivered-To: turnmail\+g0@`,
		`^\* 2 FETCH \(UID 2 `)
	c.ok(`UID FETCH 2 (BODYSTRUCTURE ENVELOPE)`, `^\* 2 FETCH \(UID 2 ENVELOPE \("Mon, 02 Jan 2006 15:04:05 \+0000" "turn 1" .* BODYSTRUCTURE \("text" "plain" `)
	c.ok(`UID STORE 1 +FLAGS (\Seen $Done)`, `^\* 1 FETCH \(UID 1 FLAGS \(\$Done \\Seen\)\)$`)
	c.ok(`UID SEARCH UNSEEN`, `^\* SEARCH 2$`)
	c.ok(`SEARCH RETURN (MIN MAX COUNT) ALL`, `^\* ESEARCH \(TAG "a\d+"\) MIN 1 MAX 2 COUNT 2$`)

	// MOVE: COPYUID, then exactly one EXPUNGE for the moved message.
	lines := c.ok(`UID MOVE 1 Processed`, `^\* OK \[COPYUID \d+ 1 1\]`)
	if n := count(lines, `EXPUNGE`); n != 1 || lines[len(lines)-1] != "* 1 EXPUNGE" {
		t.Errorf("UID MOVE sent %d EXPUNGE responses, want one (* 1 EXPUNGE):\n%s", n, strings.Join(lines, "\n"))
	}

	// A message delivered between commands has no sequence number for the
	// client yet: UID FETCH leaves it out rather than sending "* 0 FETCH",
	// and EXISTS follows.
	if err := srv.Deliver(ctx, user, []byte(testMessage("p@x.org", user, "late", "x"))); err != nil {
		t.Fatal(err)
	}
	lines = c.ok(`UID FETCH 1:* (FLAGS)`, `^\* 1 FETCH \(UID 2 FLAGS \(\)\)$`, `^\* 2 EXISTS$`)
	if n := count(lines, `^\* 0 `); n != 0 {
		t.Errorf("responses for sequence number 0:\n%s", strings.Join(lines, "\n"))
	}
	c.ok(`UID FETCH 3 (FLAGS)`, `^\* 2 FETCH \(UID 3 FLAGS \(\)\)$`)

	// IDLE, woken by a delivery; DONE ends it.
	c.n++
	c.send(fmt.Sprintf("a%d IDLE", c.n))
	if l := c.line(); !strings.HasPrefix(l, "+ ") {
		t.Fatalf("IDLE: %q", l)
	}
	if err := srv.Deliver(ctx, user, []byte(testMessage("p@x.org", user, "idle", "x"))); err != nil {
		t.Fatal(err)
	}
	if l := c.line(); l != "* 3 EXISTS" {
		t.Errorf("during IDLE: %q, want * 3 EXISTS", l)
	}
	c.send("DONE")
	if l := c.line(); !strings.HasPrefix(l, fmt.Sprintf("a%d OK", c.n)) {
		t.Errorf("after DONE: %q", l)
	}

	c.ok(`STORE 1:2 +FLAGS.SILENT (\Deleted)`)
	lines = c.ok(`EXPUNGE`)
	if strings.Join(lines, "|") != "* 2 EXPUNGE|* 1 EXPUNGE" {
		t.Errorf("EXPUNGE responses %q", lines)
	}
	if _, status := c.cmd("APPEND Processed (\\Seen) {12+}\r\nSubject: a\r\n"); !regexp.MustCompile(`^OK \[APPENDUID \d+ 2\]`).MatchString(status) {
		t.Errorf("APPEND: %s", status)
	}
	c.ok(`CLOSE`)
	if untagged, _ := c.cmd("LOGOUT"); len(untagged) == 0 || !strings.HasPrefix(untagged[0], "* BYE") {
		t.Errorf("LOGOUT: %q", untagged)
	}
}
