package dungeoneer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestSetup: heroes at level 1 with 6 life, Glory and Peril 1, hands of five, two
// personal quests each and one global, the Entrance with four passages, everyone on it.
func TestSetup(t *testing.T) {
	for n := 2; n <= 4; n++ {
		setup := engine.Setup{Game: "dungeoneer", Seed: int64(n), Players: []engine.Player{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}[:n]}
		st, err := Game{}.New(setup, engine.NewRand(int64(n), 0, nil))
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		for i, h := range s.Seats {
			glory := 1
			if i == 0 {
				glory += s.passive(0, opGloryStart) // the first start phase is over
			}
			if h.Level != 1 || h.Life != 6 || h.Glory != glory || h.Peril != 1 || len(h.Hand) != 5 || len(h.Quests) != 2 || h.X != 0 || h.Y != 0 {
				t.Fatalf("%d players: seat %+v", n, h)
			}
		}
		if s.Global == "" || len(s.Grid) != 5 || s.Grid[0].ID != "m01" || s.Phase != phLord {
			t.Fatalf("%d players: global %q, grid %v, phase %s", n, s.Global, s.Grid, s.Phase)
		}
		for i, p := range s.Grid[1:] {
			if cards.mapc[p.ID].Type != "passage" || p.X != dx[i] || p.Y != dy[i] {
				t.Fatalf("%v is not a passage beside the Entrance", p)
			}
			if _, ok := passable(s.Grid, 0, i); !ok {
				t.Fatalf("the passage %s does not open onto the Entrance", p.ID)
			}
		}
	}
}

// TestInitiative: the highest roll starts, ties among the highest roll again.
func TestInitiative(t *testing.T) {
	setup := engine.Setup{Game: "dungeoneer", Players: []engine.Player{{Name: "A"}, {Name: "B"}, {Name: "C"}}}
	out := engine.Outcomes{"initiative": json.RawMessage("5"), "initiative.2": json.RawMessage("6"), "initiative.3": json.RawMessage("6"),
		"initiative.4": json.RawMessage("2"), "initiative.5": json.RawMessage("4")}
	st, err := Game{}.New(setup, engine.NewRand(0, 0, out))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	if got := []string{s.Seats[0].Name, s.Seats[1].Name, s.Seats[2].Name}; !slices.Equal(got, []string{"C", "A", "B"}) {
		t.Fatalf("turn order %v, want C (won the reroll) A B", got)
	}
}

// TestStartPhase: movement from Speed and abilities, doors reset, upkeep paid or the
// Favor returns to the hand.
func TestStartPhase(t *testing.T) {
	s := fresh(t, 2)
	if s.Movement != 3 {
		t.Fatalf("Tamsin has %d movement, want Speed 2 + 1", s.Movement)
	}
	s.Seats[1].Favors = []string{"a45", "a47"} // Battle Trance (upkeep 1), Arcane Focus
	s.Seats[1].Glory = 0
	s.Opened = []string{"0,0,n"}
	s.Seats[0].Hand = []string{"a01"}
	s = toHero(t, s)
	s = do(t, s, "Alice", "done", nil)
	s = do(t, s, "Alice", "discard "+s.Seats[0].Hand[0], nil)
	if s.Current != 1 || s.Phase != phLord || len(s.Opened) != 0 {
		t.Fatalf("current %d phase %s opened %v", s.Current, s.Phase, s.Opened)
	}
	b := s.Seats[1]
	if !slices.Equal(b.Favors, []string{"a47"}) || !slices.Contains(b.Hand, "a45") {
		t.Fatalf("unpaid upkeep: favors %v hand %v", b.Favors, b.Hand)
	}
	// Paid when there is Glory.
	s.Seats[0].Favors, s.Seats[0].Glory = []string{"a45"}, 2
	s.startTurn(0)
	if s.Seats[0].Glory != 1 || !slices.Equal(s.Seats[0].Favors, []string{"a45"}) {
		t.Fatalf("upkeep: glory %d favors %v", s.Seats[0].Glory, s.Seats[0].Favors)
	}
}

// TestMonsterAttack covers the Dungeon Lord phase: Peril spent, the attack, the reward
// capped by the life left, and where the monster goes.
func TestMonsterAttack(t *testing.T) {
	tests := []struct {
		name                                   string
		rolls                                  []int
		life                                   int
		wantLife, wantPeril, wantGlory, inPack int
		inHand                                 bool
	}{
		// Ogre Jailer (Melee 3) against Tamsin (Melee 2).
		{"monster hits", []int{4, 4}, 6, 5, 1, 1, 0, true},
		{"hero counters", []int{1, 6}, 6, 6, 0, 2, 1, false},
		{"tie", []int{3, 4}, 6, 6, 0, 1, 0, true},
		{"reward capped by life", []int{6, 1}, 1, 0, 0, 1, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fresh(t, 3)
			s.Seats[0].Hand = []string{"a13"}
			s.Seats[1].Peril, s.Seats[1].Life = 3, tt.life
			s = do(t, s, "Alice", "play a13 on bob melee", nil)
			if s.Seats[1].Peril != 0 {
				t.Fatalf("Peril %d after paying 3", s.Seats[1].Peril)
			}
			s = do(t, s, "Alice", "done", dice(tt.rolls...))
			// The Dungeon Lord gives the Peril (here to the wounded hero) and keeps an
			// unhurt monster in hand.
			if s.PerilOwed > 0 && !s.Seats[1].Out {
				s = do(t, s, "Alice", fmt.Sprintf("peril bob %d", s.PerilOwed), nil)
			}
			if s.PerilOwed > 0 { // capped by the life Bob had: 1
				s = do(t, s, "Alice", fmt.Sprintf("peril carol %d", s.PerilOwed), nil)
			}
			if slices.Contains(s.Unhurt, "a13") {
				s = do(t, s, "Alice", "keep a13 hand", nil)
			}
			b := s.Seats[1]
			if b.Life != tt.wantLife || b.Peril != tt.wantPeril || b.Glory != tt.wantGlory {
				t.Fatalf("life %d peril %d glory %d, want %d %d %d", b.Life, b.Peril, b.Glory, tt.wantLife, tt.wantPeril, tt.wantGlory)
			}
			if len(s.Seats[0].Pack) != tt.inPack || slices.Contains(s.Seats[0].Hand, "a13") != tt.inHand {
				t.Fatalf("pack %v hand %v", s.Seats[0].Pack, s.Seats[0].Hand)
			}
			if tt.wantLife == 0 && (!b.Out || !s.Finished() || !slices.Equal(s.Winners(), []string{"Alice"})) {
				// Three players: Carol is still in, so the game goes on.
				if !b.Out || s.Finished() {
					t.Fatalf("Bob out %v, finished %v", b.Out, s.Finished())
				}
			}
		})
	}
}

// TestLordRules: no own Peril, no Peril pooled, only standard attacks, the pack.
func TestLordRules(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[0].Hand = []string{"a13", "a01", "a29"}
	s.Seats[1].Peril = 2
	illegal(t, s, "Alice", "play a13 on alice melee") // own Peril
	illegal(t, s, "Alice", "play a13 on bob melee")   // costs 3
	illegal(t, s, "Alice", "play a01 on bob speed")   // Rat Swarm: Speed is only a counter-attack
	illegal(t, s, "Alice", "play a51 on bob")         // not in hand
	illegal(t, s, "Bob", "done")                      // not Bob's turn
	s = do(t, s, "Alice", "play a29 on bob", nil)
	s = do(t, s, "Alice", "play a01 on bob melee", nil)
	illegal(t, s, "Alice", "play a13 on bob melee") // Peril is spent
	// A wounded monster goes to the pack; over three, the Dungeon Lord discards one of
	// her choice ("scegli tu quali scartare").
	s.Seats[0].Pack = []PackMonster{{"a04", 0}, {"a05", 0}, {"a06", 0}}
	s.returnMonster(0, Pending{Card: "a13", Target: 1, Form: melee, Wounds: 1})
	s.settle()
	if len(s.Seats[0].Pack) != 4 || s.Phase != phSpoils {
		t.Fatalf("pack %v phase %s", s.Seats[0].Pack, s.Phase)
	}
	s = do(t, s, "Alice", "discard a05", nil)
	if len(s.Seats[0].Pack) != 3 || !slices.Contains(s.Discard, "a05") || s.Phase == phSpoils {
		t.Fatalf("pack %v discard %v phase %s", s.Seats[0].Pack, s.Discard, s.Phase)
	}
	// A pack monster is played like one from the hand.
	s2 := fresh(t, 2)
	s2.Seats[0].Pack = []PackMonster{{"a09", 1}}
	s2.Seats[1].Peril = 2
	s2 = do(t, s2, "Alice", "play a09 on bob melee", nil)
	s2 = do(t, s2, "Alice", "done", dice(1, 6))
	if !slices.Contains(s2.Discard, "a09") || s2.Seats[1].Glory != 2 {
		t.Fatalf("the Ghoul with 1 wound and 2 life should be slain: discard %v glory %d", s2.Discard, s2.Seats[1].Glory)
	}
}

// TestResponse: a target able to respond is asked, with pass legal; a cancel Favor
// cancels; a ward adds to the defense.
func TestResponse(t *testing.T) {
	s := fresh(t, 2)
	s.Seats[0].Hand = []string{"a13", "a29"}
	s.Seats[1].Peril, s.Seats[1].Glory = 4, 3
	s.Seats[1].Hand = []string{"a39", "a41"}      // Sidestep, Steel Nerves
	s = do(t, s, "Alice", "play a29 on bob", nil) // a Bane: its own response window
	if s.Phase != phRespond || !slices.Contains(expanded(s.Legal("Bob")), "play a39 a29") {
		t.Fatalf("phase %s, Bob's legal %v", s.Phase, expanded(s.Legal("Bob")))
	}
	s = do(t, s, "Bob", "pass", nil)
	if s.Phase != phLord || s.Seats[1].Glory != 2 {
		t.Fatalf("Creeping Dread: phase %s glory %d", s.Phase, s.Seats[1].Glory)
	}
	s = do(t, s, "Alice", "play a13 on bob melee", nil)
	s = do(t, s, "Alice", "done", nil)
	if s.Phase != phRespond || !slices.Equal(s.ToAct(), []string{"Bob"}) {
		t.Fatalf("phase %s to act %v", s.Phase, s.ToAct())
	}
	legal := expanded(s.Legal("Bob"))
	for _, want := range []string{"pass", "play a39 a13", "play a41"} {
		if !slices.Contains(legal, want) {
			t.Fatalf("%q not in %v", want, legal)
		}
	}
	if len(expanded(s.Legal("Alice"))) != 0 {
		t.Fatal("Alice may act while Bob responds")
	}
	s = do(t, s, "Bob", "play a39 a13", nil)
	if s.Phase != phRespond || !slices.Equal(s.Legal("Bob"), []string{"pass"}) {
		t.Fatalf("after the cancel Bob is asked until he passes: phase %s, legal %v", s.Phase, s.Legal("Bob"))
	}
	s = do(t, s, "Bob", "pass", nil)
	b := s.Seats[1]
	if s.Phase != phHero || b.Life != 6 || b.Glory != 0 || !slices.Contains(s.Discard, "a13") {
		t.Fatalf("after the cancel: phase %s life %d glory %d", s.Phase, b.Life, b.Glory)
	}
	// Ward: Steel Nerves +2 turns a lost defense into a tie.
	s = fresh(t, 2)
	s.Seats[0].Hand = []string{"a13"}
	s.Seats[1].Peril, s.Seats[1].Glory, s.Seats[1].Hand = 3, 1, []string{"a41"}
	s = do(t, s, "Alice", "play a13 on bob melee", nil)
	s = do(t, s, "Alice", "done", nil)
	rng := dice(3, 2)
	s = do(t, s, "Bob", "play a41", rng)
	s = do(t, s, "Bob", "pass", rng) // 3+3 against 2+2+2
	s = do(t, s, "Alice", "keep a13 pack", nil)
	if s.Seats[1].Life != 6 || s.Phase != phHero || s.Seats[0].Pack[0].ID != "a13" {
		t.Fatalf("ward: life %d phase %s", s.Seats[1].Life, s.Phase)
	}
}

// TestTrapAndBanes: a trap strikes everyone in the target's space, with the risk
// modifier; a permanent Bane lowers a score; Lost in the Dark sends back.
func TestTrapAndBanes(t *testing.T) {
	s := fresh(t, 3)
	place(s, "m13", 0, -1, 180) // Idol Chamber, risk +1; its trapped north door faces the Entrance
	for i := 1; i < 3; i++ {
		s.Seats[i].X, s.Seats[i].Y, s.Seats[i].Peril = 0, -1, 5
	}
	s.Seats[0].Hand = []string{"a21", "a33", "a35"}
	s = do(t, s, "Alice", "play a21 on bob", nil)   // Swinging Blade: Speed 4+ (5 with the risk)
	s = do(t, s, "Alice", "done", dice(2, 3))       // Bob 2+2 < 5, Carol 3+2 = 5
	s = do(t, s, "Alice", "play a33 on carol", nil) // Banes after the Encounters
	s = do(t, s, "Alice", "play a35 on bob", nil)
	b, c := s.Seats[1], s.Seats[2]
	if b.Life != 5 || c.Life != 6 {
		t.Fatalf("trap: Bob %d life, Carol %d", b.Life, c.Life)
	}
	if s.stat(2, speed) != 1 || !slices.Equal(c.Banes, []string{"a33"}) {
		t.Fatalf("Lich's Gaze: Carol's Speed %d banes %v", s.stat(2, speed), c.Banes)
	}
	if b.X != 0 || b.Y != 0 {
		t.Fatalf("Lost in the Dark: Bob at %d,%d", b.X, b.Y)
	}
}

// TestDoors: open, wall, nothing placed, trapped (wound on failure), locked (movement
// lost on failure, the threshold), opened doors stay open for the turn; walls block
// both ways.
func TestDoors(t *testing.T) {
	s := fresh(t, 2)
	place(s, "m04", 0, -1, 0) // Bone Hall: n open, e trapped 3, s open, w wall
	place(s, "m06", 1, -1, 0) // all open
	place(s, "m07", 0, -2, 0) // Narrow Ledge: n open, e wall, s locked 3 (rot 0); pit 3
	s = toHero(t, s)
	illegal(t, s, "Alice", "move e") // nothing placed east of the Entrance
	s = do(t, s, "Alice", "move n", nil)
	if s.Movement != 2 || s.Seats[0].Glory != 2 || s.Seats[0].Peril != 2 {
		t.Fatalf("open door: movement %d glory %d peril %d", s.Movement, s.Seats[0].Glory, s.Seats[0].Peril)
	}
	illegal(t, s, "Alice", "move w")         // wall
	s = do(t, s, "Alice", "move e", dice(1)) // trapped 3: 1+2 = 3 succeeds
	if s.Seats[0].Life != 6 || s.Seats[0].X != 1 {
		t.Fatalf("trapped door passed: life %d x %d", s.Seats[0].Life, s.Seats[0].X)
	}
	s = do(t, s, "Alice", "move w", nil) // m06's west is open; m04's east door is not crossed this way
	if s.Seats[0].X != 0 || s.Seats[0].Glory != 2 {
		t.Fatalf("back in the Bone Hall: x %d glory %d (no points twice a turn)", s.Seats[0].X, s.Seats[0].Glory)
	}
	// A failed trapped door wounds but opens; the next crossing this turn is free.
	s2 := fresh(t, 2)
	place(s2, "m04", 0, -1, 0)
	place(s2, "m06", 1, -1, 0)
	s2.Seats[0].X, s2.Seats[0].Y = 0, -1
	s2.startTurn(0)
	s2.Seats[0].Banes = []string{"a33"} // Speed 1
	s2 = toHero(t, s2)
	s2 = do(t, s2, "Alice", "move e", dice(1))
	if s2.Seats[0].Life != 5 || s2.Seats[0].X != 1 || !slices.Contains(s2.Opened, "0,-1,e") {
		t.Fatalf("failed trapped door: life %d x %d opened %v", s2.Seats[0].Life, s2.Seats[0].X, s2.Opened)
	}
	s2 = do(t, s2, "Alice", "move w", nil)
	s2 = do(t, s2, "Alice", "move e", dice()) // no roll: dictating none would fail if one were drawn
	if s2.Seats[0].Life != 5 {
		t.Fatal("an opened door was rolled again")
	}
	// A failed locked door costs a movement; with none left the hero stays on the threshold.
	s3 := fresh(t, 2)
	place(s3, "m07", 0, -1, 180) // locked 3 now faces north, open faces the Entrance
	place(s3, "m06", 0, -2, 0)
	s3.Seats[0].X, s3.Seats[0].Y = 0, -1
	s3.startTurn(0)
	s3.Seats[0].Banes = []string{"a33"}
	s3 = toHero(t, s3)
	s3.Movement = 1
	s3 = do(t, s3, "Alice", "move n", dice(1))
	if s3.Seats[0].Y != -1 || s3.Movement != 0 || !slices.Contains(s3.Opened, "0,-1,n") {
		t.Fatalf("locked door failed: y %d movement %d opened %v", s3.Seats[0].Y, s3.Movement, s3.Opened)
	}
	// "ora sei «sulla soglia», il che significa che la Porta si considera Aperta in
	// entrambe le direzioni e per chiunque, finché non hai a disposizione 1 Movimento
	// per spostarti nello spazio adiacente durante il tuo turno successivo": Bob crosses
	// it in his turn without a roll, Alice in her next turn; then it is locked again.
	s3.Seats[1].X, s3.Seats[1].Y = 0, -1
	s3 = do(t, s3, "Alice", "done", nil)
	s3 = do(t, s3, "Bob", "done", nil)
	if !slices.Contains(s3.Opened, "0,-1,n") || !slices.Contains(s3.Opened, "0,-2,s") {
		t.Fatalf("Bob's turn: opened %v, want the threshold's door both ways", s3.Opened)
	}
	s3 = do(t, s3, "Bob", "move n", dice()) // no roll
	s3 = do(t, s3, "Bob", "done", nil)
	s3 = do(t, s3, "Alice", "done", nil)
	if !slices.Contains(s3.Opened, "0,-1,n") {
		t.Fatalf("Alice's next turn: opened %v", s3.Opened)
	}
	s3 = do(t, s3, "Alice", "done", nil)
	s3 = do(t, s3, "Alice", "discard "+s3.Seats[0].Hand[0], nil)
	s3 = do(t, s3, "Bob", "done", nil)
	if slices.Contains(s3.Opened, "0,-1,n") || s3.Seats[0].Threshold != nil {
		t.Fatalf("after Alice's next turn: opened %v threshold %v", s3.Opened, s3.Seats[0].Threshold)
	}
	// Walls block both ways: m04 west is a wall, so from its west neighbour east is shut.
	s4 := fresh(t, 2)
	place(s4, "m04", 0, -1, 0)
	place(s4, "m06", -1, -1, 0)
	s4.Seats[0].X, s4.Seats[0].Y = -1, -1
	s4.startTurn(0)
	s4 = toHero(t, s4)
	illegal(t, s4, "Alice", "move e")
}

// TestObstacles: pit (knocked down, stand for 1), spikes (wound), sewer, portal,
// on-enter effects.
func TestObstacles(t *testing.T) {
	s := fresh(t, 2)
	place(s, "m16", 0, -1, 0) // Bottomless Well, pit 4, its open south door towards the Entrance
	s = toHero(t, s)
	if _, ok := passable(s.Grid, 0, north); !ok {
		t.Fatalf("test map: the well does not open onto the Entrance")
	}
	s = do(t, s, "Alice", "move n", dice(1)) // 1+2 < 4
	if !s.Seats[0].Prone {
		t.Fatal("not knocked down by the pit")
	}
	illegal(t, s, "Alice", "move s")
	s = do(t, s, "Alice", "stand", nil)
	if s.Seats[0].Prone || s.Movement != 1 {
		t.Fatalf("stand: prone %v movement %d", s.Seats[0].Prone, s.Movement)
	}
	// Spikes.
	s = fresh(t, 2)
	place(s, "m11", 0, -1, 90) // Hall of Spikes rotated so its open west door faces south
	s = toHero(t, s)
	s = do(t, s, "Alice", "move n", dice(1))
	if s.Seats[0].Life != 5 {
		t.Fatalf("spikes: life %d", s.Seats[0].Life)
	}
	// Sewer A: Rat Run to Flooded Crypt for 1 movement; portal back to the Entrance.
	s = fresh(t, 2)
	place(s, "m05", 0, -1, 0)
	place(s, "m12", 0, -2, 180)
	place(s, "m15", 0, 1, 0)
	s = toHero(t, s)
	illegal(t, s, "Alice", "sewer")
	s = do(t, s, "Alice", "move n", nil)
	s = do(t, s, "Alice", "sewer", nil)
	if s.Seats[0].Y != -2 || s.Movement != 1 {
		t.Fatalf("sewer: y %d movement %d", s.Seats[0].Y, s.Movement)
	}
	s2 := fresh(t, 2)
	place(s2, "m15", 0, 1, 0)
	s2.Seats[0].Y = 1
	s2.startTurn(0)
	s2 = toHero(t, s2)
	s2 = do(t, s2, "Alice", "portal", nil)
	if s2.Seats[0].Y != 0 {
		t.Fatal("portal does not lead to the Entrance")
	}
	// Shrine: heal on entering.
	s3 := fresh(t, 2)
	place(s3, "m14", 0, -1, 270)
	s3.Seats[0].Life = 3
	s3 = toHero(t, s3)
	s3 = do(t, s3, "Alice", "move n", nil)
	if s3.Seats[0].Life != 4 {
		t.Fatalf("shrine: life %d", s3.Seats[0].Life)
	}
}

// TestBuild: the build phase places the drawn card where the rules allow; explore
// costs 1 movement and places another.
func TestBuild(t *testing.T) {
	s := fresh(t, 2)
	s.MapDeck = []string{"m02", "m17"}
	s = do(t, s, "Alice", "done", nil)
	if s.Phase != phBuild || s.Drawn != "m02" {
		t.Fatalf("phase %s drawn %s", s.Phase, s.Drawn)
	}
	legal := expanded(s.Legal("Alice"))
	if !slices.Contains(legal, "build m02 at 0,-1 rot 0") || slices.Contains(legal, "build m02 at 0,-1 rot 90") {
		t.Fatalf("m02 (open n/s, walls e/w) placements %v", legal)
	}
	illegal(t, s, "Alice", "build m02 at 2,2 rot 0")   // not next to the map
	illegal(t, s, "Alice", "build m02 at 0,-1 rot 45") // not aligned
	illegal(t, s, "Alice", "build m17 at 0,-1 rot 0")  // not the drawn card
	s = do(t, s, "Alice", "build m02 at 0,-1 rot 0", nil)
	if s.Phase != phHero {
		t.Fatalf("phase %s after building", s.Phase)
	}
	s = do(t, s, "Alice", "explore", nil)
	if s.Phase != phPlace || s.Drawn != "m17" || s.Movement != 2 {
		t.Fatalf("explore: phase %s drawn %s movement %d", s.Phase, s.Drawn, s.Movement)
	}
	for _, c := range expanded(s.Legal("Alice")) {
		f := strings.Fields(c)
		if f[3] == "1,0" || f[3] == "-1,0" || f[3] == "0,1" {
			t.Fatalf("a room is placed next to the Entrance while other places exist: %s", c)
		}
	}
	s = do(t, s, "Alice", expanded(s.Legal("Alice"))[0], nil)
	if s.Phase != phHero || len(s.Grid) != 3 {
		t.Fatal("explored card not placed")
	}
	illegal(t, s, "Alice", "explore") // map deck empty
}

// TestPlacementNeverClosed: a card that would leave no open door is refused; a card
// joined only through a wall is refused.
func TestPlacementNeverClosed(t *testing.T) {
	// The Entrance with walls all round but south: the only spot is 0,1, and the
	// Flooded Crypt (one door) there would close the map.
	grid := []Placed{{ID: "m01"}, {ID: "m12", X: 0, Y: -1, Rot: 180}, {ID: "m12", X: 1, Y: 0, Rot: 270}, {ID: "m12", X: -1, Y: 0, Rot: 90}}
	if got := placements(grid, "m12"); len(got) != 0 {
		t.Fatalf("the Flooded Crypt closing the map is allowed: %v", got)
	}
	if got := placements(grid, "m02"); !slices.Contains(got, placement{0, 1, 0}) {
		t.Fatalf("a passage continuing the map is refused: %v", got)
	}
	for _, pl := range placements(grid, "m02") {
		if pl.Rot == 90 || pl.Rot == 270 {
			t.Fatalf("m02 joined through its walls: %v", pl)
		}
	}
}

// TestCanPlace: checking one spot agrees with the list of placements, on every map of
// whole games (the map explored and the map in view), for every card not on it, every
// cell around it and every turn (and one that is no quarter turn).
func TestCanPlace(t *testing.T) {
	for _, options := range []map[string]json.RawMessage{nil, inView} {
		a, _ := playWith(t, 3, 3, options, 0, botPick)
		states, err := engine.ReplayAll(registry, a, -1)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, st := range states {
			grid := st.(*state).Grid
			for _, m := range cards.Maps {
				if cellAt(grid, 0, 0) >= 0 && slices.ContainsFunc(grid, func(p Placed) bool { return p.ID == m.ID }) {
					continue
				}
				want := placements(grid, m.ID)
				for _, p := range grid {
					for side := range 4 {
						for _, rot := range []int{0, 90, 180, 270, 45} {
							pl := placement{p.X + dx[side], p.Y + dy[side], rot}
							if got := canPlace(grid, m.ID, pl); got != slices.Contains(want, pl) {
								t.Fatalf("%s at %v on %v: canPlace %v, placements %v", m.ID, pl, grid, got, want)
							}
							checked++
						}
					}
				}
			}
		}
		if checked < 1000 {
			t.Fatalf("only %d spots checked", checked)
		}
	}
}
