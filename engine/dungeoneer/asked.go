package dungeoneer

import (
	"github.com/turnmail/turnmail/engine"
)

var _ engine.Asker = (*state)(nil)

// Asked implements engine.Asker for a player asked out of turn: a hero the Dungeon
// Lord's cards strike may respond (otherwise they pass), and the player to the left
// chooses how a quest or map monster attacks (otherwise the game chooses).
func (s *state) Asked(player string) (why, otherwise engine.Text) {
	seat := s.seat(player)
	if seat < 0 || !s.Responding(player) {
		return engine.Text{}, engine.Text{}
	}
	if s.Phase == phGuard && s.Guard != nil {
		m := monsterOf(s.Guard.Card)
		form := s.bestForm(m, s.Current)
		return text("you choose how the monster of %s attacks %s", cardName(s.Guard.Card), s.Seats[s.Current].Name),
			engine.Textf("the game chooses %s, the greatest lead over the hero's score", formWord(form))
	}
	var names []engine.Text
	for _, p := range s.Pending {
		if s.strikes(p, seat) && !p.Cancelled {
			names = append(names, engine.Textf("%s", engine.Term(cards.adv[p.Card].Name.En)))
		}
	}
	lord := s.Seats[s.Current].Name
	switch len(names) {
	case 0:
		why = text("%s's cards may strike you: respond, or pass", lord)
	case 1:
		why = text("%s plays %s against you: respond, or pass", lord, names[0])
	default:
		why = text("%s plays %s against you: respond, or pass", lord, andList(names))
	}
	return why, text("you pass")
}

// andList joins texts as a sentence lists them: "a, b and c" ("a, b e c").
func andList(ts []engine.Text) engine.Text {
	if len(ts) == 0 {
		return engine.Text{}
	}
	list := ts[0]
	for i, t := range ts[1:] {
		if i == len(ts)-2 {
			list = engine.Textf("%s and %s", list, t)
		} else {
			list = engine.Textf("%s, %s", list, t)
		}
	}
	return list
}

// cardName names a quest or map card by its term.
func cardName(id string) engine.Text {
	if q := cards.quest[id]; q != nil {
		return engine.Textf("%s", engine.Term(q.Name.En))
	}
	if m := cards.mapc[id]; m != nil {
		return engine.Textf("%s", engine.Term(m.Name.En))
	}
	return engine.Textf("%s", id)
}
