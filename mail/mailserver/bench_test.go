package mailserver

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
)

// BenchmarkSMTPToIMAP delivers b.N messages over one SMTP connection, then
// fetches them all (UID FETCH 1:* BODY.PEEK[]) over IMAP. It reports the
// end-to-end rate and the rate of each half.
//
//	go test -run '^$' -bench SMTPToIMAP -benchtime 2000x ./mail/mailserver
func BenchmarkSMTPToIMAP(b *testing.B) {
	srv := newTestServer(b, nil)
	user := "turnmail@" + testDomain
	body := strings.Repeat("conquer 12\r\nredeploy 12=3 7=2\r\n", 20) // ~700 bytes, a typical turn reply
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	imapc := dialIMAP(b, srv.IMAPAddr(), user, DefaultPassword, nil)
	if _, err := imapc.Select("INBOX", nil).Wait(); err != nil {
		b.Fatal(err)
	}

	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		msg := testMessage("p@x.org", "turnmail+tok@"+testDomain, fmt.Sprint("turn ", i), body)
		if err := c.SendMail("p@x.org", []string{"turnmail+tok@" + testDomain}, strings.NewReader(msg)); err != nil {
			b.Fatal(err)
		}
	}
	sent := time.Since(start)

	start = time.Now()
	if err := imapc.Noop().Wait(); err != nil {
		b.Fatal(err)
	}
	msgs, err := imapc.Fetch(imap.UIDSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{
		UID: true, Flags: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}},
	}).Collect()
	if err != nil {
		b.Fatal(err)
	}
	fetched := time.Since(start)
	b.StopTimer()
	if len(msgs) != b.N {
		b.Fatalf("fetched %d messages, want %d", len(msgs), b.N)
	}
	b.ReportMetric(float64(b.N)/(sent+fetched).Seconds(), "msgs/s")
	b.ReportMetric(float64(b.N)/sent.Seconds(), "smtp-msgs/s")
	b.ReportMetric(float64(b.N)/fetched.Seconds(), "fetch-msgs/s")
}
