package service

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/turnmail/turnmail/mail/compose"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// StatusFailed: processing the mail failed in a way that trying again cannot fix
// (a render error, an engine panic, a header that cannot be built, a failure that
// repeated). The mail is quarantined: stored with its error, its writer and the
// game's host told, and mail behind it goes on. Retry re-processes it after a fix.
const StatusFailed = store.InboxFailed

// ErrPanic is wrapped by the error of a mail whose processing panicked.
var ErrPanic = errors.New("panic while processing a mail")

// transientTries is how many times a mail that fails with a transient error (the
// database busy, the disk full) is offered again before it is quarantined too.
const transientTries = 5

// maxReasonBytes bounds the error text stored with a quarantined mail and mailed
// to the host.
const maxReasonBytes = 600

// guard runs f, turning a panic into an error wrapping ErrPanic (the stack goes to
// the log): a defect in an engine or a template fails one mail, not the daemon.
func (s *Service) guard(what string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("recovered panic", "while", what, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("%w: %s: %v", ErrPanic, what, p)
		}
	}()
	return f()
}

// routeGuarded is route with a panic kept as the route's failure (route.failed,
// quarantined by decide).
func (s *Service) routeGuarded(in store.InboxMsg) (rt route) {
	err := s.guard("reading a mail", func() error {
		rt = s.route(in)
		return nil
	})
	if err != nil {
		return route{failed: err}
	}
	return rt
}

// fail is the outcome of mail in, whose processing failed with cause: the only
// place a mail is quarantined. A failure that trying again cannot fix, or a
// transient one that repeated (mustQuarantine), quarantines it (quarantine);
// another is returned, and the mail is offered again later.
func (s *Service) fail(ctx context.Context, in store.InboxMsg, rt route, cause error) (Result, store.Batch, error) {
	if !s.mustQuarantine(in.DedupeKey, cause) {
		return Result{}, store.Batch{}, cause
	}
	res, c := s.quarantine(ctx, in, rt, cause)
	return res, store.Batch{Commits: []store.Commit{c}}, nil
}

// decideGuarded is decideRoute with panics recovered.
func (s *Service) decideGuarded(ctx context.Context, in store.InboxMsg, rt route) (res Result, b store.Batch, err error) {
	err = s.guard("deciding a mail", func() error {
		var err error
		res, b, err = s.decideRoute(ctx, in, rt)
		return err
	})
	return res, b, err
}

// mustQuarantine reports whether a mail whose processing failed with err is
// quarantined now, rather than offered again later: always for an error that
// repeats on a retry, and for a transient one once it happened transientTries
// times to the same mail.
func (s *Service) mustQuarantine(key string, err error) bool {
	if !store.IsTransient(err) {
		return true
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false // we are stopping: the mail waits for the next start
	}
	s.transientMu.Lock()
	defer s.transientMu.Unlock()
	if len(s.transient) > 1000 {
		clear(s.transient) // bounded: only the mails failing right now matter
	}
	s.transient[key]++
	if s.transient[key] < transientTries {
		return false
	}
	delete(s.transient, key)
	return true
}

// forgetTransient forgets the transient failures of a mail processed at last.
func (s *Service) forgetTransient(key string) {
	s.transientMu.Lock()
	defer s.transientMu.Unlock()
	delete(s.transient, key)
}

// quarantine decides the outcome of mail in, whose processing failed with cause:
// status StatusFailed with the (bounded) error, a notice to its writer when the
// mail may be answered at all, and one to the game's host. Building the notices
// never fails the quarantine: a notice that cannot be built is left out and logged.
func (s *Service) quarantine(ctx context.Context, in store.InboxMsg, rt route, cause error) (Result, store.Commit) {
	reason := boundText("processing failed: "+cause.Error(), maxReasonBytes)
	res := Result{Status: StatusFailed, Reason: reason, GameID: rt.gameID}
	s.log.Error("mail quarantined", "message_id", in.MessageID, "from", rt.from, "game", rt.gameID, "err", cause)
	c := store.Commit{InboxGameID: rt.gameID}
	if rt.reads == readsNothing || rt.bounce || rt.msg == nil {
		return res, c // never answered (auto-generated, our own, unreadable): nothing to tell
	}
	var g store.Game
	var players []store.Player
	if rt.gameID != "" {
		var err error
		if g, players, err = s.store.Game(ctx, rt.gameID); err != nil {
			s.log.Warn("quarantine: game not readable", "game", rt.gameID, "err", err)
			g = store.Game{}
		}
	}
	game := templates.Game{}
	if g.ID != "" {
		game = s.gameData(g, players)
	}
	subject := boundText(oneLine(rt.msg.Subject), 120)
	if s.mayTell(rt, players) {
		n := templates.Notice{Kind: "failed", Game: game, Text: subject, Host: g.Host, Lang: string(s.commandsLang(rt.msg).Or(s.storedLang(ctx, rt.from, g)))}
		if m, err := s.safeNotice(ctx, n, g.ID, rt.from, inReplyTo(rt.msg)); err == nil {
			c.Outbox = append(c.Outbox, m)
		}
	}
	if g.Host != "" {
		n := templates.Notice{Kind: "failed-host", Game: game, Address: rt.from, Text: reason, Lines: []string{subject}, Lang: string(s.storedLang(ctx, g.Host, g))}
		if m, err := s.safeNotice(ctx, n, g.ID, g.Host, ""); err == nil {
			c.Outbox = append(c.Outbox, m)
		}
	}
	return res, c
}

// mayTell reports whether the writer of a failed mail is told: the mail reached
// the lobby (which answers anyone), or it came with a game's reply token from that
// seat's own address (seatClaim, as authenticate checks it: the game itself is not
// loaded again, which may be what failed). A forged From with someone's token gets
// nothing.
func (s *Service) mayTell(rt route, players []store.Player) bool {
	if compose.CheckAddress(rt.from) != nil {
		return false
	}
	if rt.reads == readsAll {
		return true
	}
	_, why := seatClaim((&Loaded{Players: players}).Seats(), rt.seat, rt.from)
	return why == ""
}

// safeNotice is notice with panics and errors turned into a logged omission.
func (s *Service) safeNotice(ctx context.Context, n templates.Notice, gameID, to, inReply string) (store.OutMail, error) {
	var m store.OutMail
	err := s.guard("building a notice", func() error {
		var err error
		var th thread
		if gameID != "" {
			th = s.readerThread(ctx, gameID, to)
		}
		m, err = s.notice(n, th, gameID, to, inReply)
		return err
	})
	if err != nil {
		s.log.Error("notice left out", "kind", n.Kind, "to", to, "err", err)
	}
	return m, err
}

// boundText cuts s to at most n bytes (at a rune boundary), marking the cut.
func boundText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// oneLine folds white space (line breaks included) to single spaces and drops
// control characters.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// Retry processes quarantined mail id again (after the fault was fixed): it is set
// pending and processed as when it arrived. It fails with an error wrapping
// store.ErrNotFound when id is not quarantined.
func (s *Service) Retry(ctx context.Context, id int64) (Result, error) {
	if err := s.store.RequeueInbox(ctx, id); err != nil {
		return Result{}, err
	}
	return s.processStored(ctx, id)
}
