package service

import (
	"context"
	"strings"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// Nobody acts or gets mail in someone else's name. A From header proves nothing,
// so a lobby command that acts for a person — a host command, or join, leave,
// observe, unobserve for the sender — is done only with a proof:
//
//   - mail to the game's host reply address (auth.HostToken) from the host's
//     address proves the host; or
//   - a confirmation round trip: the command is stored (table confirmations, with
//     an expiry) and a request goes to the address it acts for, with a one-time
//     reply address (auth.ConfirmToken); the command runs only when a reply comes
//     back to that address from that address.
//
// An address that would get mail because of someone else's command (an invitee,
// the new holder of a replaced seat, a mailing list, a host asked to approve an
// observer) gets one request too, and nothing more about the game until it
// confirms: consents records that it was asked, said yes or declined. That one
// table, one token kind and one handler (confirmReply) serve every action.

// Grants are what a confirmation proves beyond the identity of whom it acts for.
const (
	// grantHost: the actor proved to be the game's host.
	grantHost = "host"
	// grantInvite: the host invited the actor (who may join a private game).
	grantInvite = "invite"
	// grantApprove: the host approved the actor observing a private game.
	grantApprove = "approve"
	// grantList: only the mailing list's consent to the game's mail.
	grantList = "list"
)

const (
	// confirmTTL is how long a confirmation request can be answered.
	confirmTTL = 7 * 24 * time.Hour
	// maxPendingPerAddress caps the requests waiting for one address's reply.
	maxPendingPerAddress = 5
)

// credential is what a lobby mail proves beyond its From header: nothing for mail
// to the plain service address.
type credential struct {
	// proven: the mail comes from the person the commands act for.
	proven bool
	// game is the game grant holds for.
	game  string
	grant string
	// consented is an address that confirmed from its own mailbox (for replace).
	consented string
}

// isHost reports whether the credential proves from to be the host of l.
func (c credential) isHost(l *Loaded, from string) bool {
	return c.game == l.Game.ID && c.grant == grantHost && l.Game.Host != "" && strings.EqualFold(from, l.Game.Host)
}

// HostAddress is the host reply address of a game: host commands sent to it from
// the host's address need no confirmation.
func (s *Service) HostAddress(gameID string) string {
	return auth.ReplyAddress(s.local, s.domain, auth.HostToken(s.opts.Secret, gameID))
}

// confirmAddress is the one-time reply address of a confirmation.
func (s *Service) confirmAddress(code string) string {
	return auth.ReplyAddress(s.local, s.domain, auth.ConfirmToken(s.opts.Secret, code))
}

// mayAsk reports whether an address may be sent a request about game l: not when
// it was asked before without saying yes, or declined.
func mayAsk(l *Loaded, addr string) bool {
	st := l.Consent[strings.ToLower(addr)]
	return st == "" || st == store.ConsentYes
}

// ask adds a confirmation request to c: the stored confirmation k (given a code
// and an expiry here), its mail to k.Address (a notice of kind "confirm" whose
// text is the template's; n.Text names the purpose) and, with mark, the record
// that the address was asked about the game.
//
// cause, when not "", is the writer whose command makes us write to a third party
// (an invitation, a list, a new address for a seat): the request is a contact,
// under the limits on mail to addresses that never wrote to us (see contact).
func (s *Service) ask(c *store.Commit, k store.Confirmation, n templates.Notice, mark bool, cause string) error {
	now := s.opts.Clock()
	k.Code = auth.NewCode()
	k.CreatedAt, k.ExpiresAt = now, now.Add(confirmTTL)
	n.Kind = "confirm"
	// A request is a lobby mail with a subject of its own, never in a game's thread
	// (see gameData, inThread): it goes to someone who may not want the game's mail.
	n.Game.Players = nil
	n.ReplyTo = s.confirmAddress(k.Code)
	n.Address = k.Address
	n.When = s.expiresIn(i18n.Lang(n.Lang), k.ExpiresAt)
	if n.Game.ID == "" && k.GameID != "" {
		n.Game.ID = k.GameID
	}
	m, err := s.notice(n, thread{}, k.GameID, k.Address, "")
	if err != nil {
		return err
	}
	if cause != "" {
		m = contact(m, cause)
	}
	c.Confirmations = append(c.Confirmations, k)
	c.Outbox = append(c.Outbox, m)
	if mark && k.GameID != "" {
		c.Consents = append(c.Consents, store.Consent{GameID: k.GameID, Address: k.Address, State: store.ConsentAsked})
	}
	return nil
}

// pend holds a lobby command until its sender confirms it (see lobbyTx.self): one
// request per game per mail, sent once the mail is read (askPending). Nothing is
// asked, and nothing answered, when the sender was asked about the game before
// without saying yes (unless they are its host) or has maxPendingPerAddress
// requests waiting: a forged mail must not make us mail its victim again.
func (s *Service) pend(ctx context.Context, tx *lobbyTx, l *Loaded, from, command string) (templates.Notice, error) {
	id := l.Game.ID
	k := tx.self[id]
	if k == nil {
		isHost := l.Game.Host != "" && strings.EqualFold(from, l.Game.Host)
		if !isHost && !mayAsk(l, from) {
			return templates.Notice{}, nil
		}
		n, err := s.store.PendingConfirmations(ctx, from, s.opts.Clock())
		if err != nil {
			return templates.Notice{}, err
		}
		if n+tx.asked[strings.ToLower(from)] >= maxPendingPerAddress {
			return templates.Notice{}, nil
		}
		k = &store.Confirmation{Address: from, Actor: from, GameID: id}
		if isHost {
			k.Grant = grantHost
		}
		tx.self[id] = k
		tx.selfOrder = append(tx.selfOrder, id)
		tx.asked[strings.ToLower(from)]++
	}
	k.Commands = append(k.Commands, command)
	return templates.Notice{Kind: "pending", Game: s.gameData(l.Game, l.Players), Text: command}, nil
}

// askPending sends the requests for the commands pend held, one per game.
func (s *Service) askPending(ctx context.Context, tx *lobbyTx) error {
	for _, id := range tx.selfOrder {
		k := tx.self[id]
		l, err := tx.load(ctx, id)
		if err != nil {
			return err
		}
		var c store.Commit
		// The request is in the language the sender wrote in, its commands in their words.
		n := templates.Notice{Game: s.gameData(l.Game, l.Players), Text: "self", Lines: s.commandsIn(tx.lang, "", k.Commands), Lang: string(tx.lang)}
		// A host's own requests are capped per address, not recorded as consent.
		mark := k.Grant != grantHost && l.Consent[strings.ToLower(k.Address)] == ""
		if err := s.ask(&c, *k, n, mark, ""); err != nil {
			return err
		}
		tx.asked[strings.ToLower(k.Address)]-- // counted by pend already
		tx.commit(c)
	}
	tx.self, tx.selfOrder = map[string]*store.Confirmation{}, nil
	return nil
}

// italianYes are first words of a reply that confirms in Italian.
var italianYes = map[string]bool{"sì": true, "si": true, "certo": true, "va": true}

// replyLang is the language of the answer to a reply to a confirmation request:
// Italian when the reply confirms in Italian (sì) or uses Italian command words, else
// the language known for actor, the address the commands act for.
func (s *Service) replyLang(ctx context.Context, actor string, msg *parse.Message) i18n.Lang {
	if len(msg.Commands) > 0 {
		if f := strings.Fields(engine.Normalize(msg.Commands[0].Text)); len(f) > 0 && italianYes[strings.Trim(f[0], ".,;:!?")] {
			return i18n.Italian
		}
	}
	if lang := s.commandsLang(msg); lang != "" {
		return lang
	}
	return s.senderLang(ctx, actor)
}

// declineWords are the first words of a reply that declines a confirmation request,
// in English and Italian ("no" is both); any other reply confirms ("yes", "sì", "ok" …).
var declineWords = map[string]bool{
	"no": true, "decline": true, "deny": true, "refuse": true, "nope": true,
	"rifiuto": true, "rifiuta": true, "declino": true, "nego": true, "niente": true,
}

// confirmReply handles a reply to a one-time confirmation address: from the address
// asked (or anyone, for a mailing list), it runs the stored commands with the proof
// the confirmation gives, or records that the address declined. The code is used up
// either way. Anything else — an unknown, used or expired code, another From — was
// refused by authenticate.
func (s *Service) confirmReply(ctx context.Context, p principal) (Result, store.Batch, error) {
	k, msg := p.conf, p.msg
	tx := s.newLobbyTx()
	tx.lang = s.replyLang(ctx, k.Actor, msg)
	c := store.Commit{Confirmed: []string{k.Code}}
	// who is the address whose consent this records: the one asked, or for an
	// approval the observer; a host confirming their own command records none.
	who := k.Address
	switch {
	case k.Grant == grantApprove:
		who = k.Actor
	case k.Grant == grantHost && strings.EqualFold(k.Address, k.Actor):
		who = ""
	}
	first := ""
	if len(msg.Commands) > 0 {
		if f := strings.Fields(engine.Normalize(msg.Commands[0].Text)); len(f) > 0 {
			first = strings.Trim(f[0], ".,;:!?") // "No." and "no, grazie" decline
		}
	}
	if declineWords[first] {
		if k.GameID != "" && who != "" {
			c.Consents = append(c.Consents, store.Consent{GameID: k.GameID, Address: who, State: store.ConsentNo})
		}
		tx.commit(c)
		return Result{Status: StatusRejected, Reason: "confirmation declined", GameID: k.GameID}, tx.batch, nil
	}
	if k.GameID != "" && who != "" {
		c.Consents = append(c.Consents, store.Consent{GameID: k.GameID, Address: who, State: store.ConsentYes})
	}
	tx.commit(c)
	if len(k.Commands) == 0 {
		return Result{Status: StatusApplied, Reason: "confirmed", GameID: k.GameID}, tx.batch, nil
	}
	lines := make([]parse.Line, len(k.Commands))
	for i, cmd := range k.Commands {
		lines[i] = parse.Line{N: i + 1, Text: cmd}
	}
	answers, ok, err := s.lobbyLines(ctx, tx, k.Actor, lines, msg, p.credential())
	if err != nil {
		return Result{}, store.Batch{}, err
	}
	return s.lobbyAnswer(ctx, tx, k.Actor, msg, answers, ok)
}

// expiresIn formats when a confirmation request expires for a reader of lang: in
// UTC, as the request may go to an address whose time zone nobody knows.
func (s *Service) expiresIn(lang i18n.Lang, t time.Time) string {
	if lang.Or(i18n.English) == i18n.English {
		return fmtTime(t)
	}
	return s.tmpl.When(string(lang), t, time.UTC)
}
