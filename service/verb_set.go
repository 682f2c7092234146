package service

import (
	"context"
	"encoding/json"

	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb set (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "set", who: host, lobbyHelp: "(host) change deadline=, remind=, expiry=, vacation=, tz=, lang=",
		gameHelp: "(host) e.g. set deadline=48h remind=6h", game: (*run).cmdSet, lobby: lobbySet})
}

// cmdSet changes the game's deadline settings (host only). In a running or paused
// game the change is an admin event; before the start it is part of the setup and
// changes the stored settings. Every player and the host are told.
func (r *run) cmdSet(a actor, args []string) string {
	if !r.isHost(a) {
		return r.notHost(r.t("change the game's settings"))
	}
	if r.status == store.GameFinished {
		return r.t("The game is over.")
	}
	if len(args) == 0 {
		return r.t(setSyntax)
	}
	st, change, err := r.l.Settings.change(args)
	if err != nil {
		return r.s.reasonIn(r.lang, r.l.Game.Kind, err) + "." // a settings error in the reader's words
	}
	if r.l.State == nil {
		r.c.Settings, _ = json.Marshal(st) // plain values: encoding cannot fail
	} else {
		r.admin(a.Name, adminPayload{Act: adminSet, Value: change})
	}
	r.l.Settings = st
	r.announceSettings(change)
	return ""
}

// lobbySet changes a game's settings from the service address, before it starts
// too, and answers with them all.
func lobbySet(s *Service, ctx context.Context, c lobbyCall) (templates.Notice, error) {
	n, err := s.runInGame(ctx, c, "set")
	if err != nil || n.Kind != "done" {
		return n, err
	}
	n.Kind, n.Lines = "settings", c.l.Settings.Describe(s.tr, c.tx.lang)
	return n, nil
}
