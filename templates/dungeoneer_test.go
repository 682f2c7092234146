package templates

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/langcheck"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// dungeonGame is the game of the Dungeoneer sample.
var dungeonGame = Game{ID: "du-4m8x", Kind: "dungeoneer", Title: GameTitle("dungeoneer"), Players: []string{"ann", "ben", "cy"}}

func init() {
	// A real Dungeoneer view (3 players, self-play seed 5, ben's hero phase, seen by ann): the whole
	// map of 20 cards (two bands of columns), her hand with the card texts, the
	// heroes' quests, cards in play and packs.
	v := loadView("dungeoneer.view.json")
	samples = append(samples, struct {
		name, kind string
		data       any
	}{"state-dungeoneer", "state", State{
		Game: dungeonGame, Player: "ann", ToAct: Strs(v["to_act"]), YourTurn: Str(v["current"]) == "ann",
		Moves: []Move{{Seq: 183, Player: "ben", Command: "move e"}},
		Legal: legalOf(v), View: v, ReplyTo: "turnmail+du-4m8x.0.xxxx@example.org",
	}})
	htmlGolden["state-dungeoneer"] = true
	for _, s := range dungeonItalianSamples() {
		samples = append(samples, struct {
			name, kind string
			data       any
		}{s.name, s.kind, s.data})
	}
	htmlGolden["state-dungeoneer-it"], htmlGolden["state-dungeoneer-guard-it"], htmlGolden["state-dungeoneer-layout-it"] = true, true, true
}

// dungeonItalianSamples are the Italian Dungeoneer state mails of the golden tests:
// the view of the English sample as ann reads it in Italian, with the commands of
// any moment her hand allows ("state-dungeoneer-it"); and from a self-played game (3
// players, seed 1) the mail of the player to act when the game first reaches each
// step of the Dungeon Lord's phase and the placing of a map card: the player to the
// left choosing how a quest or map monster strikes ("state-dungeoneer-guard-it"), a
// map card explored to place ("-place-it"), a hero asked for a response
// ("-respond-it"), the Dungeon Lord giving the Peril earned ("-spoils-it"), a hero who
// may challenge the monster that has just attacked ("-counter-it"). Each is built as
// the service builds a state mail: the
// view as decoded JSON, what happened put into words, the legal commands in the
// reader's words with their notes.
func dungeonItalianSamples() []sample {
	tr, err := i18n.Load()
	if err != nil {
		panic(err)
	}
	v := loadView("dungeoneer.view.json")
	out := []sample{{"state-dungeoneer-it", "state", State{
		Game: dungeonGame, Player: "ann", ToAct: Strs(v["to_act"]), Lang: "it", View: v,
		Moves:   []Move{{Seq: 183, Player: "ben", Command: tr.Command("dungeoneer", i18n.Italian, "move e")}},
		AnyTime: []string{tr.Command("dungeoneer", i18n.Italian, "play a37"), tr.Command("dungeoneer", i18n.Italian, "play a36 on ben")},
		ReplyTo: "turnmail+du-4m8x.0.xxxx@example.org",
	}}}
	// The first mail of each phase, as the game reaches it.
	phases := map[string]string{"guard": "state-dungeoneer-guard-it", "place": "state-dungeoneer-place-it",
		"respond": "state-dungeoneer-respond-it", "spoils": "state-dungeoneer-spoils-it", "counter": "state-dungeoneer-counter-it"}
	// (A game of the rules before issue 21, which had the counter step.)
	var prev engine.State
	rules0 := map[string]json.RawMessage{"rules": json.RawMessage("0")}
	_, err = selfplay.Play(dungeoneer.Game{}, selfplay.Config{Seed: 1, Players: 3, Fixed: rules0}, func(st selfplay.Step) error {
		b, err := json.Marshal(st.State.View(""))
		if err != nil {
			return err
		}
		var v struct{ Phase string }
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		if name, ok := phases[v.Phase]; ok && prev != nil {
			out = append(out, sample{name, "state", dungeonMail(tr, i18n.Italian, prev, st, st.State.ToAct()[0])})
			delete(phases, v.Phase)
		}
		prev = st.State
		if len(phases) == 0 {
			return errSampled
		}
		return nil
	})
	if !errors.Is(err, errSampled) {
		panic(fmt.Sprintf("the self-played game ended before its samples: %v", err))
	}
	// Out of turn: the mail of a player who waits while the Dungeon Lord settles the
	// spoils, and may challenge with the Movement it saved the monster that attacked in
	// its space ("-outofturn-it"; the current rules).
	prev = nil
	for seed := int64(1); seed < 40 && prev == nil; seed++ {
		_, err = selfplay.Play(dungeoneer.Game{}, selfplay.Config{Seed: seed, Players: 3}, func(st selfplay.Step) error {
			for _, p := range selfplay.Seats(3) {
				for _, c := range engine.AnyTime(st.State, p.Name) {
					if f := strings.Fields(c); prev != nil && f[0] == "challenge" && len(f[1]) == 3 && f[1][0] == 'a' && f[1][1] >= '0' && f[1][1] <= '9' {
						out = append(out, sample{"state-dungeoneer-outofturn-it", "state", dungeonMail(tr, i18n.Italian, prev, st, p.Name)})
						return errSampled
					}
				}
			}
			prev = st.State
			return nil
		})
		if errors.Is(err, errSampled) {
			break
		}
		prev = nil
	}
	if !errors.Is(err, errSampled) {
		panic(fmt.Sprintf("no self-played game offered a challenge out of turn: %v", err))
	}
	// The map in view: the mail of the second player to place a map card, with the
	// cards it holds, passed and received ("-layout-it", step 1).
	prev = nil
	_, err = selfplay.Play(dungeoneer.Game{}, selfplay.Config{Seed: 1, Players: 3, Options: dungeoneer.Game{}.SampleOptions()[0]}, func(st selfplay.Step) error {
		if st.N == 1 {
			out = append(out, sample{"state-dungeoneer-layout-it", "state", dungeonMail(tr, i18n.Italian, prev, st, st.State.ToAct()[0])})
			return errSampled
		}
		prev = st.State
		return nil
	})
	if !errors.Is(err, errSampled) {
		panic(fmt.Sprintf("the self-played game with the map in view ended before its sample: %v", err))
	}
	return out
}

// errSampled stops a self-played game once its samples are taken.
var errSampled = errors.New("sampled")

// dungeonMail is viewer's state mail in lang after the step st of a self-played
// game (prev the state before it), telling the command of the step.
func dungeonMail(tr *i18n.Bundle, lang i18n.Lang, prev engine.State, st selfplay.Step, viewer string) State {
	var view map[string]any
	b, err := json.Marshal(st.State.View(viewer))
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(b, &view); err != nil {
		panic(err)
	}
	data := State{Game: dungeonGame, Player: viewer, ToAct: st.State.ToAct(), View: view, Lang: string(lang),
		YourTurn: slices.Contains(st.State.ToAct(), viewer), ReplyTo: "turnmail+du-4m8x.1.xxxx@example.org"}
	m := Move{Seq: st.N, Player: st.Player, Command: tr.Command("dungeoneer", lang, st.Command)}
	for _, h := range engine.Narrate(prev, st.Player, st.Command, st.State, viewer) {
		m.Happened = append(m.Happened, Happening{Kind: h.Kind, Text: tr.GameText("dungeoneer", lang, h.Text), You: slices.Contains(h.Hit, viewer)})
	}
	data.Moves = []Move{m}
	data.Legal, data.AnyTime, data.LegalNotes = legalIn(tr, lang, "dungeoneer", st.State, viewer)
	return data
}

// TestRender_dungeoneerItalian: the Italian Dungeoneer state mails hold no English
// word in their subject, text or HTML, and say what the English ones say in the
// rulebook's words: the round and phase, the decks, the legend of the map and its
// marks (Cn for a locked door, the obstacles), the hero sheets, cards with their
// Italian names and texts, the guard step with its note, the declared Encounters.
func TestRender_dungeoneerItalian(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"state-dungeoneer-it": {"Tocca a ben\n", "Round 9 — fase dell'Eroe, turno di ben. Movimento rimasto: 3.",
			"Mazzi: Avventura 33, Mappe 0.",
			"  Eroe                 Liv.  Vita  Gloria  Pericolo  Mi/Ma/Ve  Dove\n  1. ann (blu)         2     2     11      5         2/3/2     -1,-1\n    Tamsin Borsadoro\n",
			"    abilità: +1 Movimento ogni turno.", "    1 Movimento messo da parte", "    Missioni completate: q11",
			"(1 ferita)", "  2. ben (arancione)   1     5     6       1         2/1/5     1,-2\n    Sefa Passolesto\n",
			"Missione Globale: q01 Uccidi il Cavaliere Annegato (Elimina, in m12) (2 \nferite)\n",
			"La tua mano:\n  - a36 Ombre Afferranti (Sventura, Sempre, costo 3):", "    gioca a36 su ben"},
		"state-dungeoneer-guard-it": {"fase della Guardia", ", alla sinistra, sceglie con quale attacco il mostro di questa carta",
			"  - m09 Galleria Crollata (Passaggio; Vita 2, attacca con Mischia 2,", "    attacca   # sceglie il gioco:", "    attacca mischia"},
		"state-dungeoneer-respond-it": {"fase di Risposta", "Incontri giocati contro gli Eroi (si risolvono in quest'ordine):", "— contro ", "    passa"},
		"state-dungeoneer-place-it":   {"fase di Piazzamento", "Carta Mappa da piazzare: m", "Gloria ", "porte con rot 0:", "    costruisci m"},
		"state-dungeoneer-spoils-it":  {"fase del Bottino", "Pericolo da assegnare (1 per ogni ferita inflitta dai mostri): ", "    pericolo "},
		"state-dungeoneer-counter-it": {"fase del Contrattacco", "può sfidare il mostro che l'ha appena attaccato, col Movimento messo", "    passa"},
		"state-dungeoneer-outofturn-it": {"Tocca a ben\n", "In qualsiasi momento, anche fuori dal tuo turno, puoi inviare:\n", "    sfida a",
			", Vita "},
		"state-dungeoneer-layout-it": {"fase della Mappa in vista", "Mappa in vista: prima del primo turno si piazzano tutte le carte Mappa",
			"carte Mappa da piazzare", "Le tue carte Mappa (quando tocca a te, ne piazzi una):\n  - m", "; porte con", "    costruisci m", " rot <0,", "Come leggere gli schemi qui sopra:\n  rot <", "  una delle rotazioni elencate (gradi in senso orario)"},
	}
	n := 0
	for _, s := range dungeonItalianSamples() {
		n++
		text := checkItalian(t, set, s, langcheck.Rulebook("dungeoneer"), want[s.name])
		for _, l := range strings.Split(text, "\n") {
			if utf8.RuneCountInString(l) > MaxLine {
				t.Errorf("%s: a line longer than %d: %q", s.name, MaxLine, l)
			}
		}
	}
	if n != 8 {
		t.Errorf("%d Italian Dungeoneer samples, want 8", n)
	}
	// The whole dungeon is the answer to map: the drawing in two bands, the marks of
	// its doors and obstacles, what lies on it, every hero's sheet.
	m := sample{"map-dungeoneer-it", "notice", Notice{Kind: Map, Game: dungeonGame, To: "ann", Lang: "it", View: loadView("dungeoneer.view.json")}}
	checkItalian(t, set, m, langcheck.Rulebook("dungeoneer"), []string{"x da -4 a -1:", "C m15 -2,-1", "4 portale",
		"m13 1,-3     ││ m04 2,-3     T", "rischio +1", "pozzo 3", "torre", "Grotta", "Mostro",
		"Sulla mappa:\n  - -3,0 m17 Biblioteca di Cenere (Stanza): Un eroe che entra guadagna 1\n    Gloria.\n",
		"  - 1,-1 m09 Galleria Crollata (Passaggio; Vita 2, attacca con Mischia 2,", "resta 1 carica", "con a44 Lama Benedetta",
		"    abilità: +1 Movimento ogni turno.", "    Sefa Passolesto\n    abilità: "})
}

// TestDungeonCard: a card line names the card, its kind, a Treasure's category, a
// Favor's use and its cost; a monster card — in a hand, a pack or a kill quest —
// shows its life and its scores, what it attacks with and what it only defends with,
// so that a player can weigh it; other cards show none; an unknown id is shown as it
// is. An Italian reader reads it all in Italian: the name and text from the card
// data, the words from the catalogues.
func TestDungeonCard(t *testing.T) {
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lang     i18n.Lang
		id, want string
	}{
		{"en", "a13", "a13 Ogre Jailer (monster, cost 3; life 2, attacks Melee 3, defends Magic 0, Speed 0): A wall of fat and iron."},
		{"en", "a16", "a16 Cultist Adept (monster, cost 3; life 2, attacks Melee 1, Magic 3, defends Speed 1): Hit (Magic): 1 wound, and discard 1 random card."},
		{"en", "q01", "q01 Slay the Drowned Knight (kill, at m12; life 2, attacks Melee 3, defends Magic 0, Speed 1): Defeat the Drowned Knight in the Flooded Crypt."},
		{"en", "a21", "a21 Swinging Blade (trap, cost 1): Speed 4+. Failure: 1 wound."},
		{"en", "a54", "a54 Notched Sword (treasure, weapon, permanent, cost 2): +1 Melee."},
		{"en", "a50", "a50 Warding Sigil (favor, hero phase, permanent, cost 1): Ready. Once per turn, at any time: pay 1 Glory, +1 to your rolls this turn."},
		{"en", "q12", "q12 The Lost Lantern (escort, at m10 → m01): Take the lantern from the Lantern Walk to the Sunken Gate. Artifact: +1 Glory at the start of each of your turns (no level; reward 1 Glory)."},
		{"en", "zz9", "zz9"},
		{"it", "a13", "a13 Orco Carceriere (Mostro, costo 3; Vita 2, attacca con Mischia 3, difende con Magia 0, Velocità 0): Un muro di grasso e ferro."},
		{"it", "q01", "q01 Uccidi il Cavaliere Annegato (Elimina, in m12; Vita 2, attacca con Mischia 3, difende con Magia 0, Velocità 1): Sconfiggi il Cavaliere Annegato nella Cripta Allagata."},
		{"it", "a21", "a21 Lama Oscillante (Trappola, costo 1): Velocità 4+. Fallimento: 1 ferita."},
		{"it", "a54", "a54 Spada Intaccata (Tesoro, arma, permanente, costo 2): +1 Mischia."},
		{"it", "a50", "a50 Sigillo di Guardia (Favore, fase dell'Eroe, permanente, costo 1): Pronta. Una volta per turno, in qualsiasi momento: paga 1 Gloria, +1 ai tuoi tiri in questo turno."},
		{"it", "q12", "q12 La Lanterna Perduta (Scorta, da m10 a m01): Porta la lanterna dal Passeggio delle Lanterne alla Porta Sommersa. Artefatto: +1 Gloria all'inizio di ogni tuo turno (nessun livello; premio 1 Gloria)."},
		{"it", "zz9", "zz9"},
	}
	for _, tt := range tests {
		w := dungeonWords{tr: tr, lang: tt.lang}
		if got := w.card(tt.id); got != tt.want {
			t.Errorf("card(%q) in %s = %q, want %q", tt.id, tt.lang, got, tt.want)
		}
	}
}

// TestDungeonGlobalQuestWraps: on the whole board (map) the global quest is a card
// line like those of the hand, an item of a list, and its continuation stays under
// the item's text within MaxLine.
func TestDungeonGlobalQuestWraps(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples {
		if s.name != "notice-map-dungeoneer" {
			continue
		}
		text, _, err := set.Render(s.kind, s.data)
		if err != nil {
			t.Fatal(err)
		}
		_, block, ok := strings.Cut(text, "\nGlobal quest:\n")
		if !ok {
			t.Fatalf("no global quest block in:\n%s", text)
		}
		block, _, _ = strings.Cut(block, "\n\n")
		lines := strings.Split(block, "\n")
		if len(lines) < 2 {
			t.Fatalf("the sample's global quest fits one line: %q", block)
		}
		for i, l := range lines {
			indent := "    "
			if i == 0 {
				indent = "  - "
			}
			if !strings.HasPrefix(l, indent) || strings.HasPrefix(l, indent+" ") || utf8.RuneCountInString(l) > MaxLine {
				t.Errorf("global quest line %q: want %q first and at most %d characters", l, indent, MaxLine)
			}
		}
		return
	}
	t.Fatal("no notice-map-dungeoneer sample")
}
