package service

import (
	"strings"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// Per-player settings, each an administrative event of the player's ("tz ZONE",
// "notify every|turn"), so that they survive restarts and travel with the archive.
const (
	adminTZ     = "tz"
	adminNotify = "notify"
	adminLang   = "lang"
	// adminRespond records a standing order: "respond never|always|ask|with CARD".
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
	if e.Kind != engine.KindAdmin || e.Player == "" {
		return st, false
	}
	verb, arg, _ := strings.Cut(e.Command, " ")
	if verb != adminTZ && verb != adminNotify && verb != adminLang && verb != adminRespond {
		return st, false
	}
	prefs := make(map[string]Prefs, len(st.Prefs)+1)
	for k, v := range st.Prefs {
		prefs[k] = v
	}
	p := prefs[e.Player]
	switch verb {
	case adminTZ:
		p.TZ = arg
	case adminNotify:
		p.Notify = arg
	case adminLang:
		p.Lang = i18n.Lang(arg)
	default:
		p.Respond = arg
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

// cmdTZ sets the time zone the player reads times in: tz ZONE.
func (r *run) cmdTZ(a actor, args []string) string {
	if a.Seat == nil {
		return r.t("tz is for players: reply to a game mail.")
	}
	if len(args) != 1 {
		return r.t("Write tz ZONE, e.g. tz Europe/Rome (or tz UTC).")
	}
	loc, err := zoneNamed(args[0])
	if err != nil {
		return r.s.reasonIn(r.lang, r.l.Game.Kind, err) + "." // a settings error in the reader's words
	}
	return r.setPref(a, adminTZ+" "+loc.String(), r.t("times are now shown in %s", loc.String()))
}

// cmdNotify sets when a waiting player gets mail: notify every|turn.
func (r *run) cmdNotify(a actor, args []string) string {
	if a.Seat == nil {
		return r.t("notify is for players: reply to a game mail.")
	}
	if len(args) != 1 || (strings.ToLower(args[0]) != NotifyEvery && strings.ToLower(args[0]) != NotifyTurn) {
		return r.t("Write notify turn (one mail when a turn ends) or notify every (a mail after every move).")
	}
	v := strings.ToLower(args[0])
	return r.setPref(a, adminNotify+" "+v, r.s.tr.Command("", r.lang, adminNotify+" "+v))
}

// cmdLang sets the language a player reads: lang it|en (lingua it).
func (r *run) cmdLang(a actor, args []string) string {
	if a.Seat == nil {
		return r.t("lang is for players: reply to a game mail.")
	}
	lang, ok := i18n.ParseLang(strings.Join(args, " "))
	if len(args) != 1 || !ok {
		return r.t("Write lang it (italiano) or lang en (English).")
	}
	r.lang = lang // the answer is in the new language
	return r.setPref(a, adminLang+" "+string(lang), r.t("your mails are now in English"))
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

// setPref records a per-player setting and confirms it to the player.
func (r *run) setPref(a actor, command, done string) string {
	r.admin(a.Name, command)
	r.l.Settings, _ = r.l.Settings.withPref(store.Event{Kind: engine.KindAdmin, Player: a.Name, Command: command})
	r.notify(a.Email, templates.Notice{Kind: "done", To: a.Name, Text: done})
	return ""
}

func init() {
	registerVerbs(
		&serviceVerb{name: "tz", gameHelp: "times in your zone, e.g. tz Europe/Rome", game: (*run).cmdTZ},
		&serviceVerb{name: "notify", gameHelp: "while waiting: a mail per move, or per turn", game: (*run).cmdNotify},
		&serviceVerb{name: "lang", gameHelp: "the language of your mails (lingua it: in italiano)", game: (*run).cmdLang},
	)
}
