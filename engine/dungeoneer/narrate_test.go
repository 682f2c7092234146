package dungeoneer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// said is a happening as a test reads it: the text in English, and whom it hit.
func said(hs []engine.Happening) []string {
	var out []string
	for _, h := range hs {
		line := fmt.Sprintf(h.Text.Key, h.Text.Args...)
		if len(h.Hit) > 0 {
			line += " [hit " + strings.Join(h.Hit, ",") + "]"
		}
		out = append(out, h.Kind+": "+line)
	}
	return out
}

// ogre is the setup of an Ogre Jailer (a13) played by Alice on Bob, whose hero has
// life, and resolved with the rolls.
func ogre(life int, rolls ...int) func(t *testing.T) (*state, string, string, *engine.Rand) {
	return func(t *testing.T) (*state, string, string, *engine.Rand) {
		s := fresh(t, 3)
		s.Seats[0].Hand = []string{"a13"}
		s.Seats[1].Peril, s.Seats[1].Life = 3, life
		return do(t, s, "Alice", "play a13 on bob melee", nil), "Alice", "done", dice(rolls...)
	}
}

// TestNarrate: the account of a command says what it did, dice and wounds included,
// in order, and marks the hero it harmed.
func TestNarrate(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) (*state, string, string, *engine.Rand)
		want  []string
	}{
		{"failed trapped door", func(t *testing.T) (*state, string, string, *engine.Rand) {
			s := fresh(t, 2)
			place(s, "m04", 0, -1, 0) // Bone Hall: e trapped 3
			place(s, "m06", 1, -1, 0)
			s.Seats[0].X, s.Seats[0].Y = 0, -1
			s.startTurn(0)
			s.Seats[0].Banes = []string{"a33"} // Speed 1
			return toHero(t, s), "Alice", "move e", dice(1)
		}, []string{
			"move: Alice moves east",
			"other: Alice tries the trapped door (value 3)",
			"other: Alice rolls 1: speed 2 against 3, failure",
			"loss: Alice takes 1 wounds, 5 life left [hit Alice]",
			"move: Alice enters Crossing of Echoes at 1,-1",
			"other: Alice gains 1 Peril, first in this space this turn",
		}},
		{"monster hits", ogre(6, 4, 4), []string{
			"other: Alice ends the lord phase",
			"other: Ogre Jailer attacks Bob with melee: 7 against 6",
			"loss: Bob takes 1 wounds, 5 life left [hit Bob]",
		}},
		{"hero counters", ogre(6, 1, 6), []string{
			"other: Alice ends the lord phase",
			"other: Ogre Jailer attacks Bob with melee: 4 against 8",
			"loss: Ogre Jailer takes 1 wounds",
			"other: Bob gains 1 Glory for the wounds dealt",
		}},
		{"random discard, named", func(t *testing.T) (*state, string, string, *engine.Rand) {
			s := fresh(t, 3)
			s.Seats[0].Hand = []string{"a15"} // Cultist Adept: a Magic hit, 1 wound and a random discard
			s.Seats[1].Peril, s.Seats[1].Hand = 3, []string{"a01"}
			return do(t, s, "Alice", "play a15 on bob magic", nil), "Alice", "done", dice(6, 1)
		}, []string{
			"other: Alice ends the lord phase",
			"other: Cultist Adept attacks Bob with magic: 9 against 2",
			"loss: Bob takes 1 wounds, 5 life left [hit Bob]",
			"loss: Bob discards Tunnel Rat Swarm at random [hit Bob]",
		}},
		{"monster played", func(t *testing.T) (*state, string, string, *engine.Rand) {
			s := fresh(t, 3)
			s.Seats[0].Hand = []string{"a13"}
			s.Seats[1].Peril = 3
			return s, "Alice", "play a13 on bob melee", nil
		}, []string{"card: Alice plays Ogre Jailer on Bob"}},
		{"quest and level", func(t *testing.T) (*state, string, string, *engine.Rand) {
			s := fresh(t, 2)
			place(s, "m17", 0, -1, 180) // Library of Ash; q05 Magic 5+
			s.Seats[0].Y, s.Seats[0].Quests = -1, []string{"q05", "q09"}
			s.startTurn(0)
			return toHero(t, s), "Alice", "quest q05", dice(6)
		}, []string{
			"other: Alice attempts the quest The Ash Codex",
			"other: Alice rolls 6: magic 8 against 5, success",
			"score: Alice completes the quest The Ash Codex",
			"score: Alice reaches level 2",
			"other: Alice stayed in Library of Ash: 2 Glory and 2 Peril",
		}},
		{"defeated", ogre(1, 6, 1), []string{
			"other: Alice ends the lord phase",
			"other: Ogre Jailer attacks Bob with melee: 9 against 3",
			"loss: Bob takes 1 wounds, 0 life left [hit Bob]",
			"loss: Bob is defeated and leaves the game [hit Bob]",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, player, cmd, rng := tt.setup(t)
			after := do(t, before, player, cmd, rng)
			got := said(engine.Narrate(before, player, cmd, after, ""))
			if !slices.Equal(got, tt.want) {
				t.Fatalf("account of %q:\n%s\nwant:\n%s", cmd, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestNarrateHidesHands plays whole games and checks, for every command and every
// other reader, that the account never names a card that stays in a hand (by id, or
// by a name no card in play shares).
func TestNarrateHidesHands(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		for seed := int64(1); seed <= 3; seed++ {
			a, _ := play(t, n, seed, 0, botPick)
			states, err := engine.ReplayAll(registry, a, -1)
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range a.Events {
				before, after := states[i].(*state), states[i+1].(*state)
				for o, h := range after.Seats {
					hidden := hiddenNames(before, after, o, e.Command)
					for _, viewer := range append(slices.Clone(names[:n]), engine.Observer) {
						if viewer == h.Name {
							continue
						}
						for _, line := range said(engine.Narrate(before, e.Player, e.Command, after, viewer)) {
							for _, w := range hidden {
								if strings.Contains(line, w) {
									t.Fatalf("seed %d event %d (%s %q): %s reads %q, naming %s in %s's hand", seed, i+1, e.Player, e.Command, viewer, line, w, h.Name)
								}
							}
						}
					}
				}
			}
		}
	}
}

// hiddenNames are the ids and names of the cards in seat's hand before and after a
// command, leaving out names that a card in play, in a pack or on the discard pile
// shares (a copy of the card), that a card leaving a hand (played, discarded face
// up) shares, or that a card the command names shares (a card discarded face up and
// drawn again after a reshuffle, in the same command).
func hiddenNames(before, after *state, seat int, command string) []string {
	public := map[string]bool{}
	for _, w := range strings.Fields(command) {
		if a := cards.adv[w]; a != nil {
			public[a.Name.En] = true
		}
	}
	for _, s := range []*state{before, after} {
		ids := slices.Clone(s.Discard)
		for _, p := range s.Pending {
			ids = append(ids, p.Card)
		}
		ids = append(ids, s.Unhurt...)
		for i, h := range s.Seats {
			ids = slices.Concat(ids, h.Favors, h.Treasures, h.Banes)
			for _, id := range before.Seats[i].Hand {
				if !slices.Contains(after.Seats[i].Hand, id) {
					ids = append(ids, id) // played or discarded: face up
				}
			}
			for _, m := range h.Pack {
				ids = append(ids, m.ID)
			}
		}
		for _, id := range ids {
			public[cards.adv[id].Name.En] = true
		}
	}
	var out []string
	for _, id := range before.Seats[seat].Hand {
		if !slices.Contains(after.Seats[seat].Hand, id) {
			continue
		}
		out = append(out, id)
		if name := cards.adv[id].Name.En; !public[name] {
			out = append(out, name)
		}
	}
	return out
}

// TestNarrate_placerNamed: over whole games, with the map built as the heroes explore
// and laid out before play (view), every map card placed is told with the player
// who placed it, the sender of the build ("Alice places Bone Hall at 0,-1"), once;
// the account said "Bone Hall is placed at 0,-1", whoever placed it.
func TestNarrate_placerNamed(t *testing.T) {
	builds := map[string]int{}
	for _, c := range []struct {
		name    string
		options map[string]json.RawMessage
	}{{"explore", nil}, {"view", inView}} {
		for seed := int64(1); seed <= 2; seed++ {
			a, _ := playWith(t, 2+int(seed)%3, seed, c.options, 0, botPick)
			states, err := engine.ReplayAll(registry, a, -1)
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range a.Events {
				if !strings.HasPrefix(e.Command, "build ") {
					continue
				}
				builds[c.name]++
				var placed []string
				for _, h := range engine.Narrate(states[i], e.Player, e.Command, states[i+1], "") {
					if h.Kind == engine.HapBuild && h.Text.Key == "%s places %s at %d,%d" {
						placed = append(placed, fmt.Sprint(h.Text.Args[0]))
					}
				}
				if !slices.Equal(placed, []string{e.Player}) {
					t.Errorf("%s seed %d event %d: %s's %q tells the placers %v", c.name, seed, i+1, e.Player, e.Command, placed)
				}
			}
		}
	}
	if builds["explore"] == 0 || builds["view"] == 0 {
		t.Fatalf("the games built %v map cards", builds)
	}
}
