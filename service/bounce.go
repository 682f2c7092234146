package service

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

var (
	dsnRecipient = regexp.MustCompile(`(?im)^(?:final|original)-recipient:\s*rfc822\s*;\s*<?([^>\s]+@[^>\s]+)>?`)
	dsnAction    = regexp.MustCompile(`(?im)^action:\s*(\S+)`)
	dsnDiag      = regexp.MustCompile(`(?im)^diagnostic-code:\s*(.+)$`)
	dsnStatus    = regexp.MustCompile(`(?im)^status:\s*(.+)$`)
)

// bounceInfo reads the failed recipients and the reason from a delivery status
// notification. Delays and successful deliveries give no recipients.
func bounceInfo(raw []byte) (addrs []string, reason string) {
	text := string(raw)
	failed := false
	for _, m := range dsnAction.FindAllStringSubmatch(text, -1) {
		if strings.EqualFold(m[1], "failed") {
			failed = true
		}
	}
	if !failed {
		return nil, ""
	}
	seen := map[string]bool{}
	for _, m := range dsnRecipient.FindAllStringSubmatch(text, -1) {
		a := strings.ToLower(strings.TrimSpace(m[1]))
		if !seen[a] {
			seen[a] = true
			addrs = append(addrs, a)
		}
	}
	if m := dsnDiag.FindStringSubmatch(text); m != nil {
		reason = strings.TrimSpace(m[1])
	} else if m := dsnStatus.FindStringSubmatch(text); m != nil {
		reason = strings.TrimSpace(m[1])
	}
	return addrs, reason
}

// bounce handles a delivery status notification: every seat of an unfinished game
// held by a failed recipient is marked unreachable, and the game's host is told
// (unless the host's own address bounced). A bounce is never answered. Everything
// is committed together, with the bounce's inbox row.
func (s *Service) bounce(ctx context.Context, in store.InboxMsg, msg *parse.Message) (Result, store.Batch, error) {
	addrs, reason := bounceInfo(in.Raw)
	if len(addrs) == 0 {
		return Result{Status: StatusIgnored, Reason: "delivery status notification without a failed recipient"}, store.Batch{}, nil
	}
	if reason == "" {
		reason = "delivery failed"
	}
	stamp := fmt.Sprintf("%s: %s", fmtTime(s.opts.Clock()), reason)
	var marked []string
	var b store.Batch
	for _, addr := range addrs {
		seats, err := s.store.SeatsOf(ctx, addr)
		if err != nil {
			return Result{}, store.Batch{}, err
		}
		for _, p := range seats {
			g, _, err := s.store.Game(ctx, p.GameID)
			if err != nil {
				return Result{}, store.Batch{}, err
			}
			if g.Status == store.GameFinished {
				continue
			}
			p.Unreachable = stamp
			c := store.Commit{GameID: g.ID, Players: []store.Player{p}}
			// The event log is untouched: reachability is bookkeeping, not game state.
			last, err := s.store.LastSeq(ctx, g.ID)
			if err != nil {
				return Result{}, store.Batch{}, err
			}
			c.ExpectSeq = last
			if g.Host != "" && !strings.EqualFold(g.Host, addr) {
				m, err := s.notice(templates.Notice{Kind: "bounce", Game: s.gameData(g), To: "host", Player: p.Name, Address: addr, Text: reason}, g.ID, g.Host, "")
				if err != nil {
					return Result{}, store.Batch{}, err
				}
				c.Outbox = append(c.Outbox, m)
			}
			b.Commits = append(b.Commits, c)
			marked = append(marked, fmt.Sprintf("%s in %s", addr, g.ID))
		}
	}
	if len(marked) == 0 {
		return Result{Status: StatusIgnored, Reason: "bounce for an address in no running game: " + strings.Join(addrs, ", ")}, store.Batch{}, nil
	}
	return Result{Status: StatusIgnored, Reason: "bounce: marked unreachable: " + strings.Join(marked, "; ")}, b, nil
}
