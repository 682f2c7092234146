package empire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// options are the game options of an archive ("options" object).
type options struct {
	// Boards is an inline board set in the format of data/boards.json.
	Boards *boardSet `json:"boards,omitempty"`
	// Layout is "t" (default) or "ring".
	Layout string `json:"layout,omitempty"`
	// Faces names the faces in slot order (centre first); drawn from the seed when empty.
	Faces wordList `json:"faces,omitempty"`
	// Long plays three games in a row and adds the scores.
	Long bool `json:"long,omitempty"`
	// Exploration places the five exploration tokens face up.
	Exploration bool `json:"exploration,omitempty"`
	// Swamp adds the mephitic swamp; all exploration tokens then lie face down.
	Swamp bool `json:"swamp,omitempty"`
	// Fortresses places the three fortress tokens.
	Fortresses bool `json:"fortresses,omitempty"`
	// Encounters lists the encounter tokens used: dragon, portals, bandits (true: all).
	Encounters encounterList `json:"encounters,omitempty"`
	// Leaders deals a leader card to every player.
	Leaders bool `json:"leaders,omitempty"`
	// DieTiebreak breaks a tie of the opening bid with a die instead of by age.
	DieTiebreak bool `json:"die_tiebreak,omitempty"`
	// Disputed settles the disputed cards differently from the default (card id →
	// value): "forest-pixie": "extra-move", "night-wizard": "move", "dire-goblin": "3".
	Disputed map[string]string `json:"disputed,omitempty"`
}

// Encounter token groups.
const (
	encDragon  = "dragon"
	encPortals = "portals"
	encBandits = "bandits"
)

type encounterList []string

// UnmarshalJSON accepts a list of encounter names (or one string of them separated by
// commas, as written in a mail), or true for all of them.
func (e *encounterList) UnmarshalJSON(b []byte) error {
	var all bool
	if err := json.Unmarshal(b, &all); err == nil {
		*e = nil
		if all {
			*e = encounterList{encDragon, encPortals, encBandits}
		}
		return nil
	}
	var list wordList
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("encounters: want true or a list of dragon, portals, bandits")
	}
	for _, x := range list {
		if x != encDragon && x != encPortals && x != encBandits {
			return fmt.Errorf("encounters: unknown %q (dragon, portals, bandits)", x)
		}
	}
	*e = encounterList(list)
	return nil
}

// wordList is a list of strings, given as a JSON list or as one string of words
// separated by commas ("1a,2b,3a"), the form an option takes in a mail.
type wordList []string

// UnmarshalJSON accepts a list of strings or one string separated by commas.
func (w *wordList) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*w = nil
		for _, x := range strings.Split(s, ",") {
			if x = strings.TrimSpace(x); x != "" {
				*w = append(*w, x)
			}
		}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return errors.New("want a list of words")
	}
	*w = list
	return nil
}

func (o options) encounter(name string) bool { return slices.Contains(o.Encounters, name) }

// parseOptions decodes the options map strictly: an unknown option is an error.
func parseOptions(raw map[string]json.RawMessage) (options, error) {
	var o options
	if len(raw) == 0 {
		o.Layout = layoutT
		return o, nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return o, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return o, fmt.Errorf("options: %w (known: boards, layout, faces, long, exploration, swamp, fortresses, encounters, leaders, die_tiebreak, disputed)", err)
	}
	if o.Layout == "" {
		o.Layout = layoutT
	}
	o.Layout = strings.ToLower(o.Layout)
	if o.Swamp {
		o.Exploration = true
	}
	for k, v := range o.Disputed {
		ok := false
		switch k {
		case "forest-pixie":
			ok = v == abExtraArmy || v == abExtraMove
		case "night-wizard":
			ok = v == acPlace || v == acMove
		case "dire-goblin":
			ok = v == "2" || v == "3"
		}
		if !ok {
			return o, fmt.Errorf("options: disputed %q: %q is not a known reading", k, v)
		}
	}
	return o, nil
}

// applyDisputed returns the cards with the chosen readings of the disputed entries.
func (o options) applyDisputed(cards []card) []card {
	out := slices.Clone(cards)
	for i := range out {
		c := &out[i]
		c.Actions = slices.Clone(c.Actions)
		switch c.ID {
		case "forest-pixie":
			if v := o.Disputed[c.ID]; v != "" {
				c.Ability.Kind = v
			}
		case "night-wizard":
			if v := o.Disputed[c.ID]; v != "" {
				c.Actions[0].Kind = v
			}
		case "dire-goblin":
			if o.Disputed[c.ID] == "3" {
				c.MinPlayers = 3
			}
		}
	}
	return out
}

// fixedSetup is the archive's "setup" object: the seed and whatever setup is fixed
// instead of drawn.
type fixedSetup struct {
	Seed int64 `json:"seed"`
	// Deck puts these card ids on top of the shuffled deck, in this order.
	Deck []string `json:"deck,omitempty"`
	// Leaders deals these leader ids to the players in turn order.
	Leaders []string `json:"leaders,omitempty"`
	// Start is the start region (number).
	Start int `json:"start,omitempty"`
	// Placer is the player who places the armies off the centre board.
	Placer string `json:"placer,omitempty"`
	// Tokens places tokens by id (magic-spring, fortress-1, dragon, portal-2 …).
	Tokens map[string]int `json:"tokens,omitempty"`
}

func parseFixed(raw json.RawMessage) (fixedSetup, error) {
	var f fixedSetup
	if len(raw) == 0 {
		return f, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("setup: %w (known: seed, deck, leaders, start, placer, tokens)", err)
	}
	return f, nil
}

// Token ids.
const (
	tokMagicSpring    = "magic-spring"
	tokCottage        = "cottage"
	tokHiddenTreasure = "hidden-treasure"
	tokSpellbook      = "spellbook"
	tokStable         = "stable"
	tokSwamp          = "swamp"
	tokDragon         = "dragon"
	tokBandits        = "bandits"
)

func isExploration(kind string) bool {
	switch kind {
	case tokMagicSpring, tokCottage, tokHiddenTreasure, tokSpellbook, tokStable, tokSwamp:
		return true
	}
	return false
}

func isFortress(kind string) bool { return strings.HasPrefix(kind, "fortress-") }
func isPortal(kind string) bool   { return strings.HasPrefix(kind, "portal-") }

// tokenKinds lists the tokens the options put on the board.
func (o options) tokenKinds() []string {
	var out []string
	if o.Exploration {
		out = append(out, tokMagicSpring, tokCottage, tokHiddenTreasure, tokSpellbook, tokStable)
		if o.Swamp {
			out = append(out, tokSwamp)
		}
	}
	if o.Fortresses {
		out = append(out, "fortress-1", "fortress-2", "fortress-3")
	}
	if o.encounter(encDragon) {
		out = append(out, tokDragon)
	}
	if o.encounter(encPortals) {
		out = append(out, "portal-1", "portal-2")
	}
	if o.encounter(encBandits) {
		out = append(out, tokBandits)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
