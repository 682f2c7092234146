package smallworld

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Necromancer is the engine of the Necromancer Island scenario for Small World
// (shared/rules/smallworld-necromancer-island.it.txt), for 3 to 6 players on the
// base game's boards, races and powers: one player, the last in turn order (to the
// right of the first), is the Necromancer, who plays Ghosts from an Island on the
// central lake, fed by the souls of the tokens lost in conquests. docs/necromancer.md
// describes the commands and every judgement call.
//
// Options: "difficulty" 0 (default), 1 or 2 removes that many Ghosts from the
// Necromancer's reserve. Setup fields are those of Small World (Fixed): the
// Necromancer draws his six powers from the top of the power stack.
type Necromancer struct{}

var (
	_ engine.Game          = Necromancer{}
	_ engine.OptionChecker = Necromancer{}
	_ engine.Sampler       = Necromancer{}
)

// Numbers of the scenario.
const (
	packNecromancer = "necromancer"
	ghostsInReserve = 13 // beside the one on the Island
	necroDraw       = 6  // powers drawn by the Necromancer
	soulsPerGhost   = 4  // tokens in the Well per Ghost summoned
	maxDifficulty   = 2
)

// necroRedraw are the powers the Necromancer may not draw: «Se vengono pescati i
// Poteri Cursed, Spirit o Stout, questi devono essere ignorati e bisogna pescare altri
// Poteri Speciali al loro posto» (Cursed is not in the base box). Under the rules of
// the archives recorded before rulesText, Diplomat was re-drawn too (necroRedraw0).
var (
	necroRedraw  = []string{"Cursed", "Spirit", "Stout"}
	necroRedraw0 = []string{"Spirit", "Stout", nameDiplomat}
)

// variantNecromancer is Necromancer Island: the base game's data, the board for one
// player fewer, and the Necromancer's setup.
var variantNecromancer = newVariant(variant{
	game: "necromancer", packs: []string{packBase, packNecromancer}, fs: dataFS,
	abilities: "data/races-powers.json", maps: "data/maps", parseBoard: parseBoard,
	players:      [2]int{3, 6},
	boardFor:     func(n int) int { return n - 1 },
	prepareState: prepareNecromancer,
})

//go:embed data/necromancer.json
var necroIslandsJSON []byte

// necroIslands maps a board's name to the id of its central lake
// (data/necromancer.json).
var necroIslands = func() map[string]int {
	var d struct {
		Source  string `json:"source"`
		Islands []struct {
			Map  string `json:"map"`
			Lake int    `json:"lake"`
		} `json:"islands"`
	}
	dec := json.NewDecoder(bytes.NewReader(necroIslandsJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		panic("necromancer: embedded data: " + err.Error())
	}
	out := map[string]int{}
	for _, x := range d.Islands {
		out[x.Map] = x.Lake
	}
	return out
}()

// Name implements engine.Game.
func (Necromancer) Name() string { return variantNecromancer.game }

// PlayerRange implements engine.OptionChecker: 3 to 6 players.
func (Necromancer) PlayerRange() (min, max int) { return 3, 6 }

// SetupStamp implements engine.SetupStamper: new games record the current rules
// version, as Small World's do (its races and powers play here).
func (Necromancer) SetupStamp() map[string]json.RawMessage { return Game{}.SetupStamp() }

// CheckOptions implements engine.OptionChecker: the one option is difficulty.
func (Necromancer) CheckOptions(opts map[string]json.RawMessage) error {
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if k != "difficulty" {
			return fmt.Errorf("necromancer has no option %q (its option: difficulty=0|1|2, the Ghosts removed from the Necromancer's reserve)", k)
		}
	}
	_, err := necroDifficulty(opts)
	return err
}

// SampleOptions implements engine.Sampler: the hardest game besides the default.
func (Necromancer) SampleOptions() []map[string]json.RawMessage {
	return []map[string]json.RawMessage{{"difficulty": json.RawMessage("2")}}
}

// necroDifficulty reads the difficulty option (a number or a quoted number).
func necroDifficulty(opts map[string]json.RawMessage) (int, error) {
	raw, ok := opts["difficulty"]
	if !ok {
		return 0, nil
	}
	t := strings.Trim(string(bytes.TrimSpace(raw)), `"`)
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 || n > maxDifficulty {
		return 0, fmt.Errorf("difficulty=%s: use difficulty=0, 1 or 2 (Ghosts removed from the Necromancer's reserve)", t)
	}
	return n, nil
}

// New implements engine.Game: Small World's setup on the board for one player fewer,
// then the Necromancer's (prepareNecromancer), then the offer. «Il Necromante sceglie
// 1 dei 6 Poteri e lo posiziona, insieme al Pozzo, vicino al tabellone. […] La
// preparazione del gioco prosegue come da regolamento»: he keeps his power before
// the first turn (keep N), which begins once he has (under rulesOriginal and
// rulesCorrected he kept it on his own first turn).
func (Necromancer) New(setup engine.Setup, rng *engine.Rand) (engine.State, error) {
	s, err := variantNecromancer.newState(setup, rng)
	if err != nil {
		return nil, err
	}
	if n := s.Scn.(*necroState); s.rules >= rulesText {
		n.Choosing = true
		s.Cur, s.T = int(n.P), turnInfo{Die: -1}
	}
	return s, nil
}

// prepareNecromancer sets the Necromancer up: the last player in turn order (to the
// right of the first) gets the Ghosts army, the Island with one Ghost on the central
// lake, 13 Ghosts in reserve less the difficulty, and the first six badges of the
// shuffled power stack that he may draw (those re-drawn stay in the stack, in order).
func prepareNecromancer(s *state, opts map[string]json.RawMessage) error {
	diff, err := necroDifficulty(opts)
	if err != nil {
		return err
	}
	id, ok := necroIslands[s.b.name]
	if !ok {
		return fmt.Errorf("board %s has no central lake for the Island (only the printed boards do)", s.b.name)
	}
	lake, ok := s.b.index[id]
	if !ok || s.b.terrain[lake] != Lake {
		return fmt.Errorf("board %s: region %d is not a lake", s.b.name, id)
	}
	n := &necroState{P: int8(len(s.Players) - 1), Lake: int16(lake), Reserve: ghostsInReserve - diff}
	redraw := necroRedraw
	if s.rules < rulesText {
		redraw = necroRedraw0
	}
	var rest []string
	for _, pw := range s.Powers {
		if len(n.Spare) < necroDraw && !slices.Contains(redraw, pw) {
			n.Spare = append(n.Spare, pw)
		} else {
			rest = append(rest, pw)
		}
	}
	if len(n.Spare) < necroDraw {
		return fmt.Errorf("only %d powers the Necromancer may draw", len(n.Spare))
	}
	s.Powers = rest
	s.Players[n.P].Armies[slotActive] = newArmy(nameGhosts, "", 0)
	s.Regions[lake] = region{Owner: n.P, Slot: slotActive, Tokens: 1}
	s.setPieces(lake, island, 1)
	s.Scn = n
	return nil
}
