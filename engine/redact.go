package engine

import (
	"encoding/json"
	"slices"
	"strings"
)

// Redactor is implemented by games whose record tells more than a player may know:
// the recorded outcome of a shuffle is the order of a deck, a random discard names a
// card of a hand, a fixed setup field orders a face-down stack, and the seed
// reproduces them all. The service leaves out of what a player or observer receives
// (history, state mail, exported archive) every outcome and setup field the game
// hides from that viewer; the host's export stays complete.
type Redactor interface {
	// HiddenOutcome reports whether the outcomes of the draw called name (as given to
	// Rand.Pick or Rand.Shuffle, without the ".2" suffix of a repeated draw) are
	// hidden from viewer (a player's name or Observer).
	HiddenOutcome(name, viewer string) bool
	// HiddenSetup reports whether the field of the archive's "setup" object ("seed",
	// a stack order …) is hidden from viewer.
	HiddenSetup(field, viewer string) bool
}

// drawName is the draw name of an Outcomes key: the key without the ".n" a repeated
// draw gets (see Rand).
func drawName(key string) string {
	i := strings.LastIndexByte(key, '.')
	if i < 0 || i == len(key)-1 || strings.Trim(key[i+1:], "0123456789") != "" {
		return key
	}
	return key[:i]
}

// Redact returns a copy of a as viewer may receive it: without the outcomes and setup
// fields g hides from viewer (Redactor), each left-out name listed in the copy's
// Redacted. The empty viewer (the host, the archive) gets a unchanged, and so does
// every viewer of a game that hides nothing. A redacted archive is a record to read:
// it cannot be replayed (Replay refuses it).
func Redact(g Game, a *Archive, viewer string) *Archive {
	r, ok := g.(Redactor)
	if !ok || viewer == "" {
		return a
	}
	out := *a
	var left []string
	leave := func(what string) {
		if !slices.Contains(left, what) {
			left = append(left, what)
		}
	}
	if len(a.Setup) > 0 {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(a.Setup, &fields); err != nil {
			// A setup that is not an object cannot be vetted: leave it all out.
			out.Setup = nil
			leave("setup")
		} else {
			for k := range fields {
				if r.HiddenSetup(k, viewer) {
					delete(fields, k)
					leave("setup." + k)
				}
			}
			out.Setup, _ = json.Marshal(fields) // raw values re-marshal unchanged
		}
	}
	redact := func(o Outcomes) Outcomes {
		var kept Outcomes
		for k, v := range o {
			if r.HiddenOutcome(drawName(k), viewer) {
				leave("outcome." + drawName(k))
				continue
			}
			if kept == nil {
				kept = Outcomes{}
			}
			kept[k] = v
		}
		return kept
	}
	out.SetupOutcomes = redact(a.SetupOutcomes)
	out.Events = slices.Clone(a.Events)
	for i := range out.Events {
		out.Events[i].Outcomes = redact(out.Events[i].Outcomes)
	}
	slices.Sort(left)
	out.Redacted = append(slices.Clone(a.Redacted), left...)
	return &out
}
