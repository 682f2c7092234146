package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/turnmail/turnmail/engine"
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
func (s *Service) Tick(ctx context.Context) (int, error) {
	games, err := s.store.Games(ctx)
	if err != nil {
		return 0, fmt.Errorf("tick: %w", err)
	}
	fired := 0
	for _, g := range games {
		if g.Status != store.GameRunning {
			continue
		}
		n, err := s.tickGame(ctx, g.ID)
		fired += n
		if err != nil {
			s.log.Error("deadline timers", "game", g.ID, "err", err)
		}
	}
	return fired, nil
}

func (s *Service) tickGame(ctx context.Context, id string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := s.Load(ctx, id)
	if err != nil {
		return 0, err
	}
	deadlines := l.Deadlines()
	if len(deadlines) == 0 {
		return 0, nil
	}
	done, err := s.store.Timers(ctx, id)
	if err != nil {
		return 0, err
	}
	isDone := map[store.Timer]bool{}
	for _, t := range done {
		t.FiredAt = time.Time{}
		isDone[t] = true
	}
	now := s.opts.Clock().UTC()
	fired := 0
	for _, d := range deadlines {
		expire := store.Timer{Seat: d.Seat, StartSeq: d.StartSeq, Kind: timerExpire}
		if !now.Before(d.Due) {
			if isDone[expire] {
				continue
			}
			err := s.expire(ctx, l, d, expire)
			if errors.Is(err, store.ErrDuplicate) || errors.Is(err, store.ErrStaleSeq) {
				return fired, nil // fired by another process, or the game moved: next tick
			}
			if err != nil {
				return fired, err
			}
			return fired + 1, nil // the game changed: the other seats wait for the next tick
		}
		var due []store.Timer
		for _, r := range l.Settings.reminders() {
			at := d.Due.Add(-r)
			t := store.Timer{Seat: d.Seat, StartSeq: d.StartSeq, Kind: remindKind(r)}
			if at.After(d.Start) && !now.Before(at) && !isDone[t] {
				due = append(due, t)
			}
		}
		if len(due) == 0 {
			continue
		}
		p, _ := seatOf(l, d.Seat)
		n := templates.Notice{Kind: "reminder", Game: s.gameData(l.Game), To: p.Name, Player: p.Name, Due: fmtTime(d.Due),
			Text: fmtDuration(d.Due.Sub(now).Round(time.Minute)), Legal: l.State.Legal(p.Name), ReplyTo: s.replyAddr(id, p), Host: l.Game.Host}
		m, err := s.notice(n, id, p.Email, "")
		if err != nil {
			return fired, err
		}
		err = s.store.Commit(ctx, store.Commit{GameID: id, ExpectSeq: l.LastSeq(), Timers: due, Outbox: []store.OutMail{m}})
		if errors.Is(err, store.ErrDuplicate) || errors.Is(err, store.ErrStaleSeq) {
			return fired, nil
		}
		if err != nil {
			return fired, err
		}
		s.log.Info("reminder sent", "game", id, "player", p.Name, "due", d.Due)
		fired++
	}
	return fired, nil
}

// expire applies the game's policy to a deadline that passed.
func (s *Service) expire(ctx context.Context, l *Loaded, d Deadline, t store.Timer) error {
	p, _ := seatOf(l, d.Seat)
	r := s.newRun(l, "", "")
	r.c.Timers = []store.Timer{t}
	policy := l.Settings.expiry()
	base := templates.Notice{Player: p.Name, Due: fmtTime(d.Due)}
	switch policy {
	case ExpirySkip:
		var cmds []string
		if sk, ok := l.State.(engine.Skipper); ok {
			cmds = sk.SkipCommands(p.Name)
		}
		if len(cmds) == 0 {
			r.admin(p.Name, adminDeadline+" "+p.Name+": nothing to skip")
			n := base
			n.Kind = "deadline-noskip"
			r.notify(l.Game.Host, n)
			break
		}
		r.admin(p.Name, adminDeadline+" "+p.Name+": skip")
		for _, c := range cmds {
			if err := r.move(p.Name, engine.Normalize(c)); err != nil {
				return fmt.Errorf("skip command %q: %w", c, err)
			}
		}
		n := base
		n.Kind, n.Lines = "deadline-skipped", cmds
		r.notify(p.Email, n)
	case ExpiryPause:
		r.admin(p.Name, adminDeadline+" "+p.Name+": pause")
		r.status = store.GamePaused
		n := base
		n.Kind = "deadline-paused"
		r.notifyAll(n)
	case ExpiryReplace:
		r.admin(p.Name, adminDeadline+" "+p.Name+": replace")
		n := base
		n.Kind, n.Address = "deadline-replace", p.Email
		n.ReplyTo = s.address()
		if l.Game.Host != "" {
			r.notify(l.Game.Host, n)
		}
	}
	if err := r.finish("", nil, nil); err != nil {
		return err
	}
	if err := s.store.Commit(ctx, r.c); err != nil {
		return err
	}
	s.log.Info("deadline passed", "game", l.Game.ID, "player", p.Name, "policy", policy)
	return nil
}
