package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// maxDiagnostic bounds the diagnostic of a bounce quoted to a host.
const maxDiagnostic = 160

// provenBounce is a failed recipient of a delivery report matched to a mail we
// sent: the outbox row whose Message-ID the report names, sent to that recipient.
type provenBounce struct {
	addr   string // the recipient, as the outbox has it
	gameID string // the game the mail was about ("" for none)
	reason string // the sanitised diagnostic
}

// maxReturnPaths bounds the return-path tokens looked up for one report.
const maxReturnPaths = 5

// returnedMails returns the outbox mails a delivery report msg proves it returns:
// those whose Message-ID it names (d), and the one whose VERP return path it was
// sent to (a return-path token, valid for that mail's recipient, in the address the
// report came to).
func (s *Service) returnedMails(ctx context.Context, msg *parse.Message, d *parse.DSN) ([]store.OutMail, error) {
	var sent []store.OutMail
	for _, id := range d.MessageIDs {
		mails, err := s.store.OutboxByMessageID(ctx, id)
		if err != nil {
			return nil, err
		}
		sent = append(sent, mails...)
	}
	looked := 0
	for _, addr := range msg.Recipients() {
		token, ok := auth.TokenFrom(addr, s.local, s.domain)
		id, isBounce := auth.BounceID(token)
		if !ok || !isBounce || looked == maxReturnPaths {
			continue
		}
		looked++
		m, err := s.store.OutboxMail(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(m.To) == 1 && auth.VerifyBounce(s.opts.Secret, token, id, m.To[0]) {
			sent = append(sent, m)
		}
	}
	return sent, nil
}

// proveBounces returns the failed recipients of d that refer to a mail we sent to
// them (returnedMails) with that recipient. A recipient matches by its
// Original-Recipient or its Final-Recipient; each mail counts once.
func (s *Service) proveBounces(ctx context.Context, msg *parse.Message, d *parse.DSN) ([]provenBounce, error) {
	sent, err := s.returnedMails(ctx, msg, d)
	if err != nil {
		return nil, err
	}
	var out []provenBounce
	used := map[int64]bool{}
	for _, r := range d.Recipients {
		if !r.Failed() {
			continue
		}
		for _, m := range sent {
			if used[m.ID] || !(contains(m.To, r.Original) || contains(m.To, r.Final)) {
				continue
			}
			used[m.ID] = true
			addr := r.Final
			if !contains(m.To, addr) {
				addr = r.Original
			}
			reason := sanitiseDiagnostic(r.Diagnostic)
			if reason == "" {
				reason = sanitiseDiagnostic(r.Status)
			}
			if reason == "" {
				reason = "delivery failed"
			}
			out = append(out, provenBounce{addr: strings.ToLower(addr), gameID: m.GameID, reason: reason})
		}
	}
	return out, nil
}

// sanitiseDiagnostic makes a diagnostic from a delivery report fit to quote: one
// line of printable text, white space collapsed, at most maxDiagnostic characters.
func sanitiseDiagnostic(v string) string {
	v = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, v)
	v = strings.Join(strings.Fields(v), " ")
	if r := []rune(v); len(r) > maxDiagnostic {
		v = string(r[:maxDiagnostic-1]) + "…"
	}
	return v
}

// bounce handles a delivery status notification. It counts only for the failed
// recipients it proves (proveBounces: by a Message-ID or a VERP return path): their seats in the game whose mail bounced
// are marked unreachable, if the game is not finished, and the game's host is told
// (unless the host's own address bounced), with the recipient and the sanitised
// diagnostic only. A report that proves nothing is ignored, with the reason. A
// bounce is never answered. Everything is committed together, with the bounce's
// inbox row.
func (s *Service) bounce(ctx context.Context, in store.InboxMsg, msg *parse.Message) (Result, store.Batch, error) {
	d := msg.DSN
	if d == nil {
		d = &parse.DSN{}
	}
	failed := 0
	for _, r := range d.Recipients {
		if r.Failed() {
			failed++
		}
	}
	if failed == 0 {
		return Result{Status: StatusIgnored, Reason: "delivery status notification without a failed recipient"}, store.Batch{}, nil
	}
	proven, err := s.proveBounces(ctx, msg, d)
	if err != nil {
		return Result{}, store.Batch{}, err
	}
	if len(proven) == 0 {
		return Result{Status: StatusIgnored, Reason: fmt.Sprintf("bounce not believed: none of its %d failed recipients is named with a Message-ID or return path of a mail we sent them", failed)}, store.Batch{}, nil
	}
	stamp := func(reason string) string { return fmt.Sprintf("%s: %s", fmtTime(s.opts.Clock()), reason) }
	var marked, skipped []string
	var b store.Batch
	done := map[string]bool{} // game and address already handled
	for _, pb := range proven {
		key := pb.gameID + "\x00" + pb.addr
		if done[key] {
			continue
		}
		done[key] = true
		if pb.gameID == "" {
			skipped = append(skipped, pb.addr+" (mail about no game)")
			continue
		}
		g, players, err := s.store.Game(ctx, pb.gameID)
		if err != nil {
			return Result{}, store.Batch{}, err
		}
		if g.Status == store.GameFinished {
			skipped = append(skipped, pb.addr+" in finished "+g.ID)
			continue
		}
		c := store.Commit{GameID: g.ID}
		for _, p := range players {
			if !strings.EqualFold(p.Email, pb.addr) {
				continue
			}
			p.Unreachable = stamp(pb.reason)
			c.Players = append(c.Players, p)
			if g.Host != "" && !strings.EqualFold(g.Host, pb.addr) {
				n := templates.Notice{Kind: "bounce", Game: s.gameData(g, players), To: hostTo(g.Host, players), Player: p.Name, Address: pb.addr, Text: pb.reason,
					Lang: string(s.storedLang(ctx, g.Host, g))}
				m, err := s.notice(n, s.readerThread(ctx, g.ID, g.Host), g.ID, g.Host, "")
				if err != nil {
					return Result{}, store.Batch{}, err
				}
				c.Outbox = append(c.Outbox, m)
			}
			marked = append(marked, fmt.Sprintf("%s in %s", pb.addr, g.ID))
		}
		if len(c.Players) == 0 {
			skipped = append(skipped, pb.addr+" holds no seat in "+g.ID)
			continue
		}
		// The event log is untouched: reachability is bookkeeping, not game state.
		last, err := s.store.LastSeq(ctx, g.ID)
		if err != nil {
			return Result{}, store.Batch{}, err
		}
		c.ExpectSeq = last
		b.Commits = append(b.Commits, c)
	}
	if len(marked) == 0 {
		return Result{Status: StatusIgnored, Reason: "bounce for no running seat: " + strings.Join(skipped, "; ")}, store.Batch{}, nil
	}
	return Result{Status: StatusIgnored, Reason: "bounce: marked unreachable: " + strings.Join(marked, "; ")}, b, nil
}
