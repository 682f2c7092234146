package smallworld

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Magic (Magici, Small World Underground §4.6): the Bag of Wonders copies a Relic on
// the map (★ §7.18), chosen each turn with `bag RELIC` (sword, socks, doormat, orb);
// the copy is used as the relic is, independently of the original (its own once per
// turn), and nothing moves. The Bag is kept by the player, never on the map, so it
// cannot be taken. (The Scepter and the Ring, which work by their position, are not
// copied.)
const nameMagic = "Magic"

var (
	magic = &ability{name: nameMagic, kind: kindPower, pack: packUnderground, needs: []string{featRelics}, vars: []*varKind{bagCopy},
		verbs: []*verb{{name: "bag", rank: rankConquer - 15, apply: applyBag, legal: legalBag}}}
	// bagCopy is the relic the Bag copies this turn: 1 + its index in bagRelics.
	bagCopy = &varKind{name: "bag", turn: true}
)

func init() { register(magic) }

// bagRelics are the verbs of the relics the Bag can copy.
var bagRelics = []string{"sword", "socks", "doormat", "orb"}

func bagIndex(verb string) int { return slices.Index(bagRelics, verb) + 1 }

// bagChoices lists the relics on the map the Bag may copy.
func (s *state) bagChoices() []string {
	var out []string
	for _, rc := range relicConquests {
		if rc.piece != "" && s.onMap(pieceNamed(rc.piece), -1) > 0 {
			out = append(out, rc.verb)
		}
	}
	return out
}

// wordList lists command words as one text argument, each in the reader's words:
// "sword, orb" ("spada, globo").
func wordList(words []string) engine.Text {
	ts := make([]engine.Text, len(words))
	for i, w := range words {
		ts[i] = engine.Textf("%s", engine.Command(w))
	}
	return joinTexts("%s, %s", ts)
}

func legalBag(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || s.T.Closed || s.T.get(bagCopy) != 0 || !s.has(p, nameMagic) {
		return out
	}
	for _, c := range s.bagChoices() {
		out = append(out, "bag "+c)
	}
	return out
}

func applyBag(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needConquests(p); err != nil {
		return err
	}
	choices := s.bagChoices()
	if len(choices) == 0 {
		return engine.Illegal("the Bag of Wonders copies a relic on the map, and none is there")
	}
	if err := wantArgs(args, 1, syntax("bag RELIC", reason("one on the map: %s", wordList(choices)))); err != nil {
		return err
	}
	switch {
	case s.T.get(bagCopy) != 0:
		return engine.Illegal("the Bag of Wonders copies %s this turn already", engine.Command(bagRelics[s.T.get(bagCopy)-1]))
	case !slices.Contains(choices, args[0]):
		return engine.Illegal("the Bag of Wonders copies a relic on the map: %s", wordList(choices))
	}
	s.T.set(bagCopy, bagIndex(args[0]))
	s.tell(-1, engine.HapOther, -1, "%s's Bag of Wonders copies %#s for this turn", s.names[p], engine.Term(relicNamed(args[0])))
	return nil
}

// relicNamed is the name of the relic a command word names ("sword").
func relicNamed(verb string) string {
	for _, rc := range relicConquests {
		if rc.verb == verb {
			return rc.name
		}
	}
	return verb
}
