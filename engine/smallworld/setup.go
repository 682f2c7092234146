// Package smallworld is the rules engine of Small World (Days of Wonder, 2009): the
// four printed boards, 14 races and 20 special powers of the base game, following the
// rulebook in shared/rules/smallworld.ro.txt. docs/smallworld.md describes the command
// language and every judgement call.
//
// The package is the engine of the Small World family (Small World Underground and
// Necromancer Island are to be variants of it). It is one package in two layers:
//
//   - The core owns the turn: combos, conquest, losses, decline, scoring,
//     redeployment, the end (state.go, conquest.go, turn.go, commands.go, legal.go,
//     view.go), the registry of abilities, piece kinds and variables (ability.go,
//     pieces.go) and the terrain data with its equivalences (map.go,
//     data/terrains.json), and the variants (variant.go: a game of the family is
//     its content packs, data files and board validation; Small World is
//     variantBase). Its rules name no race or power (a few messages still do: the
//     Berserk die, Seafaring, Diplomat, Ghouls).
//   - Content: every race and power is an ability, defined in one place — an entry
//     of its pack's table (races_base.go, powers_base.go) or a file of its own
//     (race_halflings.go, power_dragonmaster.go) — with its hooks, the piece kinds
//     and variables it keeps, and its own commands; its numbers are its line in
//     data/races-powers.json, looked up by name.
//
// Content stays in the core's package rather than in sub-packages because its hooks
// work on the unexported state (regions, armies, the turn): sub-packages would need
// that whole state exported, and a variant package would import the content packages
// while they import the core. Registration by name from init functions keeps each
// ability in its own file or table entry all the same.
package smallworld

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Game is the Small World engine. The zero value is ready to use.
//
// Options: "map" is the name of a printed board ("smallworld-2p" … "smallworld-5p",
// by default the one for the number of players) or an inline map object in the data
// format of MapData. Other options are ignored.
//
// Setup fields (the archive's "setup"): "seed", and optional "races" / "powers" lists
// that fix the top of the race and power stacks in that order; the rest of each stack
// is shuffled from the seed (draws named "races" and "powers"); "rules", the rules
// version (see rulesCorrected): new games record the current one (SetupStamp), an
// archive without it replays under the rules it was played by.
type Game struct{}

var _ engine.Game = Game{}

// Name implements engine.Game.
func (Game) Name() string { return variantBase.game }

// Fixed is the game-specific part of the archive's "setup" object.
type Fixed struct {
	Seed   int64    `json:"seed"`
	Races  []string `json:"races,omitempty"`
	Powers []string `json:"powers,omitempty"`
	// Pool fixes the first places and relics drawn into Small World Underground's
	// face-down pool (draw "pool").
	Pool []string `json:"pool,omitempty"`
	// Rules is the rules version the game is played under (see currentRules).
	Rules int `json:"rules,omitempty"`
}

// Rules versions. A correction that changes what recorded commands produce gets a
// version: games record theirs in the setup and replay under it.
const (
	// rulesOriginal is the rules of the archives recorded before versions (no "rules").
	rulesOriginal = 0
	// rulesCorrected: encampments lost in an attack are re-placed at the end of the
	// attacker's turn (Bivouacking); the two heroes are placed at the end of every
	// turn of their owner, automatically when the player did not (Heroic).
	rulesCorrected = 1
	// rulesText follows the rulebooks' text where the engine had made calls that the
	// text contradicts (issue 21): Underground's Tomb gets its last redeployment in the
	// turn of the decline, the Crypt's conqueror takes Lara's Ghost off the map into
	// his control; Necromancer Island re-draws only Spirit and Stout (and Cursed), the
	// Necromancer keeps his power during the setup, and declined Elves leaving the map
	// at a later decline feed the box, not the Soul Well.
	rulesText = 2
	// currentRules is the version new games get.
	currentRules = rulesText
)

// SetupStamp implements engine.SetupStamper: new games record the current rules
// version.
func (Game) SetupStamp() map[string]json.RawMessage {
	return map[string]json.RawMessage{"rules": json.RawMessage(fmt.Sprint(currentRules))}
}

// Maps lists the names of the printed boards.
func Maps() []string { return variantBase.mapNames() }

// mapNames lists the names of the variant's boards.
func (v *variant) mapNames() []string {
	c := v.catalogue()
	names := make([]string, 0, len(c.boards))
	for n := range c.boards {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// chooseBoard resolves the "map" option.
func (v *variant) chooseBoard(opts map[string]json.RawMessage, players int) (*board, error) {
	c := v.catalogue()
	raw, ok := opts["map"]
	if !ok || len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		name, ok := c.byPlayers[players]
		if !ok {
			return nil, fmt.Errorf("%s: no board for %d players (2–5)", v.game, players)
		}
		return c.boards[name], nil
	}
	var name string
	if err := json.Unmarshal(raw, &name); err == nil {
		b, ok := c.boards[name]
		if !ok {
			return nil, fmt.Errorf("%s: unknown map %q (known: %s)", v.game, name, strings.Join(v.mapNames(), ", "))
		}
		return b, nil
	}
	b, err := v.parseBoard(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: inline map: %w", v.game, err)
	}
	return b, nil
}

// New implements engine.Game: banners and badges are shuffled (the fixed prefixes on
// top), five combos plus the top of the stacks form the offer, lost tribes go on their
// regions, every player gets five coins, and the first player starts turn 1.
func (Game) New(setup engine.Setup, rng *engine.Rand) (engine.State, error) {
	s, err := variantBase.newState(setup, rng)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// newState is New for the variant.
func (v *variant) newState(setup engine.Setup, rng *engine.Rand) (*state, error) {
	n := len(setup.Players)
	lo, hi := (Game{}).PlayerRange()
	if v.players != [2]int{} {
		lo, hi = v.players[0], v.players[1]
	}
	if n < lo || n > hi {
		return nil, fmt.Errorf("%s: %d players; the game is for %d to %d", v.game, n, lo, hi)
	}
	if _, err := v.load(); err != nil {
		return nil, fmt.Errorf("%s: %w", v.game, err)
	}
	boardFor := n
	if v.boardFor != nil {
		boardFor = v.boardFor(n)
	}
	var fixed Fixed
	if len(setup.Fixed) > 0 {
		dec := json.NewDecoder(bytes.NewReader(setup.Fixed))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&fixed); err != nil {
			return nil, fmt.Errorf("%s: setup: %w", v.game, err)
		}
	}
	b, err := v.chooseBoard(setup.Options, boardFor)
	if err != nil {
		return nil, err
	}
	b = b.forRules(fixed.Rules)
	if v.prepare != nil {
		if b, err = v.prepare(b, n, rng); err != nil {
			return nil, err
		}
	}
	if len(fixed.Pool) > 0 && v.setup == nil {
		return nil, fmt.Errorf("%s: setup: the game has no places or relics to fix", v.game)
	}
	if fixed.Rules < rulesOriginal || fixed.Rules > currentRules {
		return nil, fmt.Errorf("%s: setup rules %d: this engine knows rules versions %d to %d", v.game, fixed.Rules, rulesOriginal, currentRules)
	}
	cat := v.catalogue()
	raceNames, powerNames, err := v.pools(cat, b, setup.Options)
	if err != nil {
		return nil, err
	}
	races, err := v.stack(rng, "races", raceNames, fixed.Races)
	if err != nil {
		return nil, err
	}
	powers, err := v.stack(rng, "powers", powerNames, fixed.Powers)
	if err != nil {
		return nil, err
	}
	s := &state{b: b, cat: cat, rules: fixed.Rules, Races: races, Powers: powers, TurnNo: 1}
	for _, pl := range setup.Players {
		s.Players = append(s.Players, player{Coins: startCoins, Ally: -1})
		s.names = append(s.names, pl.Name)
		s.keys = append(s.keys, engine.Normalize(pl.Name))
	}
	s.Regions = make([]region, len(b.regions))
	for r := range s.Regions {
		s.Regions[r] = region{Owner: ownerNone}
		if b.has(r, symLostTribe) {
			s.Regions[r] = region{Owner: ownerLostTribe, Tokens: 1}
		}
	}
	if v.setup != nil {
		if err := v.setup(s, fixed, rng); err != nil {
			return nil, err
		}
	}
	if v.prepareState != nil {
		if err := v.prepareState(s, setup.Options); err != nil {
			return nil, fmt.Errorf("%s: %w", v.game, err)
		}
	}
	if err := s.refill(rng); err != nil {
		return nil, err
	}
	s.startTurn(0)
	s.keepStacks()
	return s, nil
}

// stack shuffles names from the seed and puts the fixed prefix on top.
func (v *variant) stack(rng *engine.Rand, name string, names, prefix []string) ([]string, error) {
	for _, x := range prefix {
		if !slices.Contains(names, x) {
			return nil, fmt.Errorf("%s: setup %s: unknown %q (known: %s)", v.game, name, x, strings.Join(names, ", "))
		}
	}
	order, err := rng.Shuffle(name, names)
	if err != nil {
		return nil, fmt.Errorf("%s: shuffle %s: %w", v.game, name, err)
	}
	out, err := engine.FixPrefix(order, prefix)
	if err != nil {
		return nil, fmt.Errorf("%s: setup %s: %w", v.game, name, err)
	}
	return slices.Clip(out), nil
}
