package service

import (
	"strings"

	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb say (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "say", gameHelp: "a message to every player, or to one", game: (*run).cmdSay})
}

// cmdSay carries out say in a reply to a game mail.
func (r *run) cmdSay(a actor, args []string) string {
	if a.Seat == nil {
		return r.t("say is for players: reply to a game mail.")
	}
	words := strings.Fields(cleanChat(r.line))
	if len(words) > 0 {
		words = words[1:] // the verb
	}
	var to []store.Player
	private := false
	if len(args) > 0 {
		if p, ok := r.l.playerByName(strings.TrimRight(args[0], ":,")); ok && len(words) > 1 {
			if p.Name == a.Name {
				return r.t("You cannot say something to yourself: say PLAYER TEXT is for another player.")
			}
			to, private, words = []store.Player{p}, true, words[1:]
		}
	}
	text := strings.Join(words, " ")
	if text == "" {
		return r.t("say takes a message: say TEXT to every player, say PLAYER TEXT to one.")
	}
	if len(text) > maxSayBytes {
		return r.t("Your message is longer than %d characters; nothing was relayed. Send a shorter one.", maxSayBytes)
	}
	if !private {
		for _, p := range r.l.active() {
			if p.Name != a.Name && !strings.EqualFold(p.Email, a.Email) {
				to = append(to, p)
			}
		}
	}
	if len(to) == 0 {
		return r.t("There is no other player to say it to.")
	}
	if why := r.chatLimit(a, to); why != "" {
		return why
	}
	names := make([]string, len(to))
	for i, p := range to {
		names[i] = p.Name
		r.relay(a, p, templates.Move{Player: a.Name, Command: text, Kind: chatKind(private)})
	}
	if private {
		r.admin(a.Name, adminPayload{Act: adminTell, Player: to[0].Name, Text: text})
	} else {
		r.admin(a.Name, adminPayload{Act: adminSay, Text: text})
	}
	r.relay(a, *a.Seat, templates.Move{Player: strings.Join(names, ", "), Command: text, Kind: chatKind(private)})
	return ""
}
