package smallworld

import (
	"bytes"
	"encoding/json"
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
			return engine.Illegal("%s has no option %q (its options: %s)", v.game, k, "map="+names+", races="+racesUnderground+"|"+racesSurface+"|"+racesAll)
		case k != "map":
			return engine.Illegal("%s has no option %q (its options: %s)", v.game, k, "map="+names)
		}
	}
	raw, ok := opts["map"]
	if !ok {
		return nil
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		if _, ok := v.catalogue().boards[name]; !ok {
			return engine.Illegal("%s=%s: use %s", "map", name, "map="+names)
		}
		return nil
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return engine.Illegal("%s=%s: use %s", "map", string(t), "map="+names)
	}
	_, err := v.chooseBoard(opts, 0) // an inline map
	return err
}
