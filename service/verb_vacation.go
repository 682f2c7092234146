package service

import "github.com/turnmail/turnmail/templates"

// The service verb vacation (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "vacation", gameHelp: "e.g. vacation 2026-12-24 2026-12-27: your deadlines stretch", game: (*run).cmdVacation})
}

// cmdVacation carries out vacation in a reply to a game mail.
func (r *run) cmdVacation(a actor, args []string) string {
	if a.Seat == nil {
		return r.t("vacation is for players: reply to a game mail.")
	}
	if r.l.Facts.Resigned[a.Name] {
		return r.t(resignedReason)
	}
	syntax := r.t("Write vacation FROM TO with dates as YYYY-MM-DD, e.g. vacation 2026-12-24 2026-12-27 (both days included).")
	if len(args) != 2 {
		return syntax
	}
	iv, ok := parseVacation(args[0], args[1])
	if !ok {
		return syntax
	}
	if !iv.To.After(r.now) {
		return r.t("That vacation is over already.")
	}
	used := 0
	for _, v := range r.l.Facts.Vacations[a.Name] {
		used += v.days()
	}
	limit := r.l.Settings.vacationDays()
	if used+iv.days() > limit {
		return r.t("That is %d days; you have used %d of the %d days of vacation this game allows.", iv.days(), used, limit)
	}
	r.admin(a.Name, adminPayload{Act: adminVacation, From: args[0], To: args[1]})
	r.notify(a.Email, templates.Notice{Kind: "vacation", To: a.Name, Text: r.s.vacationWords(r.langTo(a.Email), args[0], args[1]), Count: used + iv.days(), Limit: limit, Due: r.dueOf(a.Name)})
	return ""
}
