// Package narratecheck checks, for the tests of every engine, that a command is told
// in sentences (engine.Narrator): every reader of the game learns something of every
// command, in English and in Italian, and no account repeats the command as it was
// typed ("ann sent: redeploy 3=2", "bob moved armies: 6>2").
package narratecheck

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
)

// raw matches what only a typed command has: region pairs (3=2), paths (6>2), a
// pattern's placeholder and a fmt error.
var raw = regexp.MustCompile(`\d=\d|\d>\d|<[a-z]+>|%!`)

// Readers lists the readers of a game of players: each player, an observer and the
// complete view ("").
func Readers(players []string) []string {
	return append(append([]string{}, players...), engine.Observer, "")
}

// Check reports what is wrong with the account of command, given by player to before
// and giving after, as each of readers reads it in every language: no happening at
// all, a text that is not a sentence in a reader's language (its key untranslated
// in Italian, a fmt error), a typed command in it (region pairs, paths, the whole
// command at its end: "ann sent: done"), or a key of bad (the generic
// lines an engine keeps for changes it did not tell otherwise). game is the engine's
// name, whose command words the texts use.
func Check(tr *i18n.Bundle, game string, before, after engine.State, player, command string, readers []string, bad ...string) error {
	var errs []string
	words := strings.Fields(engine.Normalize(command))
	for _, viewer := range readers {
		hs := engine.Narrate(before, player, command, after, viewer)
		if len(hs) == 0 {
			errs = append(errs, fmt.Sprintf("%q is told nothing", viewer))
			continue
		}
		for _, h := range hs {
			for _, t := range append([]engine.Text{h.Text}, h.Details...) {
				errs = append(errs, checkText(tr, game, t, words, bad)...)
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s: %s", player, command, strings.Join(dedupe(errs), "; "))
}

// checkText checks one text of an account in every language.
func checkText(tr *i18n.Bundle, game string, t engine.Text, words []string, bad []string) []string {
	var errs []string
	for _, b := range bad {
		if t.Key == b {
			errs = append(errs, fmt.Sprintf("told by the generic line %q", b))
		}
	}
	for _, lang := range i18n.Langs {
		s := tr.GameText(game, lang, t)
		if m := raw.FindString(s); m != "" {
			errs = append(errs, fmt.Sprintf("%s %q has %q", lang, s, m))
		}
		if lang != i18n.English && !tr.HasAny(lang, t.Key) {
			errs = append(errs, fmt.Sprintf("no %s for %q", lang, t.Key))
		}
		if cmd := strings.Join(words, " "); cmd != "" && (strings.HasSuffix(strings.ToLower(s), ": "+cmd) || len(words) > 1 && strings.HasSuffix(strings.ToLower(s), " "+cmd)) {
			errs = append(errs, fmt.Sprintf("%s %q ends with the command", lang, s))
		}
	}
	return errs
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
