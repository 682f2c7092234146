package service

import (
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb accept (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "accept", gameHelp: "agree to an undo", game: (*run).cmdAccept})
}

// cmdAccept carries out accept in a reply to a game mail.
func (r *run) cmdAccept(a actor, _ []string) string {
	u := r.l.Facts.Undo
	if u == nil {
		return r.t("There is no undo request to accept.")
	}
	if a.Seat == nil {
		return r.t("accept is for players.")
	}
	if r.l.Facts.Resigned[a.Name] {
		return r.t(resignedReason)
	}
	if u.By == a.Name {
		return r.t("You asked for the undo; the other players accept it.")
	}
	if u.Accepted[a.Name] {
		return r.t("You have accepted already.")
	}
	r.admin(a.Name, adminPayload{Act: adminAccept})
	waiting, agreed := r.undoConsent(u)
	if len(waiting) > 0 {
		r.notify(a.Email, templates.Notice{Kind: "undo-waiting", To: a.Name, Player: u.By, ToAct: waiting})
		return ""
	}
	last, _ := lastStanding(append(append([]store.Event{}, r.l.Events...), r.c.Events...))
	if err := r.undo(undoPayload{How: undoAgreed, By: agreed}, last); err != nil {
		return r.t("The undo failed: %v", err)
	}
	return ""
}
