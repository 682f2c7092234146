package service

import (
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/store"
)

// adminPayload is what an administrative event (engine.KindAdmin) records in its
// Command: the act (one of the admin... constants) and its arguments, as compact
// JSON. The event's Player is who acted ("" for the service itself). Every reader of
// admin events reads them through readAdmin, so no reader parses a text: what a
// player wrote (a message, a reason) is a JSON string, which cannot be read as an act
// of another kind. The log of games older than it holds command texts instead
// ("vacation 2026-12-24 2026-12-27"), which readAdmin reads into the same form.
type adminPayload struct {
	Act string `json:"admin"`
	// Player is the seat the act is about besides its actor: the recipient of a
	// message to one (adminTell), the seat replaced (adminReplace), the player whose
	// deadline passed (adminDeadline).
	Player string `json:"player,omitempty"`
	// Text is a message (adminSay, adminTell) as its writer wrote it.
	Text string `json:"text,omitempty"`
	// Why is the reason of an undo request as the asker wrote it ("" when none).
	Why string `json:"why,omitempty"`
	// From and To are a vacation's first and last days (YYYY-MM-DD, UTC).
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Address is the new address of a replaced seat.
	Address string `json:"address,omitempty"`
	// Policy is what a deadline that passed did (an Expiry... value or nothingToSkip).
	Policy string `json:"policy,omitempty"`
	// Value is a setting: the canonical change of adminSet ("deadline=48h remind=6h"),
	// a player's own setting's value (adminTZ, adminNotify, adminLang, adminRespond).
	Value string `json:"value,omitempty"`
}

// encode is the Command the admin event records: the payload as compact JSON.
func (a adminPayload) encode() string { return compactJSON(a) }

// readAdmin reads the Command of an admin event: the payload new events carry, or
// the command text of an older one (legacyAdmin). ok is false for a text neither
// reads.
func readAdmin(cmd string) (adminPayload, bool) {
	if strings.HasPrefix(cmd, "{") {
		return readPayload(cmd, func(a adminPayload) bool { return a.Act != "" })
	}
	return legacyAdmin(cmd)
}

// legacyAdmin reads an admin event's command text, as games recorded them before the
// payload (frozen: old games' logs hold them, and the words here are those texts',
// whatever the acts are called now). A text always starts with its verb, so what a
// player wrote after it never changes the act.
func legacyAdmin(cmd string) (adminPayload, bool) {
	if why, ok := strings.CutPrefix(cmd, "undo request: "); ok {
		return adminPayload{Act: "undo request", Why: why}, true
	}
	if rest, ok := strings.CutPrefix(cmd, "deadline passed "); ok {
		// "deadline passed PLAYER: POLICY"; without ": " only that a deadline passed.
		a := adminPayload{Act: "deadline passed"}
		if i := strings.LastIndex(rest, ": "); i >= 0 {
			a.Player, a.Policy = rest[:i], rest[i+2:]
		}
		return a, true
	}
	verb, rest, spaced := strings.Cut(cmd, " ")
	switch {
	case !spaced && (verb == "pause" || verb == "resume" || verb == "resign" || verb == "accept"):
		return adminPayload{Act: verb}, true
	case cmd == "undo request":
		return adminPayload{Act: verb + " request"}, true
	case verb == "say":
		return adminPayload{Act: verb, Text: rest}, true
	case verb == "tell": // tell PLAYER TEXT
		if to, text, _ := strings.Cut(rest, " "); to != "" {
			return adminPayload{Act: verb, Player: to, Text: text}, true
		}
	case verb == "vacation": // vacation FROM TO
		if f := strings.Fields(rest); len(f) == 2 {
			return adminPayload{Act: verb, From: f[0], To: f[1]}, true
		}
	case verb == "replace": // replace PLAYER ADDRESS
		if p, addr, ok := strings.Cut(rest, " "); ok {
			return adminPayload{Act: verb, Player: p, Address: addr}, true
		}
	case verb == "set" || verb == "tz" || verb == "notify" || verb == "lang" || verb == "respond":
		return adminPayload{Act: verb, Value: rest}, true
	}
	return adminPayload{}, false
}

// adminOf reads event e's payload when it is an admin event (readAdmin); ok is false
// for any other event and for an admin event that does not read.
func adminOf(e store.Event) (adminPayload, bool) {
	if e.Kind != engine.KindAdmin {
		return adminPayload{}, false
	}
	return readAdmin(e.Command)
}

// adminAct is the act of event e when it is an admin event that reads, else "".
func adminAct(e store.Event) string {
	a, _ := adminOf(e)
	return a.Act
}
