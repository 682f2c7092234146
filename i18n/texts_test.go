package i18n_test

import (
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// TestEngineTextsTranslated plays every registered game and checks that each text an
// engine produced on the way — the account of a command (engine.Narrator), the notes
// on legal commands (engine.Noter), the final scores (engine.Scorer) — has its Italian
// translation, so that an Italian game's mail carries no English sentence.
func TestEngineTextsTranslated(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	missing := map[string]string{} // key → game
	var check func(game string, tx engine.Text)
	check = func(game string, tx engine.Text) {
		if tx.Key != "" && !translated(b, tx.Key) {
			missing[tx.Key] = game
		}
		for _, a := range tx.Args {
			if inner, ok := a.(engine.Text); ok {
				check(game, inner)
			}
		}
	}
	reg := games.Registry()
	for _, name := range reg.Names() {
		g := reg[name]
		for _, cfg := range selfplay.Configs(g, 7, 2) {
			var prev engine.State
			_, err := selfplay.Play(g, cfg, func(st selfplay.Step) error {
				stateTexts(prev, st, func(tx engine.Text) { check(name, tx) })
				prev = st.State
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	keys := make([]string, 0, len(missing))
	for k := range missing {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("%s: no Italian for %q", missing[k], k)
	}
}

// translated reports whether key has an Italian entry in any domain.
func translated(b *i18n.Bundle, key string) bool {
	for _, d := range i18n.Domains {
		if b.Has(i18n.Italian, d, key) {
			return true
		}
	}
	return false
}

// TestConquestCostNotes renders the notes on the conquests of Small World's self-play
// in both languages: the breakdown ("3 tokens: 2 + 1 mountain") reads with the right
// plurals in English (never "1 tokens") and carries no English word in Italian.
func TestConquestCostNotes(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	en := regexp.MustCompile(`^(1 token|\d+ tokens)(: 2( [+-] (1 [a-z' A-Z-]+|\d+ [a-z' A-Z-]+|\d+ \([a-z' A-Z-]+\)))*(, less \d from your die|; you have \d+, the die adds 0 to 3)?)?$`)
	// A conquest that costs the 2 tokens alone says so without a breakdown.
	bare := regexp.MustCompile(`^\d+ tokens?(: 2)?$`)
	english := regexp.MustCompile(`\b(tokens?|defenders?|mountain|fortress|lair|encampments?|armour|less|die)\b`)
	seen := map[string]bool{}
	g := games.Registry()["smallworld"]
	for _, cfg := range selfplay.Configs(g, 7, 2) {
		_, err := selfplay.Play(g, cfg, func(st selfplay.Step) error {
			for _, p := range st.State.ToAct() {
				for entry, n := range engine.NotesOf(st.State, p) {
					if !strings.HasPrefix(entry, "conquer ") {
						continue
					}
					e, it := b.Text(i18n.English, n), b.Text(i18n.Italian, n)
					if !en.MatchString(e) || strings.Contains(e, "1 defenders") || strings.Contains(e, "1 encampments") || bare.MatchString(e) && e != "2 tokens" {
						t.Errorf("%s: English note %q", entry, e)
					}
					if w := english.FindString(it); w != "" {
						t.Errorf("%s: Italian note %q has the English %q", entry, it, w)
					}
					seen[strings.SplitN(e, ":", 2)[0]] = true
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !seen["1 token"] && len(seen) < 2 {
		t.Errorf("too few conquest notes seen: %v", seen)
	}
}

// TestRuleErrorArguments: Small World's errors whose text is built at run time — a
// command's usage, the verb another race or power owns, a reason given as the one
// argument — come out in Italian whole: the usage and the verb in Italian command
// words, the reason translated.
func TestRuleErrorArguments(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{ // key → a word its Italian must have
		"usage: %s":              "conquista R tira (conquista finale con il dado dei rinforzi)",
		"only %s can use %q":     `"incanta"`,
		"%s; you can conquer %s": "la regione",
	}
	got := map[string]string{}
	g := games.Registry()["smallworld"]
	cfg := selfplay.Configs(g, 7, 1)[0]
	cfg.MaxSteps = 60
	_, _ = selfplay.Play(g, cfg, func(st selfplay.Step) error {
		if len(got) == len(want) || st.State.Finished() {
			return nil
		}
		p := st.State.ToAct()[0]
		cmds := []string{"conquer", "enchant 1"}
		for r := 1; r <= 40; r++ {
			cmds = append(cmds, "conquer "+strconv.Itoa(r))
		}
		for _, c := range cmds {
			_, _, err := engine.Step(st.State, cfg.Seed, st.N+1, p, c, nil)
			var re *engine.RuleError
			if errors.As(err, &re) && want[re.Text.Key] != "" && got[re.Text.Key] == "" {
				got[re.Text.Key] = b.GameText("smallworld", i18n.Italian, re.Text)
				if strings.HasPrefix(got[re.Text.Key], "region") {
					t.Errorf("%q: the reason is not translated: %q", c, got[re.Text.Key])
				}
			}
		}
		return nil
	})
	for key, w := range want {
		if g, ok := got[key]; !ok {
			t.Errorf("no error %q met", key)
		} else if !strings.Contains(g, w) {
			t.Errorf("%q in Italian: %q, want it to contain %q", key, g, w)
		}
	}
}
