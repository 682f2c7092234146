package dungeoneer

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Responding implements engine.Responder: in the respond step of the Dungeon Lord
// phase the targets who can respond are asked (play a response or always Favor, use a
// ready card's defense, or pass); in the guard step the player to the left is asked
// how a quest or map monster attacks.
func (s *state) Responding(player string) bool {
	return (s.Phase == phRespond || s.Phase == phGuard) && slices.Contains(s.ToAct(), player)
}

// AnyTime implements engine.AnyTimer: the special actions of any moment among
// player's Legal commands (always Favors, the hero's activated ability, ready cards to
// use), except those that are responses in the respond step player is asked in.
func (s *state) AnyTime(player string) []string {
	seat := s.seat(player)
	if seat < 0 {
		return nil
	}
	var asked []string
	if s.Responding(player) && s.Phase == phRespond {
		asked = s.responses(seat)
	}
	var out []string
	for _, c := range s.Legal(player) {
		if slices.Contains(s.anytime(seat), c) && !slices.Contains(asked, c) {
			out = append(out, c)
		}
	}
	return out
}

// Notes implements engine.Noter: in the guard step, what attack alone chooses; out of
// turn, what a special action costs and which monster it challenges; in the hero
// phase, where each move leads.
func (s *state) Notes(player string) map[string]engine.Text {
	seat := s.seat(player)
	if seat < 0 || s.Phase == phOver {
		return nil
	}
	notes := map[string]engine.Text{}
	if s.Phase == phGuard && s.Responding(player) {
		form := s.bestForm(monsterOf(s.Guard.Card), s.guardHero())
		notes["attack"] = engine.Textf("the game chooses %s, the greatest lead over the hero's score", formWord(form))
	}
	legal := s.Legal(player)
	s.outOfTurnNotes(seat, legal, notes)
	if s.Phase == phHero && seat == s.Current {
		s.moveNotes(seat, legal, notes)
	}
	if seat == s.Current && s.Phase == phLord && s.LordStep == "after" && s.fightOpen() {
		notes["done"] = engine.Textf("ends the phase: the monsters that attacked leave")
	}
	if len(notes) == 0 {
		return nil
	}
	return notes
}

// moveNotes notes where each move of legal leads the hero of seat: the direction
// and the map card on that side (Legal lists a move only where there is a way).
func (s *state) moveNotes(seat int, legal []string, notes map[string]engine.Text) {
	i := s.cell(seat)
	if i < 0 {
		return
	}
	for side, name := range sideNames {
		cmd := "move " + name
		if j, open := passable(s.Grid, i, side); open && slices.Contains(legal, cmd) {
			notes[cmd] = engine.Textf("%s, to %s", engine.Term(directions[name]), engine.Term(cards.mapc[s.Grid[j].ID].Name.En))
		}
	}
}
