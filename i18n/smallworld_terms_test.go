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
				stateTexts(prev, st, check)
				prev = st.State
				if st.State.Finished() {
					return nil
				}
				for _, p := range selfplay.Seats(cfg.Players) {
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

// stateTexts calls visit with every text an engine gives about the state st reached
// from prev (nil for the first state): the accounts of its command (engine.Narrate),
// the notes on the legal commands of those to act (engine.Noter) and, once the game
// is over, the final scores (engine.Scorer).
func stateTexts(prev engine.State, st selfplay.Step, visit func(engine.Text)) {
	if prev != nil {
		for _, h := range engine.Narrate(prev, st.Player, st.Command, st.State, "") {
			visit(h.Text)
			for _, d := range h.Details {
				visit(d)
			}
		}
	}
	for _, p := range st.State.ToAct() {
		for _, n := range engine.NotesOf(st.State, p) {
			visit(n)
		}
	}
	if sc, ok := st.State.(engine.Scorer); ok && st.State.Finished() {
		for _, s := range sc.Scores() {
			for _, p := range s.Parts {
				visit(p)
			}
		}
	}
}
