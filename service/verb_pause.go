package service

import (
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb pause (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "pause", who: host, game: (*run).cmdPause, lobby: hostInGame("pause")})
}

// cmdPause carries out pause in a reply to a game mail.
func (r *run) cmdPause(a actor, _ []string) string {
	if !r.isHost(a) {
		return r.notHost(r.t("pause the game"))
	}
	switch r.status {
	case store.GamePaused:
		return r.t("The game is paused already; resume it with resume.")
	case store.GameRunning:
	default:
		return r.t("Only a running game can be paused.")
	}
	r.admin(a.Name, adminPayload{Act: adminPause})
	r.status = store.GamePaused
	r.notifyAll(templates.Notice{Kind: "paused", Actor: "the host"})
	return ""
}
