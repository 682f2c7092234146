package service

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// Inbox statuses written by the service.
const (
	// StatusApplied: at least one command line became an event.
	StatusApplied = "applied"
	// StatusRejected: the mail was answered (or deliberately not) and nothing applied.
	StatusRejected = "rejected"
	// StatusIgnored: auto-generated mail, our own mail, or an unknown sender; no answer.
	StatusIgnored = "ignored"
)

// Result says what became of one incoming mail.
type Result struct {
	InboxID int64
	// Status is StatusApplied, StatusRejected or StatusIgnored.
	Status string
	// Reason explains a rejection or why the mail was ignored.
	Reason string
	GameID string
	// Applied counts the command lines that became events.
	Applied int
	// Duplicate is true when the mail had been received before.
	Duplicate bool
}

// Receive stores a raw incoming mail (deduplicated by Message-ID, or by a hash of the
// bytes) and processes it. A mail received before is not processed again.
func (s *Service) Receive(ctx context.Context, in store.InboxMsg) (Result, error) {
	if in.ReceivedAt.IsZero() {
		in.ReceivedAt = s.opts.Clock()
	}
	if in.Status == "" {
		in.Status = "pending"
	}
	if in.MessageID == "" {
		in.MessageID = headerMessageID(in.Raw)
	}
	id, dup, err := s.store.AddInbox(ctx, in)
	if err != nil {
		return Result{}, fmt.Errorf("receive: %w", err)
	}
	if dup {
		m, err := s.store.Inbox(ctx, id)
		if err != nil {
			return Result{}, fmt.Errorf("receive: %w", err)
		}
		if m.Status != "pending" {
			return Result{InboxID: id, Status: m.Status, Reason: m.Error, GameID: m.GameID, Duplicate: true}, nil
		}
	}
	return s.Process(ctx, id)
}

// ProcessPending processes every stored mail not yet processed (after a crash, the
// mails that were stored but not interpreted).
func (s *Service) ProcessPending(ctx context.Context) (int, error) {
	n := 0
	for {
		batch, err := s.store.PendingInbox(ctx, 100)
		if err != nil {
			return n, fmt.Errorf("pending inbox: %w", err)
		}
		if len(batch) == 0 {
			return n, nil
		}
		for _, m := range batch {
			if _, err := s.Process(ctx, m.ID); err != nil {
				return n, err
			}
			n++
		}
	}
}

// Process interprets stored mail id: authenticates it, applies its command lines and
// commits the events, the mails reporting them and the mail's new status in one
// transaction. Processing a mail that is no longer pending does nothing.
func (s *Service) Process(ctx context.Context, id int64) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for attempt := 0; ; attempt++ {
		m, err := s.store.Inbox(ctx, id)
		if err != nil {
			return Result{}, fmt.Errorf("process mail %d: %w", id, err)
		}
		if m.Status != "pending" {
			return Result{InboxID: id, Status: m.Status, Reason: m.Error, GameID: m.GameID, Duplicate: true}, nil
		}
		res, c, err := s.decide(ctx, m)
		if err != nil {
			return Result{}, fmt.Errorf("process mail %d: %w", id, err)
		}
		res.InboxID = id
		c.InboxID, c.InboxStatus, c.InboxError = id, res.Status, res.Reason
		err = s.store.Commit(ctx, c)
		if errors.Is(err, store.ErrStaleSeq) && attempt < 3 {
			continue // another process appended first: re-check against the new state
		}
		if err != nil {
			return Result{}, fmt.Errorf("process mail %d: commit: %w", id, err)
		}
		s.log.Info("mail processed", "inbox", id, "status", res.Status, "reason", res.Reason, "game", res.GameID, "applied", res.Applied)
		return res, nil
	}
}

// decide interprets one mail and returns what to commit.
func (s *Service) decide(ctx context.Context, in store.InboxMsg) (Result, store.Commit, error) {
	ignore := func(reason string) (Result, store.Commit, error) {
		return Result{Status: StatusIgnored, Reason: reason}, store.Commit{}, nil
	}
	msg, err := parse.Parse(in.Raw, &parse.Options{MaxSize: int(s.opts.MaxMessageBytes)})
	tooLarge := errors.Is(err, parse.ErrTooLarge)
	if tooLarge {
		// Read only the header: enough to authenticate the writer and tell them.
		msg, err = parse.Parse(headerOf(in.Raw), nil)
	}
	if err != nil {
		return Result{Status: StatusRejected, Reason: "unreadable mail: " + err.Error()}, store.Commit{}, nil
	}
	from := strings.ToLower(msg.From.Address)
	switch {
	case msg.IsDSN:
		return s.bounce(ctx, in, msg)
	case msg.Auto != "":
		return ignore("auto-generated mail: " + msg.Auto)
	case msg.Header.Get("X-Turnmail") != "" || from == s.local+"@"+s.domain || strings.HasPrefix(from, s.local+"+") && strings.HasSuffix(from, "@"+s.domain):
		return ignore("turnmail's own mail")
	case from == "":
		return ignore("no From address")
	}
	token, ok := s.tokenOf(msg)
	if !ok {
		if msg.ListID != "" || msg.Precedence == "list" {
			// A post to a game's mailing list reaches us as a list member: moves come
			// only through the players' own reply addresses, and the list gets no answer.
			return ignore("mailing-list post without a reply token")
		}
		if tooLarge {
			return Result{Status: StatusRejected, Reason: "mail too large, without a reply token"}, store.Commit{}, nil
		}
		return s.lobby(ctx, from, msg)
	}
	gameID, seat, err := auth.Parse(s.opts.Secret, token)
	if err != nil {
		return Result{Status: StatusRejected, Reason: "invalid reply token"}, store.Commit{}, nil
	}
	l, err := s.Load(ctx, gameID)
	if errors.Is(err, store.ErrNotFound) {
		return Result{Status: StatusRejected, Reason: "reply token names an unknown game", GameID: gameID}, store.Commit{}, nil
	}
	if err != nil {
		return Result{}, store.Commit{}, err
	}
	if l.State == nil {
		return Result{Status: StatusRejected, Reason: "the game has not started", GameID: gameID}, store.Commit{}, nil
	}
	player, ok := seatOf(l, seat%epochStride)
	if !ok {
		return Result{Status: StatusRejected, Reason: "reply token names an unknown seat", GameID: gameID}, store.Commit{}, nil
	}
	if player.Epoch != seat/epochStride {
		// The seat was handed to another address: the old reply address is dead. No
		// answer (the old player was told when it happened).
		return Result{Status: StatusRejected, Reason: fmt.Sprintf("reply address no longer valid: the seat of %s was handed to another player", player.Name), GameID: gameID}, store.Commit{}, nil
	}
	if !strings.EqualFold(player.Email, from) {
		// A valid token with another From is a forgery or a second address: no answer
		// (that would be backscatter); the host sees the reason.
		return Result{Status: StatusRejected, Reason: fmt.Sprintf("From %s is not the address of %s", from, player.Name), GameID: gameID}, store.Commit{}, nil
	}
	if tooLarge {
		return s.refuse(l, player, inReplyTo(msg), fmt.Sprintf(
			"Your mail was too large to read (over %d KB; attachments count). Nothing was applied: reply again with just your commands.",
			s.opts.MaxMessageBytes/1024), nil)
	}
	return s.play(ctx, l, player, msg)
}

// tokenOf finds a reply token among the addresses the mail was sent to.
func (s *Service) tokenOf(msg *parse.Message) (string, bool) {
	for _, addr := range msg.Recipients() {
		if t, ok := auth.TokenFrom(addr, s.local, s.domain); ok && t != "" {
			return t, true
		}
	}
	return "", false
}

func seatOf(l *Loaded, seat int) (store.Player, bool) {
	for _, p := range l.Seats() {
		if p.Seat == seat {
			return p, true
		}
	}
	return store.Player{}, false
}

// reasonOf turns an engine error into text a player can act on.
func reasonOf(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Error()
	}
	return err.Error()
}

// howTo answers a registered player who wrote without a reply token; anyone else gets
// nothing.
func (s *Service) howTo(ctx context.Context, from string, msg *parse.Message) (Result, store.Commit, error) {
	seats, err := s.store.SeatsOf(ctx, from)
	if err != nil {
		return Result{}, store.Commit{}, err
	}
	data := templates.HowTo{Service: s.local + "@" + s.domain}
	for _, p := range seats {
		if p.Role != store.RolePlayer {
			continue
		}
		g, _, err := s.store.Game(ctx, p.GameID)
		if err != nil {
			return Result{}, store.Commit{}, err
		}
		if g.Status == store.GameFinished || g.Status == store.GameOpen {
			continue // no moves there: nothing to tell
		}
		data.Player = p.Name
		data.Games = append(data.Games, templates.HowToGame{
			Game:    templates.Game{ID: g.ID, Kind: g.Kind, Title: templates.GameTitle(g.Kind)},
			ReplyTo: s.replyAddr(g.ID, p),
		})
	}
	if len(data.Games) == 0 {
		return Result{Status: StatusIgnored, Reason: "unknown sender without a reply token"}, store.Commit{}, nil
	}
	res := Result{Status: StatusRejected, Reason: "no reply token; told the player how to reply"}
	if !s.limiter.Allow(from, s.opts.Clock()) {
		res.Reason = "no reply token (not answered: reply limit reached)"
		return res, store.Commit{}, nil
	}
	out, err := s.mail("howto", data, "", from, "", inReplyTo(msg), nil, "auto-replied")
	if err != nil {
		return res, store.Commit{}, err
	}
	return res, store.Commit{Outbox: []store.OutMail{out}}, nil
}

func inReplyTo(msg *parse.Message) string {
	if msg.MessageID == "" {
		return ""
	}
	return msg.MessageID
}
