package service

import (
	"context"
	"encoding/json"

	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// adminSet is the administrative event that changes settings: "set key=value …"
// (canonical values, see Settings.change). Loading a game applies these events to
// the settings stored with it, so a change survives restarts and travels with the
// game's archive.
const adminSet = "set"

// setSyntax is the answer to a set command without settings.
const setSyntax = "Write set deadline=48h (or remind=6h, expiry=skip|pause|replace, vacation=DAYS, tz=ZONE, lang=it|en; several at once)."

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
		r.admin(a.Name, adminSet+" "+change)
	}
	r.l.Settings = st
	r.announceSettings(change)
	return ""
}

// announceSettings tells every player (with their current deadline) and the host the
// game's settings after a change.
func (r *run) announceSettings(change string) {
	r.notifyEach(templates.Notice{Kind: "settings-changed"}, true, func(lang i18n.Lang, n *templates.Notice) {
		n.Text = r.s.tr.Command("", lang, adminSet+" "+change)
		n.Lines = r.l.Settings.Describe(r.s.tr, lang)
	})
}

func init() {
	registerVerbs(&serviceVerb{name: "set", who: host, lobbyHelp: "(host) change deadline=, remind=, expiry=, vacation=, tz=, lang=",
		gameHelp: "(host) e.g. set deadline=48h remind=6h", game: (*run).cmdSet, lobby: lobbySet})
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
