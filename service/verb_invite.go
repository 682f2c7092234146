package service

import (
	"context"

	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb invite (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "invite", who: host, lobbyHelp: "(host) invite someone; they reply to the invitation to join",
		lobby: func(s *Service, _ context.Context, c lobbyCall) (templates.Notice, error) {
			return s.lobbyInvite(c.tx, c.l, c.from, c.args, c.n)
		}})
}

// lobbyInvite sends an invitation — a confirmation request whose reply joins the
// game — to an address not asked about the game before.
func (s *Service) lobbyInvite(tx *lobbyTx, l *Loaded, from string, args []string, n templates.Notice) (templates.Notice, error) {
	id := l.Game.ID
	if len(args) != 2 {
		return lobbyError(tx.t("Write invite GAME-ID ADDRESS, e.g. invite %s carol@example.org.", id)), nil
	}
	if l.Game.Status != store.GameOpen {
		return lobbyError(tx.t("Game %s has started; invite people to observe it instead: observe %s.", id, id)), nil
	}
	to, err := recipient(args[1])
	if err != nil {
		return lobbyError(tx.t("%s. Nobody was invited.", s.reasonIn(tx.lang, "", err))), nil
	}
	if _, ok := l.playerByEmail(to); ok {
		return lobbyError(tx.t("%s plays in game %s already.", to, id)), nil
	}
	if !mayAsk(l, to) {
		return lobbyError(tx.t("%s was asked about game %s before and did not accept; nothing was sent.", to, id)), nil
	}
	lang := s.langOf(l.Settings, "") // the invitation is in the game's language
	inv := templates.Notice{Game: n.Game, Text: "invite", Actor: from, Lines: l.Settings.Describe(s.tr, lang), Lang: string(lang)}
	for _, p := range l.Seats() {
		inv.ToAct = append(inv.ToAct, p.Name)
	}
	c := store.Commit{}
	k := store.Confirmation{Address: to, Actor: to, GameID: id, Grant: grantInvite, Commands: []string{"join " + id}}
	if err := s.ask(&c, k, inv, true, from); err != nil {
		return n, err
	}
	tx.commit(c)
	n.Kind, n.Address = "invited", to
	return n, nil
}
