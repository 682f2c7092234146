package service

import (
	"strings"

	"github.com/turnmail/turnmail/i18n"
)

// The service verb lang (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "lang", gameHelp: "the language of your mails (lingua it: in italiano)", game: (*run).cmdLang})
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
	return r.setPref(a, adminLang, string(lang), r.t("your mails are now in English"))
}
