package smallworld

import (
	"slices"
	"strconv"

	"github.com/turnmail/turnmail/engine"
)

// Magic (Magici, Small World Underground §4.6): «La Sacca delle meraviglie duplica una
// Reliquia in gioco; ogni turno decidi quale e utilizzi la Sacca delle meraviglie per
// rappresentarla. La Sacca delle meraviglie non può essere sottratta. Se la Regione
// contenente la Sacca delle meraviglie è conquistata o abbandonata, riprendi in mano la
// Sacca delle meraviglie.» Each turn `bag RELIC` chooses a relic on the map to copy
// (★ §7.18). A relic that conquers (sword, socks, doormat, orb) is copied where it is
// used, independently of the original (its own once per turn), and nothing moves.
// Under rulesText the Bag copies the Scepter and the Ring too, which work where they
// stand: `bag R` puts the Bag in region R of the race (it ends the conquests), where it
// doubles the region's coins or takes a coin from each neighbour at the end of the
// turn; a conquest or abandon of that region puts it back in its owner's hand. (Under
// the rules before, only the four relics that conquer were copied.)
const nameMagic = "Magic"

var (
	magic = &ability{name: nameMagic, kind: kindPower, pack: packUnderground, needs: []string{featRelics}, vars: []*varKind{bagCopy},
		pieces: []*pieceKind{bagPiece}, bonus: bagBonus,
		verbs: []*verb{{name: "bag", rank: rankConquer - 15, apply: applyBag, legal: legalBag, notes: notesBag}}}
	// bagCopy is the relic the Bag copies this turn: 1 + its index in bagRelics.
	bagCopy = &varKind{name: "bag", turn: true}
	// bagPiece is the Bag of Wonders standing for the Scepter or the Ring in a region
	// of its race (rulesText); it leaves the map when the region is conquered or
	// abandoned, and when the race declines.
	bagPiece = &pieceKind{name: "bag_of_wonders", order: 83, flag: true, box: 1}
)

func init() { register(magic) }

// bagRelics are the verbs of the relics the Bag can copy: those that conquer, and the
// two that work where they stand (rulesText).
var bagRelics = []string{"sword", "socks", "doormat", "orb", "scepter", "ring"}

// bagPlaced maps the relics the Bag copies where it stands to their pieces.
var bagPlaced = map[string]string{"scepter": "scepter_of_avarice", "ring": "froggys_ring"}

func bagIndex(verb string) int { return slices.Index(bagRelics, verb) + 1 }

// bagCopying returns the relic the Bag copies this turn ("" for none).
func (s *state) bagCopying() string {
	if i := s.T.get(bagCopy); i > 0 {
		return bagRelics[i-1]
	}
	return ""
}

// bagChoices lists the relics on the map the Bag may copy.
func (s *state) bagChoices() []string {
	var out []string
	for _, rc := range relicConquests {
		if rc.piece != "" && s.onMap(pieceNamed(rc.piece), -1) > 0 {
			out = append(out, rc.verb)
		}
	}
	if s.rules >= rulesText {
		for _, v := range []string{"scepter", "ring"} {
			if s.onMap(pieceNamed(bagPlaced[v]), -1) > 0 {
				out = append(out, v)
			}
		}
	}
	return out
}

// bagBonus is what the Bag standing for the Scepter or the Ring brings at the end of
// its race's turn.
func bagBonus(s *state, p, slot int) int {
	if slot != slotActive {
		return 0
	}
	for _, r := range s.held(p, slot) {
		if s.pieces(r, bagPiece) == 0 {
			continue
		}
		switch s.bagCopying() {
		case "scepter":
			return scepterRegion(s, r)
		case "ring":
			return ringRegion(s, p, r)
		}
	}
	return 0
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
	if !s.ownTurn(p) || !s.has(p, nameMagic) {
		return out
	}
	if bagPlaced[s.bagCopying()] != "" {
		for _, r := range s.kept(p) {
			if s.pieces(r, bagPiece) == 0 {
				out = append(out, "bag "+s.b.ids[r])
			}
		}
		return out
	}
	if s.T.Closed || s.T.get(bagCopy) != 0 {
		return out
	}
	for _, c := range s.bagChoices() {
		out = append(out, "bag "+c)
	}
	return out
}

func applyBag(s *state, p int, args []string, _ *engine.Rand) error {
	if len(args) == 1 && s.rules >= rulesText {
		if _, err := strconv.Atoi(args[0]); err == nil {
			return s.placeBag(p, args[0])
		}
	}
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

// placeBag puts the Bag, standing for the Scepter or the Ring this turn, in region id
// of player p's active race: bag R (it ends the conquests).
func (s *state) placeBag(p int, id string) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if err := s.needActive(p); err != nil {
		return err
	}
	if bagPlaced[s.bagCopying()] == "" {
		return engine.Illegal("the Bag of Wonders goes into a region when it copies the Scepter or the Ring: say %s or %s first", engine.Command("bag scepter"), engine.Command("bag ring"))
	}
	r, err := s.regionIndex(id)
	if err != nil {
		return err
	}
	if why := s.keptReason(p, r); why.Key != "" {
		return engine.Illegal("%s", why)
	}
	if s.pieces(r, bagPiece) > 0 {
		return engine.Illegal("it is in region %d already", s.b.id(r))
	}
	s.closeConquests()
	s.moveFlag(bagPiece, r)
	return nil
}

// notesBag notes where the Bag may go when it stands for the Scepter or the Ring.
func notesBag(s *state, p int, notes map[string]engine.Text) {
	piece := bagPlaced[s.bagCopying()]
	if piece == "" {
		return
	}
	for _, r := range s.kept(p) {
		notes["bag "+s.b.ids[r]] = text("%s here, as %s", engine.Term("Bag of Wonders"), engine.Term(foundNameOf(piece)))
	}
}

// foundNameOf returns the English name of the place or relic whose piece is named
// piece.
func foundNameOf(piece string) string {
	for _, f := range foundPieces {
		if f.kind.name == piece {
			return f.name
		}
	}
	return piece
}
