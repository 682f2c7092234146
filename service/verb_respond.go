package service

import "github.com/turnmail/turnmail/engine"

// The service verb respond (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "respond", game: (*run).cmdRespond})
}

// cmdRespond sets the player's standing order: respond never|always|ask|with CARD.
func (r *run) cmdRespond(a actor, args []string) string {
	if a.Seat == nil {
		return r.t("%s is for players: reply to a game mail.", engine.Command("respond"))
	}
	if _, ok := r.state.(engine.Responder); !ok {
		return r.t("This game has no responses out of turn.")
	}
	var order string
	switch {
	case len(args) == 1 && (args[0] == OrderNever || args[0] == OrderAlways || args[0] == OrderAsk || args[0] == OrderAuto):
		order = args[0]
	case len(args) == 2 && args[0] == OrderWith && isCardWord(args[1]):
		order = OrderWith + " " + args[1]
	default:
		return r.t("Write %s (what the deadline would do, at once), %s (always decline), %s (play your first possible response), %s (play that card when you can, else ask) or %s (a mail each time).",
			engine.Command("respond auto"), engine.Command("respond never"), engine.Command("respond always"), engine.Command("respond with CARD"), engine.Command("respond ask"))
	}
	if err := r.setPref(a, adminRespond, order, "respond "+order); err != "" {
		return err
	}
	return r.standingErr(r.standingOrders())
}
