package parse

import (
	"strings"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// Bounds of what a delivery status notification yields: a hostile report costs
// little however many recipients or message ids it lists.
const (
	maxDSNRecipients = 50
	maxDSNMessageIDs = 20
	maxDSNReports    = 5
)

// DSN is what a delivery status notification (RFC 3464) says, read from its
// structure: the per-recipient fields of its message/delivery-status part, and the
// message ids of the mail it reports on. Every value is as the sender wrote it:
// nothing here is proof of anything until checked against what was sent.
type DSN struct {
	// Recipients are the per-recipient blocks, in order (at most 50).
	Recipients []DSNRecipient
	// MessageIDs are the ids (without brackets) the report names for the mail it
	// returns, without duplicates (at most 20): the Message-ID of a returned
	// message/rfc822 or text/rfc822-headers part, an Original-Message-ID field,
	// and the report's own In-Reply-To and References.
	MessageIDs []string
}

// DSNRecipient is one per-recipient block of a delivery status report.
type DSNRecipient struct {
	// Final and Original are the addresses of Final-Recipient and
	// Original-Recipient (lower-cased, "" when missing or not an address).
	Final, Original string
	// Action is the lower-cased Action ("failed", "delayed", "delivered" …).
	Action string
	// Status and Diagnostic are the Status and Diagnostic-Code values, unfolded.
	Status, Diagnostic string
}

// Failed reports whether the block says delivery failed for good.
func (r DSNRecipient) Failed() bool { return r.Action == "failed" }

// dsnParts are the parts of a report that ReadDSN reads, collected by walk.
type dsnParts struct {
	reports  [][]byte           // decoded message/delivery-status bodies
	returned []textproto.Header // headers of returned messages
}

// readDSN builds the report of a mail with header h from the parts walk found.
func readDSN(h *mail.Header, p dsnParts) *DSN {
	d := &DSN{}
	seen := map[string]bool{}
	addID := func(id string) {
		id = looseMsgID(id)
		if id != "" && len(id) <= 998 && !seen[id] && len(d.MessageIDs) < maxDSNMessageIDs {
			seen[id] = true
			d.MessageIDs = append(d.MessageIDs, id)
		}
	}
	for _, rh := range p.returned {
		addID(rh.Get("Message-Id"))
	}
	for n, body := range p.reports {
		if n == maxDSNReports {
			break
		}
		for i, block := range statusBlocks(body) {
			if i == 0 {
				// The per-message fields.
				addID(block.Get("Original-Message-Id"))
				continue
			}
			if len(d.Recipients) == maxDSNRecipients {
				break
			}
			d.Recipients = append(d.Recipients, DSNRecipient{
				Final:      typedAddress(block.Get("Final-Recipient")),
				Original:   typedAddress(block.Get("Original-Recipient")),
				Action:     strings.ToLower(strings.TrimSpace(block.Get("Action"))),
				Status:     strings.TrimSpace(block.Get("Status")),
				Diagnostic: strings.TrimSpace(block.Get("Diagnostic-Code")),
			})
		}
	}
	addID(h.Get("Original-Message-Id"))
	for _, key := range []string{"In-Reply-To", "References"} {
		for _, id := range msgIDList(h, key) {
			addID(id)
		}
	}
	return d
}

// statusBlocks splits a message/delivery-status body into its field blocks (the
// per-message block first), each read like a header.
func statusBlocks(body []byte) []textproto.Header {
	text := strings.ReplaceAll(string(body), "\r\n", "\n")
	var blocks []textproto.Header
	for _, chunk := range strings.Split(text, "\n\n") {
		if strings.TrimSpace(chunk) == "" {
			continue
		}
		h, _ := lenientHeader([]byte(chunk + "\n\n"))
		blocks = append(blocks, h)
		if len(blocks) > maxDSNRecipients {
			break
		}
	}
	return blocks
}

// typedAddress reads the address of an "rfc822; user@example.org" field; other
// address types and values without an address give "".
func typedAddress(v string) string {
	typ, addr, ok := strings.Cut(v, ";")
	if !ok || !strings.EqualFold(strings.TrimSpace(typ), "rfc822") {
		return ""
	}
	addr = strings.ToLower(strings.Trim(strings.TrimSpace(addr), "<>"))
	if strings.Count(addr, "@") != 1 || strings.ContainsAny(addr, " \t<>,;") || len(addr) > 254 {
		return ""
	}
	return addr
}
