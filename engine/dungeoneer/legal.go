package dungeoneer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// candidates lists every command that might be legal for seat now; Legal keeps those
// the rules gate accepts, so Legal and Apply agree by construction.
func (s *state) candidates(seat int) []string {
	h := &s.Seats[seat]
	var out []string
	switch s.Phase {
	case phLord:
		own := slices.Clone(h.Hand)
		for _, m := range h.Pack {
			own = append(own, m.ID)
		}
		for _, id := range own {
			a := cards.adv[id]
			for _, t := range s.alive() {
				if t == seat {
					continue
				}
				cmd := fmt.Sprintf("play %s on %s", id, s.targetOf(t))
				if a.Kind != kMonster {
					out = append(out, cmd)
					continue
				}
				for _, f := range stdForms(&a.Monster) {
					out = append(out, cmd+" "+f)
				}
			}
		}
		out = append(out, "done")
	case phRespond:
		out = append(s.responses(seat), "pass")
	case phCounter:
		for _, f := range s.hero(seat).Standard {
			out = append(out, "challenge "+f)
		}
		out = append(out, "pass")
	case phGuard:
		for _, f := range stdForms(monsterOf(s.Guard.Card)) {
			out = append(out, "attack "+f)
		}
		out = append(out, "attack")
	case phSpoils:
		for _, id := range s.Unhurt {
			out = append(out, "keep "+id+" hand", "keep "+id+" pack")
		}
		for _, m := range h.Pack {
			out = append(out, "discard "+m.ID)
		}
		for i := range s.n() {
			t := (seat + 1 + i) % s.n() // the next players first, the lord last
			for k := 1; k <= s.PerilOwed; k++ {
				out = append(out, fmt.Sprintf("peril %s %d", s.targetOf(t), k))
			}
		}
	case phBuild, phPlace:
		for _, pl := range placements(s.Grid, s.Drawn) {
			out = append(out, pl.command(s.Drawn))
		}
	case phLayout:
		for _, sp := range s.layoutSpots(seat) {
			out = append(out, sp.pl.command(sp.id))
		}
	case phHero:
		for _, side := range sideNames {
			out = append(out, "move "+side)
		}
		out = append(out, "explore", "stand", "sewer", "portal")
		for _, q := range append(slices.Clone(h.Quests), s.Global) {
			out = append(out, "quest "+q)
			for _, f := range forms {
				out = append(out, "quest "+q+" "+f)
			}
			if c := cards.quest[q]; c != nil && c.Chance != nil {
				for n := 1; n < c.Chance.V; n++ {
					out = append(out, fmt.Sprintf("quest %s %d", q, n))
				}
			}
		}
		for _, it := range s.Items {
			out = append(out, "take "+it.Quest)
		}
		if h.Carrying != "" {
			out = append(out, "put "+h.Carrying)
		}
		if m := s.mapMonster(seat); m != "" {
			for _, f := range forms {
				out = append(out, fmt.Sprintf("challenge %s %s", m, f))
			}
		}
		for _, id := range h.Hand {
			out = append(out, "play "+id)
			for _, t := range h.Treasures {
				out = append(out, fmt.Sprintf("play %s on %s", id, t))
			}
		}
		for _, t := range s.alive() {
			for _, f := range forms {
				out = append(out, fmt.Sprintf("challenge %s %s", s.targetOf(t), f), fmt.Sprintf("steal %s %s", s.targetOf(t), f))
			}
		}
		for _, q := range h.Quests {
			out = append(out, "drop "+q)
		}
		out = append(out, "done")
	case phDiscard:
		for _, id := range slices.Concat(h.Hand, h.Treasures) {
			out = append(out, "discard "+id)
		}
		for _, m := range h.Pack {
			out = append(out, "discard "+m.ID)
		}
		out = append(out, "done") // with an empty hand the discard is not due (mayDiscard)
	}
	return append(out, s.anytime(seat)...)
}

// anytime lists the commands seat may give at any moment, in or out of turn: "always"
// Favors (in the own hero phase and in a response window they are played there),
// "always" Banes (in the own Dungeon Lord phase they are played there), an activated
// hero ability and the activations of ready cards.
func (s *state) anytime(seat int) []string {
	h := &s.Seats[seat]
	if s.Phase == phOver || s.Phase == phLayout || h.Out {
		return nil // the game has not begun, or is over for seat
	}
	var out []string
	if !(s.Phase == phHero && seat == s.Current) && !(s.Phase == phRespond && slices.Contains(s.Responders, seat)) {
		for _, id := range h.Hand {
			if a := cards.adv[id]; a.Kind == kFavor && a.Use == useAlways {
				out = append(out, "play "+id)
			}
		}
	}
	if s.hero(seat).Activated {
		out = append(out, "ability")
	}
	out = append(out, s.alwaysBanes(seat)...)
	out = append(out, s.activatable(seat)...)
	return append(out, s.outOfTurnCommands(seat)...)
}

// Legal implements engine.State: the commands player may give now. The placements
// of a map card on one space that differ only in rotation are one entry, a choice:
// "build m02 at 0,-1 rot <0,180>".
func (s *state) Legal(player string) []string {
	return groupRotations(s.concrete(player))
}

// groupRotations folds consecutive "build CARD at X,Y rot R" entries for the same
// card and space into one choice of rotations; other entries stay as they are.
func groupRotations(cmds []string) []string {
	var out []string
	last := "" // the "build CARD at X,Y rot " prefix of the last entry, if one
	for _, c := range cmds {
		i := strings.LastIndex(c, " rot ")
		if !strings.HasPrefix(c, "build ") || i < 0 {
			out, last = append(out, c), ""
			continue
		}
		prefix, rot := c[:i+len(" rot ")], c[i+len(" rot "):]
		if prefix != last {
			out, last = append(out, c), prefix
			continue
		}
		prev := strings.TrimSuffix(strings.TrimPrefix(out[len(out)-1][len(prefix):], "<"), ">")
		out[len(out)-1] = prefix + "<" + prev + "," + rot + ">"
	}
	return out
}

// concrete lists the commands player may give now, each one command as typed.
func (s *state) concrete(player string) []string {
	seat := s.seat(player)
	if seat < 0 || s.Phase == phOver {
		return nil
	}
	cands := s.anytime(seat)
	if slices.Contains(s.ToAct(), s.Seats[seat].Name) {
		cands = s.candidates(seat)
	}
	var out []string
	for _, c := range cands {
		if s.do(seat, c, nil) == nil && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// SkipCommands implements engine.Skipper: what a player whose deadline passed does —
// no Encounters, no response, the first legal placement, the end of the hero phase,
// the first card discarded, a quest or map monster's attack left to the game — until
// the player has nothing pending.
func (s *state) SkipCommands(player string) []string {
	var out []string
	cur := s
	for range 64 {
		legal := cur.concrete(player)
		if len(legal) == 0 {
			break
		}
		if !slices.Contains(cur.ToAct(), player) {
			break // only out-of-turn commands are left: the player has nothing pending
		}
		cmd := legal[0]
		switch {
		case cur.Phase == phDiscard && slices.Contains(legal, "done"):
			cmd = "done" // an optional discard is not made
		case cur.Phase == phLord, cur.Phase == phHero:
			cmd = "done"
		case cur.Phase == phRespond, cur.Phase == phCounter:
			cmd = "pass"
		case cur.Phase == phGuard:
			cmd = "attack"
		}
		out = append(out, cmd)
		// Draws on the way (the next map card, a reshuffle) use a throwaway source; the
		// service applies the commands with the real one.
		next, err := cur.Apply(player, cmd, engine.NewRand(0, 0, nil))
		if err != nil {
			break
		}
		cur = next.(*state)
	}
	return out
}

// commandWords are the verbs of every command the game accepts.
var commandWords = []string{"play", "done", "pass", "challenge", "steal", "keep", "discard", "peril",
	"build", "move", "explore", "stand", "sewer", "portal", "quest", "drop", "ability", "use", "take", "put", "attack"}

// Words implements engine.Worder: the first word of every command.
func (Game) Words() []string { return slices.Clone(commandWords) }
