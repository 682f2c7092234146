package service

import (
	"strings"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// Per-player settings, each an administrative event of the player's (the act, with
// the setting's value: adminTZ ZONE, adminNotify every|turn, adminLang CODE), so that
// they survive restarts and travel with the archive.
const (
	adminTZ     = "tz"
	adminNotify = "notify"
	adminLang   = "lang"
	// adminRespond records a standing order: never|always|ask|auto|with CARD.
	adminRespond = "respond"
)

// Values of a player's notify setting.
const (
	// NotifyTurn (the default) mails a player who waits once when the turn ends.
	NotifyTurn = "turn"
	// NotifyEvery mails a player who waits after every mail that moved the game.
	NotifyEvery = "every"
)

// Prefs are one player's own settings.
type Prefs struct {
	TZ     string    // an IANA zone name; "" for the game's
	Notify string    // NotifyTurn or NotifyEvery; "" for NotifyTurn
	Lang   i18n.Lang // the language the player reads; "" for the game's
	// Respond is the standing order for responses (see standingOrder); "" asks.
	Respond string
}

// withPref returns st with a recorded per-player setting applied, and whether e
// was one.
func (st Settings) withPref(e store.Event) (Settings, bool) {
	a, ok := adminOf(e)
	if !ok || e.Player == "" || a.Act != adminTZ && a.Act != adminNotify && a.Act != adminLang && a.Act != adminRespond {
		return st, false
	}
	prefs := make(map[string]Prefs, len(st.Prefs)+1)
	for k, v := range st.Prefs {
		prefs[k] = v
	}
	p := prefs[e.Player]
	switch a.Act {
	case adminTZ:
		p.TZ = a.Value
	case adminNotify:
		p.Notify = a.Value
	case adminLang:
		p.Lang = i18n.Lang(a.Value)
	default:
		p.Respond = a.Value
	}
	prefs[e.Player] = p
	st.Prefs = prefs
	return st, true
}

// isPref reports whether e records a player's own setting.
func isPref(e store.Event) bool {
	_, ok := Settings{}.withPref(e)
	return ok
}

// notifyOf returns a player's notify setting.
func (st Settings) notifyOf(player string) string {
	if st.Prefs[player].Notify == NotifyEvery {
		return NotifyEvery
	}
	return NotifyTurn
}

// location returns the time zone a player reads times in: their own tz, else the
// game's tz=, else the zone of a daily or weekday deadline, else UTC.
func (st Settings) location(player string) *time.Location {
	for _, name := range []string{st.Prefs[player].TZ, st.TZ} {
		if name == "" {
			continue
		}
		if loc, err := loadZone(name); err == nil { // validated when set
			return loc
		}
	}
	if loc := st.deadline().loc; loc != nil {
		return loc
	}
	return time.UTC
}

// when formats a time for a player of l to read, in their language (see langOf: the
// service's default when neither the player nor the game names one) and time zone.
func (s *Service) when(l *Loaded, player string, t time.Time) string {
	return s.tmpl.When(string(s.langOf(l.Settings, player)), t, l.Settings.location(player))
}

// zoneNamed loads the time zone a player or host named (any case, see loadZone);
// a name that is too long, "Local" or unknown is an error saying what to write.
func zoneNamed(name string) (*time.Location, error) {
	bad := failf("%q is not a time zone; write one like Europe/Rome or UTC", boundText(name, 64))
	if name == "" || len(name) > 64 || strings.EqualFold(name, "local") {
		return nil, bad
	}
	loc, err := loadZone(name)
	if err != nil {
		return nil, bad
	}
	return loc, nil
}

// langAt is the language of the reader at an address of game l: a player's own (see
// langOf), else the game's.
func (s *Service) langAt(l *Loaded, addr string) i18n.Lang {
	if p, ok := l.playerByEmail(addr); ok {
		return s.langOf(l.Settings, p.Name)
	}
	return s.langOf(l.Settings, "")
}

// langOf returns the language a player reads: their own, else the game's, else the
// service's default. An empty player (the host, observers) reads the game's.
func (s *Service) langOf(st Settings, player string) i18n.Lang {
	if l := st.Prefs[player].Lang; l != "" {
		return l
	}
	return st.Lang.Or(s.opts.Language)
}

// setPref records a per-player setting (act, its value) and confirms it to the
// player.
func (r *run) setPref(a actor, act, value, done string) string {
	pref := adminPayload{Act: act, Value: value}
	r.admin(a.Name, pref)
	r.l.Settings, _ = r.l.Settings.withPref(store.Event{Kind: engine.KindAdmin, Player: a.Name, Command: pref.encode()})
	r.notify(a.Email, templates.Notice{Kind: "done", To: a.Name, Text: done})
	return ""
}
