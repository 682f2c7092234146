package dungeoneer

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/narratecheck"
)

// TestMapOption: the one option is map, explore (the default) or view; anything else
// is refused with a rule error that says what the option accepts.
func TestMapOption(t *testing.T) {
	tests := []struct {
		options string
		view    bool
		err     string
	}{
		{`{}`, false, ""},
		{`{"map":"explore"}`, false, ""},
		{`{"map":"view"}`, true, ""},
		{`{"map":"VIEW"}`, true, ""},
		{`{"map":"vista"}`, false, "map=vista: use map=explore|view"},
		{`{"map":3}`, false, "map=3: use map=explore|view"},
		{`{"colour":"red"}`, false, `dungeoneer has no option "colour" (its options: map=explore|view)`},
	}
	for _, tt := range tests {
		var opts map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tt.options), &opts); err != nil {
			t.Fatal(err)
		}
		err := engine.CheckOptions(Game{}, opts, 0)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.options, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err || !errors.Is(err, engine.ErrIllegal)):
			t.Errorf("%s: error %v, want the rule error %q", tt.options, err, tt.err)
		case tt.err == "":
			st, err := Game{}.New(engine.Setup{Game: "dungeoneer", Options: opts, Players: []engine.Player{{Name: "A"}, {Name: "B"}}}, engine.NewRand(1, 0, nil))
			if err != nil {
				t.Fatal(err)
			}
			if s := st.(*state); s.InView != tt.view || (s.Phase == phLayout) != tt.view {
				t.Errorf("%s: in view %v, phase %s", tt.options, s.InView, s.Phase)
			}
		}
	}
}

// viewDeal is a three-player game with the map in view, dealt as dictated. Quests
// (two each in the order the players are given, then the global one): Alice q14 (the
// Idol's Eye, m13 → m03) and q05 (m17); Bob q12 (the Lost Lantern, m10 → m01, the
// Entrance) and q02 (m13); Carol q09 (m14) and q10 (m05); global q03. Heroes: Alice is
// Ilvo (an activated ability). The map cards are dealt one at a time, Alice first:
//
//	Alice m13 m03 m04 m07 m11 m16 m19   passes m03 m13 to Bob
//	Bob   m01 m10 m06 m08 m12 m17 m20   passes m01 m10 to Carol
//	Carol m02 m14 m05 m09 m15 m18       passes m05 m14 to Alice
//
// so that Carol receives the Entrance, and Bob keeps m13, which his q02 needs too.
func viewDeal(t *testing.T) *state {
	t.Helper()
	list := func(ids ...string) json.RawMessage {
		b, _ := json.Marshal(ids)
		return b
	}
	out := engine.Outcomes{
		"heroes": list("h2", "h1", "h3"),
		"quests": list("q14", "q05", "q12", "q02", "q09", "q10", "q03"),
		"maps": list("m13", "m01", "m02", "m03", "m10", "m14", "m04", "m06", "m05", "m07",
			"m08", "m09", "m11", "m12", "m15", "m16", "m17", "m18", "m19", "m20"),
	}
	setup := engine.Setup{Game: "dungeoneer", Options: inView, Players: []engine.Player{{Name: "Alice"}, {Name: "Bob"}, {Name: "Carol"}}}
	st, err := Game{}.New(setup, engine.NewRand(1, 0, out))
	if err != nil {
		t.Fatal(err)
	}
	return st.(*state)
}

// TestMapInViewDeal: "Dopo avere distribuito le Missioni, dividete le carte Mappa,
// coperte e una alla volta, tra tutti i giocatori. Passate le Carte Mappa richieste
// dalla vostra Missione al giocatore alla vostra sinistra. Il giocatore che riceve
// l'Ingresso vince l'iniziativa. [...] Quel giocatore colloca l'Ingresso al centro
// dell'area di gioco." Every map card is dealt, the Entrance too; the cards a player's
// quests need go to the player on its left, at once (Bob keeps m13 though his q02
// needs it: a card received is not passed on); Carol, who received the Entrance from
// Bob, sits first and the Entrance lies at 0,0, with no passage around it; nobody
// rolled for the initiative.
func TestMapInViewDeal(t *testing.T) {
	s := viewDeal(t)
	want := []struct {
		name         string
		maps, passed []string
	}{
		{"Carol", []string{"m02", "m09", "m10", "m15", "m18"}, []string{"m05", "m14"}},
		{"Alice", []string{"m04", "m05", "m07", "m11", "m14", "m16", "m19"}, []string{"m03", "m13"}},
		{"Bob", []string{"m03", "m06", "m08", "m12", "m13", "m17", "m20"}, []string{"m01", "m10"}},
	}
	for i, w := range want {
		h := s.Seats[i]
		if h.Name != w.name || !slices.Equal(h.Maps, w.maps) || !slices.Equal(h.Passed, w.passed) {
			t.Errorf("seat %d: %s holds %v, passed %v; want %s holding %v, passed %v", i, h.Name, h.Maps, h.Passed, w.name, w.maps, w.passed)
		}
	}
	if len(s.Grid) != 1 || s.Grid[0] != (Placed{ID: "m01"}) || len(s.MapDeck) != 0 {
		t.Errorf("grid %v, map deck %v: want the Entrance alone at 0,0", s.Grid, s.MapDeck)
	}
	if s.Phase != phLayout || s.Round != 1 || !slices.Equal(s.ToAct(), []string{"Alice"}) {
		t.Errorf("phase %s, round %d, to act %v: want Alice, on Carol's left, to place first", s.Phase, s.Round, s.ToAct())
	}
	if got := s.Seats[1].Hero; got != "h2" {
		t.Errorf("Alice's hero %s, want h2 as dealt", got)
	}
}

// TestMapInViewLegalPlacements: the player to place sees its map cards and places one
// where the build phase would ("in una posizione lecita": aligned, connected, never
// closing the map); "Alla carta Ingresso si possono connettere soltanto dei
// passaggi/sentieri, a meno che non sia possibile posizionare una carta Mappa in altri
// modi": next to the lone Entrance Alice, holding passages, places no room; a player
// holding only rooms places one there. Legal lists exactly what Apply accepts; no
// command of any moment is possible before the game begins; a missed deadline places
// the first card listed.
func TestMapInViewLegalPlacements(t *testing.T) {
	s := viewDeal(t)
	// The rotations of a card on one space are one entry, a choice.
	grouped := s.Legal("Alice")
	if !slices.Contains(grouped, "build m05 at 0,-1 rot <0,90,180>") || len(grouped) >= len(s.concrete("Alice")) {
		t.Errorf("rotations not grouped: %v", grouped)
	}
	legal := expanded(grouped)
	if !slices.Equal(legal, s.concrete("Alice")) {
		t.Errorf("Legal stands for %v, want %v", legal, s.concrete("Alice"))
	}
	for _, c := range []string{"build m05 at 0,-1 rot 0", "build m05 at 0,-1 rot 90", "build m05 at 0,-1 rot 180", "build m04 at 1,0 rot 90", "build m07 at 0,1 rot 0"} {
		if !slices.Contains(legal, c) {
			t.Errorf("%q is not listed: %v", c, legal)
		}
	}
	for _, c := range legal {
		if id := strings.Fields(c)[1]; cards.mapc[id].Type != "passage" {
			t.Errorf("a room next to the Entrance while Alice holds passages: %q", c)
		}
		if _, err := s.Apply("Alice", c, engine.NewRand(1, 1, nil)); err != nil {
			t.Errorf("listed %q: %v", c, err)
		}
	}
	for _, c := range []struct{ player, cmd, err string }{
		{"Alice", "build m05 at 0,-1 rot 270", "m05 cannot be placed at 0,-1 rot 270"}, // its wall faces the Entrance
		{"Alice", "build m05 at 2,0 rot 0", "m05 cannot be placed at 2,0 rot 0"},       // not next to the map
		{"Alice", "build m14 at 0,-1 rot 180", "m14 is a room: only passages go next to the Entrance while a card of yours can be placed elsewhere"},
		{"Alice", "build m13 at 0,-1 rot 0", "m13 is not one of your map cards"}, // Bob's
		{"Alice", "build m05", "say build <map card> at <x>,<y> rot <0|90|180|270>"},
		{"Alice", "done", `"done" is not possible in the Map in View phase; say build`},
		{"Alice", "ability", "the map is being laid out: the game begins once every map card is placed"},
		{"Bob", "build m03 at 0,-1 rot 0", "it is not your turn: waiting for Alice"},
	} {
		_, err := s.Apply(c.player, c.cmd, engine.NewRand(1, 1, nil))
		var re *engine.RuleError
		if !errors.As(err, &re) || re.Reason != c.err {
			t.Errorf("%s %q: %v, want %q", c.player, c.cmd, err, c.err)
		}
		if slices.Contains(expanded(s.Legal(c.player)), c.cmd) {
			t.Errorf("%s %q is listed", c.player, c.cmd)
		}
	}
	for _, p := range []string{"Bob", "Carol"} {
		if l := expanded(s.Legal(p)); len(l) != 0 {
			t.Errorf("%s, not to place, may send %v", p, l)
		}
	}
	// A missed deadline places the first card listed where it is first listed.
	if got := s.SkipCommands("Alice"); !slices.Equal(got, legal[:1]) {
		t.Errorf("Alice's missed deadline: %v, want %v", got, legal[:1])
	}
	// Alice with rooms only: a room goes next to the Entrance.
	s.Seats[1].Maps = []string{"m14", "m16"}
	if legal := expanded(s.Legal("Alice")); !slices.Contains(legal, "build m14 at 0,-1 rot 180") {
		t.Errorf("rooms only, none next to the Entrance: %v", legal)
	}
}

// TestMapInViewRound: "Poi, procedendo in senso orario, ogni giocatore piazza una
// carta Mappa in una posizione lecita fino a che tutte le carte non sono state
// piazzate. Il gioco inizia con il giocatore che ha vinto l'iniziativa." From the
// player on the left of the Entrance's holder, clockwise, one card each, a player who
// has none left is passed over; once all 20 are on the map, Carol's first turn
// begins, and no turn has a build phase: the Dungeon Lord phase leads to the hero
// phase, and there is nothing to explore.
func TestMapInViewRound(t *testing.T) {
	s := viewDeal(t)
	prev := 0 // Carol placed the Entrance
	for s.Phase == phLayout {
		want := prev
		for i := 1; i <= s.n(); i++ {
			if p := (prev + i) % s.n(); len(s.Seats[p].Maps) > 0 {
				want = p
				break
			}
		}
		if s.Current != want {
			t.Fatalf("%d cards placed: %s to place, want %s", len(s.Grid), s.Seats[s.Current].Name, s.Seats[want].Name)
		}
		prev = s.Current
		player := s.Seats[s.Current].Name
		cmd := expanded(s.Legal(player))[0]
		held := len(s.Seats[s.Current].Maps)
		s = do(t, s, player, cmd, nil)
		if len(s.Seats[prev].Maps) != held-1 {
			t.Fatalf("%s %q: %d map cards left, want %d", player, cmd, len(s.Seats[prev].Maps), held-1)
		}
	}
	if len(s.Grid) != len(cards.Maps) || len(s.MapDeck) != 0 {
		t.Fatalf("%d map cards placed, %d set aside", len(s.Grid), len(s.MapDeck))
	}
	for _, h := range s.Seats {
		if len(h.Maps)+len(h.Passed) > 0 {
			t.Fatalf("%s still holds map cards %v %v", h.Name, h.Maps, h.Passed)
		}
	}
	if s.Phase != phLord || s.Current != 0 || s.Round != 1 || !slices.Equal(s.ToAct(), []string{"Carol"}) {
		t.Fatalf("after the placement round: phase %s, round %d, to act %v; want Carol's Dungeon Lord phase of round 1", s.Phase, s.Round, s.ToAct())
	}
	if !slices.Contains(expanded(s.Legal("Alice")), "ability") {
		t.Error("Ilvo's ability is not possible once the game has begun")
	}
	s = do(t, s, "Carol", "done", nil)
	if s.Phase != phHero || s.Drawn != "" {
		t.Fatalf("after the Dungeon Lord phase: phase %s, drawn %q; want the hero phase, no build phase", s.Phase, s.Drawn)
	}
	if slices.Contains(expanded(s.Legal("Carol")), "explore") {
		t.Error("explore is listed with the map in view")
	}
	_, err := s.Apply("Carol", "explore", engine.NewRand(1, 1, nil))
	if err == nil || err.Error() == "" || !strings.HasPrefix(err.Error(), "the whole map is in view: there is nothing to explore") {
		t.Errorf("explore: %v", err)
	}
}

// TestMapInViewEndsWhenNothingFits: the round ends when no card left can be placed
// legally ("Non potete mai creare una mappa chiusa"); a player whose cards fit nowhere
// is passed over meanwhile. A card that fits nowhere is set aside (named in the
// account; nothing draws it: explore is not possible), and a personal quest it is
// needed for can be dropped.
func TestMapInViewEndsWhenNothingFits(t *testing.T) {
	s := viewDeal(t)
	// The Entrance closed all round but north by rooms turned so that their open
	// doors face each other: the only way on is 0,-1.
	s.Grid = []Placed{{ID: "m01"}, {ID: "m14", X: 1, Y: 0, Rot: 270}, {ID: "m03", X: 1, Y: 1, Rot: 270},
		{ID: "m05", X: 0, Y: 1, Rot: 270}, {ID: "m18", X: -1, Y: 1}, {ID: "m16", X: -1, Y: 0}}
	for i, m := range [][]string{{"m17"}, {"m02"}, {"m12"}} {
		s.Seats[i].Maps = m
	}
	s.Seats[2].Quests = []string{"q01", "q02"} // q01 is done in m12
	s.Current = 1
	if legal := expanded(s.Legal(s.Seats[2].Name)); len(placements(s.Grid, "m12")) != 0 || len(s.layoutSpots(2)) != 0 || legal != nil {
		t.Fatalf("the Flooded Crypt (one door) closes the map at 0,-1: %v", placements(s.Grid, "m12"))
	}
	s = do(t, s, "Alice", "build m02 at 0,-1 rot 0", nil)
	if s.Phase != phLayout || s.Seats[s.Current].Name != "Carol" {
		t.Fatalf("after Alice: phase %s, %s to place; want Carol, Bob's m12 fitting nowhere", s.Phase, s.Seats[s.Current].Name)
	}
	s = do(t, s, "Carol", "build m17 at 0,-2 rot 0", nil)
	if s.Phase != phLord || s.Current != 0 || !slices.Equal(s.MapDeck, []string{"m12"}) || len(s.Seats[2].Maps) != 0 {
		t.Fatalf("phase %s, current %d, map deck %v: want m12 set aside and Carol's first turn", s.Phase, s.Current, s.MapDeck)
	}
	var said []string
	for _, l := range s.Log {
		said = append(said, l.String())
	}
	for _, w := range []string{"Flooded Crypt fits nowhere on the map and is set aside", "the map is laid out: Carol begins"} {
		if !slices.Contains(said, w) {
			t.Errorf("the account %q has no %q", said, w)
		}
	}
	// Bob in his hero phase may drop q01, whose map card lies nowhere.
	s.Current, s.Phase = 2, phHero
	if !slices.Contains(expanded(s.Legal("Bob")), "drop q01") || slices.Contains(expanded(s.Legal("Bob")), "drop q02") {
		t.Errorf("Bob's legal commands %v: want drop q01 alone", expanded(s.Legal("Bob")))
	}
	// The drop is told (TestEveryVerbNarrates leaves it to this rare position).
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	dropped := do(t, s, "Bob", "drop q01", nil)
	if err := narratecheck.Check(tr, "dungeoneer", s, dropped, "Bob", "drop q01", narratecheck.Readers([]string{"Alice", "Bob", "Carol"})); err != nil {
		t.Error(err)
	}
}

// TestMapInViewHidden: the map cards are dealt face down ("coperte"): each player's
// view shows its own and how many the others hold, the cards it passed and those it
// received; no view, no account of a placement and no player's archive names a map
// card of another's hand (but one the viewer passed on), and nobody sees the deal.
func TestMapInViewHidden(t *testing.T) {
	s := viewDeal(t)
	check := func(s *state, before *state, cmd string) {
		t.Helper()
		for _, viewer := range []string{"Alice", "Bob", "Carol", engine.Observer} {
			b, err := json.Marshal(s.View(viewer))
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			var v View
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			me := s.seat(viewer)
			var passed []string // what the viewer passed on, which it knows
			if me >= 0 && before != nil {
				passed = before.Seats[me].Passed
			}
			if s.Phase == phLayout && (v.Layout == nil || v.Layout.First != "Carol") {
				t.Fatalf("%s: no placement round in the view: %+v", viewer, v.Layout)
			}
			for i, h := range s.Seats {
				if v.Players[i].MapCards != len(h.Maps) {
					t.Fatalf("%s reads %d map cards for %s, who holds %d", viewer, v.Players[i].MapCards, h.Name, len(h.Maps))
				}
				if i == me {
					if s.Phase == phLayout && !slices.Equal(v.Layout.Maps, h.Maps) {
						t.Fatalf("%s sees its map cards as %v, holds %v", viewer, v.Layout.Maps, h.Maps)
					}
					continue
				}
				for _, id := range h.Maps {
					if me >= 0 && slices.Contains(s.Seats[me].Passed, id) {
						continue // passed on by the viewer
					}
					if strings.Contains(text, `"`+id+`"`) {
						t.Fatalf("%s's view names %s of %s's hand", viewer, id, h.Name)
					}
				}
			}
			if before == nil {
				continue
			}
			for _, hap := range engine.Narrate(before, s.Seats[before.Current].Name, cmd, s, viewer) {
				for _, h := range s.Seats {
					for _, id := range h.Maps {
						if strings.Contains(hap.Text.String(), cards.mapc[id].Name.En) && !slices.Contains(passed, id) {
							t.Fatalf("%s reads %q, naming %s in %s's hand", viewer, hap.Text, id, h.Name)
						}
					}
				}
			}
		}
	}
	check(s, nil, "")
	alice := s.View("Alice").(View).Layout
	if alice.To != "Bob" || !slices.Equal(alice.Passed, []string{"m03", "m13"}) || alice.From != "Carol" || !slices.Equal(alice.Received, []string{"m05", "m14"}) {
		t.Errorf("Alice's placement round: %+v", alice)
	}
	if obs := s.View(engine.Observer).(View).Layout; obs.Maps != nil || obs.Passed != nil || obs.Received != nil {
		t.Errorf("the observer's placement round: %+v", obs)
	}
	for s.Phase == phLayout {
		before := s
		cmd := expanded(s.Legal(s.Seats[s.Current].Name))[0]
		s = do(t, s, s.Seats[s.Current].Name, cmd, nil)
		check(s, before, cmd)
	}
	if s.View("Alice").(View).Layout != nil {
		t.Error("the placement round is shown after it")
	}
	// The deal is the recorded outcome of the map shuffle: a player's archive leaves it
	// out, with the seed.
	a, _ := playWith(t, 3, 7, inView, 0, botPick)
	r := engine.Redact(Game{}, a, "Alice")
	if _, ok := r.SetupOutcomes["maps"]; ok || !slices.Contains(r.Redacted, "outcome.maps") || !slices.Contains(r.Redacted, "setup.seed") {
		t.Errorf("Alice's archive keeps the deal: redacted %v", r.Redacted)
	}
}
