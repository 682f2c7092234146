package i18n_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/empire"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// TestEmpireNames: every Eight-Minute Empire card has an Italian name (the four the
// Italian rulebook prints as it prints them), which "rules empire NAME" reads back as
// the card, and every term its texts use (card words, leaders, neutral) has one.
func TestEmpireNames(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	printed := map[string]string{"Arcane Sphinx": "Sfinge arcana", "Ancient Sage": "Saggio antico", "Stronghold": "Roccaforte", "Dire Ogre": "Orco spaventoso",
		"Fairy Queen": "Regina delle fate", "Bandit King": "Re dei briganti", "Red Sorceress": "Fattucchiera rossa", "White Knight": "Cavaliere bianco"}
	n := 0
	for _, e := range (empire.Game{}).Glossary() {
		n++
		en := string(e.Name)
		it := b.Term(i18n.Italian, en)
		if want, ok := printed[en]; ok && it != want {
			t.Errorf("%s is %q in Italian, want the printed %q", en, it, want)
		}
		if it == en {
			t.Errorf("%s has no Italian name", en)
		}
		// Lake and the terrain lake are one word in both languages: either reads back.
		if back, ok := b.TermOf(it); !ok || !strings.EqualFold(back, en) {
			t.Errorf("%s: its Italian name %q reads back as %q", en, it, back)
		}
		for _, tx := range []engine.Text{e.Text} {
			for _, term := range terms(tx) {
				if b.Term(i18n.Italian, term) == term {
					t.Errorf("%s: the term %q of its text has no Italian name", en, term)
				}
			}
		}
	}
	if n != 33 {
		t.Errorf("%d cards, want the 33 names of the 34 cards", n)
	}
	for en := range printed {
		if b.Term(i18n.Italian, en) != printed[en] {
			t.Errorf("%s is %q in Italian, want %q", en, b.Term(i18n.Italian, en), printed[en])
		}
	}
}

// termProblems lists what is wrong with how tx, and the texts in it, pass the names
// of a game: a bare string argument (alone or in a list) that is a term, which only
// i18n's fallback would translate (and a player named like it with it); a term that
// has no Italian name (named says which have one).
func termProblems(b *i18n.Bundle, tx engine.Text, named func(term string) bool) []string {
	var out []string
	bare := func(s string) {
		if term, ok := b.TermOf(s); ok {
			out = append(out, fmt.Sprintf("%q has the bare argument %q, which is the term %q", tx.Key, s, term))
		}
	}
	for _, a := range tx.Args {
		switch v := a.(type) {
		case string:
			bare(v)
		case []string:
			for _, s := range v {
				bare(s)
			}
		case engine.Term:
			if !named(string(v)) {
				out = append(out, fmt.Sprintf("%q has the term %q, which has no Italian name", tx.Key, v))
			}
		case engine.Text:
			out = append(out, termProblems(b, v, named)...)
		}
	}
	return out
}

// terms lists the engine.Term arguments of a text and of the texts in it.
func terms(tx engine.Text) []string {
	var out []string
	for _, a := range tx.Args {
		switch v := a.(type) {
		case engine.Term:
			out = append(out, string(v))
		case engine.Text:
			out = append(out, terms(v)...)
		}
	}
	return out
}

// empireProbes are commands tried in every state of the self-played games for the
// rule errors they give (most are illegal most of the time).
var empireProbes = []string{"destroy neutral 1", "destroy ann 2", "destroy ben 3", "take 9", "take x", "bid 99", "bid x",
	"place 1=1", "place 2=9", "move 1>2", "move 1>2>3 9", "city 1", "settle 1", "neutral 1", "first nobody", "pass", "skip now", "hello"}

// ownRegionProbes are destructions tried where player has armies, so that the errors
// about another owner's armies there (none, immune) are met: of the neutral armies
// and of every player.
func ownRegionProbes(st engine.State, player string) []string {
	b, err := json.Marshal(st.View(player))
	if err != nil {
		return nil
	}
	var v empire.View
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	var out []string
	for _, r := range v.Regions {
		if r.Armies[player] == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("destroy %s %d", empire.Neutral, r.ID))
		for _, p := range v.Players {
			out = append(out, fmt.Sprintf("destroy %s %d", p.Name, r.ID))
		}
	}
	return out
}

// TestEmpireTextArguments plays Eight-Minute Empire and checks every text it produced
// on the way — accounts, notes on legal commands, final scores, rule errors — for its
// arguments: a name of the game (a card, leader, the neutral armies, a card word) is
// an engine.Term with its Italian name, never a bare string that a reader's language
// would then have to guess at; the bare strings left are players' names, regions,
// numbers and commands, none of them a term.
func TestEmpireTextArguments(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	named := func(term string) bool { return b.Term(i18n.Italian, term) != term }
	check := func(where string, tx engine.Text) {
		for _, p := range termProblems(b, tx, named) {
			t.Errorf("%s: %s", where, p)
		}
	}
	g := empire.Game{}
	texts := 0
	for _, cfg := range selfplay.Configs(g, 21, 6) {
		var prev engine.State
		_, err := selfplay.Play(g, cfg, func(st selfplay.Step) error {
			where := st.Command
			stateTexts(prev, st, func(tx engine.Text) {
				texts++
				check(where, tx)
			})
			for _, p := range st.State.ToAct() {
				for _, c := range append(empireProbes, ownRegionProbes(st.State, p)...) {
					_, _, err := engine.Step(st.State, cfg.Seed, st.N+1, p, c, nil)
					var re *engine.RuleError
					if errors.As(err, &re) {
						texts++
						check(where+" then "+c, re.Text)
					}
				}
			}
			prev = st.State
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if texts < 1000 {
		t.Errorf("only %d texts checked", texts)
	}
}

// TestEmpireNeutralWord: the neutral armies are named in the reader's words in a
// legal command, and the Italian word reads back.
func TestEmpireNeutralWord(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Command("empire", i18n.Italian, "destroy neutral 3"); got != "distruggi neutrale 3" {
		t.Errorf("destroy neutral 3 in Italian: %q", got)
	}
	for _, in := range []string{"distruggi neutrale 3", "neutrale 3"} {
		want := map[string]string{"distruggi neutrale 3": "destroy neutral 3", "neutrale 3": "neutral 3"}[in]
		if got, _ := b.Canonical("empire", in); got != want {
			t.Errorf("%q reads as %q, want %q", in, got, want)
		}
	}
}
