package smallworld

import (
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
)

// TestNarrate: each kind of happening a Small World command tells, as its viewer
// reads it in English and in Italian (counts with their plurals): the combo taken,
// conquests (empty, from a player's declined race with the loss and whom it hit),
// scores with their breakdown (the scorer's alone until the game ends), declines, a
// race leaving the map, redeployment and abandon.
func TestNarrate(t *testing.T) {
	const stacks = `{"races":["Elves","Ratmen","Humans"],"powers":["Hill","Flying","Commando"]}`
	opening := []string{"alice: pick 1", "alice: conquer 5", "alice: done", "bob: pick 1", "bob: done"}
	tests := []struct {
		name   string
		before []string
		move   string
		viewer string
		kind   string
		hit    []string
		want   string // in the English text of a happening of kind
		it     string // in its Italian text
		absent string // in no happening
	}{
		{"combo", nil, "alice: pick 1", "bob", engine.HapCombo, nil,
			"alice took Hill Elves (offer position 1) with 10 tokens",
			"alice ha preso Elfi/Collinari (posizione 1 dell'offerta) con 10 segnalini", "coin"},
		{"combo paid", opening[:3], "bob: pick 2", "alice", engine.HapCombo, nil,
			"with 9 tokens: paid 1 coin", "con 9 segnalini: ha pagato 1 moneta", "took the"},
		{"combo with coins on it", []string{"alice: pick 2", "alice: done"}, "bob: pick 1", "alice", engine.HapCombo, nil,
			"bob took Hill Elves (offer position 1) with 10 tokens and the 1 coin on it", "bob ha preso Elfi/Collinari (posizione 1 dell'offerta) con 10 segnalini, raccogliendo 1 moneta dalla combinazione", "paid"},
		{"combo paid, with coins on it", []string{"alice: pick 3", "alice: done"}, "bob: pick 2", "alice", engine.HapCombo, nil,
			"tokens: paid 1 coin, took the 1 coin on it", "segnalini: ha pagato 1 moneta e raccolto 1 moneta dalla combinazione", ""},
		{"empty region", opening[:1], "alice: conquer 5", "bob", engine.HapConquest, nil,
			"alice (Hill Elves) conquered region 5 (empty) with 2 tokens", "alice (Elfi/Collinari) ha conquistato la regione 5 (vuota) con 2 segnalini", ""},
		{"score, own", opening[:2], "alice: done", "alice", engine.HapScore, nil, "alice scored 2 coins (7 in all) | regions: 1", "alice ha guadagnato 2 monete (7 in tutto) | regioni: 1", ""},
		{"score, hidden from others", opening[:2], "alice: done", "bob", "", nil, "", "", "scored"},
		{"score, complete view", opening[:2], "alice: done", "", engine.HapScore, nil, "regions: 1", "regioni: 1", ""},
		{"decline", opening, "alice: decline", engine.Observer, engine.HapDecline, nil, "alice put the Hill Elves into decline", "alice ha mandato in Declino gli Elfi Collinari", ""},
		{"turn ended, for the others", opening[:2], "alice: done", "bob", engine.HapOther, nil, "alice ended the turn", "alice ha finito il turno", ""},
		{"turn ended, not twice for the player", opening[:2], "alice: done", "alice", engine.HapScore, nil, "alice scored", "", "ended the turn"},
		{"conquest of a declined race", append(opening, "alice: decline"), "bob: conquer 5", "alice", engine.HapConquest, []string{"alice"},
			"from alice (declined Elves) with 3 tokens: alice lost 1 token",
			"di alice (Elfi in Declino) con 3 segnalini: alice ha perso 1 segnalino", "back in hand"},
		{"declined race leaves the map", append(opening, "alice: decline"), "bob: conquer 5", "alice", engine.HapDecline, []string{"alice"}, "alice's declined Elves left the map", "gli Elfi in Declino di alice hanno lasciato la mappa", ""},
		{"abandon", opening[:2], "alice: abandon 5", "bob", engine.HapMove, nil, "alice abandoned region 5", "alice ha abbandonato la regione 5", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := apply(t, newGame(t, 2, nil, stacks), tc.before...)
			after := apply(t, s, tc.move)
			who, cmd, _ := strings.Cut(tc.move, ": ")
			hs := engine.Narrate(s, who, cmd, after, tc.viewer)
			var all []string
			found := tc.want == ""
			for _, h := range hs {
				text, it := english(t, h.Text), render(t, i18n.Italian, h.Text)
				for _, d := range h.Details {
					text += " | " + english(t, d)
					it += " | " + render(t, i18n.Italian, d)
				}
				all = append(all, h.Kind+": "+text+" / "+it)
				if h.Kind == tc.kind && strings.Contains(text, tc.want) && strings.Contains(it, tc.it) && slices.Equal(h.Hit, tc.hit) {
					found = true
				}
				if tc.absent != "" && strings.Contains(text, tc.absent) {
					t.Errorf("%q told to %q: %s", tc.absent, tc.viewer, text)
				}
				if h.Actor != who {
					t.Errorf("actor %q, want %q", h.Actor, who)
				}
			}
			if !found {
				t.Errorf("no %s happening with %q / %q hitting %v in:\n%s", tc.kind, tc.want, tc.it, tc.hit, strings.Join(all, "\n"))
			}
		})
	}
}

// TestNarrate_scoresSumUp: a player's final breakdown adds up to their coins.
func TestNarrate_scoresSumUp(t *testing.T) {
	s := apply(t, newGame(t, 2, nil, `{"races":["Elves","Ratmen","Humans"],"powers":["Hill","Flying","Commando"]}`),
		"alice: pick 1", "alice: conquer 5", "alice: done", "bob: pick 2", "bob: done")
	for _, sc := range s.Scores() {
		sum := 0
		for _, p := range sc.Parts {
			sum += p.Args[len(p.Args)-1].(int)
		}
		if sum != sc.Total {
			t.Errorf("%s: parts %v sum to %d, total %d", sc.Player, sc.Parts, sum, sc.Total)
		}
	}
}

// TestNarrate_riverLeft: when conquests end, the tokens on a river go back to the
// hand, told in a sentence whose count agrees with its verb in both languages.
func TestNarrate_riverLeft(t *testing.T) {
	s, _ := newUnderground(t, 2, nil, `{"races":["Ogres","Liches"],"powers":["Spirit","Stout"]}`)
	s = apply(t, s, "alice: pick 1", "alice: conquer 25")
	after := apply(t, s, "alice: done")
	const en = "alice's conquests are over: the tokens on the river in region 25 go back to the hand (1 token)"
	const it = "le conquiste di alice sono finite: i suoi segnalini sul fiume della regione 25 tornano in mano (1 segnalino)"
	var all []string
	for _, h := range engine.Narrate(s, "alice", "done", after, "bob") {
		text, itText := english(t, h.Text), render(t, i18n.Italian, h.Text)
		if text == en && itText == it {
			return
		}
		all = append(all, text+" / "+itText)
	}
	t.Errorf("no happening %q / %q in:\n%s", en, it, strings.Join(all, "\n"))
}
