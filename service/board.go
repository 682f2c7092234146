package service

import (
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/templates"
)

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

// cmdRules answers rules in a game: the game's rules in short and what every piece
// in play does; with a name, what that race, power, place, relic or card does.
func (r *run) cmdRules(a actor, args []string) string {
	if len(args) > 0 {
		tx := &lobbyTx{s: r.s, lang: r.langTo(a.Email)}
		n := r.s.lobbyRules(tx, append([]string{r.l.Game.Kind}, args...))
		if n.Kind == templates.Error {
			return n.Text
		}
		n.To = r.toName(a)
		r.notify(a.Email, n)
		return ""
	}
	view, err := viewMap(r.state.View(r.viewerFor(a)))
	if err != nil {
		r.s.log.Error("rules: view", "game", r.l.Game.ID, "err", err)
		view = nil
	}
	r.notify(a.Email, templates.Notice{Kind: templates.Rules, To: r.toName(a), View: view})
	return ""
}

// viewerFor is the engine viewer of a command's sender: a player sees their seat's
// view, anyone else (the host) the public one.
func (r *run) viewerFor(a actor) string {
	if a.Seat == nil {
		return engine.Observer
	}
	return viewerOf(*a.Seat)
}

// toName is how a notice to the sender greets them.
func (r *run) toName(a actor) string {
	if a.Seat == nil && strings.EqualFold(a.Email, r.l.Game.Host) {
		return "host"
	}
	return a.Name
}

func init() {
	registerVerbs(&serviceVerb{name: "map", info: true, gameHelp: "the whole board: every region, card and piece", game: (*run).cmdMap})
}
