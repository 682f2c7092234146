package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/i18n"
)

// TestDungeonRead: the bot reads what it plays by from the mails as the templates
// write them (their golden samples of the same view, in English and in Italian: the
// whole board a map command answers, and a state mail): the round line, the heroes'
// table with their scores, life and place, a sheet's ability and quests, the cards
// with their kind, a monster's attacks and a trap's test, the map cards its hero
// makes for, the drawn map, the commands of any moment.
func TestDungeonRead(t *testing.T) {
	heroes := []struct {
		name    string
		stats   map[string]int
		x, y    int
		quests  []string
		goals   []string
		ability map[i18n.Lang]string
	}{
		{"ann", map[string]int{"level": 2, "life": 2, "melee": 2, "magic": 3, "speed": 2}, -1, -1, []string{"q08"}, []string{"m11", "m12"},
			map[i18n.Lang]string{i18n.English: "+1 Movement each turn.", i18n.Italian: "+1 Movimento ogni turno."}},
		{"ben", map[string]int{"level": 1, "life": 5, "melee": 2, "magic": 1, "speed": 5}, 1, -2, []string{"q13", "q03"}, []string{"m04", "m18", "m12"},
			map[i18n.Lang]string{i18n.English: "+1 to every peril test (doors, obstacles, traps).", i18n.Italian: "+1 a ogni prova d'insidia (porte, ostacoli, trappole)."}},
		{"cy", map[string]int{"level": 2, "life": 4, "melee": 1, "magic": 5, "speed": 3}, -4, 0, []string{"q12"}, []string{"m10", "m12"},
			map[i18n.Lang]string{i18n.English: "Gains 1 Glory at the start of each of her turns.", i18n.Italian: "Guadagna 1 Gloria all'inizio di ogni suo turno."}},
	}
	for _, c := range []struct {
		golden string
		lang   i18n.Lang
		cards  map[string]dgCard
	}{
		{"notice-map-dungeoneer.golden", i18n.English, map[string]dgCard{
			"a13": {kind: "monster", attacks: map[string]int{"melee": 3}, text: ": A wall of fat and iron."},
			"a21": {kind: "trap", stat: "speed", test: 4, text: ": Speed 4+. Failure: 1 wound."},
			"q13": {kind: "escort", at: "m04", to: "m14", text: ": Lead the prisoner from the Bone Hall to the Shrine of Quiet Light."},
		}},
		{"it-notice-map-dungeoneer.golden", i18n.Italian, map[string]dgCard{
			"a13": {kind: "monster", attacks: map[string]int{"melee": 3}, text: ": Un muro di grasso e ferro."},
			"a21": {kind: "trap", stat: "speed", test: 4, text: ": Velocità 4+. Fallimento: 1 ferita."},
			"q13": {kind: "escort", at: "m04", to: "m14", text: ": Conduci il prigioniero dalla Sala delle Ossa al Santuario della Luce Quieta."},
		}},
	} {
		raw, err := os.ReadFile(filepath.Join("..", "templates", "testdata", c.golden))
		if err != nil {
			t.Fatal(err)
		}
		board := string(raw)
		w := newReading(t, c.lang).dungeoneer()
		m := w.read(board)
		if m.phase != "hero" || m.turn != "ben" || m.global != "q01" {
			t.Errorf("%s: phase %q, turn %q, global quest %q; want hero, ben, q01", c.golden, m.phase, m.turn, m.global)
		}
		for _, h := range heroes {
			got := m.heroes[h.name]
			want := dgHero{stats: h.stats, life: h.stats["life"], ability: h.ability[c.lang], x: h.x, y: h.y, quests: h.quests}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: hero sheet of %s: %+v, want %+v", c.golden, h.name, got, want)
			}
			if goals := m.goals(h.name); !reflect.DeepEqual(goals, h.goals) {
				t.Errorf("%s: %s makes for %v, want %v", c.golden, h.name, goals, h.goals)
			}
		}
		for id, want := range c.cards {
			if got := m.cards[id]; !reflect.DeepEqual(got, want) {
				t.Errorf("%s: card %s: %+v, want %+v", c.golden, id, got, want)
			}
		}
		if cells := w.doors(board); len(cells) != 20 {
			t.Errorf("%s: %d map cards read from the drawn map, want 20", c.golden, len(cells))
		}
	}
	raw, err := os.ReadFile(filepath.Join("..", "templates", "testdata", "state-dungeoneer-it.golden"))
	if err != nil {
		t.Fatal(err)
	}
	w := newReading(t, i18n.Italian).dungeoneer()
	if got := w.anyTimeEntries(string(raw)); !reflect.DeepEqual(got, []string{"gioca a37", "gioca a36 su ben"}) {
		t.Errorf("the commands of any moment read %q", got)
	}
	if m := w.read(string(raw)); m.heroes["ann"].x != -1 || m.heroes["ann"].y != -1 || m.heroes["ben"].stats["speed"] != 5 {
		t.Errorf("the heroes of the state mail read %+v", m.heroes)
	}
}

// TestDungeonReading: the bot reads the lines of a Dungeoneer mail in either
// language through the catalogues — a card with its monster's attacks or its trap's
// test, a hero sheet whose first line is wrapped with the quest it escorts, the
// global quest in full (the map's answer) and in short on one line (a state mail's
// details), the guard step broken softly over two lines — as the templates write
// them.
func TestDungeonReading(t *testing.T) {
	orm := dgHero{stats: map[string]int{"level": 1, "life": 3, "melee": 2, "magic": 2, "speed": 3}, life: 3, x: 0, y: -1,
		quests: []string{"q13", "q03"}, carrying: "q13"}
	for _, c := range []struct {
		name string
		lang i18n.Lang
		mail string
		want dgMail
	}{
		{"cards", i18n.English, `Your hand:
  - a13 Ogre Jailer (monster, cost 3; life 2, attacks Melee 3, defends Magic
    0, Speed 0): A wall of fat and iron.
  - a26 Soul Snare (trap, cost 1): Life 8+. Failure: knocked down and lose 1
    Glory.
`, dgMail{cards: map[string]dgCard{
			"a13": {kind: "monster", attacks: map[string]int{"melee": 3}, text: ": A wall of fat and iron."},
			"a26": {kind: "trap", stat: "life", test: 8, text: ": Life 8+. Failure: knocked down and lose 1 Glory."},
		}}},
		{"cards", i18n.Italian, `La tua mano:
  - a13 Orco Carceriere (Mostro, costo 3; Vita 2, attacca con Mischia 3,
    difende con Magia 0, Velocità 0): Un muro di grasso e ferro.
  - a26 Laccio dell'Anima (Trappola, costo 1): Vita 8+. Fallimento: sdraiato e
    perdi 1 Gloria.
`, dgMail{cards: map[string]dgCard{
			"a13": {kind: "monster", attacks: map[string]int{"melee": 3}, text: ": Un muro di grasso e ferro."},
			"a26": {kind: "trap", stat: "life", test: 8, text: ": Vita 8+. Fallimento: sdraiato e perdi 1 Gloria."},
		}}},
		{"sheet", i18n.English, `Heroes:
  Hero      Lvl  Life  Glory  Peril  Me/Ma/Sp  At
  1. alice (blue)  1    3     1      1      2/2/3     0,-1
    Orm the Gravewarden, defeated, knocked down
    ability: Gains 1 more Glory each time he wounds a monster.
    5 cards in hand
    quest: q13 The Prisoner of Bones (escort, at m04 → m14): Lead the
    prisoner from the Bone Hall to the Shrine of Quiet Light.
    carrying the component of q13
    quest: q03 Burn the Fungus Queen (kill, at m18; life 2, attacks Magic 2,
    defends Melee 1, Speed 0): Defeat the Fungus Queen.

Global quest:
  - q01 Slay the Drowned Knight (kill, at m12; life 2, attacks Melee 3,
    defends Magic 0, Speed 1): Defeat the Drowned Knight in the Flooded Crypt.
`, dgMail{global: "q01", heroes: map[string]dgHero{"alice": withAbility(orm, "Gains 1 more Glory each time he wounds a monster.")},
			cards: map[string]dgCard{
				"q13": {kind: "escort", at: "m04", to: "m14", text: ": Lead the prisoner from the Bone Hall to the Shrine of Quiet Light."},
				"q03": {kind: "kill", attacks: map[string]int{"magic": 2}, at: "m18", text: ": Defeat the Fungus Queen."},
				"q01": {kind: "kill", attacks: map[string]int{"melee": 3}, at: "m12", text: ": Defeat the Drowned Knight in the Flooded Crypt."},
			}}},
		{"sheet", i18n.Italian, `Eroi:
  Eroe      Liv.  Vita  Gloria  Pericolo  Mi/Ma/Ve  Dove
  1. alice  1     3     1       1         2/2/3     0,-1
    Orm il Custode delle Tombe, sconfitto, sdraiato
    abilità: Guadagna 1 Gloria in più ogni volta che ferisce un mostro.
    5 carte in mano
    Missione: q13 Il Prigioniero delle Ossa (Scorta, da m04 a m14): Conduci il
    prigioniero dalla Sala delle Ossa al Santuario della Luce Quieta.
    porta il componente di q13
    Missione: q03 Brucia la Regina dei Funghi (Elimina, in m18; Vita 2, attacca
    con Magia 2, difende con Mischia 1, Velocità 0): Sconfiggi la Regina dei
    Funghi.

Missione Globale:
  - q01 Uccidi il Cavaliere Annegato (Elimina, in m12; Vita 2, attacca con
    Mischia 3, difende con Magia 0, Velocità 1): Sconfiggi il Cavaliere
    Annegato nella Cripta Allagata.
`, dgMail{global: "q01", heroes: map[string]dgHero{"alice": withAbility(orm, "Guadagna 1 Gloria in più ogni volta che ferisce un mostro.")},
			cards: map[string]dgCard{
				"q13": {kind: "escort", at: "m04", to: "m14", text: ": Conduci il prigioniero dalla Sala delle Ossa al Santuario della Luce Quieta."},
				"q03": {kind: "kill", attacks: map[string]int{"magic": 2}, at: "m18", text: ": Sconfiggi la Regina dei Funghi."},
				"q01": {kind: "kill", attacks: map[string]int{"melee": 3}, at: "m12", text: ": Sconfiggi il Cavaliere Annegato nella Cripta Allagata."},
			}}},
		{"short", i18n.English, `Round 3 — hero phase, alice's turn. Movement left: 2. Decks: adventure 45, 
map 8.

Heroes:
  Hero      Lvl  Life  Glory  Peril  Me/Ma/Sp  At
  1. alice (blue)  1    3     1      1      2/2/3     0,-1
    Orm the Gravewarden
    quest: q03 Burn the Fungus Queen (kill, at m18)

Details

Global quest: q01 Slay the Drowned Knight (kill, at m12) (2 wounds)
`, dgMail{phase: "hero", turn: "alice", global: "q01", heroes: map[string]dgHero{"alice": {stats: orm.stats, life: 3, x: 0, y: -1, quests: []string{"q03"}}},
			cards: map[string]dgCard{"q03": {kind: "kill", at: "m18"}, "q01": {kind: "kill", at: "m12"}}}},
		{"short", i18n.Italian, `Round 3 — fase dell'Eroe, turno di alice. Movimento rimasto: 2.
Mazzi: Avventura 45, Mappe 8.

Eroi:
  Eroe      Liv.  Vita  Gloria  Pericolo  Mi/Ma/Ve  Dove
  1. alice  1     3     1       1         2/2/3     0,-1
    Orm il Custode delle Tombe
    Missione: q03 Brucia la Regina dei Funghi (Elimina, in m18)

Dettagli

Missione Globale: q01 Uccidi il Cavaliere Annegato (Elimina, in m12) (2 
ferite)
`, dgMail{phase: "hero", turn: "alice", global: "q01", heroes: map[string]dgHero{"alice": {stats: orm.stats, life: 3, x: 0, y: -1, quests: []string{"q03"}}},
			cards: map[string]dgCard{"q03": {kind: "kill", at: "m18"}, "q01": {kind: "kill", at: "m12"}}}},
		{"guard", i18n.English, `Round 2 — guard phase, bob's turn. Decks: adventure 47, map 11.
alice, to the left, chooses how the monster of this card strikes bob first 
(then bob attacks with melee):
  - m09 Collapsed Gallery (passage; life 2, attacks Melee 2, Speed 2, defends
    Magic 0): A Rubble Crawler lairs here.
`, dgMail{phase: "guard", turn: "bob", guard: "m09", guarded: "bob", cards: map[string]dgCard{
			"m09": {kind: "passage", attacks: map[string]int{"melee": 2, "speed": 2}, text: ": A Rubble Crawler lairs here."},
		}}},
		{"guard", i18n.Italian, `Round 2 — fase della Guardia, turno di bob. Mazzi: Avventura 47, Mappe 11.
alice, alla sinistra, sceglie con quale attacco il mostro di questa carta 
colpisce per primo l'Eroe di bob (poi bob attacca in mischia):
  - m09 Galleria Crollata (Passaggio; Vita 2, attacca con Mischia 2,
    Velocità 2, difende con Magia 0): Qui si annida uno Strisciante delle
    Macerie.
`, dgMail{phase: "guard", turn: "bob", guard: "m09", guarded: "bob", cards: map[string]dgCard{
			"m09": {kind: "passage", attacks: map[string]int{"melee": 2, "speed": 2}, text: ": Qui si annida uno Strisciante delle Macerie."},
		}}},
	} {
		got := newReading(t, c.lang).dungeoneer().read(c.mail)
		if c.want.cards == nil {
			c.want.cards = map[string]dgCard{}
		}
		if c.want.heroes == nil {
			c.want.heroes = map[string]dgHero{}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s in %s reads\n%+v\nwant\n%+v", c.name, c.lang, got, c.want)
		}
		if c.name == "sheet" {
			if goals := got.goals("alice"); !reflect.DeepEqual(goals, []string{"m14", "m18", "m12"}) {
				t.Errorf("%s in %s: alice, who carries the component of q13, makes for %v, want m14, m18, m12", c.name, c.lang, goals)
			}
		}
	}
}

// withAbility is h with its ability.
func withAbility(h dgHero, ability string) dgHero {
	h.ability = ability
	return h
}

// TestDungeonMapReading: the bot reads the drawn map of either language — its words
// (the obstacles, Cn or Ln for a locked door) are not in its way — and steps
// towards a goal with the mail's direction word (west is "o" in Italian).
func TestDungeonMapReading(t *testing.T) {
	// The map of the Italian guard step's golden sample.
	drawn := `
                ┌──────  ──────┐
                  m06 0,-1

                │              │
                └──────  ──────┘
┌──────  ──────┐┌──────  ──────┐┌──────────────┐
│ m05 -1,0        m01 0,0         m09 1,0      T
│ fogna A         torre           mostro       3
│              ││ @2 @3        ││ @1           │
└──────  ──────┘└──────  ──────┘└──────  ──────┘
                ┌──────  ──────┐┌──────  ──────┐
                │ m07 0,1      ││ m19 1,1      │
                │ pozzo 3      ││ rischio +2   │
                │              ││              │
                └──────C3──────┘└──────C4──────┘
`
	want := map[[2]int]dungeonCell{
		{0, -1}: {"m06", [4]bool{true, true, true, true}},
		{-1, 0}: {"m05", [4]bool{true, true, true, false}},
		{0, 0}:  {"m01", [4]bool{true, true, true, true}},
		{1, 0}:  {"m09", [4]bool{false, true, true, true}},
		{0, 1}:  {"m07", [4]bool{true, false, true, false}},
		{1, 1}:  {"m19", [4]bool{true, false, true, false}},
	}
	for _, c := range []struct {
		lang i18n.Lang
		// legend is the text before the map, words its words, after the text after it.
		legend string
		words  *strings.Replacer
		after  string
		moves  []string
		west   string
	}{
		{i18n.English, `Round 1 — guard phase, alice's turn.

The dungeon (x grows east, y south; @n is the hero of seat n; a gap is an 
open door, Ln/Tn a locked/trapped door of value n; qNN marks an escort 
component):`, strings.NewReplacer("fogna A", "sewer A", "torre", "tower", "mostro ", "monster", "pozzo 3", "pit 3  ",
			"rischio +2", "risk +2   ", "C3", "L3", "C4", "L4"), `
On the map:
  1,0 m09 Collapsed Gallery (passage; life 2, attacks Melee 2, Speed 2,
  defends Magic 0): A Rubble Crawler lairs here.

Heroes:
`, []string{"move n", "move e", "move s", "move w", "explore"}, "move w"},
		{i18n.Italian, `Round 1 — fase della guardia, turno di alice.

Il dungeon (x cresce verso est, y verso sud; @n è l'Eroe del posto n; un 
varco è una Porta Aperta, Cn/Tn una Porta Chiusa/con Trappola di valore n; 
qNN segna il componente di una Missione di Scorta):`, strings.NewReplacer(), `
Sulla mappa:
  1,0 m09 Galleria Crollata (Passaggio; Vita 2, attacca con Mischia 2, Velocità 2,
  difende con Magia 0): Qui si annida uno Strisciante delle Macerie.

Eroi:
`, []string{"muovi n", "muovi e", "muovi s", "muovi o", "esplora"}, "muovi o"},
	} {
		rd := newReading(t, c.lang)
		w := rd.dungeoneer()
		board := c.legend + c.words.Replace(drawn) + c.after
		cells := w.doors(board)
		if !reflect.DeepEqual(cells, want) {
			t.Errorf("%s: the map reads\n%v\nwant\n%v\n%s", c.lang, cells, want, board)
		}
		way := dungeonWay(cells, [2]int{1, 0}, []string{"m05"})
		if got := rd.dungeonEntries(c.moves).send(way); got != c.west {
			t.Errorf("%s: from m09 to m05 the bot sends %q (%q), want %q", c.lang, got, way, c.west)
		}
	}
}
