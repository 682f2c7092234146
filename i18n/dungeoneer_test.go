package i18n_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// dungeoneerProbes are the commands tried in every state of TestDungeoneerTextArguments
// for the rule errors they give (most are illegal most of the time): every verb alone,
// with a word no command takes, and with the arguments that reach the errors naming a
// hero, a map card, a form of attack, a direction, a category or a phase.
func dungeoneerProbes(players []string) []string {
	out := []string{"xyzzy", "conquista 3"}
	for _, v := range (dungeoneer.Game{}).Words() {
		out = append(out, v, v+" x", v+" x y z w")
	}
	out = append(out, "move n", "move e", "move s", "move w", "sewer", "portal", "stand", "explore", "ability",
		"quest q01 melee", "quest q01 magic", "quest q13", "quest q07 9", "quest q12", "drop q01", "take q12", "put q12",
		"challenge m09 melee", "challenge m09 speed", "challenge melee", "challenge speed", "attack magic", "attack speed",
		"play a44 on a54", "play a54", "play a60", "play a62", "play a39 a13", "play a13", "use a50", "use a58", "use a46",
		"discard a01", "keep a13 hand", "build m02 at 5,5 rot 90", "build m02 at x")
	for _, p := range players {
		out = append(out, "play a13 on "+p, "play a13 on "+p+" speed", "play a36 on "+p, "play a29 on "+p,
			"challenge "+p+" magic", "challenge "+p+" pack", "steal "+p+" melee", "peril "+p+" 9")
	}
	return out
}

// dungeoneerIDs are the ids a card of the set may have: heroes h1–h6, map cards
// m01–m20, quests q01–q14, adventure cards a01–a62 (and more of each, unused).
func dungeoneerIDs() []string {
	var ids []string
	for i := 1; i <= 62; i++ {
		ids = append(ids, fmt.Sprintf("h%d", i), fmt.Sprintf("m%02d", i), fmt.Sprintf("q%02d", i), fmt.Sprintf("a%02d", i))
	}
	return ids
}

// TestDungeoneerTextArguments plays Dungeoneer and checks every text it produced on
// the way — accounts, notes on legal commands, rule errors — for its arguments: a name
// of the game (a hero, card, quest, map card, a direction, a passage of the map) is an
// engine.Term with its Italian name, never a bare string that only i18n's fallback
// would translate (and a player named like a card with it); the bare strings left are
// players' names, card ids, places and numbers, none of them a term. Forms of attack,
// phases and categories are texts of their own, each with its Italian translation.
func TestDungeoneerTextArguments(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	// The names of the set that Italian keeps as they are (the Ghoul): the data says so.
	sameInItalian := map[string]bool{}
	for _, id := range dungeoneerIDs() {
		if c, ok := dungeoneer.Card(id); ok && c.Name.It == c.Name.En {
			sameInItalian[c.Name.En] = true
		}
	}
	named := func(term string) bool { return b.Has(i18n.Italian, "terms", term) || sameInItalian[term] }
	seen := map[string]bool{} // keys met, with the texts in them
	var walk func(where string, tx engine.Text)
	walk = func(where string, tx engine.Text) {
		seen[tx.Key] = true
		for _, a := range tx.Args {
			if v, ok := a.(engine.Text); ok {
				if v.Key != "" && !b.HasAny(i18n.Italian, v.Key) {
					t.Errorf("%s: %q has the text %q, which has no Italian", where, tx.Key, v.Key)
				}
				walk(where, v)
			}
		}
	}
	check := func(where string, tx engine.Text) {
		for _, p := range termProblems(b, tx, named) {
			t.Errorf("%s: %s", where, p)
		}
		walk(where, tx)
	}
	g := dungeoneer.Game{}
	// The probes are tried in every third state (every state under TURNMAIL_SOAK):
	// about 150 commands for each player in each, the bulk of this test's time.
	probeEvery := 3
	if os.Getenv("TURNMAIL_SOAK") != "" {
		probeEvery = 1
	}
	errs := 0
	italian := map[string]string{} // an error's key → the first of its Italian texts
	var english langcheck.Checker  // the errors repeat: each text is read once
	// The current rules, and those of the games recorded before them (the counter step).
	configs := selfplay.Configs(g, 3, 2)
	configs = append(configs, selfplay.Config{Seed: 5, Players: 2, Fixed: map[string]json.RawMessage{"rules": json.RawMessage("0")}})
	for _, cfg := range configs {
		var names []string
		for _, p := range selfplay.Seats(cfg.Players) {
			names = append(names, p.Name)
		}
		probes := dungeoneerProbes(names)
		var prev engine.State
		_, err := selfplay.Play(g, cfg, func(st selfplay.Step) error {
			where := fmt.Sprintf("seed %d, after %q", cfg.Seed, st.Command)
			stateTexts(prev, st, func(tx engine.Text) { check(where, tx) })
			prev = st.State
			if st.State.Finished() || st.N%probeEvery != 0 {
				return nil
			}
			for _, p := range names {
				for _, c := range probes {
					_, _, err := engine.Step(st.State, cfg.Seed, st.N+1, p, c, nil)
					var re *engine.RuleError
					if errors.As(err, &re) {
						errs++
						check(where+", "+p+" then "+c, re.Text)
						it := b.GameText("dungeoneer", i18n.Italian, re.Text)
						if left := english.English(it, nil); len(left) > 0 {
							t.Errorf("%s, %s then %s: English in the Italian error %q: %q", where, p, c, it, left)
						}
						if _, ok := italian[re.Text.Key]; !ok {
							italian[re.Text.Key] = it
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// The errors that name a hero, a map card, a direction, a form, a phase or a
	// commands, among those met, read in Italian words.
	for key, want := range map[string]*regexp.Regexp{
		"the ability of %s always works: there is nothing to activate": regexp.MustCompile(`^l'abilità di (Brakka la Portascudi|Sefa Passolesto|Orm il Custode delle Tombe|Lirien delle Lanterne|Tamsin Borsadoro) funziona sempre`),
		"%s is done at %s (%s)":                                 regexp.MustCompile(`^q\d\d si compie in m\d\d \([A-Z][^)]+\)$`),
		"no map card lies %s of you: explore first":             regexp.MustCompile(`^nessuna carta Mappa si trova a (nord|est|sud|ovest) di te`),
		"a wall blocks the way %s":                              regexp.MustCompile(`^un Muro blocca la via verso (nord|est|sud|ovest)$`),
		"your hero has no standard attack in %s":                regexp.MustCompile(`^il tuo Eroe non ha un attacco standard di (mischia|magia|velocità)$`),
		"%q is not possible in the %s; say %s":                  regexp.MustCompile(`^"[^"]+" non è possibile nella fase [^;]+; di' [a-zà]+( oppure [a-zà]+)?$`),
		"say attack %s, or just attack to leave it to the game": regexp.MustCompile(`^di' attacca (mischia|magia|velocità)( oppure (mischia|magia|velocità))?, o solo attacca`),
		"say challenge with a standard attack of your hero: %s": regexp.MustCompile(`^di' sfida con un attacco standard del tuo Eroe: (mischia|magia|velocità)( oppure (mischia|magia|velocità))?$`),
	} {
		if !seen[key] {
			t.Errorf("the error %q was never met", key)
		} else if !want.MatchString(italian[key]) {
			t.Errorf("%q in Italian: %q, want it to match %s", key, italian[key], want)
		}
	}
	if errs < 1000 {
		t.Errorf("only %d rule errors checked", errs)
	}
}

// TestDungeoneerPlurals: the errors that count cards read with the right number in
// both languages (never "1 Treasures").
func TestDungeoneerPlurals(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key  string
		n    int
		lang i18n.Lang
		want string
	}{
		{"your hero has %d Treasures ready, the most it can", 1, i18n.English, "your hero has 1 Treasure ready, the most it can"},
		{"your hero has %d Treasures ready, the most it can", 2, i18n.English, "your hero has 2 Treasures ready, the most it can"},
		{"your hero has %d Treasures ready, the most it can", 1, i18n.Italian, "il tuo Eroe ha 1 Tesoro pronto, il massimo possibile"},
		{"your hero has %d Treasures ready, the most it can", 3, i18n.Italian, "il tuo Eroe ha 3 Tesori pronti, il massimo possibile"},
		{"your hero has %d Favors ready, the most it can", 1, i18n.English, "your hero has 1 Favor ready, the most it can"},
		{"your hero has %d Favors ready, the most it can", 1, i18n.Italian, "il tuo Eroe ha 1 Favore pronto, il massimo possibile"},
		{"your hero has %d Favors ready, the most it can", 2, i18n.Italian, "il tuo Eroe ha 2 Favori pronti, il massimo possibile"},
	}
	for _, tt := range tests {
		if got := b.GameText("dungeoneer", tt.lang, engine.Illegal(tt.key, tt.n).Text); got != tt.want {
			t.Errorf("%q with %d in %s: %q, want %q", tt.key, tt.n, tt.lang, got, tt.want)
		}
	}
}
