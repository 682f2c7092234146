// Package narratecheck checks, for the tests of every engine, that a command is told
// in sentences (engine.Narrator): every reader of the game learns something of every
// command, in English and in Italian, and no account repeats the command as it was
// typed ("ann sent: redeploy 3=2", "bob moved armies: 6>2").
package narratecheck

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
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

// SelfPlay plays the games of cfgs of g (internal/selfplay) and checks the account
// of every command (Check, for each player, an observer and the complete view). It
// returns how often each verb was played, and what is wrong.
func SelfPlay(tr *i18n.Bundle, g engine.Game, cfgs []selfplay.Config) (played map[string]int, errs []error) {
	played = map[string]int{}
	for _, cfg := range cfgs {
		var prev engine.State
		var names []string
		for _, p := range selfplay.Seats(max(cfg.Players, 2)) {
			names = append(names, p.Name)
		}
		readers := Readers(names)
		_, err := selfplay.Play(g, cfg, func(st selfplay.Step) error {
			if prev != nil {
				verb, _, _ := strings.Cut(st.Command, " ")
				played[verb]++
				if err := Check(tr, g.Name(), prev, st.State, st.Player, st.Command, readers); err != nil {
					errs = append(errs, fmt.Errorf("step %d: %w", st.N, err))
				}
			}
			prev = st.State
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	return played, errs
}

// EveryVerb is the test that g tells every command in sentences: it plays n
// self-played games of g (selfplay.Configs from seed 1), checks every account
// (SelfPlay) and that every command word g names (engine.Worder) was played, but
// those of rare (played by a test of their own).
func EveryVerb(t testing.TB, g engine.Game, n int, rare ...string) {
	t.Helper()
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	played, errs := SelfPlay(tr, g, selfplay.Configs(g, 1, n))
	for _, err := range errs {
		t.Error(err)
	}
	w, ok := g.(engine.Worder)
	if !ok {
		t.Fatalf("%s names no command words", g.Name())
	}
	for _, v := range w.Words() {
		if played[v] == 0 && !slices.Contains(rare, v) {
			t.Errorf("%s was never played", v)
		}
	}
}
