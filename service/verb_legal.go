package service

import "github.com/turnmail/turnmail/templates"

// The service verb legal (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "legal", info: true, gameHelp: "what I can send now", game: (*run).cmdLegal})
}

// cmdLegal carries out legal in a reply to a game mail.
func (r *run) cmdLegal(a actor, _ []string) string {
	if a.Seat == nil {
		return r.t("legal is for players: reply to a game mail.")
	}
	legal, notes := r.s.legalIn(r.l, r.state, a.Name)
	r.notify(a.Email, templates.Notice{Kind: "legal", To: a.Name, ToAct: r.state.ToAct(), Legal: legal, LegalNotes: notes, Due: r.dueOf(a.Name)})
	return ""
}
