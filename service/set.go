package service

import (
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/templates"
)

// adminSet is the administrative event that changes settings: "set key=value …"
// (canonical values, see Settings.change). Loading a game applies these events to
// the settings stored with it, so a change survives restarts and travels with the
// game's archive.
const adminSet = "set"

// setSyntax is the answer to a set command without settings.
const setSyntax = "Write set deadline=48h (or remind=6h, expiry=skip|pause|replace, vacation=DAYS, tz=ZONE, lang=it|en; several at once)."

// announceSettings tells every player (with their current deadline) and the host the
// game's settings after a change.
func (r *run) announceSettings(change string) {
	r.notifyEach(templates.Notice{Kind: "settings-changed"}, true, func(lang i18n.Lang, n *templates.Notice) {
		n.Text = r.s.tr.Command("", lang, adminSet+" "+change)
		n.Lines = r.l.Settings.Describe(r.s.tr, lang)
	})
}
