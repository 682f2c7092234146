package service

import (
	"regexp"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
)

// sprintf renders a service sentence (an English fmt format) in a reader's language.
type sprintf func(format string, args ...any) string

// undoWords are the undo events the log records (engine.KindUndo, see run.undo),
// each with the sentence that says it in a reader's language: the log keeps the
// English words, the history mail reads them back in the reader's. The last moves
// of each ("PLAYER: COMMAND", moves of them) are the moves taken back.
var undoWords = []struct {
	re    *regexp.Regexp
	moves int
	say   func(t sprintf, args ...any) string
}{
	{regexp.MustCompile(`^agreed by (.+) \((.+) resigned\), taking back (.+)$`), 1,
		func(t sprintf, a ...any) string { return t("agreed by %s (%s resigned), taking back %s", a...) }},
	{regexp.MustCompile(`^agreed by (.+), taking back (.+)$`), 1,
		func(t sprintf, a ...any) string { return t("agreed by %s, taking back %s", a...) }},
	{regexp.MustCompile(`^forced by the host, taking back (.+)$`), 1,
		func(t sprintf, a ...any) string { return t("forced by the host, taking back %s", a...) }},
	{regexp.MustCompile(`^taken back by (.+) \(no other player\), (.+)$`), 1,
		func(t sprintf, a ...any) string { return t("taken back by %s (no other player), %s", a...) }},
	{regexp.MustCompile(`^taking back (.+) \(a resigned player's skipped turn\) with (.+)$`), 2,
		func(t sprintf, a ...any) string {
			return t("taking back %s (a resigned player's skipped turn) with %s", a...)
		}},
}

// eventWords is what a recorded event says to a reader of lang, as the history mail
// lists it: a move (cmd, the event's command as the reader may see it) or an
// administrative command in the reader's command words, an undo or a deadline that
// passed in words. English readers read the log's own words.
func (s *Service) eventWords(lang i18n.Lang, game string, e store.Event, cmd string) string {
	return EventWords(s.tr, lang, game, e.Kind, cmd)
}

// EventWords says a recorded event of kind (engine.KindMove …) whose command, as the
// reader may see it, is cmd, in lang: see eventWords. The game's web pages and
// replay files say undos with it.
func EventWords(tr *i18n.Bundle, lang i18n.Lang, game, kind, cmd string) string {
	if lang == i18n.English {
		return cmd
	}
	switch kind {
	case engine.KindMove:
		return tr.Command(game, lang, cmd)
	case engine.KindUndo:
		return undoWordsIn(tr, lang, game, cmd)
	case engine.KindAdmin:
		return adminWords(tr, lang, cmd)
	}
	return cmd
}

// undoWordsIn says a recorded undo in lang (the log's words when it has none).
func undoWordsIn(tr *i18n.Bundle, lang i18n.Lang, game, text string) string {
	t := func(format string, args ...any) string { return tr.Sprintf(lang, format, args...) }
	for _, u := range undoWords {
		m := u.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		args := make([]any, len(m)-1)
		for i, a := range m[1:] {
			args[i] = a
			if p, c, ok := strings.Cut(a, ": "); ok && i >= len(args)-u.moves {
				args[i] = p + ": " + tr.Command(game, lang, c) // a move taken back, in lang's words
			}
		}
		return u.say(t, args...)
	}
	return text
}

// adminWords says a recorded administrative command in lang: a command a player or
// the host sent, in lang's command words; an undo request and a deadline that
// passed, in words.
func adminWords(tr *i18n.Bundle, lang i18n.Lang, cmd string) string {
	t := func(format string, args ...any) string { return tr.Sprintf(lang, format, args...) }
	if cmd == adminUndoRequest {
		return t("undo request")
	}
	if rest, ok := strings.CutPrefix(cmd, adminDeadline+" "); ok {
		i := strings.LastIndex(rest, ": ")
		if i < 0 {
			return cmd
		}
		switch player, policy := rest[:i], rest[i+2:]; policy {
		case ExpirySkip:
			return t("deadline passed %s: skip", player)
		case ExpiryPause:
			return t("deadline passed %s: pause", player)
		case ExpiryReplace:
			return t("deadline passed %s: replace", player)
		case nothingToSkip:
			return t("deadline passed %s: nothing to skip", player)
		}
		return cmd
	}
	verb, rest, _ := strings.Cut(cmd, " ")
	switch verb {
	case adminSay, adminTell: // the message is the player's own words: only the verb is said in lang
		return strings.TrimSpace(tr.Word(i18n.ServiceDomain, lang, "say") + " " + rest)
	}
	return tr.Command("", lang, cmd)
}
