package service

// The service verb tz (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "tz", gameHelp: "times in your zone, e.g. tz Europe/Rome", game: (*run).cmdTZ})
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
	return r.setPref(a, adminTZ, loc.String(), r.t("times are now shown in %s", loc.String()))
}
