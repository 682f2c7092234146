package service

import (
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/templates"
)

// The service verb resign (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "resign", gameHelp: "leave the game (you are asked to confirm)", game: (*run).cmdResign})
}

// cmdResign carries out resign in a reply to a game mail.
func (r *run) cmdResign(a actor, args []string) string {
	if a.Seat == nil {
		return r.t("resign is for players: reply to a game mail.")
	}
	if r.l.Facts.Resigned[a.Name] {
		return r.t("You have resigned from this game already.")
	}
	if done, _ := r.over(); done {
		return r.t("The game is over.")
	}
	code := r.s.confirmCode(r.l.Game.ID, *a.Seat)
	if len(args) == 0 {
		line := r.s.tr.Command("", r.langTo(a.Email), "resign confirm "+code) // the line to send back, in the reader's words
		r.notify(a.Email, templates.Notice{Kind: "resign-confirm", To: a.Name, Text: line})
		return ""
	}
	if len(args) != 2 || args[0] != "confirm" || args[1] != code {
		return r.t("To resign, send the exact line from the confirmation mail (%s); send %s to get it.", engine.Command("resign confirm CODE"), engine.Command("resign"))
	}
	pending := r.l.Facts.Undo
	r.admin(a.Name, adminPayload{Act: adminResign}) // withdraws the player's own undo request (Facts.observe)
	var withdrawn func(i18n.Lang, *templates.Notice)
	if pending != nil && pending.By == a.Name {
		withdrawn = func(lang i18n.Lang, n *templates.Notice) { n.Text = r.undoWhat(lang) }
	}
	r.notifyEach(templates.Notice{Kind: "resigned", Player: a.Name}, false, withdrawn)
	r.moved = true // the others see the new situation (and the end, when it is one)
	if pending != nil && pending.By != a.Name {
		return r.undoIfAgreed(pending, a.Name)
	}
	return ""
}
