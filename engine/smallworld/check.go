package smallworld

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

var _ engine.OptionChecker = Game{}

// PlayerRange implements engine.OptionChecker: the game is for 2 to 5 players.
func (Game) PlayerRange() (min, max int) { return 2, 5 }

// CheckOptions implements engine.OptionChecker. The one option is map: the name of a
// printed board, or an inline map object (in an archive). New ignores other options;
// a game opened by mail refuses them, so a misspelt option is not silently dropped.
func (Game) CheckOptions(opts map[string]json.RawMessage) error {
	return variantBase.checkOptions(opts)
}

// checkOptions is CheckOptions for the variant.
func (v *variant) checkOptions(opts map[string]json.RawMessage) error {
	names := strings.Join(v.mapNames(), "|")
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		switch {
		case k == "races" && v.mix != nil:
			if _, err := racesOption(opts); err != nil {
				return err
			}
		case k != "map" && v.mix != nil:
			return fmt.Errorf("%s has no option %q (its options: map=%s, races=%s|%s|%s)", v.game, k, names, racesUnderground, racesSurface, racesAll)
		case k != "map":
			return fmt.Errorf("%s has no option %q (its option: map=%s)", v.game, k, names)
		}
	}
	raw, ok := opts["map"]
	if !ok {
		return nil
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		if _, ok := v.catalogue().boards[name]; !ok {
			return fmt.Errorf("map=%s: unknown map; use map=%s", name, names)
		}
		return nil
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return fmt.Errorf("map=%s: use map=%s", t, names)
	}
	_, err := v.chooseBoard(opts, 0) // an inline map
	return err
}
