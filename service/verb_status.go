package service

// The service verb status (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "status", info: true, gameHelp: "resend my current view", game: (*run).cmdStatus})
}

// cmdStatus carries out status in a reply to a game mail.
func (r *run) cmdStatus(a actor, _ []string) string {
	if a.Seat == nil {
		return r.t("status is for players: reply to a game mail.")
	}
	r.wantState = true // answered by the state mail (see answer)
	return ""
}
