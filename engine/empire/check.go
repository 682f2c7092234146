package empire

import (
	"encoding/json"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

var _ engine.OptionChecker = Game{}

// PlayerRange implements engine.OptionChecker: the game is for 2 to 4 players.
func (Game) PlayerRange() (min, max int) { return 2, 4 }

// optionHelp says what each option accepts, in the option=value form of a mail (a
// syntax, the same in every language).
var optionHelp = map[string]string{
	"layout":       "layout=t|ring",
	"faces":        "faces=FACE,FACE,… (1a … 4b)",
	"long":         "long=true|false",
	"exploration":  "exploration=true|false",
	"swamp":        "swamp=true|false",
	"fortresses":   "fortresses=true|false",
	"encounters":   "encounters=true|dragon,portals,bandits",
	"leaders":      "leaders=true|false",
	"die_tiebreak": "die_tiebreak=true|false",
	"boards":       "boards={…} (turnmail import)",
	"disputed":     "disputed={…} (turnmail import)",
}

// CheckOptions implements engine.OptionChecker: every option must be known and its
// value of the right kind; the errors name the option and what it accepts.
func (Game) CheckOptions(opts map[string]json.RawMessage) error {
	for _, k := range sortedKeys(opts) {
		help, ok := optionHelp[k]
		if !ok {
			return engine.Illegal("%s has no option %q (its options: %s)", "empire", k, strings.Join(sortedKeys(optionHelp), ", "))
		}
		if _, err := parseOptions(map[string]json.RawMessage{k: opts[k]}); err != nil {
			return engine.Illegal("%s=%s: use %s", k, shown(opts[k]), help)
		}
		if err := checkValue(k, opts); err != nil {
			return err
		}
	}
	_, err := parseOptions(opts)
	return err
}

// checkValue checks what decoding alone does not: the layout's name and, on the
// printed boards, the faces' ids.
func checkValue(k string, opts map[string]json.RawMessage) error {
	switch k {
	case "layout":
		var v string
		_ = json.Unmarshal(opts[k], &v) // a string: parseOptions accepted it
		if l := strings.ToLower(v); l != layoutT && l != layoutRing {
			return engine.Illegal("%s=%s: use %s", k, v, optionHelp[k])
		}
	case "faces":
		if _, inline := opts["boards"]; inline {
			return nil // checked when the game is set up
		}
		d, err := embedded()
		if err != nil {
			return err
		}
		var faces wordList
		_ = json.Unmarshal(opts[k], &faces) // parseOptions accepted it
		for _, id := range faces {
			if _, ok := d.boards.find(id); !ok {
				var known []string
				for _, f := range d.boards.Faces {
					known = append(known, f.ID)
				}
				return engine.Illegal("faces=%s: unknown face %q (faces: %s)", shown(opts[k]), id, strings.Join(known, ", "))
			}
		}
	}
	return nil
}

// shown is an option's value as the player wrote it: a string without its quotes.
func shown(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

var _ engine.Sampler = Game{}

// SampleOptions implements engine.Sampler: between them, the sets play every variant
// and both layouts.
func (Game) SampleOptions() []map[string]json.RawMessage {
	on := json.RawMessage("true")
	return []map[string]json.RawMessage{
		{"exploration": on, "swamp": on, "layout": json.RawMessage(`"ring"`)},
		{"fortresses": on, "encounters": on, "leaders": on},
		{"long": on, "die_tiebreak": on, "leaders": on},
		{"exploration": on, "encounters": on, "fortresses": on, "layout": json.RawMessage(`"ring"`)},
	}
}
