package service

import (
	"strings"

	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb replace (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "replace", who: host, lobbyHelp: "(host) hand a seat to another address", game: (*run).cmdReplace, lobby: hostInGame("replace")})
}

// cmdReplace carries out replace in a reply to a game mail.
func (r *run) cmdReplace(a actor, args []string) string {
	if !r.isHost(a) {
		return r.notHost(r.t("hand a seat to another player"))
	}
	if len(args) != 2 {
		return r.t("Write replace PLAYER ADDRESS, e.g. replace bob carol@example.org.")
	}
	p, ok := r.l.playerByName(args[0])
	if !ok {
		return r.t("There is no player %q in this game.", args[0])
	}
	to, err := recipient(args[1])
	if err != nil {
		return r.s.reasonIn(r.lang, "", err) + "."
	}
	if _, taken := r.l.playerByEmail(to); taken {
		return r.t("%s plays in this game already.", to)
	}
	if r.status == store.GameFinished {
		return r.t("The game is over.")
	}
	if !strings.EqualFold(to, r.consented) {
		// The new address gets the seat only once it confirms from its own mailbox.
		if !mayAsk(r.l, to) {
			return r.t("%s was asked about this game before and did not accept; nothing was sent.", to)
		}
		k := store.Confirmation{Address: to, Actor: a.Email, GameID: r.l.Game.ID, Grant: grantHost,
			Commands: []string{"replace " + r.l.Game.ID + " " + p.Name + " " + to}}
		// The new address is asked in the game's language.
		ask := templates.Notice{Game: r.s.gameData(r.l.Game, r.l.Players), Text: "replace", Actor: a.Email, Player: p.Name, Lang: string(r.s.langOf(r.l.Settings, ""))}
		if err := r.s.ask(&r.c, k, ask, true, a.Email); err != nil {
			return "internal error: " + err.Error()
		}
		r.asked = true
		r.notify(a.Email, templates.Notice{Kind: "replace-asked", Player: p.Name, Address: to})
		return ""
	}
	old := p.Email
	r.admin(a.Name, adminPayload{Act: adminReplace, Player: p.Name, Address: to})
	p.Email, p.Epoch, p.Unreachable = to, p.Epoch+1, ""
	r.c.Players = append(r.c.Players, p)
	for i := range r.l.Players {
		if r.l.Players[i].Seat == p.Seat {
			r.l.Players[i] = p
		}
	}
	r.notify(old, templates.Notice{Kind: "replaced-old", To: p.Name, Player: p.Name, ReplyTo: r.s.address()})
	r.notify(r.l.Game.Host, templates.Notice{Kind: "replaced-host", To: hostTo(r.l.Game.Host, r.l.Players), Player: p.Name, Address: to, ReplyTo: r.s.address()})
	note := templates.Notice{Kind: "replaced-new", Player: p.Name, Host: r.l.Game.Host}
	m, err := r.s.stateMail(r.view(), r.state, p, nil, reply{notes: []templates.Notice{note}})
	if err != nil {
		return "internal error: " + err.Error()
	}
	r.mails = append(r.mails, m)
	return ""
}
