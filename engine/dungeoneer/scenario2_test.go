package dungeoneer

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestQuests covers each kind: fetch (a test, retries cost 1), visit (a price), kill
// (the monster strikes first, wounds stay between turns), escort (take, deliver), the
// global quest replaced, at most one quest a turn, the reward's level.
func TestQuests(t *testing.T) {
	t.Run("fetch", func(t *testing.T) {
		s := fresh(t, 2)
		place(s, "m17", 0, -1, 180) // Library of Ash; q05 Magic 5+
		s.Seats[0].Y, s.Seats[0].Quests, s.Seats[0].Hand = -1, []string{"q05", "q09"}, []string{"a01"}
		s.startTurn(0)
		s = toHero(t, s)
		illegal(t, s, "Alice", "quest q09")         // done elsewhere
		illegal(t, s, "Alice", "quest q06")         // not hers
		s = do(t, s, "Alice", "quest q05", dice(1)) // 1+1 < 5: 1 wound, free first try
		if s.Seats[0].Life != 5 || s.Movement != 3 {
			t.Fatalf("failed fetch: life %d movement %d", s.Seats[0].Life, s.Movement)
		}
		s = do(t, s, "Alice", "quest q05", dice(6)) // 6+1 ≥ 5, costs 1
		h := s.Seats[0]
		if !slices.Equal(h.Done, []string{"q05"}) || h.Level != 2 || s.Phase != phDiscard || s.Movement != 2 {
			t.Fatalf("fetch done %v level %d phase %s movement %d", h.Done, h.Level, s.Phase, s.Movement)
		}
		if s.stat(0, speed) != 3 || s.stat(0, magic) != 2 {
			t.Fatalf("level 2 scores: speed %d magic %d", s.stat(0, speed), s.stat(0, magic))
		}
	})
	t.Run("visit and one a turn", func(t *testing.T) {
		s := fresh(t, 2)
		place(s, "m05", 0, -1, 0) // Rat Run: q10 pay 2 Glory
		s.Seats[0].Y, s.Seats[0].Quests, s.Global = -1, []string{"q10"}, "q12"
		s.Seats[0].Hand = []string{"a01"}
		s.startTurn(0)
		s = toHero(t, s)
		illegal(t, s, "Alice", "quest q10") // 1 Glory
		s.Seats[0].Glory = 2
		s = do(t, s, "Alice", "quest q10", nil)
		if s.Seats[0].Glory != 0+0 || len(s.Seats[0].Done) != 1 || !s.QuestDone || s.Phase != phDiscard {
			t.Fatalf("visit: glory %d done %v", s.Seats[0].Glory, s.Seats[0].Done)
		}
	})
	t.Run("kill over two turns", func(t *testing.T) {
		s := fresh(t, 2)
		place(s, "m19", 0, -1, 180) // Throne of Dust; q04 Dust King, life 3
		s.Seats[0].Y, s.Seats[0].Quests, s.Seats[0].Hand = -1, []string{"q04"}, []string{"a01"}
		s.startTurn(0)
		s = toHero(t, s)
		illegal(t, s, "Alice", "quest q04 magic") // Tamsin has no standard Magic attack
		// The King strikes first — with Melee or Magic, Bob's choice as the player to
		// Alice's left (melee 2+1 against 2+1: tie) — then Tamsin (6+2 against 1+2).
		s = do(t, s, "Alice", "quest q04 melee", nil)
		if s.Phase != phGuard || !slices.Equal(s.ToAct(), []string{"Bob"}) || !slices.Equal(expanded(s.Legal("Bob")), []string{"attack melee", "attack magic", "attack"}) {
			t.Fatalf("phase %s, to act %v, Bob's choices %v", s.Phase, s.ToAct(), expanded(s.Legal("Bob")))
		}
		s = do(t, s, "Bob", "attack melee", dice(1, 1, 6, 1))
		if s.QuestWounds["q04"] != 1 || s.Phase != phHero {
			t.Fatalf("wounds %d phase %s", s.QuestWounds["q04"], s.Phase)
		}
		illegal(t, s, "Alice", "quest q04 melee") // the standard attack is used
		s = do(t, s, "Alice", "done", nil)
		s = do(t, s, "Alice", "discard a01", nil)
		s = do(t, s, "Bob", "done", nil)
		s = do(t, s, "Bob", "done", nil) // an empty hand: nothing to discard
		// Second turn: the King hits (Magic 6+2 against 1+1), Tamsin hits, and again.
		s = do(t, s, "Alice", "done", nil)
		s = do(t, s, "Alice", "quest q04 melee", nil)
		s = do(t, s, "Bob", "attack magic", dice(6, 1, 6, 1))
		if s.Seats[0].Life != 5 || s.QuestWounds["q04"] != 2 {
			t.Fatalf("life %d wounds %d", s.Seats[0].Life, s.QuestWounds["q04"])
		}
	})
	t.Run("kill completes", func(t *testing.T) {
		s := fresh(t, 2)
		place(s, "m12", 0, -1, 180) // Flooded Crypt; q01 Drowned Knight life 2
		s.Seats[0].Y, s.Seats[0].Quests = -1, []string{"q01"}
		s.QuestWounds["q01"] = 1
		s.startTurn(0)
		s = toHero(t, s)
		s = do(t, s, "Alice", "quest q01 melee", dice(1, 6)) // the Knight misses and takes the counter
		// Glory: 1, +1 reward, +2 for staying in the Crypt; none for wounding a quest monster.
		if len(s.Seats[0].Done) != 1 || s.Seats[0].Glory != 1+1+2 {
			t.Fatalf("done %v glory %d", s.Seats[0].Done, s.Seats[0].Glory)
		}
	})
	t.Run("escort from the global quest", func(t *testing.T) {
		s := fresh(t, 2)
		place(s, "m10", 0, -1, 0) // Lantern Walk; q12 to the Entrance
		s.Seats[0].Y, s.Global, s.QDeck = -1, "q12", []string{"q07"}
		s.Seats[0].Quests = []string{"q01", "q02"}
		s.startTurn(0)
		s = toHero(t, s)
		s = do(t, s, "Alice", "quest q12", nil)
		h := s.Seats[0]
		if h.Carrying != "q12" || s.Global != "q07" || !slices.Contains(h.Quests, "q12") {
			t.Fatalf("pick-up: carrying %q global %q quests %v", h.Carrying, s.Global, h.Quests)
		}
		s = do(t, s, "Alice", "move s", nil)
		s = do(t, s, "Alice", "quest q12", nil)
		if s.Seats[0].Carrying != "" || len(s.Seats[0].Done) != 1 {
			t.Fatalf("delivery: %+v", s.Seats[0])
		}
	})
}

// TestPlayCards: Favors and Treasures cost Glory; permanent ones respect the hero's
// limits and one Treasure per category; instant ones act and go.
func TestPlayCards(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[0].Hand = []string{"a54", "a56", "a57", "a59", "a51", "a39", "a45", "a13"}
	s.Seats[0].Glory, s.Seats[0].Life = 20, 3
	s = toHero(t, s)
	illegal(t, s, "Alice", "play a39") // a response
	illegal(t, s, "Alice", "play a13") // a monster
	s = do(t, s, "Alice", "play a54", nil)
	illegal(t, s, "Alice", "play a56") // a second weapon
	s = do(t, s, "Alice", "play a57", nil)
	s = do(t, s, "Alice", "play a59", nil)
	if s.stat(0, melee) != 3 || s.stat(0, speed) != 3 || s.Seats[0].Glory != 14 {
		t.Fatalf("melee %d speed %d glory %d", s.stat(0, melee), s.stat(0, speed), s.Seats[0].Glory)
	}
	s = do(t, s, "Alice", "play a51", nil) // Healing Draught, not counted in the limit
	if s.Seats[0].Life != 5 || len(s.Seats[0].Treasures) != 3 || !slices.Contains(s.Discard, "a51") {
		t.Fatalf("draught: life %d treasures %v", s.Seats[0].Life, s.Seats[0].Treasures)
	}
	s = do(t, s, "Alice", "play a45", nil) // Favor limit 1 (Tamsin)
	s.Seats[0].Hand = append(s.Seats[0].Hand, "a46")
	illegal(t, s, "Alice", "play a46")
	s.Seats[0].Glory = 0
	s.Seats[0].Hand = append(s.Seats[0].Hand, "a43")
	illegal(t, s, "Alice", "play a43") // no Glory
}

// TestDiscardPhase: points for staying, one saved movement, exactly one discard (hand,
// Treasure or pack), drawing to five with a reshuffle.
func TestDiscardPhase(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[0].Hand = []string{"a01", "a02"}
	s.Seats[0].Treasures = []string{"a54"}
	s.Seats[0].Pack = []PackMonster{{"a13", 1}}
	s.Deck = []string{"a20"}
	s.Discard = []string{"a21", "a22", "a23"}
	s = toHero(t, s)
	s = do(t, s, "Alice", "done", nil)
	h := s.Seats[0]
	if h.Glory != 2 || h.Peril != 2 || h.Saved != 1 || s.Phase != phDiscard {
		t.Fatalf("staying: glory %d peril %d saved %d phase %s", h.Glory, h.Peril, h.Saved, s.Phase)
	}
	legal := expanded(s.Legal("Alice"))
	for _, want := range []string{"discard a01", "discard a54", "discard a13"} {
		if !slices.Contains(legal, want) {
			t.Fatalf("%q not in %v", want, legal)
		}
	}
	s = do(t, s, "Alice", "discard a54", engine.NewRand(1, 1, engine.Outcomes{"reshuffle": json.RawMessage(`["a23","a21","a22","a54"]`)}))
	h = s.Seats[0]
	if !slices.Equal(h.Hand, []string{"a01", "a02", "a20", "a23", "a21"}) || len(h.Treasures) != 0 || s.Current != 1 {
		t.Fatalf("hand %v treasures %v current %d", h.Hand, h.Treasures, s.Current)
	}
	if !slices.Equal(s.Deck, []string{"a22", "a54"}) || len(s.Discard) != 0 {
		t.Fatalf("deck %v discard %v", s.Deck, s.Discard)
	}
}

// TestVictory: three quests win; the last hero standing wins as Dungeon Lord; a
// defeated hero leaves and its turns are skipped.
func TestVictory(t *testing.T) {
	s := fresh(t, 2)
	place(s, "m05", 0, -1, 0)
	s.Seats[0].Y, s.Seats[0].Quests, s.Seats[0].Done, s.Seats[0].Glory = -1, []string{"q10"}, []string{"q01", "q02"}, 5
	s.startTurn(0)
	s = toHero(t, s)
	s = do(t, s, "Alice", "quest q10", nil)
	if !s.Finished() || !slices.Equal(s.Winners(), []string{"Alice"}) || len(s.ToAct()) != 0 || len(expanded(s.Legal("Bob"))) != 0 {
		t.Fatalf("finished %v winners %v", s.Finished(), s.Winners())
	}
	// Three players: Bob falls and is skipped; when Carol falls too Alice wins.
	s = fresh(t, 3)
	s.Seats[0].Hand = []string{"a17", "a18"} // Bone Drakes, 2 wounds a Melee hit
	s.Seats[1].Life, s.Seats[1].Peril = 2, 4
	s = do(t, s, "Alice", "play a17 on bob melee", nil)
	s = do(t, s, "Alice", "done", dice(6, 1))
	if !s.Seats[1].Out || s.Finished() || len(s.Seats[1].Hand) != 0 {
		t.Fatalf("Bob out %v finished %v", s.Seats[1].Out, s.Finished())
	}
	illegal(t, s, "Alice", "peril bob 2") // a defeated hero gets nothing
	s = do(t, s, "Alice", "peril carol 2", nil)
	s = do(t, s, "Alice", "keep a17 hand", nil)
	s = do(t, s, "Alice", "done", nil)
	s.Seats[0].Hand = append(s.Seats[0].Hand, "a01")
	s = do(t, s, "Alice", "discard a01", nil)
	if s.Current != 2 {
		t.Fatalf("after Alice comes seat %d, want Carol (Bob is out)", s.Current)
	}
	s = do(t, s, "Carol", "done", nil)
	s = do(t, s, "Carol", "done", nil)
	s.Seats[2].Life, s.Seats[2].Peril = 1, 4
	s = do(t, s, "Alice", "play a18 on carol melee", nil)
	s = do(t, s, "Alice", "done", dice(6, 1))
	if !s.Finished() || !slices.Equal(s.Winners(), []string{"Alice"}) {
		t.Fatalf("finished %v winners %v", s.Finished(), s.Winners())
	}
}

// TestChallenge: a hero challenges another in its space once a turn for 1 movement;
// the hero who hits gains Glory.
func TestChallenge(t *testing.T) {
	s := fresh(t, 2)
	s = toHero(t, s)
	illegal(t, s, "Alice", "challenge bob magic")
	illegal(t, s, "Alice", "challenge alice melee")
	s = do(t, s, "Alice", "challenge bob melee", dice(6, 1))
	if s.Seats[1].Life != 5 || s.Seats[0].Glory != 2 || s.Movement != 2 {
		t.Fatalf("life %d glory %d movement %d", s.Seats[1].Life, s.Seats[0].Glory, s.Movement)
	}
	illegal(t, s, "Alice", "challenge bob melee")
	s2 := fresh(t, 2)
	s2.Seats[1].X = 1
	s2 = toHero(t, s2)
	illegal(t, s2, "Alice", "challenge bob melee") // not in her space
}

// TestViewHidesHands: a player's view shows its own hand only; the observer sees no
// hand; no view but the archive's shows the deck order.
func TestViewHidesHands(t *testing.T) {
	a, _ := play(t, 3, 42, 0, botPick)
	states, err := engine.ReplayAll(registry, a, -1)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range states {
		s := st.(*state)
		for _, viewer := range []string{"Alice", "Bob", "Carol", engine.Observer} {
			b, err := json.Marshal(st.View(viewer))
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			if strings.Contains(text, `"complete"`) || strings.Contains(text, `"deck":[`) || strings.Contains(text, `"map_deck":[`) {
				t.Fatalf("state %d: %s sees the complete state or a deck order", i, viewer)
			}
			var v View
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			for seat, p := range v.Players {
				own := strings.EqualFold(s.Seats[seat].Name, viewer)
				if !own && p.Hand != nil {
					t.Fatalf("state %d: %s sees %s's hand", i, viewer, p.Name)
				}
				if own && !slices.Equal(p.Hand, s.Seats[seat].Hand) && len(s.Seats[seat].Hand) > 0 {
					t.Fatalf("state %d: %s does not see its own hand", i, viewer)
				}
				// No card of another's hand appears anywhere else in the view.
				if !own {
					for _, c := range s.Seats[seat].Hand {
						if strings.Contains(text, `"`+c+`"`) {
							t.Fatalf("state %d: %s's view names %s from %s's hand", i, viewer, c, p.Name)
						}
					}
				}
			}
		}
	}
}

// TestDrawMap renders a small map: coordinates, ids, doors and heroes.
func TestDrawMap(t *testing.T) {
	s := fresh(t, 2)
	place(s, "m04", 0, -1, 0)
	s.Seats[1].Y = -1
	got := DrawMap(s.mapCells(), nil)
	want := strings.Join([]string{
		"┌──────  ──────┐",
		"│ m04 0,-1     T",
		"│              3",
		"│ @2           │",
		"└──────  ──────┘",
		"┌──────  ──────┐",
		"  m01 0,0",
		"  tower",
		"│ @1           │",
		"└──────  ──────┘",
	}, "\n") + "\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestSkip: a player whose deadline passed ends its phases and discards its first card.
func TestSkip(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[0].Hand = []string{"a01"}
	got := s.SkipCommands("Alice")
	if !slices.Equal(got, []string{"done", "done", "discard a01"}) {
		t.Fatalf("skip %v", got)
	}
	if s.SkipCommands("Bob") != nil {
		t.Fatal("Bob has nothing pending")
	}
}

// TestHostileCommands: junk from a mail gets a rule error, never a panic, in every
// phase a test game passes through.
func TestHostileCommands(t *testing.T) {
	junk := []string{"", "   ", "build m02 at 99999999999999999999,1 rot 0", "build m02 at 1,2,3 rot 0",
		"build m02 at , rot", "move", "move n e", "play", "play a01 on", "play a01 on bob melee extra",
		"quest", "quest q01 melee magic", "discard", "discard a01 a02", "challenge", "challenge bob",
		"pass now", "done done", strings.Repeat("x", 10000), "plày à01", "# only a comment", "play a01 on bob\x00"}
	a, _ := play(t, 3, 7, 0, botPick)
	states, err := engine.ReplayAll(registry, a, -1)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range states {
		if i%5 != 0 {
			continue
		}
		for _, p := range append(names[:3], "Mallory") {
			for _, cmd := range junk {
				_, err := st.Apply(p, cmd, engine.NewRand(1, 1, nil))
				if err == nil {
					t.Fatalf("state %d: %s %q accepted", i, p, cmd)
				}
				if !errors.Is(err, engine.ErrIllegal) {
					t.Fatalf("state %d: %s %q: %v is not a rule error", i, p, cmd, err)
				}
			}
		}
	}
}
