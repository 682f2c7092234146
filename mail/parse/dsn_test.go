package parse

import (
	"reflect"
	"strings"
	"testing"
)

// dsnMail builds a multipart/report delivery status notification around status
// (the message/delivery-status body) and returned (an extra part, "" for none).
func dsnMail(header, status, returned string) string {
	m := "From: MAILER-DAEMON@mx.example\r\nTo: turnmail@games.example\r\nSubject: Undelivered Mail\r\n" + header +
		"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n" +
		"--b\r\nContent-Type: text/plain\r\n\r\nFinal-Recipient: rfc822; text@part.example\r\nAction: failed\r\n" +
		"--b\r\nContent-Type: message/delivery-status\r\n\r\n" + status
	if returned != "" {
		m += "--b\r\n" + returned
	}
	return m + "--b--\r\n"
}

func TestReadDSN(t *testing.T) {
	perMessage := "Reporting-MTA: dns; mx.example\r\n\r\n"
	tests := []struct {
		name     string
		raw      string
		wantRcpt []DSNRecipient
		wantIDs  []string
	}{
		{
			name: "failed recipient with returned headers",
			raw: dsnMail("", perMessage+"Final-Recipient: rfc822; Bob@Example.org\r\nOriginal-Recipient: rfc822;<bob@example.org>\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1\r\n  user unknown\r\n",
				"Content-Type: text/rfc822-headers\r\n\r\nFrom: turnmail@games.example\r\nMessage-ID: <g1.abc@games.example>\r\n\r\n"),
			wantRcpt: []DSNRecipient{{Final: "bob@example.org", Original: "bob@example.org", Action: "failed", Status: "5.1.1", Diagnostic: "smtp; 550 5.1.1 user unknown"}},
			wantIDs:  []string{"g1.abc@games.example"},
		},
		{
			name: "returned message, Original-Message-ID and threading headers",
			raw: dsnMail("In-Reply-To: <irt@games.example>\r\nReferences: <root@games.example> <irt@games.example>\r\n",
				"Reporting-MTA: dns; mx\r\nOriginal-Message-ID: <orig@games.example>\r\n\r\nFinal-Recipient: rfc822; a@x.org\r\nAction: delayed\r\nStatus: 4.4.1\r\n\r\nFinal-Recipient: rfc822; b@x.org\r\nAction: Failed\r\n",
				"Content-Type: message/rfc822\r\n\r\nMessage-ID: <ret@games.example>\r\nSubject: hi\r\n\r\nbody\r\n"),
			wantRcpt: []DSNRecipient{{Final: "a@x.org", Action: "delayed", Status: "4.4.1"}, {Final: "b@x.org", Action: "failed"}},
			wantIDs:  []string{"ret@games.example", "orig@games.example", "irt@games.example", "root@games.example"},
		},
		{
			name:     "other address types and garbage are no address",
			raw:      dsnMail("", perMessage+"Final-Recipient: x400; /C=US/\r\nOriginal-Recipient: rfc822; not an address\r\nAction: failed\r\n", ""),
			wantRcpt: []DSNRecipient{{Action: "failed"}},
		},
		{
			name: "recipients named only in the text part count for nothing",
			raw:  dsnMail("", perMessage, ""),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse([]byte(tt.raw), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !m.IsDSN || m.DSN == nil {
				t.Fatalf("IsDSN %v, DSN %v", m.IsDSN, m.DSN)
			}
			if !reflect.DeepEqual(m.DSN.Recipients, tt.wantRcpt) {
				t.Errorf("recipients %+v, want %+v", m.DSN.Recipients, tt.wantRcpt)
			}
			if !reflect.DeepEqual(m.DSN.MessageIDs, tt.wantIDs) {
				t.Errorf("message ids %q, want %q", m.DSN.MessageIDs, tt.wantIDs)
			}
		})
	}
}

// TestReadDSN_bounded: a report listing thousands of recipients and message ids
// yields at most the bounds.
func TestReadDSN_bounded(t *testing.T) {
	var status, refs strings.Builder
	status.WriteString("Reporting-MTA: dns; mx\r\n\r\n")
	for i := 0; i < 5000; i++ {
		status.WriteString("Final-Recipient: rfc822; p@x.org\r\nAction: failed\r\n\r\n")
		refs.WriteString(" <r" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "@x.org>")
	}
	m, err := Parse([]byte(dsnMail("References:"+refs.String()+"\r\n", status.String(), "")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(m.DSN.Recipients); n != maxDSNRecipients {
		t.Errorf("%d recipients, want %d", n, maxDSNRecipients)
	}
	if n := len(m.DSN.MessageIDs); n != maxDSNMessageIDs {
		t.Errorf("%d message ids, want %d", n, maxDSNMessageIDs)
	}
}
