package page

import (
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/scene/draw"
	"github.com/turnmail/turnmail/templates"
)

// words renders the pages' texts in the reader's language: the "web" catalogue
// domain for the pages' own words, the engines' texts for the accounts.
type words struct {
	tr   *i18n.Bundle
	lang i18n.Lang
	kind string
}

// say formats a text of the catalogues (its key is the English format) in the
// reader's language.
func (w words) say(format string, args ...any) string { return w.tr.Sprintf(w.lang, format, args...) }

// text renders an engine's text.
func (w words) text(t engine.Text) string { return w.tr.GameText(w.kind, w.lang, t) }

// term names a game term.
func (w words) term(name string) string { return w.tr.Term(w.lang, name) }

// names lists players, the reader as "you".
func (w words) names(players []string, rd Reader) string {
	out := make([]string, len(players))
	for i, p := range players {
		out[i] = p
		if rd.you(p) {
			out[i] = w.say("you")
		}
	}
	return strings.Join(out, ", ")
}

// turn names a game turn as the game's rulebook does: Dungeoneer's rounds, the
// others' turns.
func (w words) turn(n int) string {
	if templates.Family(w.kind) == "dungeoneer" {
		return w.say("Round %d", n)
	}
	return w.say("Turn %d", n)
}

// gameOver says how a game ended.
func (w words) gameOver(winners []string) string {
	switch len(winners) {
	case 0:
		return w.say("Game over")
	case 1:
		return w.say("Game over: %s won", winners[0])
	}
	return w.say("Game over: a tie between %s", strings.Join(winners, ", "))
}

// pictureWords are the words of a picture on a page: the mails' own (base), but for
// the legend of the regions a step changed, which on a page are those that step
// changed, not those changed since the reader's last mail.
type pictureWords struct {
	draw.Words
	w words
}

// changedKey is the picture catalogue's key for the legend of the changed regions
// (scene/draw).
const changedKey = "changed since your last mail"

// Say implements draw.Words.
func (p pictureWords) Say(format string, args ...any) string {
	if format == changedKey {
		return p.w.say("changed by this step")
	}
	return p.Words.Say(format, args...)
}
