package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// Timer kinds.
const timerExpire = "expire"

func remindKind(d time.Duration) string { return "remind-" + fmtDuration(d) }

// Tick fires the deadline timers that are due at the service clock's now: reminders
// to the players who must act, and the game's policy when a deadline passed. Each
// timer is marked in the same transaction as the mails and events it causes, so it
// fires once, across restarts. It returns the number of timers fired.
//
// A tick looks only at the running games whose next timer is due, or whose next
// due time is not known because they changed since it was computed (the store
// forgets it in the transaction of every event, status or settings change; see
// store.DueGames): its cost follows the games due or changed, not the games
// stored. Having looked at a game, it stores the game's next due time. A restart
// trusts the stored times when they were computed by the same deadline rules
// (dueRules, stored in the database); the first tick of a program with other rules
// looks at every running game once, to compute them again.
func (s *Service) Tick(ctx context.Context) (int, error) {
	s.tickMu.Lock()
	defer s.tickMu.Unlock()
	now := s.opts.Clock().UTC()
	upTo := now
	sweep := false
	if !s.swept {
		rules, err := s.store.Meta(ctx, dueRulesKey)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return 0, fmt.Errorf("tick: %w", err)
		}
		if sweep = rules != dueRules; sweep {
			upTo = time.Time{} // every running game
		}
	}
	games, err := s.store.DueGames(ctx, upTo)
	if err != nil {
		return 0, fmt.Errorf("tick: %w", err)
	}
	fired := 0
	next := make([]store.DueGame, 0, len(games))
	for _, g := range games {
		var (
			n  int
			at time.Time
		)
		err := s.guard("firing deadline timers", func() error {
			var err error
			n, at, err = s.tickGame(ctx, g.ID, now)
			return err
		})
		fired += n
		if err != nil {
			s.log.Error("deadline timers", "game", g.ID, "err", err)
			stalled := s.mustQuarantine("timers:"+g.ID, err)
			if !stalled {
				continue // its due time stays: the next tick tries again
			}
			if perr := s.pauseStalled(ctx, g.ID, err); perr != nil {
				s.log.Error("pausing a game whose timers fail", "game", g.ID, "err", perr)
				continue
			}
			g.At = time.Time{} // paused: no timer until it resumes
		}
		g.At = at
		next = append(next, g)
	}
	if _, err := s.store.SetDue(ctx, next); err != nil {
		return fired, fmt.Errorf("tick: %w", err)
	}
	if sweep {
		if err := s.store.SetMeta(ctx, dueRulesKey, dueRules); err != nil {
			return fired, fmt.Errorf("tick: %w", err)
		}
	}
	s.swept = true
	s.tellHeldLogged(ctx)
	return fired, nil
}

// dueRules names the rules by which the stored due times were computed (deadlines,
// reminders, vacations, what a deadline that passed does): change it with them, and
// the first tick after an upgrade computes every running game's due time again.
const (
	dueRules    = "1"
	dueRulesKey = "due_rules"
)

// tickGame fires the timers of game id that are due at now. It returns how many
// fired and when the game's next timer can fire (the zero time: none pending;
// now: look again at the next tick).
func (s *Service) tickGame(ctx context.Context, id string, now time.Time) (int, time.Time, error) {
	defer s.locks.lock(id)()
	s.tickLooks.Add(1)
	l, err := s.Load(ctx, id)
	if err != nil {
		return 0, now, err
	}
	deadlines := l.Deadlines()
	if len(deadlines) == 0 {
		return 0, time.Time{}, nil
	}
	done, err := s.firedTimers(ctx, id)
	if err != nil {
		return 0, now, err
	}
	fired := 0
	for _, d := range deadlines {
		if !now.Before(d.Due) {
			if done[expireTimer(d)] {
				continue
			}
			err := s.expire(ctx, l, d, expireTimer(d))
			if errors.Is(err, store.ErrDuplicate) || errors.Is(err, store.ErrStaleSeq) {
				return fired, now, nil // fired by another process, or the game moved: next tick
			}
			if err != nil {
				return fired, now, err
			}
			return fired + 1, now, nil // the game changed: the other seats wait for the next tick
		}
		n, err := s.remind(ctx, l, d, done, now)
		if errors.Is(err, store.ErrDuplicate) || errors.Is(err, store.ErrStaleSeq) {
			return fired, now, nil
		}
		if err != nil {
			return fired, now, err
		}
		fired += n
	}
	return fired, nextDue(l, deadlines, done), nil
}

// firedTimers returns the timers of a game that fired, keyed without their time.
func (s *Service) firedTimers(ctx context.Context, id string) (map[store.Timer]bool, error) {
	timers, err := s.store.Timers(ctx, id)
	if err != nil {
		return nil, err
	}
	done := make(map[store.Timer]bool, len(timers))
	for _, t := range timers {
		t.FiredAt = time.Time{}
		done[t] = true
	}
	return done, nil
}

// expireTimer is the timer of deadline d's expiry.
func expireTimer(d Deadline) store.Timer {
	return store.Timer{Seat: d.Seat, StartSeq: d.StartSeq, Kind: timerExpire}
}

// remindTimer is the timer of the reminder the given time before deadline d.
func remindTimer(d Deadline, before time.Duration) store.Timer {
	return store.Timer{Seat: d.Seat, StartSeq: d.StartSeq, Kind: remindKind(before)}
}

// reminder is one reminder timer of a deadline and when it fires.
type reminder struct {
	timer store.Timer
	at    time.Time
}

// reminders are deadline d's reminders, in the order of the settings: those after
// the turn began (a reminder due before it never fires).
func reminders(l *Loaded, d Deadline) []reminder {
	var out []reminder
	for _, r := range l.Settings.reminders() {
		if at := d.Due.Add(-r); at.After(d.Start) {
			out = append(out, reminder{remindTimer(d, r), at})
		}
	}
	return out
}

// remind sends one mail for the reminders of deadline d that are due at now and
// did not fire (several when the service was down), and marks them in done.
func (s *Service) remind(ctx context.Context, l *Loaded, d Deadline, done map[store.Timer]bool, now time.Time) (int, error) {
	var due []store.Timer
	for _, r := range reminders(l, d) {
		if !now.Before(r.at) && !done[r.timer] {
			due = append(due, r.timer)
		}
	}
	if len(due) == 0 {
		return 0, nil
	}
	id := l.Game.ID
	p, _ := seatOf(l, d.Seat)
	lang := s.langOf(l.Settings, p.Name)
	n := templates.Notice{Kind: "reminder", Game: s.gameData(l.Game, l.Players), To: p.Name, Player: p.Name, Due: s.when(l, p.Name, d.Due),
		Text: durationIn(s.tr, lang, d.Due.Sub(now).Round(time.Minute)), Lang: string(lang), ReplyTo: s.replyAddr(id, p), Host: l.Game.Host}
	n.Legal, n.LegalNotes = s.legalIn(l, l.State, p.Name)
	m, err := s.notice(n, l.threadOf(p.Email), id, p.Email, "")
	if err != nil {
		return 0, err
	}
	c := store.Commit{GameID: id, ExpectSeq: l.LastSeq(), Timers: due, Outbox: []store.OutMail{m}}
	if err := s.store.Commit(ctx, s.limited(c, "", false)); err != nil {
		return 0, err
	}
	for _, t := range due {
		done[t] = true
	}
	s.log.Info("reminder sent", "game", id, "player", p.Name, "due", d.Due)
	return 1, nil
}

// nextDue is when the next timer of a game with these deadlines can fire, given
// the timers that fired: the earliest expiry or reminder not fired of a deadline
// whose expiry has not fired; the zero time when there is none. It depends on the
// game's events, status and settings only, not on the clock, so a clock that
// jumps (either way) needs no recomputation.
func nextDue(l *Loaded, deadlines []Deadline, done map[store.Timer]bool) time.Time {
	var next time.Time
	earliest := func(t time.Time) {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	for _, d := range deadlines {
		if done[expireTimer(d)] {
			continue
		}
		earliest(d.Due)
		for _, r := range reminders(l, d) {
			if !done[r.timer] {
				earliest(r.at)
			}
		}
	}
	return next
}

// expire applies the game's policy to a deadline that passed.
func (s *Service) expire(ctx context.Context, l *Loaded, d Deadline, t store.Timer) error {
	p, _ := seatOf(l, d.Seat)
	r := s.newRun(ctx, l, "", "")
	r.c.Timers = []store.Timer{t}
	policy := l.Settings.expiry()
	if engine.Responding(l.State, p.Name) {
		policy = ExpirySkip // a missed response is declined: it never stops the game
	}
	base := templates.Notice{Player: p.Name}
	// due is the deadline for a reader of lang, in the game's zone (the notices of a
	// deadline go to several readers).
	due := func(lang i18n.Lang) string { return s.tmpl.When(string(lang), d.Due, l.Settings.location("")) }
	switch policy {
	case ExpirySkip:
		var cmds []string
		if sk, ok := l.State.(engine.Skipper); ok {
			cmds = sk.SkipCommands(p.Name)
		}
		if len(cmds) == 0 {
			r.admin(p.Name, adminPayload{Act: adminDeadline, Player: p.Name, Policy: nothingToSkip})
			n := base
			n.Kind, n.Due = "deadline-noskip", due(r.langTo(l.Game.Host))
			r.notify(l.Game.Host, n)
			break
		}
		r.admin(p.Name, adminPayload{Act: adminDeadline, Player: p.Name, Policy: ExpirySkip})
		first := len(l.Events) + len(r.c.Events)
		for _, c := range cmds {
			if err := r.move(p.Name, engine.Normalize(c)); err != nil {
				return fmt.Errorf("skip command %q: %w", c, err)
			}
		}
		n := base
		n.Kind, n.Due, n.Lines = "deadline-skipped", due(r.langTo(p.Email)), s.accountLines(r.view(), first, p, r.langTo(p.Email))
		r.notify(p.Email, n)
	case ExpiryPause:
		r.admin(p.Name, adminPayload{Act: adminDeadline, Player: p.Name, Policy: ExpiryPause})
		r.status = store.GamePaused
		n := base
		n.Kind = "deadline-paused"
		r.notifyEach(n, false, func(lang i18n.Lang, n *templates.Notice) { n.Due = due(lang) })
	case ExpiryReplace:
		r.admin(p.Name, adminPayload{Act: adminDeadline, Player: p.Name, Policy: ExpiryReplace})
		n := base
		n.Kind, n.Address, n.Due = "deadline-replace", p.Email, due(r.langTo(l.Game.Host))
		n.ReplyTo = s.HostAddress(l.Game.ID) // replace GAME PLAYER ADDRESS works there at once
		n.HostReply = n.ReplyTo
		if l.Game.Host != "" {
			r.notify(l.Game.Host, n)
		}
	}
	if err := r.finish("", nil, nil); err != nil {
		return err
	}
	if err := s.store.Commit(ctx, s.limited(r.c, "", false)); err != nil {
		return err
	}
	s.log.Info("deadline passed", "game", l.Game.ID, "player", p.Name, "policy", policy)
	return nil
}

// pauseStalled pauses game id after firing its deadline timers failed with cause in
// a way that trying again cannot fix (an engine panic on a skip, a render error), so
// that one game's defect neither stalls it silently nor fills the log every minute:
// the players are told the game is paused and the host gets the error; resume, after
// the fault is fixed or the deadline changed, starts the deadlines again.
func (s *Service) pauseStalled(ctx context.Context, id string, cause error) error {
	defer s.locks.lock(id)()
	l, err := s.Load(ctx, id)
	if err != nil {
		return fmt.Errorf("pause stalled game %s: %w", id, err)
	}
	if l.Game.Status != store.GameRunning {
		return nil
	}
	r := s.newRun(ctx, l, "", "")
	r.admin("", adminPayload{Act: adminPause})
	r.status = store.GamePaused
	r.notifyAll(templates.Notice{Kind: "paused", Actor: "the service"})
	if l.Game.Host != "" {
		reply := s.HostAddress(l.Game.ID)
		r.notify(l.Game.Host, templates.Notice{Kind: "timers-failed", Text: boundText(cause.Error(), maxReasonBytes), ReplyTo: reply, HostReply: reply})
	}
	if err := r.finish("", nil, nil); err != nil {
		return fmt.Errorf("pause stalled game %s: %w", id, err)
	}
	if err := s.store.Commit(ctx, s.limited(r.c, "", false)); err != nil {
		return fmt.Errorf("pause stalled game %s: %w", id, err)
	}
	s.log.Warn("game paused: its deadline timers fail", "game", id, "err", cause)
	return nil
}
