package dungeoneer

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// Scenario tests of the rules the first version simplified; each cites the passage of
// shared/rules/dungeoneer.it.txt it checks.

// TestPerilToAnyPlayer: "Per ogni ferita che il tuo mostro è riuscito ad infliggere ad
// un Eroe puoi assegnare 1 punto Pericolo a qualsiasi giocatore."
func TestPerilToAnyPlayer(t *testing.T) {
	s := fresh(t, 3)
	s.Seats[0].Hand = []string{"a17"} // Bone Drake: a Melee hit is 2 wounds
	s.Seats[1].Peril = 4
	s = do(t, s, "Alice", "play a17 on bob melee", nil)
	s = do(t, s, "Alice", "done", dice(6, 1))
	if s.Phase != phSpoils || s.PerilOwed != 2 || s.Seats[1].Peril != 0 {
		t.Fatalf("phase %s owed %d, Bob's Peril %d (nothing given yet)", s.Phase, s.PerilOwed, s.Seats[1].Peril)
	}
	for _, want := range []string{"peril bob 2", "peril carol 1", "peril alice 2"} {
		if !slices.Contains(expanded(s.Legal("Alice")), want) {
			t.Fatalf("%q not in %v", want, expanded(s.Legal("Alice")))
		}
	}
	illegal(t, s, "Alice", "peril carol 3") // only the wounds dealt
	illegal(t, s, "Alice", "peril carol 0")
	illegal(t, s, "Bob", "peril carol 1") // the Dungeon Lord chooses
	s = do(t, s, "Alice", "peril carol 1", nil)
	s = do(t, s, "Alice", "peril @2 1", nil)
	if s.Seats[2].Peril != 2 || s.Seats[1].Peril != 1 || s.PerilOwed != 0 {
		t.Fatalf("Peril: Bob %d Carol %d owed %d", s.Seats[1].Peril, s.Seats[2].Peril, s.PerilOwed)
	}
}

// TestUnhurtMonsterChoice: "i mostri sopravvissuti e senza ferite tornano nella tua mano
// oppure possono essere messi nel tuo Branco (una parte del tuo Inventario), la scelta
// è tua. I mostri feriti vanno sempre nel tuo Branco".
func TestUnhurtMonsterChoice(t *testing.T) {
	for _, where := range []string{"hand", "pack"} {
		s := fresh(t, 2)
		s.Seats[0].Hand = []string{"a13"}
		s.Seats[1].Peril = 3
		s = do(t, s, "Alice", "play a13 on bob melee", nil)
		s = do(t, s, "Alice", "done", dice(3, 4)) // 3+3 against 4+2: a tie, nobody hurt
		if s.Phase != phSpoils || !slices.Equal(s.Unhurt, []string{"a13"}) {
			t.Fatalf("phase %s unhurt %v", s.Phase, s.Unhurt)
		}
		illegal(t, s, "Alice", "keep a13 table")
		illegal(t, s, "Alice", "keep a01 hand")
		s = do(t, s, "Alice", "keep a13 "+where, nil)
		inPack := slices.Contains(s.Seats[0].Pack, PackMonster{ID: "a13"})
		if inPack != (where == "pack") || slices.Contains(s.Seats[0].Hand, "a13") == inPack || s.Phase != phHero {
			t.Fatalf("keep %s: hand %v pack %v phase %s", where, s.Seats[0].Hand, s.Seats[0].Pack, s.Phase)
		}
	}
	// A wounded monster goes to the pack without asking.
	s := fresh(t, 2)
	s.Seats[0].Hand = []string{"a13"}
	s.Seats[1].Peril = 3
	s = do(t, s, "Alice", "play a13 on bob melee", nil)
	s = do(t, s, "Alice", "done", dice(1, 6))
	if s.Phase != phHero || !slices.Equal(s.Seats[0].Pack, []PackMonster{{"a13", 1}}) {
		t.Fatalf("phase %s pack %v", s.Phase, s.Seats[0].Pack)
	}
}

// TestBanesBeforeOrAfterEncounters: "Tutte le carte Incontro devono essere giocate nello
// stesso momento [...] mentre le carte Sventura possono essere giocate in qualsiasi
// momento durante la tua Fase di Signore del Dungeon, prima o dopo aver risolto gli
// Incontri."
func TestBanesBeforeOrAfterEncounters(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[0].Hand = []string{"a31", "a33", "a01", "a02"}
	s.Seats[1].Peril, s.Seats[1].Hand = 9, []string{"a43", "a44"}
	s = do(t, s, "Alice", "play a33 on bob", nil) // before: resolves at once
	if s.Phase != phLord || !slices.Equal(s.Seats[1].Banes, []string{"a33"}) || len(s.Pending) != 0 {
		t.Fatalf("the Bane before the Encounters: phase %s banes %v pending %v", s.Phase, s.Seats[1].Banes, s.Pending)
	}
	s = do(t, s, "Alice", "play a01 on bob melee", nil)
	illegal(t, s, "Alice", "play a31 on bob") // not while the Encounters are declared
	s = do(t, s, "Alice", "play a02 on bob melee", nil)
	s = do(t, s, "Alice", "done", dice(1, 6, 1, 6)) // both Rat Swarms slain
	if s.Phase != phLord || s.LordStep != "after" {
		t.Fatalf("after the Encounters: phase %s step %q", s.Phase, s.LordStep)
	}
	illegal(t, s, "Alice", "play a02 on bob melee") // the Encounters are over
	s = do(t, s, "Alice", "play a31 on bob", nil)   // after: Cursed Whisper
	if len(s.Seats[1].Hand) != 1 || s.Phase != phLord {
		t.Fatalf("the Bane after the Encounters: Bob's hand %v phase %s", s.Seats[1].Hand, s.Phase)
	}
	s = do(t, s, "Alice", "done", nil)
	if s.Phase != phHero {
		t.Fatalf("phase %s, want hero", s.Phase)
	}
}

// TestBaneStrikingNoSpecificHero: "Se una Sventura non colpisce un Eroe specifico si
// possono spendere i punti Pericolo di qualunque giocatore, tranne che del giocatore
// che lo mette in tavola."
func TestBaneStrikingNoSpecificHero(t *testing.T) {
	s := fresh(t, 3)
	s.Seats[0].Hand = []string{"a29"} // Creeping Dread: every hero but yours loses 1 Glory
	s.Seats[0].Glory, s.Seats[1].Glory, s.Seats[2].Glory = 3, 3, 3
	s.Seats[2].Peril = 1
	s.Seats[1].Peril = 0
	illegal(t, s, "Alice", "play a29 on alice") // never one's own Peril
	illegal(t, s, "Alice", "play a29 on bob")   // Bob cannot pay
	s = do(t, s, "Alice", "play a29 on carol", nil)
	if g := []int{s.Seats[0].Glory, s.Seats[1].Glory, s.Seats[2].Glory}; !slices.Equal(g, []int{3, 2, 2}) || s.Seats[2].Peril != 0 {
		t.Fatalf("Glory %v (want 3 2 2), Carol's Peril %d", g, s.Seats[2].Peril)
	}
	// Bob, struck without paying, may cancel it too.
	s = fresh(t, 3)
	s.Seats[0].Hand = []string{"a29"}
	s.Seats[2].Peril = 1
	s.Seats[1].Hand, s.Seats[1].Glory = []string{"a39"}, 2
	s = do(t, s, "Alice", "play a29 on carol", nil)
	s = do(t, s, "Bob", "play a39 a29", nil)
	s = do(t, s, "Bob", "pass", nil) // asked until he passes
	if s.Seats[2].Glory != 1 || !slices.Contains(s.Discard, "a29") {
		t.Fatalf("cancelled: Carol's Glory %d", s.Seats[2].Glory)
	}
}

// TestCounterChallengeWithSavedMovement: "Se hai ancora a disposizione punti Movimento,
// puoi metterne da parte 1 per usarlo fuori dal tuo turno (ad esempio per effettuare
// Azioni Speciali)" and "Una Sfida può essere usata per attaccare un mostro dopo che
// esso vi ha attaccato".
func TestCounterChallengeWithSavedMovement(t *testing.T) {
	// Bob saves a movement at the end of his turn.
	s := fresh(t, 2)
	s = toHero(t, s)
	s = do(t, s, "Alice", "done", nil)
	s = do(t, s, "Bob", "done", nil)
	s = do(t, s, "Bob", "done", nil)
	if s.Seats[1].Saved != 1 || s.Current != 0 {
		t.Fatalf("saved %d current %d", s.Seats[1].Saved, s.Current)
	}
	s.Seats[0].Hand = []string{"a13", "a14"}
	s.Seats[1].Peril = 6
	glory := s.Seats[1].Glory
	s = do(t, s, "Alice", "play a13 on bob melee", nil)
	s = do(t, s, "Alice", "play a14 on bob melee", nil)
	s = do(t, s, "Alice", "done", dice(3, 4)) // a tie: the Ogre waits for Bob's answer
	if s.Phase != phCounter || !slices.Equal(s.ToAct(), []string{"Bob"}) {
		t.Fatalf("phase %s to act %v", s.Phase, s.ToAct())
	}
	illegal(t, s, "Bob", "challenge magic") // Tamsin's standard attacks: melee, speed
	s = do(t, s, "Bob", "challenge melee", dice(6, 1))
	b := s.Seats[1]
	if b.Saved != 0 || !b.Struck || b.Glory != glory+1 || !slices.Equal(s.Seats[0].Pack, []PackMonster{{"a13", 1}}) {
		t.Fatalf("after the challenge: saved %d struck %v glory %d pack %v", b.Saved, b.Struck, b.Glory, s.Seats[0].Pack)
	}
	// The second Ogre attacked too (tie), but Bob has no movement saved any more.
	if s.Phase != phSpoils || !slices.Equal(s.Unhurt, []string{"a14"}) {
		t.Fatalf("phase %s unhurt %v", s.Phase, s.Unhurt)
	}
}

// TestStealEscortQuest: "Un altro Eroe nello stesso spazio può sfidare il portatore del
// componente; se riesce ad effettuare un attacco standard andato a segno non infligge
// alcuna ferita ma riceve la Missione di Scorta e la mette nel proprio Inventario come
// sua Missione Personale, anche se ne ha già altre 2."
func TestStealEscortQuest(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[0].Quests = []string{"q01", "q02"}
	s.Seats[1].Quests, s.Seats[1].Carrying = []string{"q12"}, "q12"
	s = toHero(t, s)
	illegal(t, s, "Alice", "steal bob magic") // not a standard attack of Tamsin
	s = do(t, s, "Alice", "steal bob melee", dice(6, 1))
	a, b := s.Seats[0], s.Seats[1]
	if !slices.Equal(a.Quests, []string{"q01", "q02", "q12"}) || a.Carrying != "q12" || len(b.Quests) != 0 || b.Carrying != "" || b.Life != maxLife {
		t.Fatalf("Alice %v carrying %q; Bob %v carrying %q life %d", a.Quests, a.Carrying, b.Quests, b.Carrying, b.Life)
	}
	illegal(t, s, "Alice", "steal bob melee") // one standard attack a turn, and Bob carries nothing
	// A failed attempt: the carrier's counter-attack wounds.
	s = fresh(t, 2)
	s.Seats[1].Quests, s.Seats[1].Carrying = []string{"q12"}, "q12"
	s = toHero(t, s)
	s = do(t, s, "Alice", "steal bob melee", dice(1, 6))
	if s.Seats[0].Life != maxLife-1 || s.Seats[1].Carrying != "q12" {
		t.Fatalf("Alice's life %d, Bob carries %q", s.Seats[0].Life, s.Seats[1].Carrying)
	}
}

// TestAlwaysCardOutOfTurn: "Sempre: Una carta con l’indicazione Sempre può essere
// giocata sia durante che al di fuori del proprio turno, se ci sono risorse
// disponibili."
func TestAlwaysCardOutOfTurn(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[1].Hand, s.Seats[1].Life, s.Seats[1].Glory = []string{"a37", "a43"}, 4, 1
	if got := expanded(s.Legal("Bob")); !slices.Equal(got, []string{"play a37"}) {
		t.Fatalf("Bob's legal in Alice's Dungeon Lord phase: %v", got)
	}
	illegal(t, s, "Bob", "play a43") // Sprint is played in one's own hero phase
	s = do(t, s, "Bob", "play a37", nil)
	if s.Seats[1].Life != 5 || s.Seats[1].Glory != 0 || s.Phase != phLord || s.Current != 0 {
		t.Fatalf("Second Wind: life %d glory %d phase %s", s.Seats[1].Life, s.Seats[1].Glory, s.Phase)
	}
	s.Seats[1].Hand = append(s.Seats[1].Hand, "a38")
	illegal(t, s, "Bob", "play a38") // no Glory left
}

// TestActivatedAbility: "Un’abilità speciale di un eroe è un Favore che può essere
// utilizzato in qualsiasi momento." Ilvo's is activated (1 Glory: heal 1), once between
// two of his start phases; the other heroes' abilities always work.
func TestActivatedAbility(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[1].Hero, s.Seats[1].Life, s.Seats[1].Glory = "h2", 3, 2
	illegal(t, s, "Alice", "ability") // Tamsin's +1 Movement is passive
	s = do(t, s, "Bob", "ability", nil)
	if s.Seats[1].Life != 4 || s.Seats[1].Glory != 1 {
		t.Fatalf("life %d glory %d", s.Seats[1].Life, s.Seats[1].Glory)
	}
	illegal(t, s, "Bob", "ability") // once
	s.startTurn(1)
	if s.Seats[1].AbilityUsed || s.Seats[1].Life != 4 {
		t.Fatalf("Bob's start phase: used %v life %d (no passive regen any more)", s.Seats[1].AbilityUsed, s.Seats[1].Life)
	}
	s = do(t, s, "Bob", "ability", nil)
	if s.Seats[1].Life != 5 {
		t.Fatalf("life %d", s.Seats[1].Life)
	}
}

// TestQuestEffectAndArtifact: "Effetto: Alcune Missioni hanno un effetto sul proprio
// Eroe mentre sono in gioco [...] L’effetto di una Missione Globale si applica a tutti
// gli Eroi" and "Artefatto: [...] forniscono un’abilità permanente al tuo Eroe [...] ma
// solitamente non permette anche di avanzare di Livello."
func TestQuestEffectAndArtifact(t *testing.T) {
	s := fresh(t, 2)
	base := s.stat(1, magic)
	s.Seats[1].Quests = []string{"q05"} // The Ash Codex: +1 Magic while in play
	if s.stat(1, magic) != base+1 || s.stat(0, magic) != base {
		t.Fatalf("personal q05: Bob's Magic %d Alice's %d, base %d", s.stat(1, magic), s.stat(0, magic), base)
	}
	s.Seats[1].Quests, s.Global = nil, "q05"
	if s.stat(1, magic) != base+1 || s.stat(0, magic) != base+1 {
		t.Fatal("the global q05 does not help every hero")
	}
	// The Idol's Eye delivered: an artifact (+1 defense), no level.
	s = fresh(t, 2)
	place(s, "m03", 0, -1, 0) // Crooked Stair: n e open
	s.Seats[0].Quests, s.Seats[0].Carrying = []string{"q14"}, "q14"
	s.Seats[0].X, s.Seats[0].Y = 0, -1
	s.startTurn(0)
	s = toHero(t, s)
	before := s.defense(0)
	s = do(t, s, "Alice", "quest q14", nil)
	a := s.Seats[0]
	if !slices.Equal(a.Done, []string{"q14"}) || a.Level != 1 || s.defense(0) != before+1 {
		t.Fatalf("done %v level %d defense %d (was %d)", a.Done, a.Level, s.defense(0), before)
	}
}

// TestDropImpossibleQuest: a personal quest whose map card can be placed nowhere may be
// put under the quest deck ("Se scarti una Missione, posizionala in fondo al mazzo delle
// Missioni") for the top quest — our rule for a case the rulebook leaves open.
func TestDropImpossibleQuest(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[0].Quests = []string{"q05", "q06"} // at m17 and m16
	top := s.QDeck[0]
	s = toHero(t, s)
	illegal(t, s, "Alice", "drop q05") // m17 fits beside the Entrance
	// A map closed by dead ends: nothing fits any more.
	for side := range 4 {
		p := Placed{ID: "m12", X: dx[side], Y: dy[side]} // Flooded Crypt: one door
		for p.door((side+2)%4).Kind == doorWall {
			p.Rot += 90
		}
		s.Grid = append(s.Grid, p)
	}
	illegal(t, s, "Alice", "drop q99")
	s = do(t, s, "Alice", "drop q05", nil)
	if !slices.Equal(s.Seats[0].Quests, []string{"q06", top}) || s.QDeck[len(s.QDeck)-1] != "q05" || s.Phase != phHero {
		t.Fatalf("quests %v, deck %v", s.Seats[0].Quests, s.QDeck)
	}
}

// TestSeatTargets: a player whose name cannot be written in a command ('#' starts a
// comment) is named by seat, @n, as on the map; Legal uses @n for such names.
func TestSeatTargets(t *testing.T) {
	s := fresh(t, 3)
	s.Seats[1].Name = "Bob #2"
	s.Seats[0].Hand = []string{"a01"}
	s.Seats[1].Peril = 1
	legal := expanded(s.Legal("Alice"))
	if !slices.Contains(legal, "play a01 on @2 melee") || !slices.Contains(legal, "play a01 on carol melee") {
		t.Fatalf("legal %v", legal)
	}
	for _, bad := range []string{"play a01 on @02 melee", "play a01 on @4 melee", "play a01 on @0 melee", "play a01 on @1 melee", "play a01 on @ melee"} {
		illegal(t, s, "Alice", bad)
	}
	s = do(t, s, "Alice", "play a01 on @2 melee", nil)
	if len(s.Pending) != 1 || s.Pending[0].Target != 1 {
		t.Fatalf("pending %v", s.Pending)
	}
}

// TestLordFallsToOwnTrap: "Se un Eroe viene sconfitto, lui e il suo giocatore sono
// esclusi dal gioco" — a Dungeon Lord who falls to a trap sprung in her own space keeps
// no monster: the unhurt ones are discarded, not lost.
func TestLordFallsToOwnTrap(t *testing.T) {
	s := fresh(t, 3)
	s.Seats[0].Hand, s.Seats[0].Life = []string{"a13", "a21"}, 1
	s.Seats[1].Peril = 4
	s = do(t, s, "Alice", "play a13 on bob melee", nil)
	s = do(t, s, "Alice", "play a21 on bob", nil)
	s = do(t, s, "Alice", "done", dice(3, 4, 1, 6, 6)) // a tie; Alice fails the blade
	if !s.Seats[0].Out || s.Current != 1 || !slices.Contains(s.Discard, "a13") || len(s.Unhurt) != 0 {
		t.Fatalf("Alice out %v, current %d, discard %v, unhurt %v", s.Seats[0].Out, s.Current, s.Discard, s.Unhurt)
	}
}

// TestResponseWindowHidesHand: "B. Risposta: I vostri avversari hanno ora la possibilità
// di rispondere" — every hero an Encounter strikes is asked, whatever they hold, so
// whether the window opens tells the other players nothing about their hand: Bob is
// asked with Sidestep in hand and without it, and what Alice and Carol may see is the
// same both times.
func TestResponseWindowHidesHand(t *testing.T) {
	views := map[string][]string{}
	for _, hand := range [][]string{{"a39"}, {"a01"}} { // Sidestep (a response), a monster
		s := fresh(t, 3)
		s.Seats[0].Hand = []string{"a17"}
		s.Seats[1].Peril, s.Seats[1].Glory, s.Seats[1].Hand = 4, 3, hand
		s = do(t, s, "Alice", "play a17 on bob melee", nil)
		next, err := s.Apply("Alice", "done", dice(6, 1))
		if err != nil {
			t.Fatal(err)
		}
		s = next.(*state)
		if s.Phase != phRespond || !slices.Equal(s.ToAct(), []string{"Bob"}) || !slices.Contains(s.Legal("Bob"), "pass") {
			t.Fatalf("Bob holding %v: phase %s, to act %v, legal %v", hand, s.Phase, s.ToAct(), s.Legal("Bob"))
		}
		for _, viewer := range []string{"Alice", "Carol", engine.Observer} {
			b, err := json.Marshal(s.View(viewer))
			if err != nil {
				t.Fatal(err)
			}
			views[viewer] = append(views[viewer], string(b))
		}
		// Bob passes; the Encounter resolves.
		next, err = s.Apply("Bob", "pass", dice(6, 1))
		if err != nil || next.(*state).Phase == phRespond {
			t.Fatalf("Bob's pass: %v", err)
		}
	}
	for viewer, vs := range views {
		if vs[0] != vs[1] {
			t.Errorf("%s tells Bob's hands apart:\n%s\n%s", viewer, vs[0], vs[1])
		}
	}
}

// TestTrapAsksEveryHeroInItsSpace: "le carte Incontro Trappola hanno effetto su tutti
// gli Eroi presenti nello spazio" — so every hero in the trap's space is asked for a
// response, not only its target: Carol, beside Bob, cancels the trap played on him.
func TestTrapAsksEveryHeroInItsSpace(t *testing.T) {
	s := fresh(t, 3)
	place(s, "m13", 0, -1, 180)
	for i := 1; i < 3; i++ {
		s.Seats[i].X, s.Seats[i].Y, s.Seats[i].Peril = 0, -1, 5
	}
	s.Seats[0].Hand = []string{"a21"}                      // Swinging Blade
	s.Seats[2].Hand, s.Seats[2].Glory = []string{"a39"}, 2 // Sidestep
	s = do(t, s, "Alice", "play a21 on bob", nil)
	next, err := s.Apply("Alice", "done", engine.NewRand(1, 1, nil))
	if err != nil {
		t.Fatal(err)
	}
	s = next.(*state)
	if s.Phase != phRespond || !slices.Equal(s.ToAct(), []string{"Bob", "Carol"}) || !slices.Contains(s.Legal("Carol"), "play a39 a21") {
		t.Fatalf("phase %s, to act %v, Carol's legal %v", s.Phase, s.ToAct(), s.Legal("Carol"))
	}
	s = do(t, s, "Carol", "play a39 a21", nil)
	s = do(t, s, "Carol", "pass", nil)
	s = do(t, s, "Bob", "pass", nil)
	if s.Seats[1].Life != maxLife || s.Seats[2].Life != maxLife || !slices.Contains(s.Discard, "a21") {
		t.Fatalf("cancelled trap: Bob %d life, Carol %d, discard %v", s.Seats[1].Life, s.Seats[2].Life, s.Discard)
	}
}
