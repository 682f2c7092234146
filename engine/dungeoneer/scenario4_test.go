package dungeoneer

import (
	"slices"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestReadyCardActivation: "Azioni speciali: Alcune azioni possono essere effettuate
// dentro o fuori dal proprio turno. [...] Attivare l’effetto di una carta pronta nel
// proprio Inventario; se si possiedono le risorse necessarie (Gloria o Movimento)";
// "Una volta per Turno: [...] Se sono usati durante il turno di un giocatore, non
// possono più venire utilizzati prima dell’inizio del turno del giocatore seguente";
// "Una carta Tesoro che si è «scaricata» [...] va scartata".
func TestReadyCardActivation(t *testing.T) {
	t.Run("once per turn, in and out of turn, for Glory", func(t *testing.T) {
		s := fresh(t, 2)
		s.Seats[0].Hand, s.Seats[0].Glory = []string{"a50"}, 3 // Warding Sigil
		s = toHero(t, s)
		illegal(t, s, "Alice", "use a50") // in the hand: not ready
		s = do(t, s, "Alice", "play a50", nil)
		s = do(t, s, "Alice", "use a50", nil)
		if a := s.Seats[0]; a.Glory != 1 || a.Ward != 1 {
			t.Fatalf("after use: glory %d ward %d, want 1 1", a.Glory, a.Ward)
		}
		illegal(t, s, "Alice", "use a50") // once per turn
		s = do(t, s, "Alice", "done", nil)
		if s.Current != 1 || s.Seats[0].Ward != 0 {
			t.Fatalf("Bob's turn: current %d, Alice's ward %d", s.Current, s.Seats[0].Ward)
		}
		// Bob's turn is another turn: Alice may use it again, out of turn.
		if !slices.Contains(expanded(s.Legal("Alice")), "use a50") || slices.Contains(s.ToAct(), "Alice") {
			t.Fatalf("Alice out of turn: legal %v, to act %v", expanded(s.Legal("Alice")), s.ToAct())
		}
		glory := s.Seats[0].Glory
		s = do(t, s, "Alice", "use a50", nil)
		if a := s.Seats[0]; a.Glory != glory-1 || a.Ward != 1 || s.Current != 1 || s.Phase != phLord {
			t.Fatalf("out of turn: glory %d (was %d) ward %d current %d phase %s", a.Glory, glory, a.Ward, s.Current, s.Phase)
		}
	})
	t.Run("Movement: the turn's, or the saved one out of turn", func(t *testing.T) {
		s := fresh(t, 2)
		s.Seats[0].Favors, s.Seats[0].Life = []string{"a46"}, 3 // Mending Hands
		s = toHero(t, s)
		s = do(t, s, "Alice", "use a46", nil)
		if s.Seats[0].Life != 4 || s.Movement != 2 {
			t.Fatalf("in turn: life %d movement %d, want 4 2", s.Seats[0].Life, s.Movement)
		}
		s = do(t, s, "Alice", "done", nil) // saves 1 Movement; Bob's turn
		if s.Current != 1 || s.Seats[0].Saved != 1 {
			t.Fatalf("current %d saved %d", s.Current, s.Seats[0].Saved)
		}
		s = do(t, s, "Alice", "use a46", nil)
		if s.Seats[0].Life != 5 || s.Seats[0].Saved != 0 {
			t.Fatalf("out of turn: life %d saved %d, want 5 0", s.Seats[0].Life, s.Seats[0].Saved)
		}
		s.UsedOnce = nil
		illegal(t, s, "Alice", "use a46") // nothing saved any more
		// Knocked down, a hero spends no Movement but to stand.
		s = fresh(t, 2)
		s.Seats[0].Favors, s.Seats[0].Prone = []string{"a46"}, true
		s = toHero(t, s)
		illegal(t, s, "Alice", "use a46")
	})
	t.Run("charges: spent, the card is discarded", func(t *testing.T) {
		s := fresh(t, 2)
		place(s, "m06", 0, -1, 0)
		s.Seats[0].Hand, s.Seats[0].Glory = []string{"a58"}, 4 // Wand of Blinking, 2 charges
		s = toHero(t, s)
		s = do(t, s, "Alice", "play a58", nil)
		s = do(t, s, "Alice", "move n", nil)
		s = do(t, s, "Alice", "use a58", nil)
		if a := s.Seats[0]; a.X != 0 || a.Y != 0 || a.Glory != 1 || a.Charges["a58"] != 1 {
			t.Fatalf("first use: at %d,%d glory %d charges %v", a.X, a.Y, a.Glory, a.Charges)
		}
		s = do(t, s, "Alice", "use a58", nil)
		if a := s.Seats[0]; len(a.Treasures) != 0 || !slices.Contains(s.Discard, "a58") || a.Glory != 0 {
			t.Fatalf("spent: treasures %v discard %v glory %d", a.Treasures, s.Discard, a.Glory)
		}
		illegal(t, s, "Alice", "use a58")
	})
	t.Run("a defense prepared in the response window", func(t *testing.T) {
		// "B. Risposta: I vostri avversari possono giocare carte di Risposta e preparare
		// altre difese."
		s := fresh(t, 2)
		s.Seats[0].Hand = []string{"a13"}
		s.Seats[1].Favors, s.Seats[1].Glory, s.Seats[1].Peril = []string{"a50"}, 1, 3
		s = do(t, s, "Alice", "play a13 on bob melee", nil)
		s = do(t, s, "Alice", "done", nil)
		if s.Phase != phRespond || !slices.Equal(s.ToAct(), []string{"Bob"}) || !slices.Equal(expanded(s.Legal("Bob")), []string{"use a50", "pass"}) {
			t.Fatalf("phase %s, to act %v, Bob's legal %v", s.Phase, s.ToAct(), expanded(s.Legal("Bob")))
		}
		// The Ogre: 3+3 against Tamsin's 2+3 and the sigil's +1: a tie, not a hit. Bob,
		// asked until he passes, passes.
		rng := dice(3, 3)
		s = do(t, s, "Bob", "use a50", rng)
		if s.Phase != phRespond || !slices.Equal(s.Legal("Bob"), []string{"pass"}) {
			t.Fatalf("after the defense: phase %s, Bob's legal %v", s.Phase, s.Legal("Bob"))
		}
		s = do(t, s, "Bob", "pass", rng)
		if s.Seats[1].Life != maxLife || s.Phase != phSpoils || !slices.Equal(s.Unhurt, []string{"a13"}) {
			t.Fatalf("life %d phase %s unhurt %v", s.Seats[1].Life, s.Phase, s.Unhurt)
		}
	})
	t.Run("leaving the space before the resolution", func(t *testing.T) {
		// "Se un eroe riesce in qualche maniera a spostarsi dallo spazio in cui si trova
		// prima della fase di Risoluzione del combattimento, la carta Incontro non può
		// attaccare o colpire in alcun modo l’Eroe in questione."
		s := fresh(t, 2)
		place(s, "m06", 0, -1, 0)
		s.Seats[1].Y = -1
		s.Seats[0].Hand = []string{"a13", "a21"} // Ogre Jailer, Swinging Blade
		s.Seats[1].Treasures, s.Seats[1].Charges = []string{"a58"}, map[string]int{"a58": 2}
		s.Seats[1].Glory, s.Seats[1].Peril = 1, 4
		s = do(t, s, "Alice", "play a13 on bob melee", nil)
		s = do(t, s, "Alice", "play a21 on bob", nil)
		s = do(t, s, "Alice", "done", nil)
		rng := dice(1, 1, 1)
		s = do(t, s, "Bob", "use a58", rng) // back at the Entrance: nothing strikes
		s = do(t, s, "Bob", "pass", rng)
		b := s.Seats[1]
		if b.Life != maxLife || b.X != 0 || b.Y != 0 || !slices.Equal(s.Unhurt, []string{"a13"}) || !slices.Contains(s.Discard, "a21") {
			t.Fatalf("Bob life %d at %d,%d; unhurt %v discard %v", b.Life, b.X, b.Y, s.Unhurt, s.Discard)
		}
	})
}

// TestCarryingItem: "Le carte degli Oggetti per il Trasporto dei Tesori contano 1 per il
// limite massimo di Tesori di un Eroe [...] possono essere giocati anche quando gli
// spazi dei Tesori sono già stati usati tutti. Se l’Oggetto per il Trasporto viene
// scartato, l’eroe può conservare i Tesori che riesce a tenersi addosso (a scelta del
// giocatore)".
func TestCarryingItem(t *testing.T) {
	s := fresh(t, 2)
	a := &s.Seats[0]
	a.Hero, a.Glory, a.Hand = "h1", 10, []string{"a54", "a62", "a55", "a59"} // Brakka: 1 Treasure
	s.startTurn(0)
	s = toHero(t, s)
	s = do(t, s, "Alice", "play a54", nil) // Notched Sword: the one Treasure
	illegal(t, s, "Alice", "play a62")     // Buckler: no room
	s = do(t, s, "Alice", "play a55", nil) // Adventurer's Pack: fits when full, +2
	s = do(t, s, "Alice", "play a62", nil)
	illegal(t, s, "Alice", "play a59") // three of three
	s = do(t, s, "Alice", "done", nil)
	s = do(t, s, "Alice", "discard a55", nil)
	if s.Phase != phDiscard || s.Current != 0 || !s.Discarded {
		t.Fatalf("after discarding the pack: phase %s current %d", s.Phase, s.Current)
	}
	illegal(t, s, "Alice", "discard a59") // from the hand: the one discard is done
	if got := expanded(s.Legal("Alice")); !slices.Equal(got, []string{"discard a54", "discard a62"}) {
		t.Fatalf("legal %v, want the two Treasures", got)
	}
	s = do(t, s, "Alice", "discard a62", nil)
	if s.Current != 1 || !slices.Equal(s.Seats[0].Treasures, []string{"a54"}) {
		t.Fatalf("current %d treasures %v", s.Current, s.Seats[0].Treasures)
	}
}

// TestQuestMonsterPlayedByTheLeft: "Nota che, per quanto riguarda i mostri sulle carte
// Missione o Mappa, il giocatore seduto alla tua sinistra ricopre il ruolo di Signore
// del Dungeon. Questi mostri non vanno nel tuo Branco o nella tua mano, e non fanno
// guadagnare alcun punto Gloria/ Pericolo". The Dust King has two standard attacks: the
// player to the left chooses, with the response deadline.
func TestQuestMonsterPlayedByTheLeft(t *testing.T) {
	tests := []struct {
		name string
		out  int // a seat out of the game, -1 for none
		left string
	}{
		{"the next player", -1, "Bob"},
		{"the next player still in the game", 1, "Carol"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fresh(t, 3)
			place(s, "m19", 0, -1, 180)
			s.Seats[0].Y, s.Seats[0].Quests = -1, []string{"q04"}
			if tt.out >= 0 {
				s.Seats[tt.out].Out = true
			}
			s.startTurn(0)
			s = toHero(t, s)
			s = do(t, s, "Alice", "quest q04 melee", nil)
			if s.Phase != phGuard || !slices.Equal(s.ToAct(), []string{tt.left}) || !s.Responding(tt.left) || s.Responding("Alice") {
				t.Fatalf("phase %s, to act %v", s.Phase, s.ToAct())
			}
			if got := s.SkipCommands(tt.left); !slices.Equal(got, []string{"attack"}) {
				t.Fatalf("a missed response deadline: %v", got)
			}
			illegal(t, s, tt.left, "attack speed") // a counter-attack only
			illegal(t, s, "Alice", "attack melee")
			peril, glory := s.Seats[0].Peril, s.Seats[0].Glory
			// The King's Magic 2+6 hits Tamsin's 1+1; her Melee 2+1 meets the King's 2+6.
			s = do(t, s, tt.left, "attack magic", dice(6, 1, 1, 6))
			a := s.Seats[0]
			if a.Life != 4 || s.QuestWounds["q04"] != 0 || s.Phase != phHero || !a.Struck {
				t.Fatalf("life %d wounds %d phase %s struck %v", a.Life, s.QuestWounds["q04"], s.Phase, a.Struck)
			}
			l := s.Seats[s.seat(tt.left)]
			if a.Peril != peril || a.Glory != glory || l.Peril != 1 || l.Glory != 1 || len(l.Pack) != 0 {
				t.Fatalf("no Glory or Peril for quest monsters: Alice %d/%d, %s %d/%d pack %v", a.Glory, a.Peril, tt.left, l.Glory, l.Peril, l.Pack)
			}
		})
	}
}

// TestMapMonster: a monster printed on a map card (our m09) attacks a hero who enters
// its space in its turn ("fai scattare qualsiasi effetto speciale oppure Ostacolo [...]
// nel momento stesso in cui il tuo Eroe entra in un nuovo spazio"), played by the player
// to the left, once a turn; the hero may challenge it ("Sfidare un mostro o un Eroe");
// its wounds stay; slain, it gives its own reward and no Glory for the wounds.
func TestMapMonster(t *testing.T) {
	s := fresh(t, 2)
	place(s, "m09", 0, -1, 0) // Collapsed Gallery: the Rubble Crawler, life 2
	s = toHero(t, s)
	s = do(t, s, "Alice", "move n", nil)
	if s.Phase != phGuard || !slices.Equal(expanded(s.Legal("Bob")), []string{"attack melee", "attack speed", "attack"}) {
		t.Fatalf("phase %s, Bob's legal %v", s.Phase, expanded(s.Legal("Bob")))
	}
	glory := s.Seats[0].Glory // 1 + the Gallery's 1
	s = do(t, s, "Bob", "attack speed", dice(5, 1))
	if a := s.Seats[0]; !a.Prone || a.Life != maxLife || s.Phase != phHero {
		t.Fatalf("the Crawler's Speed hit knocks down: prone %v life %d phase %s", a.Prone, a.Life, s.Phase)
	}
	illegal(t, s, "Alice", "challenge m09 melee") // knocked down
	s = do(t, s, "Alice", "stand", nil)
	s = do(t, s, "Alice", "challenge m09 melee", dice(6, 1)) // it attacked already: Alice strikes
	if s.QuestWounds["m09"] != 1 || s.Seats[0].Glory != glory || s.Movement != 0 {
		t.Fatalf("wounds %d glory %d movement %d", s.QuestWounds["m09"], s.Seats[0].Glory, s.Movement)
	}
	// Next turn: standing in its space, Alice challenges; the Crawler strikes first.
	s = do(t, s, "Alice", "done", nil)
	s = do(t, s, "Bob", "done", nil)
	s = do(t, s, "Bob", "done", nil)
	s = do(t, s, "Alice", "done", nil)
	if cells := s.mapCells(); !cells[1].Monster || cells[1].Wounds != 1 {
		t.Fatalf("the map shows %+v", cells[1])
	}
	glory = s.Seats[0].Glory
	s = do(t, s, "Alice", "challenge m09 melee", nil)
	s = do(t, s, "Bob", "attack melee", dice(1, 1, 6, 1)) // a tie, then Alice's hit
	if !slices.Equal(s.Slain, []string{"m09"}) || s.Seats[0].Glory != glory+2 || s.mapCells()[1].Monster {
		t.Fatalf("slain %v glory %d (was %d)", s.Slain, s.Seats[0].Glory, glory)
	}
	if slices.Contains(expanded(s.Legal("Alice")), "challenge m09 speed") {
		t.Fatal("a slain monster is listed")
	}
}

// TestChanceQuest: "Caso: Queste Missioni richiedono un tiro di dado particolare [...]
// Ogni lancio di dado costa 1 punto Movimento [...] Se c’è un costo per aumentare le
// proprie probabilità, questo può essere pagato quante volte si desidera, in maniera
// cumulativa, ma questo bonus dura soltanto per un tentativo."
func TestChanceQuest(t *testing.T) {
	s := fresh(t, 2)
	place(s, "m15", 0, -1, 0) // Mirror Vault; q07: 5+, 1 Glory for each +1
	s.Seats[0].Y, s.Seats[0].Quests, s.Seats[0].Glory, s.Seats[0].Hand = -1, []string{"q07"}, 2, []string{"a01"}
	s.startTurn(0)
	s = toHero(t, s)
	legal := expanded(s.Legal("Alice"))
	if !slices.Contains(legal, "quest q07 2") || slices.Contains(legal, "quest q07 3") || slices.Contains(legal, "quest q07 melee") {
		t.Fatalf("legal %v: boosts up to the Glory", legal)
	}
	illegal(t, s, "Alice", "quest q07 5") // +5 would not need the die
	s = do(t, s, "Alice", "quest q07", dice(4))
	if s.Movement != 2 || len(s.Seats[0].Done) != 0 {
		t.Fatalf("4 < 5: movement %d done %v", s.Movement, s.Seats[0].Done)
	}
	s = do(t, s, "Alice", "quest q07 1", dice(4))
	if a := s.Seats[0]; !slices.Equal(a.Done, []string{"q07"}) || s.Movement != 1 || a.Level != 2 {
		t.Fatalf("4+1: done %v movement %d level %d", a.Done, s.Movement, a.Level)
	}
}

// TestSearchQuest: "Ricerca: Nelle Missioni di Ricerca si deve superare un’Insidia per
// raggiungere l’obiettivo. [...] Se si fallisce nel completamento di questa Missione nel
// proprio turno, si dovrà ripetere la prova contro l’Insidia durante il turno seguente."
func TestSearchQuest(t *testing.T) {
	s := fresh(t, 2)
	place(s, "m13", 0, -1, 0) // Idol Chamber; q02: search Speed 4+, the Stone Guardian
	s.Seats[0].Y, s.Seats[0].Quests = -1, []string{"q02"}
	s.startTurn(0)
	s = toHero(t, s)
	s = do(t, s, "Alice", "quest q02 melee", dice(1)) // 1+2 < 4: not found
	if len(s.QuestAttacked) != 0 || s.Seats[0].Struck || s.Movement != 2 {
		t.Fatalf("not found: attacked %v struck %v movement %d", s.QuestAttacked, s.Seats[0].Struck, s.Movement)
	}
	s = do(t, s, "Alice", "quest q02 melee", dice(2, 3, 3, 6, 1)) // found; a tie; Alice hits
	if !slices.Equal(s.Found, []string{"q02"}) || s.QuestWounds["q02"] != 1 {
		t.Fatalf("found %v wounds %d", s.Found, s.QuestWounds["q02"])
	}
	s.startTurn(0)
	if len(s.Found) != 0 || s.QuestWounds["q02"] != 1 {
		t.Fatalf("next turn: found %v wounds %d; the search is due again, the wounds stay", s.Found, s.QuestWounds["q02"])
	}
}

// TestFetchFailureStrikesEveryone: "Insidia: [...] I tentativi falliti affliggono tutti
// i presenti nello spazio in questione, come avviene per una Trappola, ma la Missione
// può essere completata soltanto dall’Eroe di cui si sta giocando il turno."
func TestFetchFailureStrikesEveryone(t *testing.T) {
	s := fresh(t, 3)
	place(s, "m11", 0, -1, 180) // Hall of Spikes; q08 Melee 5+, failure 1 wound
	s.Seats[0].Y, s.Seats[1].Y, s.Seats[0].Quests = -1, -1, []string{"q08"}
	s.startTurn(0)
	s = toHero(t, s)
	s = do(t, s, "Alice", "quest q08", dice(1))
	if s.Seats[0].Life != 5 || s.Seats[1].Life != 5 || s.Seats[2].Life != maxLife {
		t.Fatalf("lives %d %d %d, want 5 5 6", s.Seats[0].Life, s.Seats[1].Life, s.Seats[2].Life)
	}
}

// TestComponents: "Le Missioni di Scorta richiedono di recarsi su un punto specifico
// della mappa, raccogliere un componente e portarlo in un altro punto [...]
// Raccogliere il componente e posarlo sono Movimenti gratuiti; utilizzate un segnalino
// per indicare la presenza di quel componente addosso all’Eroe che lo sta
// trasportando. Tutti i presenti nello stesso spazio di un componente scartato possono
// prenderlo con un Movimento gratuito."
func TestComponents(t *testing.T) {
	t.Run("put down and taken by another hero, with the quest", func(t *testing.T) {
		s := fresh(t, 2)
		place(s, "m06", 0, -1, 0)
		s.Seats[0].Quests, s.Seats[0].Carrying = []string{"q12"}, "q12"
		s = toHero(t, s)
		illegal(t, s, "Alice", "take q12") // it is carried, not lying here
		s = do(t, s, "Alice", "put q12", nil)
		if s.Seats[0].Carrying != "" || !slices.Equal(s.Items, []Item{{"q12", 0, 0}}) || !slices.Equal(s.mapCells()[0].Items, []string{"q12"}) {
			t.Fatalf("put: carrying %q items %v", s.Seats[0].Carrying, s.Items)
		}
		s = do(t, s, "Alice", "take q12", nil)
		s = do(t, s, "Alice", "put q12", nil)
		s = do(t, s, "Alice", "move n", nil)
		illegal(t, s, "Alice", "take q12") // not in her space
		s = do(t, s, "Alice", "done", nil)
		s = do(t, s, "Bob", "done", nil)
		s = do(t, s, "Bob", "take q12", nil) // free, and the quest is his now
		if b := s.Seats[1]; b.Carrying != "q12" || !slices.Equal(b.Quests, []string{"q12"}) || len(s.Seats[0].Quests) != 0 || s.Movement != 3 {
			t.Fatalf("Bob carries %q, quests %v; Alice's %v; movement %d", b.Carrying, b.Quests, s.Seats[0].Quests, s.Movement)
		}
	})
	t.Run("a hit makes the carrier drop it", func(t *testing.T) {
		s := fresh(t, 2)
		s.Seats[0].Hand = []string{"a07"} // Cave Goblin: Speed hit steals 1 Glory, drops
		s.Seats[1].Quests, s.Seats[1].Carrying, s.Seats[1].Peril = []string{"q12"}, "q12", 2
		s = do(t, s, "Alice", "play a07 on bob speed", nil)
		s = do(t, s, "Alice", "done", dice(6, 1))
		b := s.Seats[1]
		if b.Carrying != "" || b.Glory != 0 || b.Life != maxLife || !slices.Equal(s.Items, []Item{{"q12", 0, 0}}) || !slices.Equal(b.Quests, []string{"q12"}) {
			t.Fatalf("Bob carrying %q glory %d life %d quests %v; items %v", b.Carrying, b.Glory, b.Life, b.Quests, s.Items)
		}
	})
	t.Run("a fallen carrier's component lies where it fell, with its quest", func(t *testing.T) {
		s := fresh(t, 3)
		s.QDeck = nil
		s.Seats[0].Hand = []string{"a13"}
		s.Seats[1].Quests, s.Seats[1].Carrying, s.Seats[1].Life, s.Seats[1].Peril = []string{"q12", "q05"}, "q12", 1, 3
		s = do(t, s, "Alice", "play a13 on bob melee", nil)
		s = do(t, s, "Alice", "done", dice(6, 1))
		if !s.Seats[1].Out || !slices.Equal(s.Items, []Item{{"q12", 0, 0}}) || !slices.Equal(s.QDeck, []string{"q05"}) {
			t.Fatalf("out %v items %v quest deck %v", s.Seats[1].Out, s.Items, s.QDeck)
		}
	})
	t.Run("the marker at the start, until picked up", func(t *testing.T) {
		s := fresh(t, 2)
		place(s, "m04", 0, -1, 0) // Bone Hall: q13's start
		s.Seats[0].Y, s.Seats[0].Quests = -1, []string{"q13"}
		s.startTurn(0)
		if got := s.mapCells()[1].Items; !slices.Equal(got, []string{"q13"}) {
			t.Fatalf("items at the Bone Hall %v", got)
		}
		s = toHero(t, s)
		s = do(t, s, "Alice", "quest q13", nil)
		if got := s.mapCells()[1].Items; len(got) != 0 || s.Seats[0].Carrying != "q13" {
			t.Fatalf("after the pick-up: items %v carrying %q", got, s.Seats[0].Carrying)
		}
	})
}

// TestLastingQuestEffects: a quest's while effect and an artifact may be any lasting
// effect, not only a score: q06 gives +1 to every peril test while in play, the
// delivered q12 +1 Glory at the start of each turn.
func TestLastingQuestEffects(t *testing.T) {
	tests := []struct {
		name   string
		quests []string
		life   int
	}{
		{"without", nil, 5},
		{"with the Well's Bottom", []string{"q06"}, maxLife},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fresh(t, 2)
			place(s, "m06", 0, -1, 0)
			s.Seats[0].Hand = []string{"a21"} // Swinging Blade: Speed 4+
			s.Seats[1].Peril, s.Seats[1].Quests, s.Seats[1].Y = 1, tt.quests, -1
			s = do(t, s, "Alice", "play a21 on bob", nil)
			s = do(t, s, "Alice", "done", dice(1)) // Tamsin's Speed 2 + 1, and the quest's +1
			if s.Seats[1].Life != tt.life {
				t.Fatalf("life %d, want %d", s.Seats[1].Life, tt.life)
			}
		})
	}
	s := fresh(t, 2)
	s.Seats[0].Done = []string{"q12"}
	glory := s.Seats[0].Glory
	s.startTurn(0)
	if s.Seats[0].Glory != glory+1 {
		t.Fatalf("the lantern artifact: glory %d, want %d", s.Seats[0].Glory, glory+1)
	}
}

var _ engine.Responder = (*state)(nil)

// TestAnyTimeCommands: engine.AnyTimer lists the special actions of any moment among
// a player's legal commands — out of turn, in the own turn, and in a response window,
// where a defensive ready card is a response, not an any-time command.
func TestAnyTimeCommands(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[0].Hand = []string{"a13"}
	s.Seats[1].Hero, s.Seats[1].Hand = "h2", []string{"a37"} // Ilvo; Second Wind
	s.Seats[1].Favors, s.Seats[1].Glory, s.Seats[1].Peril = []string{"a50"}, 3, 3
	if got := s.AnyTime("Bob"); !slices.Equal(got, []string{"play a37", "ability", "use a50"}) {
		t.Fatalf("out of turn: %v", got)
	}
	if got := s.AnyTime("Alice"); len(got) != 0 {
		t.Fatalf("Alice, Tamsin, empty-handed: %v", got)
	}
	s = do(t, s, "Alice", "play a13 on bob melee", nil)
	s = do(t, s, "Alice", "done", nil)
	// Asked to respond: Second Wind and the sigil answer the attack; the ability is of
	// any moment.
	if got, legal := s.AnyTime("Bob"), expanded(s.Legal("Bob")); !slices.Equal(got, []string{"ability"}) || !slices.Equal(legal, []string{"play a37", "use a50", "pass", "ability"}) {
		t.Fatalf("in the response window: any time %v, legal %v", got, legal)
	}
}

// TestIntegration: "Integrazioni: Alcune carte Avventura possono essere usate per
// modificare gli effetti di un’altra carta. Una carta Integrazione viene scartata se
// la carta che sta modificando viene scartata o ritorna in mano. Una carta
// Integrazione non conta per il numero massimo di Favori, Tesori o Branco dell’Eroe".
func TestIntegration(t *testing.T) {
	s := fresh(t, 2)
	a := &s.Seats[0]
	a.Hand, a.Glory, a.Favors = []string{"a44", "a54", "a01"}, 5, []string{"a47"} // Blessed Blade, Notched Sword
	s = toHero(t, s)
	illegal(t, s, "Alice", "play a44")        // it modifies a weapon
	illegal(t, s, "Alice", "play a44 on a54") // the sword is not ready
	s = do(t, s, "Alice", "play a54", nil)
	before := s.stat(0, melee)
	illegal(t, s, "Alice", "play a44 on a47") // not a weapon
	s = do(t, s, "Alice", "play a44 on a54", nil)
	if a := s.Seats[0]; s.stat(0, melee) != before+1 || len(a.Favors) != 1 || a.Attached["a44"] != "a54" || a.Glory != 2 {
		t.Fatalf("melee %d (was %d), favors %v, attached %v, glory %d", s.stat(0, melee), before, a.Favors, a.Attached, a.Glory)
	}
	s = do(t, s, "Alice", "done", nil)
	s = do(t, s, "Alice", "discard a54", nil)
	if a := s.Seats[0]; len(a.Attached) != 0 || !slices.Contains(s.Discard, "a44") || s.stat(0, melee) != before-1 {
		t.Fatalf("the sword discarded: attached %v, discard %v, melee %d", a.Attached, s.Discard, s.stat(0, melee))
	}
}

// TestDiscardPhaseEmptied: a hero that plays its last card of any moment (an always
// Favor) in its own discard phase has nothing left to discard: "Se non possiedi carte
// in mano non sei costretto a scartare", and the turn goes on.
func TestDiscardPhaseEmptied(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[0].Hand, s.Seats[0].Life = []string{"a37"}, 4 // Second Wind
	s = toHero(t, s)
	s = do(t, s, "Alice", "done", nil)
	if s.Phase != phDiscard || !slices.Equal(expanded(s.Legal("Alice")), []string{"discard a37", "play a37"}) {
		t.Fatalf("phase %s legal %v", s.Phase, expanded(s.Legal("Alice")))
	}
	s = do(t, s, "Alice", "play a37", nil)
	if s.Current != 1 || s.Seats[0].Life != 5 || len(s.Seats[0].Hand) != handSize {
		t.Fatalf("current %d life %d hand %v", s.Current, s.Seats[0].Life, s.Seats[0].Hand)
	}
}

// TestLifeTest: "Le Insidie possono basarsi su qualsiasi punteggio: Mischia, Magia,
// Velocità, persino Vita o il Livello attuale del tuo personaggio." The Soul Snare
// tests Life 8+: a wounded hero is snared more easily.
func TestLifeTest(t *testing.T) {
	tests := []struct {
		life, die int
		snared    bool
	}{
		{6, 2, false},
		{6, 1, true},
		{3, 4, true},
		{3, 5, false},
	}
	for _, tt := range tests {
		s := fresh(t, 2)
		place(s, "m06", 0, -1, 0)
		s.Seats[0].Hand = []string{"a26"}
		s.Seats[1].Y, s.Seats[1].Life, s.Seats[1].Peril, s.Seats[1].Glory = -1, tt.life, 1, 1
		s = do(t, s, "Alice", "play a26 on bob", nil)
		s = do(t, s, "Alice", "done", dice(tt.die))
		if b := s.Seats[1]; b.Prone != tt.snared || (b.Glory == 0) != tt.snared {
			t.Errorf("life %d, die %d: prone %v glory %d, want snared %v", tt.life, tt.die, b.Prone, b.Glory, tt.snared)
		}
	}
}

// TestAlwaysBane: "Alcune carte Favore o Sventura hanno la caratteristica Sempre" —
// "può essere giocata sia durante che al di fuori del proprio turno, se ci sono
// risorse disponibili": Bob sends Alice back to the Entrance in her hero phase; her
// response may cancel it; the game goes on where it was.
func TestAlwaysBane(t *testing.T) {
	setup := func(aliceHand []string) *state {
		s := fresh(t, 2)
		place(s, "m06", 0, -1, 0)
		// Bob holds Grasping Shadows (cost 3); Alice gains 1 Peril in the Crossing.
		s.Seats[1].Hand = []string{"a36"}
		s.Seats[0].Peril, s.Seats[0].Glory, s.Seats[0].Hand = 3, 2, aliceHand
		s = toHero(t, s)
		return do(t, s, "Alice", "move n", nil)
	}
	s := setup(nil)
	if !slices.Equal(expanded(s.Legal("Bob")), []string{"play a36 on alice"}) || slices.Contains(s.ToAct(), "Bob") {
		t.Fatalf("Bob out of turn: legal %v", expanded(s.Legal("Bob")))
	}
	illegal(t, s, "Bob", "play a36 on bob")
	s = do(t, s, "Bob", "play a36 on @1", nil)
	if a := s.Seats[0]; a.X != 0 || a.Y != 0 || a.Peril != 1 || s.Phase != phHero || s.Current != 0 || s.Movement != 2 {
		t.Fatalf("Alice at %d,%d peril %d; phase %s current %d movement %d", a.X, a.Y, a.Peril, s.Phase, s.Current, s.Movement)
	}
	// With Sidestep, Alice is asked; meanwhile no other always Bane may come.
	s = setup([]string{"a39"})
	s.Seats[1].Hand = append(s.Seats[1].Hand, "a35")
	s = do(t, s, "Bob", "play a36 on alice", nil)
	if s.Phase != phRespond || !slices.Equal(s.ToAct(), []string{"Alice"}) {
		t.Fatalf("phase %s to act %v", s.Phase, s.ToAct())
	}
	s = do(t, s, "Alice", "play a39 a36", nil)
	s = do(t, s, "Alice", "pass", nil) // asked until she passes
	if a := s.Seats[0]; a.Y != -1 || s.Phase != phHero || !slices.Contains(s.Discard, "a36") {
		t.Fatalf("cancelled: Alice at y %d, phase %s, discard %v", a.Y, s.Phase, s.Discard)
	}
	// In his own Dungeon Lord phase Bob plays it as any Bane.
	s = do(t, s, "Alice", "done", nil)
	s.Seats[1].Hand, s.Seats[0].Peril = []string{"a36"}, 3
	if got := expanded(s.Legal("Bob")); !slices.Equal(got, []string{"play a36 on alice", "done"}) {
		t.Fatalf("Bob's Dungeon Lord phase: %v", got)
	}
}
