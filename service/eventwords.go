package service

import (
	"strings"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// sprintf renders a service sentence (an English fmt format) in a reader's language.
type sprintf func(format string, args ...any) string

// account is what recorded event i of events (the game's log) says to a reader of
// lang, in sentences: the game's account of a move (engine.Narrator), the service's
// sentence for its own events (a message, a pause, an undo, a deadline that
// passed). viewer is what the reader may see (a player's name, engine.Observer, ""
// for everything) and reader the name whose happenings are marked as theirs. A move
// of a game that does not narrate has no account (the command then speaks for
// itself).
func (s *Service) account(l *Loaded, events []store.Event, i int, viewer, reader string, lang i18n.Lang) []templates.Happening {
	e := events[i]
	words := func(t engine.Text) string { return s.tr.GameText(l.Game.Kind, lang, t) }
	said := func(text string) []templates.Happening {
		return []templates.Happening{{Kind: engine.HapOther, Text: text}}
	}
	switch e.Kind {
	case engine.KindMove:
		return l.happened(e, viewer, reader, words)
	case engine.KindUndo:
		what := s.takenBack(l, events[:i], viewer, lang)
		u, _ := readUndo(e.Command)
		return said(u.sentence(s.tr, lang, what))
	case engine.KindAdmin:
		return said(s.adminSentence(e, lang))
	}
	return nil
}

// accountLines tells the events of l from index first on to seat p in lang, a line
// per happening (the command in lang's words for a move the game does not tell).
func (s *Service) accountLines(l *Loaded, first int, p store.Player, lang i18n.Lang) []string {
	var out []string
	for i := first; i < len(l.Events); i++ {
		hs := s.account(l, l.Events, i, viewerOf(p), p.Name, lang)
		if len(hs) == 0 {
			out = append(out, s.tr.Command(l.Game.Kind, lang, l.Events[i].Command))
		}
		for _, h := range hs {
			out = append(out, h.Text)
		}
	}
	return out
}

// takenBack tells the move an undo after events takes back: the first line of its
// account, or whose move it was when the game does not tell it.
func (s *Service) takenBack(l *Loaded, events []store.Event, viewer string, lang i18n.Lang) string {
	last, ok := lastStanding(events)
	if !ok {
		return s.tr.Sprintf(lang, "the last move")
	}
	return s.moveWords(l, last.move, viewer, lang)
}

// moveWords tells move e to viewer in lang as the game tells it (its account's first
// line: "alice (Ratmen) conquered region 4 …"); for a game that tells nothing, the
// command in lang's words ("alice: add 5").
func (s *Service) moveWords(l *Loaded, e store.Event, viewer string, lang i18n.Lang) string {
	if hs := l.happened(e, viewer, "", func(t engine.Text) string { return s.tr.GameText(l.Game.Kind, lang, t) }); len(hs) > 0 {
		return hs[0].Text
	}
	return e.Player + ": " + s.tr.Command(l.Game.Kind, lang, engine.MaskCommand(l.State, e.Player, e.Command, viewer))
}

// adminSentence tells an administrative event (engine.KindAdmin) in lang: who did
// what, never the command as recorded.
func (s *Service) adminSentence(e store.Event, lang i18n.Lang) string {
	t := func(format string, args ...any) string { return s.tr.Sprintf(lang, format, args...) }
	who := e.Player
	if who == "" || who == "host" {
		who = t("the host")
	}
	a, ok := readAdmin(e.Command)
	switch a.Act {
	case adminSay:
		return t("%s says: %s", who, a.Text)
	case adminTell:
		return t("%s says to %s: %s", who, a.Player, a.Text)
	case adminPause:
		if e.Player == "" {
			return t("the game was paused: its deadlines could not be kept (the host was told why)")
		}
		return t("%s paused the game", who)
	case adminResume:
		return t("%s resumed the game", who)
	case adminResign:
		return t("%s resigned", who)
	case adminUndoRequest:
		if a.Why == "" {
			return t("%s asked to take back the last move", who)
		}
		return t("%s asked to take back the last move: %s", who, a.Why)
	case adminAccept:
		return t("%s agreed to take back the move", who)
	case adminVacation:
		if iv, ok := parseVacation(a.From, a.To); ok {
			now := s.opts.Clock()
			return t("%s is on vacation from %s to %s", who, s.tmpl.Day(string(lang), iv.From, now), s.tmpl.Day(string(lang), iv.To.AddDate(0, 0, -1), now))
		}
	case adminReplace:
		return t("%s's seat went to a new address", a.Player)
	case adminDeadline:
		return s.deadlineSentence(a, lang)
	case adminSet:
		return t("%s changed the game's settings: %s", who, s.tr.Command("", lang, adminSet+" "+a.Value))
	case adminTZ:
		return t("%s reads times in the zone %s", who, a.Value)
	case adminNotify:
		if a.Value == NotifyEvery {
			return t("%s gets a mail after every move", who)
		}
		return t("%s gets a mail when the turn ends", who)
	case adminLang:
		return t("%s reads the mails in %s", who, langName(s.tr, lang, a.Value))
	case adminRespond:
		return s.orderSentence(who, a.Value, lang)
	}
	// An act this service does not tell, or a text that does not read: who and what
	// (the act, or the text as recorded).
	what := e.Command
	if ok && strings.HasPrefix(e.Command, "{") {
		what = a.Act
	}
	return t("%s: %s", who, s.tr.Command("", lang, what))
}

// deadlineSentence tells a deadline that passed (adminDeadline) in lang.
func (s *Service) deadlineSentence(a adminPayload, lang i18n.Lang) string {
	t := func(format string, args ...any) string { return s.tr.Sprintf(lang, format, args...) }
	if a.Player == "" {
		return t("a deadline passed")
	}
	switch a.Policy {
	case ExpirySkip:
		return t("%s's deadline passed: turnmail moved for them", a.Player)
	case ExpiryPause:
		return t("%s's deadline passed: the game is paused", a.Player)
	case ExpiryReplace:
		return t("%s's deadline passed: the host may hand the seat to someone else", a.Player)
	default:
		return t("%s's deadline passed", a.Player)
	}
}

// langName names a language code in lang ("Italian", "italiano").
func langName(tr *i18n.Bundle, lang i18n.Lang, code string) string {
	switch i18n.Lang(code) {
	case i18n.Italian:
		return tr.Sprintf(lang, "Italian")
	case i18n.English:
		return tr.Sprintf(lang, "English")
	}
	return code
}

// vacationWords are a vacation's days for a reader of lang ("Thu 24 December to Sun
// 27 December").
func (s *Service) vacationWords(lang i18n.Lang, from, to string) string {
	iv, ok := parseVacation(from, to)
	if !ok {
		return s.tr.Sprintf(lang, "%s to %s", from, to)
	}
	now := s.opts.Clock()
	return s.tr.Sprintf(lang, "%s to %s", s.tmpl.Day(string(lang), iv.From, now), s.tmpl.Day(string(lang), iv.To.Add(-time.Hour), now))
}

// orderSentence tells a player's standing order for responses (respond.go) in lang.
func (s *Service) orderSentence(who, order string, lang i18n.Lang) string {
	t := func(format string, args ...any) string { return s.tr.Sprintf(lang, format, args...) }
	switch verb, card, _ := strings.Cut(order, " "); verb {
	case OrderNever:
		return t("%s declines every response at once (standing order)", who)
	case OrderAlways:
		return t("%s plays the first possible response at once (standing order)", who)
	case OrderWith:
		return t("%s plays %s whenever it is a possible response (standing order)", who, card)
	case OrderAuto:
		return t("%s lets turnmail answer at once as when the deadline passes (standing order)", who)
	}
	return t("%s is asked each time a response is possible", who)
}
