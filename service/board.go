package service

import (
	"strings"

	"github.com/turnmail/turnmail/engine"
)

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
