package templates

import (
	"bytes"
	"encoding/json"
	stdhtml "html"
	"regexp"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// swVerbs are the verbs the Small World family's state section explains, as a legal
// list in canonical words.
var swVerbs = []string{"swap 1", "volcano 2", "ancient 3", "wisp 4", "vampire 5", "reborn 6", "bag sword", "armour 7",
	"queen 8", "sword 9", "socks 10", "doormat 11", "orb 12", "balrog 13", "ghost 14", "scepter 15", "ring 16", "altar 17"}

// swSection renders the Small World family's state section of view for reader ann
// in lang, text (lines not yet broken at MaxLine) and HTML (its words), with the notes on every verb it explains (the legal list
// in lang's command words) and the marks of every race that shows some.
func swSection(t *testing.T, set *Set, tr *i18n.Bundle, view map[string]any, lang string) (text, html string) {
	t.Helper()
	board := Board(view, "ann", []string{"3"}, lang)
	legal := make([]string, len(swVerbs))
	for i, c := range swVerbs {
		legal[i] = tr.Command("underground", i18n.Lang(lang), c)
	}
	st := State{Lang: lang, Legal: legal}
	var tb, hb bytes.Buffer
	for _, x := range []struct {
		buf  *bytes.Buffer
		exec func(*bytes.Buffer, string, any) error
		name string
		data any
	}{
		{&tb, func(b *bytes.Buffer, n string, d any) error { return set.text.ExecuteTemplate(b, n, d) }, "state-smallworld", board},
		{&tb, func(b *bytes.Buffer, n string, d any) error { return set.text.ExecuteTemplate(b, n, d) }, "legal-notes-smallworld", st},
		{&hb, func(b *bytes.Buffer, n string, d any) error { return set.html.ExecuteTemplate(b, n, d) }, "html-smallworld", board},
		{&hb, func(b *bytes.Buffer, n string, d any) error { return set.html.ExecuteTemplate(b, n, d) }, "legal-notes-smallworld-html", st},
	} {
		if err := x.exec(x.buf, x.name, x.data); err != nil {
			t.Fatalf("%s: %v", x.name, err)
		}
	}
	return tb.String(), stdhtml.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(hb.String(), "\n"))
}

// withMarks returns a copy of view whose first player's active race shows every mark
// the section explains (as a view decodes from JSON).
func withMarks(view map[string]any) map[string]any {
	var out map[string]any
	b, _ := json.Marshal(view)
	_ = json.Unmarshal(b, &out)
	players, _ := out["players"].([]any)
	for _, p := range players {
		if a, ok := p.(map[string]any)["active"].(map[string]any); ok {
			a["marks"] = map[string]any{"hammers_in_play": 2.0, "may_swap": 3.0, "may_move_volcano": 1.0, "armours_to_place": 2.0}
			break
		}
	}
	return out
}

// TestRender_smallWorldSectionItalian: the Small World family's state section — the
// players and their marks, the offer, Necromancer Island's block, the places and
// relics, the map key, the region table and the notes on every verb — holds no English
// word for an Italian reader (langcheck), names races, powers, places, terrains,
// symbols and pieces by their Italian names, shows the verbs in Italian command words,
// and keeps the English table's layout: the same rows, each with its region number
// first and the same holder's tokens.
func TestRender_smallWorldSectionItalian(t *testing.T) {
	set, tr := loadBoth(t)
	row := regexp.MustCompile(`(?m)^[ *]+(\d+) .* — .*$`)
	tokens := regexp.MustCompile(`×\d+`)
	for _, c := range []struct {
		view string
		want []string
	}{
		{"smallworld.view.json", []string{"Giocatori (in ordine di turno):", "attiva: Elfi/Collinari", "in Declino: Troll", "Combinazioni Razza/Potere in offerta (con prendi N paghi N-1 monete):",
			"Amazzoni/Signori dei Draghi, 15 segnalini", "Regioni (prima le tue):", "campi coltivati (tribù perduta, fonte di magia) —",
			"ben Troll ×1 (in Declino) [fortezza, montagna, tana dei troll]", "(caverna, miniera) bordo", "Tribù Perduta ×1", "confina con 2, 6", "— vuota;",
			"Martelli d'argento", "i Mimi ombra possono ancora prendere il potere di una combinazione 1–3 dell'offerta (scambia N)",
			"Corazze di fungo da piazzare: 2 (corazza R)",
			"  scambia N   i tuoi Mimi ombra", "  sacca RELIQUIA  la Sacca delle meraviglie", "  altare R    togli da R un segnalino", "  globo R     come vampiro:"}},
		{"necromancer.view.json", []string{"Isola del Necromante: cy è il Necromante", "Fantasma/Bivacco", "Poteri in uso: Bivacco, Volanti, Palustri.",
			"Nella riserva: Ricchi, Collinari, Silvani.", "Un Fantasma o un potere costa 5 monete.", "Pozzo delle Anime: 3 segnalini", "cy Fantasma ×2 [isola]"}},
		{"underground.view.json", []string{"Luoghi mitici e Reliquie: 1 ancora coperto sotto i Mostri; scoperti:",
			"Tappetino volante (Reliquia) nella regione 19 — occupata da ann (Fiamme)", "Legenda: «Mostri ×2» custodiscono",
			"crepaccio abissale (vulcano) — vuota [vulcano]", "[Grande Antico, corazza di fungo×2]", "[Balrog, montagna, Stonehenge]", "pozza di fango     (mostri) bordo — Mostri ×2",
			"  vulcano R   il Vulcano nel crepaccio R", "  antico R    il Grande Antico nella tua regione R (conquistare accanto a esso\n              costa 1 segnalino in meno)"}},
	} {
		t.Run(c.view, func(t *testing.T) {
			view := withMarks(loadView(c.view))
			itText, itHTML := swSection(t, set, tr, view, "it")
			enText, _ := swSection(t, set, tr, view, "en")
			for part, body := range map[string]string{"text": itText, "html": itHTML} {
				if en := langcheck.English(body, nil); len(en) > 0 {
					t.Errorf("%s part: English words %q", part, en)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(itText, w) {
					t.Errorf("text part lacks %q:\n%s", w, itText)
				}
			}
			enRows, itRows := row.FindAllStringSubmatch(enText, -1), row.FindAllStringSubmatch(itText, -1)
			if len(enRows) != len(itRows) || len(enRows) == 0 {
				t.Fatalf("%d region rows in English, %d in Italian", len(enRows), len(itRows))
			}
			for i := range enRows {
				if enRows[i][1] != itRows[i][1] || tokens.FindString(enRows[i][0]) != tokens.FindString(itRows[i][0]) {
					t.Errorf("row %d: English %q, Italian %q", i, enRows[i][0], itRows[i][0])
				}
			}
		})
	}
}

// TestPrintedNamesInItalian: every terrain, region symbol and piece the views of the
// Small World family show in self-play, and every place and relic found, has its
// Italian name in the terms catalogue, under the English name the mails print.
func TestPrintedNamesInItalian(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{} // term → where
	for _, game := range []string{"smallworld", "necromancer", "underground"} {
		g := games.Registry()[game]
		for _, cfg := range selfplay.Configs(g, 1, 2) {
			_, err := selfplay.Play(g, cfg, func(st selfplay.Step) error {
				b, err := json.Marshal(st.State.View(""))
				if err != nil {
					return err
				}
				var v struct {
					Regions []struct {
						Terrain string
						Symbols []string
						Pieces  map[string]any
					}
					Found []struct{ Name string }
				}
				if err := json.Unmarshal(b, &v); err != nil {
					return err
				}
				for _, r := range v.Regions {
					seen[printed(printedNames, r.Terrain)] = game + " terrain " + r.Terrain
					for _, s := range r.Symbols {
						seen[symbolTerm(s)] = game + " symbol " + s
					}
					for k := range r.Pieces {
						seen[printed(printedNames, k)] = game + " piece " + k
					}
				}
				for _, f := range v.Found {
					seen[f.Name] = game + " place or relic"
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(seen) < 30 {
		t.Fatalf("only %d names seen: %v", len(seen), seen)
	}
	for term, where := range seen {
		if !tr.Has(i18n.Italian, "terms", term) {
			t.Errorf("%s: no Italian name for %q", where, term)
		}
	}
}

// TestNames: terrains, symbols, pieces, holders and combos are named as printed in
// English and by their Italian names in Italian ("" reads English).
func TestNames(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	pieces := map[string]any{"encampments": 2.0, "fortress": true, "troll_lair": true, "hero": false}
	for _, c := range []struct {
		lang                                string
		terrain, mine, pieces, owner, combo string
		symbols                             []string
	}{
		{"en", "mud pool", "mine", "encampment×2, fortress, troll's lair", "lost-tribe", "Flying Ratmen", []string{"mine", "lost-tribe", "magic"}},
		{"", "mud pool", "mine", "encampment×2, fortress, troll's lair", "lost-tribe", "Flying Ratmen", []string{"mine", "lost-tribe", "magic"}},
		{"it", "pozza di fango", "giacimento", "accampamento×2, fortezza, tana dei troll", "Tribù Perduta", "Uomini Ratto/Volanti", []string{"miniera", "tribù perduta", "fonte di magia"}},
	} {
		if got := DisplayName(tr, c.lang, "mudpool"); got != c.terrain {
			t.Errorf("%q: mudpool is %q, want %q", c.lang, got, c.terrain)
		}
		if got := DisplayName(tr, c.lang, "mine"); got != c.mine {
			t.Errorf("%q: the mine terrain is %q, want %q", c.lang, got, c.mine)
		}
		if got := Pieces(tr, c.lang, pieces); got != c.pieces {
			t.Errorf("%q: pieces %q, want %q", c.lang, got, c.pieces)
		}
		if got := Owner(tr, c.lang, "lost-tribe"); got != c.owner {
			t.Errorf("%q: lost-tribe holds as %q, want %q", c.lang, got, c.owner)
		}
		if got := Owner(tr, c.lang, "ann"); got != "ann" {
			t.Errorf("%q: a player holds as %q", c.lang, got)
		}
		if got := Combo(tr, c.lang, "Ratmen", "Flying"); got != c.combo {
			t.Errorf("%q: combo %q, want %q", c.lang, got, c.combo)
		}
		if got := SymbolNames(tr, c.lang, []any{"mine", "lost-tribe", "magic"}); strings.Join(got, ",") != strings.Join(c.symbols, ",") {
			t.Errorf("%q: symbols %q, want %q", c.lang, got, c.symbols)
		}
	}
}

// TestVerbNote: a verb note is the pattern padded to its column, then the text broken
// at spaces under that column within MaxLine; a long pattern keeps two spaces.
func TestVerbNote(t *testing.T) {
	long := strings.Repeat("word ", 20)
	for _, c := range []struct{ pattern, text, want string }{
		{"swap N", "your Shadow Mimes take a power", "  swap N      your Shadow Mimes take a power"},
		{"sacca RELIQUIA", "la Sacca", "  sacca RELIQUIA  la Sacca"},
		{"ring R", long, "  ring R      word word word word word word word word word word word word word\n              word word word word word word word"},
	} {
		got := VerbNote(c.pattern, c.text)
		if got != c.want {
			t.Errorf("VerbNote(%q, …) =\n%s\nwant\n%s", c.pattern, got, c.want)
		}
		for _, l := range strings.Split(got, "\n") {
			if len([]rune(l)) > MaxLine {
				t.Errorf("line longer than %d: %q", MaxLine, l)
			}
		}
	}
}

// TestRender_necromancerEnd: a finished Necromancer Island game says why its winner
// won — the Necromancer with all his Ghosts in play, or the others on coins, his not
// counting — in English and Italian, text and HTML.
func TestRender_necromancerEnd(t *testing.T) {
	set, tr := loadBoth(t)
	for _, c := range []struct {
		name           string
		reserve, well  float64
		wantEn, wantIt string
		notEnd         bool
	}{
		{"ghosts left", 3, 0, "did not bring all his Ghosts into play before the end: the other players compete on coins",
			"non ha messo in gioco tutti i suoi Fantasma prima della fine", false},
		{"ghosts in the well", 0, 1, "did not bring all his Ghosts into play", "non ha messo in gioco tutti i suoi Fantasma", false},
		{"all in play", 0, 0, "The Necromancer brought all his Ghosts into play: he wins.", "Il Necromante ha messo in gioco tutti i suoi Fantasma: vince.", false},
		{"not over", 3, 0, "brought all his Ghosts", "messo in gioco tutti i suoi Fantasma", true},
	} {
		view := loadView("necromancer.view.json")
		view["finished"] = !c.notEnd
		nv := view["necromancer"].(map[string]any)
		nv["reserve"], nv["well_ghosts"] = c.reserve, c.well
		for lang, want := range map[string]string{"en": c.wantEn, "it": c.wantIt} {
			text, html := swSection(t, set, tr, view, lang)
			for part, body := range map[string]string{"text": text, "html": html} {
				if got := strings.Contains(body, want); got == c.notEnd {
					t.Errorf("%s, %s %s part: contains %q is %v", c.name, lang, part, want, got)
				}
			}
		}
	}
}
