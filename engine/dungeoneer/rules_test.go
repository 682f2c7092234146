package dungeoneer

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/archivetest"
)

// TestRules0Archive: a game recorded before the rules of issue 21 (its setup names no
// rules version) still replays exactly as it was played — every state's hash is the
// one recorded — with its two counter-challenges made in the counter step right after
// the monster's attack.
func TestRules0Archive(t *testing.T) {
	a := archivetest.Read(t, filepath.Join("testdata", "rules0", "counter.json"))
	for i, e := range a.Events {
		if e.Hash == "" {
			t.Fatalf("event %d has no hash", i+1)
		}
	}
	if _, err := engine.ReplayAll(registry, a, -1); err != nil {
		t.Fatal(err)
	}
}

// freshText is fresh (helpers_test.go) under the current rules.
func freshText(t *testing.T, n int) *state {
	t.Helper()
	s := fresh(t, n)
	s.Rules = rulesText
	return s
}

// savedRound plays the first round of a fresh game without a move, so that every hero
// but Alice's saved a Movement; Alice's Dungeon Lord phase begins, with hand.
func savedRound(t *testing.T, s *state, hand ...string) *state {
	t.Helper()
	s = toHero(t, s)
	for _, p := range []string{"Alice", "Bob", "Bob", "Carol", "Carol"}[:1+2*(s.n()-1)] {
		s = do(t, s, p, "done", nil)
	}
	if s.Current != 0 || s.Phase != phLord {
		t.Fatalf("current %d phase %s", s.Current, s.Phase)
	}
	for i := 1; i < s.n(); i++ {
		if s.Seats[i].Saved != 1 {
			t.Fatalf("%s saved %d", s.Seats[i].Name, s.Seats[i].Saved)
		}
	}
	s.Seats[0].Hand = hand
	return s
}

// noted checks that player's Legal lists cmd with the English note want.
func noted(t *testing.T, s *state, player, cmd, want string) {
	t.Helper()
	if !slices.Contains(s.Legal(player), cmd) || !slices.Contains(s.AnyTime(player), cmd) {
		t.Fatalf("%s's Legal %q (at any time %q) lacks %q", player, s.Legal(player), s.AnyTime(player), cmd)
	}
	if got := s.Notes(player)[cmd].String(); got != want {
		t.Fatalf("note on %q: %q, want %q", cmd, got, want)
	}
}

// TestChallengeEncounterOutOfTurn (issue 21 point 5): «In qualsiasi momento durante la
// sequenza del turno, un Eroe è in grado di iniziare un attacco standard per turno sotto
// forma di Sfida, al costo di 1 Movimento», a special action «dentro o fuori dal
// proprio turno» («• Sfidare un mostro o un Eroe»), and «Una carta Incontro rimane
// nello spazio in cui è stata giocata per tutta la durata della Fase del Signore del
// Dungeon […]; ciò significa che un Eroe può iniziare una Sfida contro di essa dopo che
// questa ha effettuato il suo attacco, sempre che l'Eroe abbia a disposizione 1
// Movimento». Alice's Ogre Jailer attacks Bob (a tie): nobody asks Bob anything — the
// Dungeon Lord goes on with the spoils — and Bob, with the Movement he saved,
// challenges it when he likes: in the spoils step, or after Alice kept it in her hand,
// until she ends the phase. Under the rules of the games recorded before, Bob was
// asked right after the attack (the counter step) and never later.
func TestChallengeEncounterOutOfTurn(t *testing.T) {
	s := savedRound(t, freshText(t, 3), "a13")
	s.Seats[1].Peril = 3
	s = do(t, s, "Alice", "play a13 on bob melee", nil)
	s = do(t, s, "Alice", "done", dice(3, 4)) // 6 against 6: nobody is hurt
	if s.Phase != phSpoils || !slices.Equal(s.ToAct(), []string{"Alice"}) || !slices.Equal(s.Unhurt, []string{"a13"}) {
		t.Fatalf("phase %s, to act %v, unhurt %v: Bob is not waited for", s.Phase, s.ToAct(), s.Unhurt)
	}
	noted(t, s, "Bob", "challenge a13 melee", "Ogre Jailer, life 2")
	noted(t, s, "Carol", "challenge a13 speed", "Ogre Jailer, life 2")
	illegal(t, s, "Bob", "challenge a13 magic") // Tamsin attacks in melee or speed
	glory := s.Seats[1].Glory
	next := do(t, s, "Bob", "challenge a13 melee", dice(5, 1)) // 7 against 4: one wound
	if b := next.Seats[1]; b.Saved != 0 || !b.Struck || b.Glory != glory+1 {
		t.Fatalf("Bob: saved %d struck %v glory %d", b.Saved, b.Struck, b.Glory)
	}
	if !slices.Equal(next.Seats[0].Pack, []PackMonster{{"a13", 1}}) || len(next.Unhurt) != 0 {
		t.Fatalf("the wounded Ogre: pack %v unhurt %v", next.Seats[0].Pack, next.Unhurt)
	}
	// Nothing is left to settle, but the phase is Alice's to end.
	if next.Phase != phLord || next.LordStep != "after" || !slices.Equal(next.Legal("Alice"), []string{"done"}) {
		t.Fatalf("phase %s step %s, Alice's legal %v", next.Phase, next.LordStep, next.Legal("Alice"))
	}
	illegal(t, next, "Bob", "challenge a13 speed") // one standard attack a turn
	// Carol challenges too, and slays it: it leaves the pack.
	next = do(t, next, "Carol", "challenge a13 speed", dice(6, 1))
	if len(next.Seats[0].Pack) != 0 || !slices.Contains(next.Discard, "a13") || len(next.Fought) != 0 {
		t.Fatalf("slain: pack %v fought %v", next.Seats[0].Pack, next.Fought)
	}

	// Alice keeps the Ogre in her hand: it still stands in Bob's space until she ends
	// the phase, which waits for her done (she holds no Bane): Bob challenges then.
	s = do(t, s, "Alice", "keep a13 hand", nil)
	if s.Phase != phLord || s.LordStep != "after" || !slices.Equal(s.ToAct(), []string{"Alice"}) {
		t.Fatalf("phase %s step %s to act %v", s.Phase, s.LordStep, s.ToAct())
	}
	if got := s.Notes("Alice")["done"].String(); got != "ends the phase: the monsters that attacked leave" {
		t.Fatalf("the note on Alice's done: %q", got)
	}
	s = do(t, s, "Bob", "challenge a13 melee", dice(1, 6)) // 3 against 9: the Ogre hits back
	if s.Seats[1].Life != maxLife-1 || s.PerilOwed != 1 || s.Phase != phSpoils || !slices.Contains(s.Seats[0].Hand, "a13") {
		t.Fatalf("life %d peril owed %d phase %s hand %v", s.Seats[1].Life, s.PerilOwed, s.Phase, s.Seats[0].Hand)
	}
	s = do(t, s, "Alice", "peril carol 1", nil)
	if s.Phase != phLord {
		t.Fatalf("phase %s", s.Phase)
	}
	s = do(t, s, "Alice", "done", nil)
	if s.Phase != phHero || len(s.Fought) != 0 {
		t.Fatalf("phase %s fought %v", s.Phase, s.Fought)
	}
	illegal(t, s, "Carol", "challenge a13 melee") // the Encounter left with the phase

	// A hero in another space, or without a saved Movement, may not.
	s = savedRound(t, freshText(t, 3), "a13")
	s.Seats[1].Peril = 3
	place(s, "m02", 0, -1, 0)
	s.Seats[1].Y = -1
	s = do(t, s, "Alice", "play a13 on bob melee", nil)
	s = do(t, s, "Alice", "done", dice(3, 4))
	illegal(t, s, "Carol", "challenge a13 melee")
	if _, err := s.Apply("Carol", "challenge a13 melee", dice(6, 1)); err == nil || !strings.Contains(err.Error(), "not a monster that attacked") {
		t.Fatalf("Carol, not in the Ogre's space: %v", err)
	}
	s.Seats[2].Y, s.Seats[2].Saved = -1, 0
	if _, err := s.Apply("Carol", "challenge a13 melee", dice(6, 1)); err == nil || !strings.Contains(err.Error(), "saved none") {
		t.Fatalf("Carol, no Movement saved: %v", err)
	}

	// rulesOriginal: Bob is asked at once (the counter step), and only then.
	s = savedRound(t, fresh(t, 3), "a13")
	s.Seats[1].Peril = 3
	s = do(t, s, "Alice", "play a13 on bob melee", nil)
	s = do(t, s, "Alice", "done", dice(3, 4))
	if s.Phase != phCounter || !slices.Equal(s.ToAct(), []string{"Bob"}) {
		t.Fatalf("rulesOriginal: phase %s to act %v", s.Phase, s.ToAct())
	}
	s = do(t, s, "Bob", "pass", nil)
	illegal(t, s, "Carol", "challenge a13 melee")
}

// TestChallengeOutOfTurn (issue 21 point 5): the same special action against a hero
// («Devi trovarti nello stesso spazio dell'Eroe o del mostro che intendi sfidare») and
// against the monster of a map card: in Alice's hero phase Bob challenges her hero in
// his space, then steps onto the Rubble Crawler's card and challenges it in her next
// turn — the player to his left (Carol) chooses how it strikes first.
func TestChallengeOutOfTurn(t *testing.T) {
	s := savedRound(t, freshText(t, 3))
	s.Seats[0].Quests, s.Seats[0].Carrying = []string{"q12"}, "q12"
	s = toHero(t, s)
	noted(t, s, "Bob", "challenge alice melee", "with the Movement you saved")
	noted(t, s, "Bob", "steal alice speed", "with the Movement you saved")
	glory := s.Seats[1].Glory
	s = do(t, s, "Bob", "challenge alice melee", dice(6, 1))
	if s.Seats[0].Life != maxLife-1 || s.Seats[1].Glory != glory+1 || s.Seats[1].Saved != 0 || s.Current != 0 || s.Phase != phHero {
		t.Fatalf("Alice's life %d, Bob's glory %d saved %d; current %d phase %s", s.Seats[0].Life, s.Seats[1].Glory, s.Seats[1].Saved, s.Current, s.Phase)
	}
	if slices.Contains(s.ToAct(), "Bob") {
		t.Fatal("Bob is to act")
	}

	// The map monster: Bob stands in the Collapsed Gallery out of turn.
	s = savedRound(t, freshText(t, 3))
	place(s, "m09", 0, -1, 0)
	s.Seats[1].Y = -1
	s = toHero(t, s)
	s = do(t, s, "Bob", "challenge m09 melee", nil)
	if s.Phase != phGuard || !slices.Equal(s.ToAct(), []string{"Carol"}) || s.View("").(View).GuardBy != "Carol" {
		t.Fatalf("phase %s to act %v", s.Phase, s.ToAct())
	}
	if got := s.Notes("Carol")["attack"].String(); got == "" {
		t.Fatal("no note on attack")
	}
	s = do(t, s, "Carol", "attack melee", dice(1, 1, 6, 1)) // a tie, then Bob's hit
	if s.Phase != phHero || s.Current != 0 || s.QuestWounds["m09"] != 1 || !s.Seats[1].Struck || s.Seats[1].Saved != 0 {
		t.Fatalf("phase %s current %d wounds %d", s.Phase, s.Current, s.QuestWounds["m09"])
	}
}

// TestStandOutOfTurn (issue 21 point 6): «Azioni speciali: Alcune azioni possono
// essere effettuate dentro o fuori dal proprio turno. […] • Sollevare il tuo Eroe. Un
// Eroe Sdraiato non è in grado di muoversi finché non spendete 1 Movimento per
// Sollevarlo.» Alice's Glyph of Binding knocks Bob down in her Dungeon Lord phase; with
// the Movement he saved he stands up out of turn, and starts his turn standing. Under
// the rules of the games recorded before he could not.
func TestStandOutOfTurn(t *testing.T) {
	for _, rules := range []int{rulesOriginal, rulesText} {
		s := fresh(t, 2)
		s.Rules = rules
		s = savedRound(t, s, "a25")
		s = do(t, s, "Alice", "play a25 on bob", nil)
		s = do(t, s, "Alice", "done", dice(6, 1)) // the trap tests every hero in the space: Bob's 1 + Magic 1 against 4
		if !s.Seats[1].Prone || s.Current != 0 {
			t.Fatalf("rules %d: prone %v current %d", rules, s.Seats[1].Prone, s.Current)
		}
		if rules == rulesOriginal {
			illegal(t, s, "Bob", "stand")
			continue
		}
		noted(t, s, "Bob", "stand", "with the Movement you saved")
		illegal(t, s, "Bob", "challenge alice melee") // knocked down: stand first
		s = do(t, s, "Bob", "stand", nil)
		if s.Seats[1].Prone || s.Seats[1].Saved != 0 || slices.Contains(s.ToAct(), "Bob") {
			t.Fatalf("prone %v saved %d to act %v", s.Seats[1].Prone, s.Seats[1].Saved, s.ToAct())
		}
		illegal(t, s, "Bob", "stand")
	}
}

// TestBaneAmongEncounters (issue 21 point 7): «Tutte le carte Incontro devono essere
// giocate nello stesso momento, quindi il tuo avversario potrebbe mettere in atto una
// risposta strategica, mentre le carte Sventura possono essere giocate in qualsiasi
// momento durante la tua Fase di Signore del Dungeon, prima o dopo aver risolto gli
// Incontri» and «Le carte Sventura possono essere giocate in qualunque momento durante
// la propria Fase del Signore del Dungeon, prima o dopo avere giocato carte Incontro».
// Between the Encounters' declaration and their resolution is both "before resolving
// them" and "after playing them": Alice declares her Ogre on Bob, then plays Cursed
// Whisper on Carol, which resolves at once; the Ogre waits for done. Under the rules of
// the games recorded before the Bane was refused there.
func TestBaneAmongEncounters(t *testing.T) {
	for _, rules := range []int{rulesOriginal, rulesText} {
		s := fresh(t, 3)
		s.Rules = rules
		s.Seats[0].Hand = []string{"a13", "a31"}
		s.Seats[1].Peril, s.Seats[2].Peril = 3, 1
		s.Seats[2].Hand = []string{"a01", "a02"}
		s = do(t, s, "Alice", "play a13 on bob melee", nil)
		if rules == rulesOriginal {
			illegal(t, s, "Alice", "play a31 on carol")
			continue
		}
		s = do(t, s, "Alice", "play a31 on carol", engine.NewRand(1, 1, engine.Outcomes{"discard": []byte("1")}))
		if s.Phase != phLord || s.LordStep != "declare" || len(s.Pending) != 1 || s.Pending[0].Card != "a13" || len(s.Held) != 0 {
			t.Fatalf("phase %s step %s pending %v held %v", s.Phase, s.LordStep, s.Pending, s.Held)
		}
		if !slices.Equal(s.Seats[2].Hand, []string{"a01"}) || !slices.Contains(s.Discard, "a31") {
			t.Fatalf("Carol's hand %v: the Whisper discards one card at once", s.Seats[2].Hand)
		}
		s = do(t, s, "Alice", "done", dice(4, 1)) // the Ogre hits Bob
		if s.Seats[1].Life != maxLife-1 {
			t.Fatalf("Bob's life %d", s.Seats[1].Life)
		}
	}
}

// TestDiscardWithEmptyHand (Fase di Scarto/Pesca): «Se hai ancora carte in mano devi
// scartarne 1 (e solo 1). Può essere 1 carta tra quelle che hai in mano, 1 carta
// Tesoro presa dal tuo Inventario o 1 carta Incontro presa dal Branco […]. Se non
// possiedi carte in mano non sei costretto a scartare.» Alice ends her hero phase
// with an empty hand, the Notched Sword ready and an Ogre in her pack: she may discard
// one of them or keep both (done); a missed deadline keeps them. Under the rules of the
// games recorded before she had to discard one.
func TestDiscardWithEmptyHand(t *testing.T) {
	for _, rules := range []int{rulesOriginal, rulesText} {
		s := fresh(t, 2)
		s.Rules = rules
		s.Seats[0].Treasures, s.Seats[0].Pack = []string{"a54"}, []PackMonster{{ID: "a13"}}
		s = toHero(t, s)
		s = do(t, s, "Alice", "done", nil)
		if s.Phase != phDiscard || s.Current != 0 {
			t.Fatalf("rules %d: phase %s current %d", rules, s.Phase, s.Current)
		}
		want := []string{"discard a54", "discard a13"}
		if rules == rulesText {
			want = append(want, "done")
			if got := s.SkipCommands("Alice"); !slices.Equal(got, []string{"done"}) {
				t.Errorf("skip %q, want done", got)
			}
		}
		if got := s.Legal("Alice"); !slices.Equal(got, want) {
			t.Fatalf("rules %d: Alice may send %q, want %q", rules, got, want)
		}
		if rules == rulesOriginal {
			continue
		}
		s = do(t, s, "Alice", "done", nil)
		if s.Current != 1 || !slices.Equal(s.Seats[0].Treasures, []string{"a54"}) || len(s.Seats[0].Pack) != 1 || len(s.Seats[0].Hand) != handSize {
			t.Fatalf("current %d; Alice keeps %v and %v, draws %d", s.Current, s.Seats[0].Treasures, s.Seats[0].Pack, len(s.Seats[0].Hand))
		}
		// With cards in hand the one discard is due: done is not listed.
		s = do(t, s, "Bob", "done", nil)
		s.Seats[1].Hand = []string{"a01"}
		s = do(t, s, "Bob", "done", nil)
		illegal(t, s, "Bob", "done")
	}
}

// TestNotes_movesSayWhere: in the hero phase each move the hero may send says where
// it leads — the direction and the map card on that side — truly: the hero that
// makes it stands on that card, or was stopped on the way by its door ("muovi n"
// alone told a player nothing). Whole self-played games.
func TestNotes_movesSayWhere(t *testing.T) {
	moves, arrived := 0, 0
	for seed := int64(1); seed <= 4; seed++ {
		a, _ := play(t, 2+int(seed%3), seed, 0, randomPick)
		seedOf, states := statesOf(t, a)
		for i, st := range states[:len(states)-1] {
			if s := st.(*state); s.Phase == phHero && len(s.ToAct()) > 0 {
				who := s.Seats[s.Current].Name
				notes := s.Notes(who)
				for side, name := range sideNames {
					cmd := "move " + name
					if !slices.Contains(s.Legal(who), cmd) {
						continue
					}
					moves++
					h := s.Seats[s.Current]
					to := s.Grid[cellAt(s.Grid, h.X+dx[side], h.Y+dy[side])]
					want := engine.Textf("%s, to %s", engine.Term(directions[name]), engine.Term(cards.mapc[to.ID].Name.En))
					if note := notes[cmd]; note.String() != want.String() {
						t.Errorf("seed %d event %d: %q noted %q, want %q", seed, i+1, cmd, note, want)
					}
					next, _, err := engine.Step(st, seedOf, i+1, who, cmd, nil)
					if err != nil {
						t.Errorf("seed %d event %d: %s listed and refused: %v", seed, i+1, cmd, err)
						continue
					}
					if n := next.(*state).Seats[s.Current]; n.X == to.X && n.Y == to.Y {
						arrived++
					}
				}
			}
		}
	}
	if moves < 100 || arrived < moves/2 {
		t.Errorf("%d moves checked, %d arrived where their note said", moves, arrived)
	}
}

// statesOf replays archive a: its seed and the state after every event (index 0 is
// the setup's), without journals.
func statesOf(t *testing.T, a *engine.Archive) (int64, []engine.State) {
	t.Helper()
	setup, err := a.SetupOf()
	if err != nil {
		t.Fatal(err)
	}
	start, _, err := engine.Start(Game{}, setup, a.SetupOutcomes)
	if err != nil {
		t.Fatal(err)
	}
	states := []engine.State{start}
	f := engine.Fold{Seed: setup.Seed, Events: a.Events, Base: start, Keep: true,
		Visit: func(_ int, s engine.State) error { states = append(states, s); return nil }}
	if _, err := f.Run(-1); err != nil {
		t.Fatal(err)
	}
	return setup.Seed, states
}
