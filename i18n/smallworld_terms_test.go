package i18n_test

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// smallWorldVerbs are the command words of the Small World family, tried at every
// state of TestSmallWorldNamesAreTerms to reach the engine's errors.
var smallWorldVerbs = []string{"pick", "conquer", "abandon", "redeploy", "decline", "done", "berserk", "camp",
	"fortress", "hero", "ally", "dragon", "enchant", "bag", "reborn", "armour", "ancient", "volcano", "hole",
	"swap", "wisp", "balrog", "altar", "queen", "ghost", "scepter", "ring", "sword", "socks", "doormat", "orb",
	"vampire", "keep", "buy"}

// TestSmallWorldNamesAreTerms plays the games of the Small World family and checks
// that every text their engine produces on the way — accounts, notes on legal
// commands, scores, and the errors of commands tried at each state — passes a race,
// power, place, relic or piece name as an engine.Term, never as a bare string: a
// bare string is translated only by i18n's fallback, which would also translate a
// player named like a race.
func TestSmallWorldNamesAreTerms(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	bare := map[string]string{} // key → the bare term
	var check func(tx engine.Text)
	check = func(tx engine.Text) {
		for _, a := range tx.Args {
			switch v := a.(type) {
			case engine.Text:
				check(v)
			case string:
				if term, ok := b.TermOf(v); ok && term == v {
					bare[tx.Key] = v
				}
			case []string:
				for _, s := range v {
					if term, ok := b.TermOf(s); ok && term == s {
						bare[tx.Key] = s
					}
				}
			}
		}
	}
	reg := games.Registry()
	for _, name := range []string{"smallworld", "necromancer", "underground"} {
		g := reg[name]
		for _, cfg := range selfplay.Configs(g, 3, 2) {
			var prev engine.State
			_, err := selfplay.Play(g, cfg, func(st selfplay.Step) error {
				if prev != nil {
					for _, h := range engine.Narrate(prev, st.Player, st.Command, st.State, "") {
						check(h.Text)
						for _, d := range h.Details {
							check(d)
						}
					}
				}
				prev = st.State
				if sc, ok := st.State.(engine.Scorer); ok && st.State.Finished() {
					for _, s := range sc.Scores() {
						for _, p := range s.Parts {
							check(p)
						}
					}
				}
				if st.State.Finished() {
					return nil
				}
				for _, p := range selfplay.Seats(cfg.Players) {
					for _, n := range engine.NotesOf(st.State, p.Name) {
						check(n)
					}
					for _, c := range probes(st.N) {
						_, _, err := engine.Step(st.State, cfg.Seed, st.N+1, p.Name, c, nil)
						var re *engine.RuleError
						if errors.As(err, &re) {
							check(re.Text)
						}
					}
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	keys := make([]string, 0, len(bare))
	for k := range bare {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("%q has the name %q as a bare string, not an engine.Term", k, bare[k])
	}
}

// probes are the commands tried at state n: every verb alone, with a region that
// changes from state to state, and with a word no command takes.
func probes(n int) []string {
	r := strconv.Itoa(1 + n%30)
	out := make([]string, 0, 3*len(smallWorldVerbs))
	for _, v := range smallWorldVerbs {
		out = append(out, v, v+" "+r, fmt.Sprintf("%s %s %s", v, r, "x"))
	}
	return out
}

// TestSmallWorldNamesTypedInItalian: where a Small World command names a piece — the
// relic the Magic power's Bag of Wonders copies — the mail lists it in the reader's
// words and reads it back in either language.
func TestSmallWorldNamesTypedInItalian(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ canonical, italian string }{
		{"bag sword", "sacca spada"},
		{"bag socks", "sacca calzini"},
		{"bag doormat", "sacca tappetino"},
		{"bag orb", "sacca globo"},
		{"sword 7", "spada 7"},
	} {
		if got := b.Command("underground", i18n.Italian, c.canonical); got != c.italian {
			t.Errorf("%q is listed in Italian as %q, want %q", c.canonical, got, c.italian)
		}
		for _, typed := range []string{c.italian, c.canonical} {
			if got, _ := b.Canonical("underground", typed); got != c.canonical {
				t.Errorf("%q reads as %q, want %q", typed, got, c.canonical)
			}
		}
	}
}
