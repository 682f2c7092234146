package templates

import (
	"encoding/json"
	"fmt"
	stdhtml "html"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/engine/smallworld"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// swVerbs are the verbs whose help the Small World family's mails give, as a legal
// list in canonical words.
var swVerbs = []string{"swap 1", "volcano 2", "ancient 3", "wisp 4", "vampire 5", "reborn 6", "bag sword", "armour 7",
	"queen 8", "sword 9", "socks 10", "doormat 11", "orb 12", "balrog 13", "ghost 14", "scepter 15", "ring 16", "altar 17"}

// swBoard renders the whole Small World family board of view for reader ann in
// lang (the answer to map) and a state mail whose legal list is every verb with a
// help (in lang's command words): their text and HTML parts.
func swBoard(t *testing.T, set *Set, tr *i18n.Bundle, view map[string]any, lang string) (text, html string) {
	t.Helper()
	game := Game{ID: "un-4f2a", Kind: Str(view["game"]), Title: GameTitle(Str(view["game"])), Players: []string{"ann", "ben"}}
	legal := make([]string, len(swVerbs))
	for i, c := range swVerbs {
		legal[i] = tr.Command("underground", i18n.Lang(lang), c)
	}
	var tb, hb strings.Builder
	for _, m := range []struct {
		kind string
		data any
	}{
		{"notice", Notice{Kind: Map, Game: game, To: "ann", View: view, Lang: lang}},
		{"state", State{Game: game, Player: "ann", YourTurn: true, ToAct: []string{"ann"}, Legal: legal, View: view, Changed: []string{"3"}, Lang: lang}},
	} {
		text, html, err := set.Render(m.kind, m.data)
		if err != nil {
			t.Fatal(err)
		}
		tb.WriteString(text)
		hb.WriteString(htmlTextOf(html))
	}
	return tb.String(), hb.String()
}

// withMarks returns a copy of view whose first player's active race shows every mark
// the mails explain (as a view decodes from JSON).
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

// TestRender_smallWorldBoardItalian: the Small World family's whole board (map) and
// a state mail — the players and their marks, the offer, Necromancer Island's
// paragraph, the places and relics, the map key, the region table, the help of every
// verb — hold no English word for an Italian reader (langcheck), name races,
// powers, places, terrains, symbols and pieces by their Italian names, show the
// verbs in Italian command words, and keep the English region table: the same rows,
// each with its region number first and the same holder's tokens.
func TestRender_smallWorldBoardItalian(t *testing.T) {
	set, tr := loadBoth(t)
	row := regexp.MustCompile(`(?m)^[ *]+(\d+) [^\n]* — [^\n]*$`)
	tokens := regexp.MustCompile(`×\d+`)
	for _, c := range []struct {
		view string
		want []string
	}{
		{"smallworld.view.json", []string{"Turno di gioco 3 di 10.", "Giocatore", "Elfi/Collinari", "in Declino: Troll", "Combinazioni Razza/Potere in offerta (con prendi N paghi N-1 monete):",
			"Amazzoni/Signori dei Draghi, 15 segnalini", "Regioni (prima le tue):", "campi coltivati (tribù perduta, fonte di magia) —",
			"ben Troll ×1 (in Declino) [fortezza, montagna, tana dei troll]", "(caverna, miniera), bordo", "Tribù Perduta ×1", "confina con 2, 6", "— vuota;",
			"Martelli d'argento", "i Mimi ombra possono ancora prendere il potere di una combinazione 1–3 dell'offerta (scambia N)",
			"Corazze di fungo da piazzare: 2 (corazza R)",
			"  scambia N      i tuoi Mimi ombra", "  sacca <reliquia>\n                la Sacca delle meraviglie", "  altare R       togli da R un segnalino", "  globo R        come vampiro:"}},
		{"necromancer.view.json", []string{"Isola del Necromante: cy è il Necromante", "Fantasma/Bivacco", "Poteri in uso: Bivacco, Volanti, Palustri.",
			"Nella riserva: Ricchi, Collinari, Silvani.", "Un Fantasma o un potere costa 5 monete.", "Pozzo delle Anime: 3 segnalini", "cy Fantasma ×2 [isola]"}},
		{"underground.view.json", []string{"Luoghi mitici e Reliquie: 1 ancora coperto sotto i Mostri; scoperti:",
			"Tappetino volante (Reliquia) nella regione 19 — occupata da ann (Fiamme)", "Legenda: «Mostri ×2» custodiscono",
			"crepaccio abissale (vulcano) — vuota [vulcano]", "[Grande Antico, corazza di fungo×2]", "[Balrog, montagna, Stonehenge]", "pozza di fango (mostri), bordo — Mostri ×2",
			"  vulcano R      il Vulcano nel crepaccio R", "  antico R       il Grande Antico nella tua regione R (conquistare accanto a\n                esso costa 1 segnalino in meno)"}},
	} {
		t.Run(c.view, func(t *testing.T) {
			view := withMarks(loadView(c.view))
			itText, itHTML := swBoard(t, set, tr, view, "it")
			enText, _ := swBoard(t, set, tr, view, "en")
			for part, body := range map[string]string{"text": itText, "html": itHTML} {
				if en := langcheck.English(body, nil); len(en) > 0 {
					t.Errorf("%s part: English words %q", part, en)
				}
			}
			flat := strings.Join(strings.Fields(itText), " ")
			for _, w := range c.want { // as laid out, or as words where a line broke
				if !strings.Contains(itText, w) && !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
					t.Errorf("text part lacks %q:\n%s", w, itText)
				}
			}
			enRows, itRows := row.FindAllStringSubmatch(enText, -1), row.FindAllStringSubmatch(itText, -1)
			if len(enRows) != len(itRows) || len(enRows) < 10 {
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
// Italian name in the terms catalogue, under the English name the mails print
// (smallworld.PrintedName).
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
					seen[smallworld.PrintedName(r.Terrain)] = game + " terrain " + r.Terrain
					for _, s := range r.Symbols {
						seen[symbolTerm(s)] = game + " symbol " + s
					}
					for k := range r.Pieces {
						seen[smallworld.PrintedName(k)] = game + " piece " + k
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
// English and by their Italian names in Italian ("" reads English); a place or
// relic's key reads as the engine names it.
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
	for key, want := range map[string]string{"shiny_orb": "Shiny Orb", "altar_of_souls": "Altar of Souls", "laras_ghost": "Lara's Ghost", "forest": "forest"} {
		if got := smallworld.PrintedName(key); got != want {
			t.Errorf("PrintedName(%q) = %q, want %q", key, got, want)
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
		{"ghosts left", 3, 0, "did not bring all their Ghosts into play before the end: the other players compete on coins",
			"non ha messo in gioco tutti i suoi Fantasma prima della fine", false},
		{"ghosts in the well", 0, 1, "did not bring all their Ghosts into play", "non ha messo in gioco tutti i suoi Fantasma", false},
		{"all in play", 0, 0, "The Necromancer brought all their Ghosts into play and wins.", "Il Necromante ha messo in gioco tutti i suoi Fantasma: vince.", false},
		{"not over", 3, 0, "brought all their Ghosts", "messo in gioco tutti i suoi Fantasma", true},
	} {
		view := loadView("necromancer.view.json")
		view["finished"] = !c.notEnd
		nv := view["necromancer"].(map[string]any)
		nv["reserve"], nv["well_ghosts"] = c.reserve, c.well
		for lang, want := range map[string]string{"en": c.wantEn, "it": c.wantIt} {
			text, html := swBoard(t, set, tr, view, lang)
			for part, body := range map[string]string{"text": text, "html": html} {
				if got := strings.Contains(strings.Join(strings.Fields(body), " "), want); got == c.notEnd {
					t.Errorf("%s, %s %s part: contains %q is %v", c.name, lang, part, want, got)
				}
			}
		}
	}
}

// TestRender_aboutCombos: a Small World state mail gives, in the reader's language,
// the texts of the reader's own active and declined race and power, and not those of
// another player's combos or of the offer; rules in a game gives every combo's in
// play and on offer; an observer's mail gives none.
func TestRender_aboutCombos(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	view := map[string]any{
		"turn": 3.0,
		"players": []any{
			map[string]any{"name": "ann", "score": 5.0, "hand": 0.0,
				"active":   map[string]any{"race": "Amazons", "power": "Forest"},
				"declined": []any{map[string]any{"race": "Ghouls"}}},
			map[string]any{"name": "ben", "score": 7.0, "hand": 0.0,
				"active": map[string]any{"race": "Trolls", "power": "Wealthy"}},
		},
		"offer": []any{map[string]any{"race": "Ratmen", "power": "Dragon Master", "tokens": 13.0}},
	}
	game := Game{ID: "sw-ab12", Kind: "smallworld", Title: GameTitle("smallworld"), Players: []string{"ann", "ben"}}
	tests := []struct {
		name, kind string
		data       any
		want, not  []string
	}{
		{"player", "state", State{Game: game, Player: "ann", View: view},
			[]string{"What your combos do:", "Amazons (race): +4 tokens", "Forest (special power):", "Ghouls (race): In decline"},
			[]string{"Trolls (race)", "Wealthy (special power)", "Ratmen (race):", "Dragon Master (special power)"}},
		{"italian", "state", State{Game: game, Player: "ann", View: view, Lang: "it"},
			[]string{"Cosa fanno le tue combinazioni:", "(razza): +4 segnalini", "(potere speciale):", "In Declino tengono"},
			[]string{"+7 monete", "(race)"}},
		{"observer", "state", State{Game: game, Observer: true, View: view},
			nil, []string{"(race)", "(special power)"}},
		{"rules", "notice", Notice{Kind: Rules, Game: game, To: "ann", View: view},
			[]string{"What the combos in play and on offer do:", "Amazons (race): +4 tokens", "Trolls (race)", "Wealthy (special power)", "Ratmen (race):", "Dragon Master (special power): Once per turn"},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, h, err := set.Render(tt.kind, tt.data)
			if err != nil {
				t.Fatal(err)
			}
			for part, body := range map[string]string{"text": text, "html": h} {
				flat := strings.Join(strings.Fields(stdhtml.UnescapeString(body)), " ")
				for _, w := range tt.want {
					if !strings.Contains(flat, w) {
						t.Errorf("%s part lacks %q:\n%s", part, w, body)
					}
				}
				for _, w := range tt.not {
					if strings.Contains(flat, w) {
						t.Errorf("%s part has %q", part, w)
					}
				}
			}
		})
	}
}

// regionIDs returns the ids of a board's region rows, in order, with "*" after a
// marked one.
func regionIDs(board map[string]any) []string {
	var out []string
	rows, _ := board["regions"].([]any)
	for _, r := range rows {
		m, ok := r.(map[string]any)
		if !ok {
			out = append(out, "?")
			continue
		}
		id := Str(m["id"])
		if m["changed"] == true {
			id += "*"
		}
		out = append(out, id)
	}
	return out
}

// TestBoard: the whole board's region table lists the reader's regions first,
// keeping the view's order otherwise, marks the changed ones, counts the reader's
// regions and leaves the engine's view as it was; an observer's table is in the
// view's order; a view without regions or with entries that are not regions gives a
// board, not a panic.
func TestBoard(t *testing.T) {
	region := func(id float64, owner any) map[string]any {
		return map[string]any{"id": id, "owner": owner}
	}
	view := func() map[string]any {
		return map[string]any{"turn": 3.0, "regions": []any{
			region(1, nil), region(2, "bob"), region(3, "alice"), region(4, "lost-tribe"), region(5, "alice"),
		}}
	}
	tests := []struct {
		name    string
		view    map[string]any
		reader  string
		changed []string
		want    []string
		own     int
		marked  bool
	}{
		{"alice's first, marked", view(), "alice", []string{"2", "5"}, []string{"3", "5*", "1", "2*", "4"}, 2, true},
		{"bob's first, nothing changed", view(), "bob", nil, []string{"2", "1", "3", "4", "5"}, 1, false},
		{"observer: the view's order", view(), "", []string{"1"}, []string{"1*", "2", "3", "4", "5"}, 0, true},
		{"a reader without regions", view(), "cy", []string{"99"}, []string{"1", "2", "3", "4", "5"}, 0, false},
		{"no regions", map[string]any{"turn": 1.0}, "alice", []string{"1"}, nil, 0, false},
		{"regions not a list", map[string]any{"regions": "x"}, "alice", nil, nil, 0, false},
		{"entries not regions", map[string]any{"regions": []any{"x", region(1, "alice"), nil}}, "alice", []string{"1"}, []string{"1*", "?", "?"}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			was := fmt.Sprint(tt.view)
			b := Board(tt.view, tt.reader, tt.changed, "it")
			if got := regionIDs(b); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("regions %v, want %v", got, tt.want)
			}
			if b["own"] != tt.own || b["marked"] != tt.marked || b["Lang"] != "it" {
				t.Errorf("own %v marked %v Lang %v, want %d %v it", b["own"], b["marked"], b["Lang"], tt.own, tt.marked)
			}
			if now := fmt.Sprint(tt.view); now != was {
				t.Errorf("the view was modified: %s, was %s", now, was)
			}
			// The mails of such views render.
			if _, _, err := mustSet(t).Render("notice", Notice{Kind: Map, Game: Game{ID: "sw-1", Kind: "smallworld"}, To: tt.reader, View: tt.view}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// mustSet loads the set.
func mustSet(t *testing.T) *Set {
	t.Helper()
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestRender_smallWorldFinished: the last mail of a game does not say what the
// reader's combos do nor what is on offer (nobody picks or plays again), which a
// mail of the game going on does.
func TestRender_smallWorldFinished(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	game := Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World", Players: []string{"ann", "ben"}}
	for _, finished := range []bool{false, true} {
		v := loadView("smallworld.view.json")
		v["finished"] = finished
		st := State{Game: game, Player: "ann", ToAct: []string{"ben"}, View: v, Finished: finished, Lang: "it"}
		if finished {
			st.ToAct, st.Winners = nil, []string{"ann"}
		}
		text, _, err := set.Render("state", st)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"Cosa fanno le tue combinazioni:", "In offerta:"} {
			if strings.Contains(text, w) == finished {
				t.Errorf("finished %v: %q shown %v:\n%s", finished, w, finished, text)
			}
		}
	}
}

// TestRender_smallWorldMarks: when the list of the reader's regions marks one as
// changed ("11* ×2"), the details end with what the mark means; a list that marks
// none has no such footnote, in both languages.
func TestRender_smallWorldMarks(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	game := Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World", Players: []string{"ann", "ben"}}
	for _, tt := range []struct {
		lang     string
		changed  []string
		list     string
		footnote string
		marked   bool
	}{
		{"en", nil, "Your regions: 9 ×", "* marks your regions that changed since your last mail.", false},
		{"en", []string{"11"}, "Your regions: 9 ×", "* marks your regions that changed since your last mail.", true},
		{"it", []string{"11"}, "Le tue regioni: 9 ×", "* segna le tue regioni cambiate dalla tua ultima mail.", true},
		{"it", []string{"6"}, "Le tue regioni: 9 ×", "* segna le tue regioni cambiate dalla tua ultima mail.", false},
	} {
		st := State{Game: game, Player: "ann", ToAct: []string{"ben"}, View: loadView("smallworld.view.json"), Changed: tt.changed, Lang: tt.lang}
		text, _, err := set.Render("state", st)
		if err != nil {
			t.Fatal(err)
		}
		list, footnote := strings.Index(text, tt.list), strings.Index(text, tt.footnote)
		switch {
		case list < 0:
			t.Errorf("%s, changed %v: no %q:\n%s", tt.lang, tt.changed, tt.list, text)
		case tt.marked && (!strings.Contains(text, "11* ×") || footnote < list):
			t.Errorf("%s, changed %v: no mark, or no footnote %q after the list:\n%s", tt.lang, tt.changed, tt.footnote, text)
		case !tt.marked && footnote >= 0:
			t.Errorf("%s, changed %v: a footnote without a mark:\n%s", tt.lang, tt.changed, text)
		}
	}
}
