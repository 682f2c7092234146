package templates

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
)

// empireGame is the game of the Empire samples.
var empireGame = Game{ID: "em-q7r2", Kind: "empire", Title: "Eight-Minute Empire: Legends", Players: []string{"ann", "ben"}}

// empireSamples are the Empire state mails of the golden tests, in English and in
// Italian, from the game of testdata/empire.archive.json (2 players, ring layout,
// seed 7: ann places everyone's first army in region 9, the ten neutral armies go to
// region 3, both bid 0 and ann wins the draw, starts and takes the free card): ann
// after her sealed bid, waiting for ben ("state-empire-bid"), and ann carrying out
// her first card's move ("state-empire-play"). Each is built as the service builds a
// state mail: the view as decoded JSON, what happened put into words, the legal
// commands in the reader's words with their notes.
func empireSamples() []sample {
	raw, err := os.ReadFile(filepath.Join("testdata", "empire.archive.json"))
	if err != nil {
		panic(err)
	}
	a, err := engine.ReadArchive(strings.NewReader(string(raw)))
	if err != nil {
		panic(err)
	}
	states, err := engine.ReplayAll(games.Registry(), a, -1)
	if err != nil {
		panic(err)
	}
	tr, err := i18n.Load()
	if err != nil {
		panic(err)
	}
	var out []sample
	for _, lang := range []i18n.Lang{i18n.English, i18n.Italian} {
		suffix := ""
		if lang == i18n.Italian {
			suffix = "-it"
		}
		play := empireMail(tr, lang, a, states, 15, 14)
		play.YourTurn, play.Applied = true, []Line{{N: 1, Text: tr.Command("empire", lang, "take 1")}}
		bid := empireMail(tr, lang, a, states, 12, 12)
		out = append(out, sample{"state-empire-play" + suffix, "state", play}, sample{"state-empire-bid" + suffix, "state", bid})
		for n := 13; n < len(states); n++ { // the first state where ann may take a card
			if slices.Contains(states[n].Legal("ann"), "take 1") {
				take := empireMail(tr, lang, a, states, n, n)
				take.YourTurn = true
				out = append(out, sample{"state-empire-take" + suffix, "state", take})
				break
			}
		}
	}
	return out
}

// empireMail is ann's state mail in lang after the first n events of the sample game,
// telling the events from the one numbered since on.
func empireMail(tr *i18n.Bundle, lang i18n.Lang, a *engine.Archive, states []engine.State, n, since int) State {
	st := states[n]
	var view map[string]any
	b, err := json.Marshal(st.View("ann"))
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(b, &view); err != nil {
		panic(err)
	}
	data := State{Game: empireGame, Player: "ann", ToAct: st.ToAct(), View: view, Lang: string(lang),
		ReplyTo: "turnmail+em-q7r2.0.xxxx@example.org"}
	for seq := since; seq <= n; seq++ {
		e := a.Events[seq-1]
		m := Move{Seq: seq, Player: e.Player, Command: tr.Command("empire", lang, e.Command)}
		for _, h := range engine.Narrate(states[seq-1], e.Player, e.Command, states[seq], "ann") {
			hp := Happening{Kind: h.Kind, Text: tr.Text(lang, h.Text)}
			for _, d := range h.Details {
				hp.Details = append(hp.Details, tr.Text(lang, d))
			}
			m.Happened = append(m.Happened, hp)
		}
		data.Moves = append(data.Moves, m)
	}
	data.Legal, data.AnyTime, data.LegalNotes = legalIn(tr, lang, "empire", st, "ann")
	return data
}

// legalIn is what a state mail lists for player in lang, as the service lists it:
// the legal commands in the reader's words, those of any moment apart
// (engine.AnyTime), and the notes on them keyed by the command as shown.
func legalIn(tr *i18n.Bundle, lang i18n.Lang, game string, st engine.State, player string) (legal, anyTime []string, notes map[string]string) {
	raw := engine.NotesOf(st, player)
	anyMoment := engine.AnyTime(st, player)
	for _, e := range st.Legal(player) {
		shown := tr.Command(game, lang, e)
		if slices.Contains(anyMoment, e) {
			anyTime = append(anyTime, shown)
		} else {
			legal = append(legal, shown)
		}
		if note, ok := raw[e]; ok {
			if notes == nil {
				notes = map[string]string{}
			}
			notes[shown] = tr.GameText(game, lang, note)
		}
	}
	return legal, anyTime, notes
}

// TestRender_empireItalian: the Italian Empire state mails hold no English word in
// their subject, text or HTML, and say what the English ones say in Italian words:
// the phase, the cards by their Italian names with what they give, the neutral armies,
// the notes on the legal commands and the patterns explained.
func TestRender_empireItalian(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"state-empire-play-it": {"Turno 1 — fase di gioco.", "ann sta eseguendo l'azione di Saggio antico: 3 punti movimento (ne restano 3).",
			"  Giocatore        Monete  Armate (riserva)  Città  Elisir  PV\n  ann (blu)        12      5 (13)            0      0       1\n    carte: Saggio antico\n", // no bid column once the first player is chosen
			"  5  armate ann×4 ben×4 — terra 3, 4; mare 22", "La fila: 1. Idra notturna (costo 0); 2. Drago spaventoso (costo 1);",
			"    salta   # rinunci al resto di questa azione", "Come leggere gli schemi qui sopra:", "  1>5, 1>2>5      da 1 a 5: per la via più economica", "ne restano 3"},
		"state-empire-bid-it": {"Turno 1 — fase della puntata.", "Elisir  PV  Puntata\n", "  ann (blu)        12      5 (13)            0      0       0   0", "ann ha puntato 0 monete"},
		// Every card of the row can be taken: each is told whole beside its command,
		// and the row is not told again (neither as a table nor in the details).
		"state-empire-take-it": {"    prendi 1   # Saggio antico (costo 0): +1 PV per ogni carta antica; 3 punti movimento\n",
			"    prendi 6   # Borgo silvestre sugli alberi (costo 3): +1 movimento; una città da costruire\n", "Dettagli\n\nInoltre:"},
	}
	n := 0
	for _, s := range empireSamples() {
		if !strings.HasSuffix(s.name, "-it") {
			continue
		}
		n++
		checkItalian(t, set, s, nil, want[s.name])
	}
	if n != 3 {
		t.Errorf("%d Italian Empire samples, want 3", n)
	}
	// The whole board is the answer to map: the row with what each card gives, the
	// islands, every region.
	for _, s := range empireSamples() {
		if s.name != "state-empire-play-it" {
			continue
		}
		st := s.data.(State)
		m := sample{"map-empire-it", "notice", Notice{Kind: Map, Game: st.Game, To: "ann", Lang: "it", View: st.View}}
		checkItalian(t, set, m, nil, []string{"  1  Idra notturna                 0\n    azione: 5 punti movimento e 1 armata da distruggere; abilità: +1 armata",
			"  - Corona (regioni 1, 2, 3, 4, 5) — controllata dalle armate neutrali",
			"  3  armate neutrale×10, controllata dalle armate neutrali — terra 1, 4, 5;\n     mare nessuna\n"})
	}
}

// checkItalian renders the Italian sample s and checks that its subject, text and
// HTML hold no English word (but the words allow lets through) and that its text
// holds each of want; it returns the text.
func checkItalian(t *testing.T, set *Set, s sample, allow langcheck.Allowed, want []string) string {
	t.Helper()
	text, h, err := set.Render(s.kind, s.data)
	if err != nil {
		t.Fatal(err)
	}
	subject, err := set.Subject(s.kind, s.data)
	if err != nil {
		t.Fatal(err)
	}
	for part, body := range map[string]string{"subject": subject, "text": text, "html": htmlTextOf(h)} {
		if left := langcheck.English(body, allow); len(left) > 0 {
			t.Errorf("%s: English in the %s: %q", s.name, part, left)
		}
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s: no %q in:\n%s", s.name, w, text)
		}
	}
	return text
}

// TestEmpirePatterns: the shapes of pattern a legal list uses, each once, in the
// order the mail explains them, whatever the language of its words.
func TestEmpirePatterns(t *testing.T) {
	tests := []struct {
		legal []string
		want  []string
	}{
		{[]string{"take 1", "take 2", "skip"}, nil},
		{[]string{"bid <0…11>"}, []string{"range"}},
		{[]string{"settle <8…27>", "neutral <1…27>"}, []string{"range"}},
		{[]string{"move 1><3,5> [1…2]", "move 5>1", "move <region>><region>>…><region> [<n>]", "skip"}, []string{"choice", "optional", "path", "any"}},
		{[]string{"muovi 1><3,5> [1…2]", "muovi <regione>><regione>>…><regione> [<n>]"}, []string{"choice", "optional", "path", "any"}},
		{[]string{"place <4,9>=<1…3>", "place <region>=<n> <region>=<n> …"}, []string{"choice", "range", "any"}},
		{[]string{"destroy ben 3", "city 4"}, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range EmpirePatterns("<region>", tt.legal) {
			got = append(got, p.Kind)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: shapes %q, want %q", tt.legal, got, tt.want)
		}
	}
	// A range is explained with the bounds the list writes, not an example's.
	for _, tt := range []struct {
		legal        []string
		kind, sample string
		lo, hi       int
	}{
		{[]string{"settle <8…26>"}, "range", "<8…26>", 8, 26},
		{[]string{"move 1><3,5> [1…2]"}, "optional", "[1…2]", 1, 2},
	} {
		for _, p := range EmpirePatterns("<region>", tt.legal) {
			if p.Kind == tt.kind && (p.Sample != tt.sample || p.Lo != tt.lo || p.Hi != tt.hi) {
				t.Errorf("%q: %s explained as %q %d…%d, want %q %d…%d", tt.legal, p.Kind, p.Sample, p.Lo, p.Hi, tt.sample, tt.lo, tt.hi)
			}
		}
	}
}
