package smallworld

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/turnmail/turnmail/engine"
)

// Small World Underground (Days of Wonder, 2011) as a variant of the core: its four
// boards, its races (race_*.go of the "underground" pack) and what the rulebook
// (shared/rules/smallworld-underground.it.txt; English reference
// smallworld-underground.en.md) changes in the base game's turn:
//
//   - monsters: two on every monster region at setup (a neutral owner, ownerMonster);
//     they never move nor score and defend like any two tokens;
//   - a face-down pool of places and relics, one per monster region, drawn at setup;
//     conquering a monster region reveals one of them at random (draw "reveal") and
//     puts it face up there;
//   - rivers: an empty river is conquered with one token, which leaves it when
//     conquests end unless an ability keeps water (the board marks rivers as fords);
//   - abyssal chasms are never entered (the core's block);
//   - Black Mountain regions carry a marker adding one to their defence (they play as
//     mountains: the core's mountain piece);
//   - the 4- and 5-player boards, which print no monster or volcano positions, get
//     them at setup by a seeded rule (prepareUnderground).
//
// Its boards, races and powers mix with Small World's (mix, mixing.go);
// docs/underground.md describes the commands and every choice made.
var variantUnderground = newVariant(variant{
	game: "underground", packs: []string{packUnderground}, fs: undergroundFS,
	abilities: "data/underground/races-powers.json", maps: "data/underground/maps",
	parseBoard: parseUndergroundBoard,
	prepare:    prepareUnderground, setup: setupUnderground, rules: undergroundRules,
	afterApply: revealFound,
	mix:        variantBase,
})

// Underground is the Small World Underground engine (game name "underground"). Its
// options are "map" (an Underground or a surface board, or an inline map) and "races"
// (underground, surface or all: mixing.go); its setup fields are those of Game, plus
// "pool".
type Underground struct {
	// v is the variant played (nil: Small World Underground).
	v *variant
}

var (
	_ engine.Game          = Underground{}
	_ engine.OptionChecker = Underground{}
	_ engine.Sampler       = Underground{}
)

func (g Underground) variant() *variant {
	if g.v != nil {
		return g.v
	}
	return variantUnderground
}

// Name implements engine.Game.
func (g Underground) Name() string { return g.variant().game }

// SetupStamp implements engine.SetupStamper: new games record the current rules
// version, as Small World's do (its powers play here too).
func (Underground) SetupStamp() map[string]json.RawMessage { return Game{}.SetupStamp() }

// PlayerRange implements engine.OptionChecker: 2 to 5 players.
func (Underground) PlayerRange() (min, max int) { return 2, 5 }

// SampleOptions implements engine.Sampler: the 5-player board (its monsters and
// volcanoes placed at setup) and a mixed game (both race pools on a surface board)
// besides the default board for the number of players.
func (Underground) SampleOptions() []map[string]json.RawMessage {
	return []map[string]json.RawMessage{
		{"map": json.RawMessage(`"underground-5p"`)},
		{"map": json.RawMessage(`"smallworld-5p"`), "races": json.RawMessage(`"all"`)},
	}
}

// CheckOptions implements engine.OptionChecker: map (an Underground board or a surface
// one) and races=underground|surface|all (mixing.go).
func (g Underground) CheckOptions(opts map[string]json.RawMessage) error {
	if _, err := g.variant().load(); err != nil {
		return fmt.Errorf("%s: %w", g.Name(), err)
	}
	return g.variant().checkOptions(opts)
}

// New implements engine.Game: Small World's setup (six visible combos, five coins)
// on an Underground board, with monsters and the face-down pool.
func (g Underground) New(setup engine.Setup, rng *engine.Rand) (engine.State, error) {
	s, err := g.variant().newState(setup, rng)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// monstersPerRegion is how many monster tokens stand on a monster region (14 in the
// box: at most seven monster regions).
const (
	monstersPerRegion = 2
	maxMonsterRegions = 7
	volcanoChasms     = 2
)

// undergroundSymbols returns the bits of the monster and volcano symbols.
func undergroundSymbols() (monster, volcano uint8) {
	t, err := builtinTerrains()
	if err != nil {
		panic("smallworld: embedded terrains: " + err.Error()) // checked by every board load
	}
	return 1 << t.symbol("monster"), 1 << t.symbol("volcano")
}

// prepareUnderground places monsters and volcanoes on a board that prints none (the
// 4- and 5-player boards; an inline map that marks them is used as it is), by this
// seeded rule (issue 11, from what the 2- and 3-player boards show; a surface board
// gets its monsters by prepareSurface):
//
//   - players + 2 monster regions (at most 7): the land regions are shuffled (draw
//     "monsters"); a first pass takes, in that order, a region of each land terrain
//     not taken yet, a second pass any region; a region bordering a monster region
//     already taken is skipped;
//   - 2 volcano chasms: the chasms are shuffled (draw "volcanoes") and the first two
//     taken.
func prepareUnderground(b *board, players int, rng *engine.Rand) (*board, error) {
	monster, volcano := undergroundSymbols()
	var hasMonster, hasVolcano, hasTribes bool
	var land, chasms []string
	for r := range b.regions {
		hasTribes = hasTribes || b.has(r, symLostTribe)
		hasMonster = hasMonster || b.has(r, monster)
		hasVolcano = hasVolcano || b.has(r, volcano)
		switch {
		case b.blocked[r]:
			chasms = append(chasms, b.ids[r])
		case !b.water[r]:
			land = append(land, b.ids[r])
		}
	}
	if hasMonster && (hasVolcano || len(chasms) == 0) {
		return b, nil
	}
	if hasTribes && !hasMonster {
		return prepareSurface(b, players, rng) // a surface board (mixing.go)
	}
	add := map[int]string{} // region index → symbol
	if !hasMonster {
		order, err := rng.Shuffle("monsters", land)
		if err != nil {
			return nil, fmt.Errorf("place monsters: %w", err)
		}
		want := min(players+2, maxMonsterRegions)
		var taken []int
		terrains := map[string]bool{}
		for pass := range 2 {
			for _, id := range order {
				r := b.index[atoi(id)]
				if len(taken) == want || slices.Contains(taken, r) || (pass == 0 && terrains[b.terrain[r]]) {
					continue
				}
				if slices.ContainsFunc(taken, func(t int) bool { return b.adjSet[r][t] }) {
					continue
				}
				taken = append(taken, r)
				terrains[b.terrain[r]] = true
			}
		}
		if len(taken) < want {
			return nil, fmt.Errorf("map %s: only %d monster regions fit apart, %d wanted; mark them on the map", b.name, len(taken), want)
		}
		for _, r := range taken {
			add[r] = "monster"
		}
	}
	if !hasVolcano && len(chasms) > 0 {
		order, err := rng.Shuffle("volcanoes", chasms)
		if err != nil {
			return nil, fmt.Errorf("place volcanoes: %w", err)
		}
		for _, id := range order[:min(volcanoChasms, len(order))] {
			add[b.index[atoi(id)]] = "volcano"
		}
	}
	return b.withSymbols(add, "")
}

func atoi(id string) int {
	n, _ := strconv.Atoi(id) // board ids are formatted integers
	return n
}

// setupUnderground puts the monsters on their regions and draws the face-down pool:
// the places and relics are shuffled (draw "pool", the setup's "pool" list on top)
// and one per monster region kept; the rest go back to the box unseen.
func setupUnderground(s *state, fixed Fixed, rng *engine.Rand) error {
	monster, _ := undergroundSymbols()
	n := 0
	for r := range s.Regions {
		if s.b.has(r, monster) {
			s.Regions[r] = region{Owner: ownerMonster, Tokens: monstersPerRegion}
			n++
		}
	}
	all := foundNames()
	if len(fixed.Pool) > n {
		return fmt.Errorf("%s: setup pool: %d named, %d monster regions", s.cat.game, len(fixed.Pool), n)
	}
	order, err := s.cat.variant.stack(rng, "pool", all, fixed.Pool)
	if err != nil {
		return err
	}
	s.Pool = slices.Clip(order[:min(n, len(order))])
	slices.Sort(s.Pool)
	return nil
}

// undergroundRules are the variant's rules that act for every army: an empty river
// costs one token, and tokens leave the rivers when conquests end unless an ability
// of the army keeps water (Kraken; Seafaring on mixed games). Tokens of an army
// that held nothing else go to hand, as after losing every region (★ §7.5).
var undergroundRules = &ability{name: "Underground rules", kind: "rules", pack: packUnderground, inDecline: true,
	costTerm: "river",
	cost: func(s *state, _, _, r int) int {
		if s.b.ford[r] && s.Regions[r].Owner == ownerNone {
			return -1 // 2 + nothing − 1: one token
		}
		return 0
	},
	conquestsEnd: func(s *state, p, slot int) {
		for ab := range s.acting(p, slot) {
			if ab.water {
				return
			}
		}
		for r := range s.Regions {
			if s.b.ford[r] && s.owns(r, p, slot) {
				s.tell(-1, engine.HapMove, -1, "%s's conquests are over: the tokens on the river in region %d go back to the hand (%s)", s.names[p], s.b.id(r), nTokens(int(s.Regions[r].Tokens)))
				s.vacate(r)
				s.mark(r)
			}
		}
	},
}

// revealFound turns a place or relic of the pool face up on every monster region a
// player's army conquered by the command (draw "reveal": the pool shuffled, the first
// one taken).
func revealFound(before, after *state, rng *engine.Rand) error {
	for r := range after.Regions {
		if before.Regions[r].Owner != ownerMonster || after.Regions[r].Owner < 0 || len(after.Pool) == 0 {
			continue
		}
		order, err := rng.Shuffle("reveal", after.Pool)
		if err != nil {
			return fmt.Errorf("reveal a place or relic: %w", err)
		}
		i := slices.Index(after.Pool, order[0])
		after.Pool = slices.Delete(slices.Clone(after.Pool), i, i+1)
		after.setPieces(r, foundPiece(order[0]), 1)
		after.toldKinds = append(after.toldKinds, foundPiece(order[0]))
		after.tell(-1, engine.HapOther, -1, "the monster of region %d guarded %#s", after.b.id(r), engine.Term(order[0]))
		if order[0] == "Stonehedge" {
			after.drawStonehedge(r)
		}
	}
	return nil
}
