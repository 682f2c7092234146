package service

import (
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb resume (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "resume", who: host, game: (*run).cmdResume, lobby: hostInGame("resume")})
}

// cmdResume carries out resume in a reply to a game mail.
func (r *run) cmdResume(a actor, _ []string) string {
	if !r.isHost(a) {
		return r.notHost(r.t("resume the game"))
	}
	if r.status != store.GamePaused {
		return r.t("The game is not paused.")
	}
	r.admin(a.Name, adminPayload{Act: adminResume})
	r.status = store.GameRunning
	r.notifyAll(templates.Notice{Kind: "resumed", ToAct: r.state.ToAct()})
	return ""
}
