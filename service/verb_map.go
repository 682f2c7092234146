package service

import "github.com/turnmail/turnmail/templates"

// The service verb map (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "map", info: true, gameHelp: "the whole board: every region, card and piece", game: (*run).cmdMap})
}

// cmdMap answers map: the whole board as the reader may see it (every region, card
// and piece, which state mails leave out: they show what changed and what the
// reader may act on).
func (r *run) cmdMap(a actor, _ []string) string {
	view, err := viewMap(r.state.View(r.viewerFor(a)))
	if err != nil {
		r.s.log.Error("map: view", "game", r.l.Game.ID, "err", err)
		return r.t("The board could not be shown; try status.")
	}
	r.notify(a.Email, templates.Notice{Kind: templates.Map, To: r.toName(a), View: view})
	return ""
}
