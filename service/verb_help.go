package service

import (
	"context"

	"github.com/turnmail/turnmail/templates"
)

// The service verb help (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "help", who: anyone, info: true, lobbyHelp: "this list", game: (*run).cmdHelp,
		lobby: func(*Service, context.Context, lobbyCall) (templates.Notice, error) {
			return templates.Notice{Kind: "help"}, nil
		}})
}

// cmdHelp carries out help in a reply to a game mail.
func (r *run) cmdHelp(a actor, _ []string) string {
	r.notify(a.Email, templates.Notice{Kind: "help", To: a.Name, Service: r.s.address()})
	return ""
}
