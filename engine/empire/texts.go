package empire

import (
	"github.com/turnmail/turnmail/engine"
)

// text is a player-visible text of this engine other than a rule error: a note on a
// Legal entry, what a card gives, a line of a score sheet, a phase's name. Its format
// is a key of the empire message catalogue (i18n/catalog/LANG/empire.json), whose
// test reads the formats of every call of text, as it reads those of engine.Illegal.
func text(format string, args ...any) engine.Text { return engine.Textf(format, args...) }

// Neutral is the name of the neutral armies of a two-player game, in commands ("destroy
// neutral 3") and in the view (armies, controllers). It is no player's name.
const Neutral = neutralName

// who is the name of seat as a text argument: a player's name as it is, the neutral
// armies as the term "neutral" (translated, where a player's name never is).
func (s *state) who(seat int) any {
	if seat == s.n() {
		return engine.Term(neutralName)
	}
	return s.name(seat)
}

// phaseTexts name the phases ("Turn 3 — play phase").
var phaseTexts = map[string]engine.Text{
	phSettle:  text("settle phase"),
	phNeutral: text("neutral phase"),
	phBid:     text("bid phase"),
	phFirst:   text("choice of the first player"),
	phPlay:    text("play phase"),
	phBonus:   text("%s's extra card", engine.Term(leaderNames[leaderFairyQueen])),
	phOver:    text("the game is over"),
}

// PhaseText names a phase of the view (View.Phase: "settle", "bid", "play" …) for a
// reader; an unknown phase is named as it is.
func PhaseText(phase string) engine.Text {
	if t, ok := phaseTexts[phase]; ok {
		return t
	}
	return engine.Textf("%s", phase)
}

// CardTexts returns what the card with id gives (a row card's View id): its ability
// and its action, and whether there is such a card.
func CardTexts(id string) (ability, action engine.Text, ok bool) {
	d, err := embedded()
	if err != nil {
		return engine.Text{}, engine.Text{}, false
	}
	for _, c := range d.cards.Cards {
		if c.ID == id {
			ability, action = c.texts()
			return ability, action, true
		}
	}
	return engine.Text{}, engine.Text{}, false
}

// partText is one action of a card: "place 3", "move 4" …
func partText(kind string, count int) engine.Text {
	switch kind {
	case acPlace:
		return text("%d armies to place", count)
	case acMove:
		return text("%d movement points", count)
	case acCity:
		return text("%d cities to build", count)
	case acDestroy:
		return text("%d armies to destroy", count)
	}
	return engine.Textf("%s %d", kind, count)
}

// ActionText says what is left of the action under way (View.Action): the part being
// carried out with what is left of it, then the parts after it ("place 3 (2 left),
// then destroy 1"), or the two actions of an "or" card not yet chosen ("place 3 or
// move 4").
func ActionText(a ActionView) engine.Text {
	var out engine.Text
	for i, st := range a.Steps {
		part := partText(st.Kind, st.Count)
		if st.Left != nil {
			part = text("%s (%d left)", part, *st.Left)
		}
		switch {
		case i == 0:
			out = part
		case a.Choose:
			out = text("%s or %s", out, part)
		default:
			out = text("%s, then %s", out, part)
		}
	}
	return out
}
