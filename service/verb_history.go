package service

import (
	"strconv"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/templates"
)

// The service verb history (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "history", info: true, gameHelp: "the last N events (default 10)", game: (*run).cmdHistory})
}

// cmdHistory carries out history in a reply to a game mail.
func (r *run) cmdHistory(a actor, args []string) string {
	n := 10
	if len(args) > 0 {
		v, err := strconv.Atoi(args[0])
		if err != nil || v < 1 {
			return r.t("history takes a number of events, e.g. history 20")
		}
		n = min(v, maxHistory)
	}
	v := r.view()
	first := max(0, len(v.Events)-n)
	var moves []templates.Move
	lang := r.langTo(a.Email)
	viewer := a.Name
	if a.Seat == nil {
		viewer = engine.Observer // the host without a seat reads the public account
	}
	for i := first; i < len(v.Events); i++ {
		e := v.Events[i]
		if isPref(e) && e.Player != a.Name || !chatVisible(e, a.Name) {
			continue // another player's own settings, a message to someone else
		}
		// Sealed commands (bids) stay sealed in the history as long as the game hides them.
		cmd := engine.MaskCommand(r.state, e.Player, e.Command, viewer)
		m := templates.Move{Seq: e.Seq, Player: e.Player, Command: r.s.tr.Command(r.l.Game.Kind, lang, cmd), Kind: e.Kind,
			Happened: r.s.account(v, v.Events, i, viewer, a.Name, lang)}
		if !e.At.IsZero() {
			m.Day, m.Time = r.s.tmpl.DayTime(string(lang), e.At, r.l.Settings.location(a.Name), r.now)
		}
		moves = append(moves, m)
	}
	r.notify(a.Email, templates.Notice{Kind: "history", To: a.Name, Moves: moves, Count: len(moves)})
	return ""
}
