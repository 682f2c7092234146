package service

import "strings"

// The service verb notify (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "notify", gameHelp: "while waiting: a mail per move, or per turn", game: (*run).cmdNotify})
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
	return r.setPref(a, adminNotify, v, r.s.tr.Command("", r.lang, adminNotify+" "+v))
}
