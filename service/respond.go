package service

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/turnmail/turnmail/engine"
)

// Standing orders for responses (engine.Responder), a player's own setting: what the
// service answers for them, at once, when they are asked to respond, so that a turn
// does not wait for a mail round trip.
const (
	// OrderAsk (the default): the player gets a mail with the choices and the
	// response deadline.
	OrderAsk = "ask"
	// OrderNever: the service declines every response for the player.
	OrderNever = "never"
	// OrderAlways: the service plays the player's first possible response.
	OrderAlways = "always"
	// OrderWith ("with CARD"): the service plays CARD when it is a possible
	// response, and asks otherwise.
	OrderWith = "with"
	// OrderAuto: the service gives at once what it would give when the response
	// deadline passes (the game's default: a defender's tokens placed
	// automatically, a bid of 0, a pass). Small World players say it "redeploy
	// always auto".
	OrderAuto = "auto"
)

// standingOrderFor is the standing order that answers every question of a game of
// kind with its default, as the mails suggest it (canonical words).
func standingOrderFor(kind string) string {
	switch kind {
	case "smallworld", "underground", "necromancer":
		return "redeploy always auto"
	}
	return "respond " + OrderAuto
}

// standingAlias reads the standing order a Small World player writes with the
// redeploy verb ("redeploy always auto", "redeploy auto", "redeploy ask") as the
// respond command it stands for; ok is false for any other line (a redeployment).
func standingAlias(f []string) ([]string, bool) {
	if len(f) < 2 || f[0] != "redeploy" {
		return nil, false
	}
	switch strings.Join(f[1:], " ") {
	case "always auto", "auto", "auto always":
		return []string{"respond", OrderAuto}, true
	case "ask", "always ask":
		return []string{"respond", OrderAsk}, true
	}
	return nil, false
}

// maxCardWord bounds the card named in "respond with CARD".
const maxCardWord = 16

// parseResponse reads a response deadline: a duration of at least a minute ("4h",
// "30m", "1d"), or "none" (the turn's deadline applies).
func parseResponse(v string) (deadlineSpec, error) {
	v = strings.TrimSpace(v)
	if v == "none" || v == "off" {
		return deadlineSpec{setting: "none"}, nil
	}
	d, err := parseDuration(v)
	if err != nil || d < time.Minute || strings.ContainsAny(v, " \t") {
		return deadlineSpec{}, failf("response=%s: use a duration (response=4h, response=30m) or response=none for the turn's deadline", boundText(v, 32))
	}
	return deadlineSpec{every: d, setting: v}, nil
}

// response is the game's response deadline (DefaultResponse when unset).
func (st Settings) response() deadlineSpec {
	v := st.Response
	if v == "" {
		v = DefaultResponse
	}
	spec, err := parseResponse(v)
	if err != nil {
		spec, _ = parseResponse(DefaultResponse) // validated when set
	}
	return spec
}

// deadlineOf is the deadline that counts for player in state: the response deadline
// when they are asked to respond (and it is not "none"), else turn, the turn's.
func (st Settings) deadlineOf(state engine.State, player string, turn deadlineSpec) deadlineSpec {
	if !engine.Responding(state, player) {
		return turn
	}
	if rs := st.response(); rs.setting != "none" {
		return rs
	}
	return turn
}

// standingErr turns a failure to apply a standing order into the answer's text.
func (r *run) standingErr(err error) string {
	if err != nil {
		return r.t("Your standing order could not be applied: %s", r.s.reasonIn(r.lang, r.l.Game.Kind, err))
	}
	return ""
}

// isCardWord reports whether w can name a card: short, letters, digits, '-' or '_'.
func isCardWord(w string) bool {
	if w == "" || len(w) > maxCardWord {
		return false
	}
	return strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789-_") == ""
}

// standingOrders applies the standing orders of the players asked to respond, one
// command at a time, until nobody asked to respond has an order that answers.
func (r *run) standingOrders() error {
	for range 64 { // each order answers one response; a game asks a few at a time
		player, cmd := r.standingCommand()
		if cmd == "" {
			return nil
		}
		if err := r.apply(player, cmd); err != nil {
			return fmt.Errorf("standing order of %s (%s): %w", player, cmd, err)
		}
	}
	return nil
}

// standingCommand finds a player asked to respond whose standing order answers now,
// and the command it gives ("" when none).
func (r *run) standingCommand() (string, string) {
	if r.state == nil || r.state.Finished() {
		return "", ""
	}
	for _, p := range r.state.ToAct() {
		if !engine.Responding(r.state, p) || r.l.Facts.Resigned[p] {
			continue
		}
		var decline []string
		if sk, ok := r.state.(engine.Skipper); ok {
			decline = sk.SkipCommands(p)
		}
		// An order answers what the player is asked, never with a command of any moment.
		anyTime := engine.AnyTime(r.state, p)
		legal := slices.DeleteFunc(r.state.Legal(p), func(c string) bool { return contains(anyTime, c) })
		if cmd := orderCommand(r.l.Settings.Prefs[p].Respond, legal, decline); cmd != "" {
			return p, cmd
		}
	}
	return "", ""
}

// orderCommand is what a standing order answers given the legal commands and the
// command that declines ("" to ask the player).
func orderCommand(order string, legal, decline []string) string {
	declines := ""
	if len(decline) == 1 && contains(legal, decline[0]) {
		declines = decline[0]
	}
	switch verb, card, _ := strings.Cut(order, " "); verb {
	case OrderAuto:
		if len(decline) > 0 {
			return decline[0] // what the deadline applies (a bid of 0 under a pattern's list)
		}
		return ""
	case OrderNever:
		return declines
	case OrderAlways:
		for _, c := range legal {
			if c != declines && !engine.IsPattern(c) {
				return c
			}
		}
		return declines
	case OrderWith:
		for _, c := range legal {
			if f := strings.Fields(c); c != declines && !engine.IsPattern(c) && contains(f, card) {
				return c
			}
		}
	}
	return ""
}
