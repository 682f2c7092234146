package service

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// tellHeld tells each reader whose mail the limits held back, once per hold, that it
// was and when mail to them resumes (store.HoldsToNotice): a short notice that no cap
// holds back (store.ClassHold). A reader whose notice still in force covers the new
// hold is only marked as told. A notice that cannot be built is logged and its
// reader left to the next try.
func (s *Service) tellHeld(ctx context.Context) error {
	now := s.opts.Clock().UTC()
	owed, err := s.store.HoldsToNotice(ctx, now)
	if err != nil {
		return err
	}
	for _, o := range owed {
		c := store.Commit{Noticed: []string{o.Rcpt}, Now: now}
		if !o.Told {
			m, err := s.heldNotice(ctx, o, now)
			if err != nil {
				s.log.Error("notice of held mail left out", "to", o.Rcpt, "err", err)
				continue
			}
			m.Class = store.ClassHold
			c.Outbox = []store.OutMail{m}
			c.Limits = &s.limits
		}
		if err := s.store.Commit(ctx, c); err != nil {
			return fmt.Errorf("notice of held mail: %w", err)
		}
		s.log.Info("mail held back", "to", o.Rcpt, "held", len(o.Held), "until", latestUntil(o.Held), "told", !o.Told)
	}
	return nil
}

// heldNotice builds the notice to the reader of the held mails of o: what was held
// (answers, notices, messages) and when mail resumes, in the reader's language and
// time zone (those of the game of the first held mail, when it has one).
func (s *Service) heldNotice(ctx context.Context, o store.HoldNotice, now time.Time) (store.OutMail, error) {
	var m store.OutMail
	err := s.guard("building the notice of held mail", func() error {
		var l *Loaded
		if id := o.Held[0].GameID; id != "" {
			if g, err := s.Load(ctx, id); err == nil {
				l = g
			} else {
				s.log.Warn("held mail: game not readable", "game", id, "err", err)
			}
		}
		lang := s.storedLang(ctx, o.Rcpt, store.Game{})
		n := templates.Notice{Kind: templates.Held}
		var player string
		if l != nil {
			lang = s.langAt(l, o.Rcpt)
			if p, ok := l.playerByEmail(o.Rcpt); ok {
				player, n.To, n.ReplyTo = p.Name, p.Name, s.replyAddr(l.Game.ID, p)
			}
			n.Game = templates.Game{ID: l.Game.ID, Kind: l.Game.Kind, Title: templates.GameTitle(l.Game.Kind)}
		}
		until := latestUntil(o.Held)
		when := templates.WhenIn(s.tr, string(lang), until, time.UTC)
		if l != nil {
			when = s.when(l, player, until)
		}
		n.Lang = string(lang)
		n.Text = s.tr.Sprintf(lang, "Mail to you was held back (%s): turnmail sends only so many in an hour, so that mail never loops.", heldWhat(s.tr, lang, o.Held)) + "\n\n" +
			s.tr.Sprintf(lang, "It resumes %s. Your moves are always answered; write %s in a game's mail to get its state.", when, engine.Command("status"))
		var th thread
		gameID := ""
		if l != nil {
			th, gameID = l.threadOf(o.Rcpt), l.Game.ID
		}
		var err error
		m, err = s.notice(n, th, gameID, o.Rcpt, "")
		return err
	})
	return m, err
}

// heldWhat says in lang what kinds of mail were held (answers, notices, messages).
func heldWhat(tr *i18n.Bundle, lang i18n.Lang, held []store.Held) string {
	var what []string
	for _, h := range held {
		var w string
		switch h.Class {
		case store.ClassAnswer:
			w = tr.Sprintf(lang, "answers to your mails")
		case store.ClassChat:
			w = tr.Sprintf(lang, "messages of other players")
		default:
			w = tr.Sprintf(lang, "notices about your games")
		}
		if !slices.Contains(what, w) {
			what = append(what, w)
		}
	}
	if len(what) == 1 {
		return what[0]
	}
	return tr.Sprintf(lang, "%s and %s", strings.Join(what[:len(what)-1], ", "), what[len(what)-1])
}

// latestUntil is when mail resumes after all of held.
func latestUntil(held []store.Held) time.Time {
	var t time.Time
	for _, h := range held {
		if h.Until.After(t) {
			t = h.Until
		}
	}
	return t
}
