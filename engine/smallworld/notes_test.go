package smallworld

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
)

// bundle is the message catalogues, loaded once for the tests that read texts as a
// mail renders them.
var bundle = sync.OnceValues(i18n.Load)

// render renders a Text in lang as a mail does (with the catalogue's plurals).
func render(t testing.TB, lang i18n.Lang, tx engine.Text) string {
	t.Helper()
	b, err := bundle()
	if err != nil {
		t.Fatal(err)
	}
	return b.GameText("smallworld", lang, tx)
}

// english renders a Text as the English mail does.
func english(t testing.TB, tx engine.Text) string { return render(t, i18n.English, tx) }

// checkNotes checks a player's Legal entries against their notes: no entry explains
// itself (a "#" or a parenthesis: explanations are notes), every note explains a
// listed entry, and the patterns naming regions have theirs.
func checkNotes(t testing.TB, where string, legal []string, notes map[string]engine.Text) {
	t.Helper()
	for _, e := range legal {
		if strings.ContainsAny(e, "#(") {
			t.Fatalf("%s: the entry %q explains itself; explanations are notes", where, e)
		}
		if n := notes[e]; strings.Contains(e, "<region>") && n.Key == "" {
			t.Fatalf("%s: %q has no note (notes %v)", where, e, notes)
		}
	}
	for e := range notes {
		if !slices.Contains(legal, e) {
			t.Fatalf("%s: a note on %q, which is not listed (%q)", where, e, legal)
		}
	}
}

// TestNotesInBothLanguages: the notes on the patterns and choices a mail lists, as
// an English and an Italian reader see them — which regions, how many tokens or
// encampments, with real plurals — and no longer written into the entries.
func TestNotesInBothLanguages(t *testing.T) {
	keep := func(t *testing.T) *state {
		s := newNecro(t, 3, nil, necroFixed)
		return apply(t, s, "alice: pick 1", "alice: done", "bob: pick 1", "bob: done")
	}
	tests := []struct {
		name          string
		state         func(t *testing.T) *state
		player, entry string
		en, it        string
	}{
		{"redeploy", func(t *testing.T) *state { return run(t, "amazons_hill")[3] }, "alice", "redeploy <region>=<tokens> …",
			"the region ends with that many; regions 5,10; 6 tokens to place",
			"la regione resta con quel numero; regioni 5,10; 6 segnalini da schierare"},
		{"redeploy of a defender", func(t *testing.T) *state { return run(t, "losses_retreat")[10] }, "alice", "redeploy <region>=<tokens> …",
			"the region ends with that many; regions 4,10; 5 tokens to place, lost in an attack; additions only, on the regions you still hold; the others stay",
			"la regione resta con quel numero; regioni 4,10; 5 segnalini da schierare (persi in un attacco); puoi solo aggiungere segnalini alle regioni che occupi ancora, le altre restano come sono"},
		{"encampments lost in an attack", func(t *testing.T) *state { return run(t, "bivouacking_replace")[11] }, "alice", "camp <region>=<encampments> …",
			"the region ends with that many; regions 9,10; 5 encampments in all: 3 free, 2 on the map; 3 lost in the attack to re-place",
			"la regione resta con quel numero; regioni 9,10; 5 accampamenti in tutto: 3 liberi, 2 sulla mappa; 3 persi nell'attacco, da ripiazzare"},
		{"encampments all on the map", func(t *testing.T) *state { return run(t, "bivouacking_one_region")[10] }, "alice", "camp <region>=<encampments> …",
			"the region ends with that many; regions 10; 5 encampments in all: 0 free, 5 on the map",
			"la regione resta con quel numero; regioni 10; 5 accampamenti in tutto: 0 liberi, 5 sulla mappa"},
		{"heroes", func(t *testing.T) *state { return run(t, "heroic_every_turn")[4] }, "alice", "hero <region> <region>",
			"two different regions of 13,14,19", "due regioni diverse tra 13,14,19"},
		{"an empty river", func(t *testing.T) *state {
			s, _ := newUnderground(t, 2, nil, `{"races":["Liches","Ogres"],"powers":["Spirit","Stout"],"pool":["Shiny Orb"]}`)
			s = apply(t, s, "alice: pick 1")
			s, _ = step(t, s, "alice", "conquer 23", engine.Outcomes{"reveal": json.RawMessage(`["Shiny Orb"]`)})
			return apply(t, s, "alice: conquer 27", "alice: conquer 26")
		}, "alice", "conquer 25", "1 token: 2 - 1 (river)", "1 segnalino: 2 - 1 (fiume)"},
		{"keep", keep, "carol", "keep 4", "Merchant; the other powers go to your reserve", "Mercanti; gli altri poteri vanno nella tua riserva"},
		{"buy ghost", func(t *testing.T) *state { return apply(t, keep(t), "carol: keep 4") }, "carol", "buy ghost",
			"2 coins: a Ghost from your reserve (13 there) to your hand on the Island",
			"2 monete: un Fantasma dalla Riserva dei Fantasma (ce ne sono 13) sull'Isola, in mano tua"},
		{"buy power", func(t *testing.T) *state {
			s := apply(t, keep(t), "carol: keep 1")
			s.Players[2].Coins = 10
			return s
		}, "carol", "buy power 5",
			"Commando for 2 coins; its effects add to your other powers",
			"Commando per 2 monete; i suoi effetti si sommano a quelli degli altri tuoi poteri"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.state(t)
			legal := s.Legal(tc.player)
			if !slices.Contains(legal, tc.entry) {
				t.Fatalf("Legal(%s) = %q lacks %q", tc.player, legal, tc.entry)
			}
			note, ok := s.Notes(tc.player)[tc.entry]
			if !ok {
				t.Fatalf("no note on %q", tc.entry)
			}
			if got := english(t, note); got != tc.en {
				t.Errorf("English note %q, want %q", got, tc.en)
			}
			if got := render(t, i18n.Italian, note); got != tc.it {
				t.Errorf("Italian note %q, want %q", got, tc.it)
			}
		})
	}
}

// TestErrorsInBothLanguages: refusals built from parts — a hint naming a command, a
// scenario's rule, a count — read whole in English and in Italian, the commands in
// the reader's words.
func TestErrorsInBothLanguages(t *testing.T) {
	necro := func(t *testing.T) *state {
		s := newNecro(t, 3, nil, necroFixed)
		return apply(t, s, "alice: pick 1", "alice: done", "bob: pick 1", "bob: done")
	}
	tests := []struct {
		name        string
		state       func(t *testing.T) *state
		player, cmd string
		en, it      string
	}{
		{"the die could do it", func(t *testing.T) *state { return run(t, "final_roll")[3] }, "alice", "conquer 4",
			"region 4 takes 3 tokens and you have 1 in hand: conquer 4 roll tries it with the reinforcement die and ends your conquests",
			"per la regione 4 servono 3 segnalini e ne hai 1 in mano: conquista 4 tira ci prova con il dado dei rinforzi e chiude le tue conquiste"},
		{"the Necromancer keeps a power first", necro, "carol", "decline",
			"first choose the power you keep among the six you drew: keep 1 to keep 6",
			"prima scegli il potere da tenere tra i sei che hai pescato: da tieni 1 a tieni 6"},
		{"no peace with Ghosts", func(t *testing.T) *state { return apply(t, newNecro(t, 3, nil, necroFixed), "alice: pick 1") }, "alice", "ally carol",
			"carol is the Necromancer: Ghosts are always a race in decline, and no peace is made with them; ally another player",
			"carol è il Necromante: i Fantasma sono sempre una razza in Declino e con loro non si fa pace; alleati con un altro giocatore"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.state(t).Apply(tc.player, tc.cmd, engine.NewRand(1, 999, nil))
			var re *engine.RuleError
			if !errors.As(err, &re) || re.Text.Key == "" {
				t.Fatalf("%s %q: %v, want a rule error with a text", tc.player, tc.cmd, err)
			}
			if got := english(t, re.Text); got != tc.en {
				t.Errorf("in English %q, want %q", got, tc.en)
			}
			if got := render(t, i18n.Italian, re.Text); got != tc.it {
				t.Errorf("in Italian %q, want %q", got, tc.it)
			}
		})
	}
}

// TestWordList: the relics the Bag of Wonders may copy are named in the reader's
// command words.
func TestWordList(t *testing.T) {
	l := wordList([]string{"sword", "orb"})
	if got := english(t, l); got != "sword, orb" {
		t.Errorf("in English %q", got)
	}
	if got := render(t, i18n.Italian, l); got != "spada, globo" {
		t.Errorf("in Italian %q", got)
	}
}
