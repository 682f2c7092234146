package service

import (
	"context"
	"strings"

	"github.com/turnmail/turnmail/templates"
)

// The service verb rules (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "rules", who: anyone, info: true,
		lobbyHelp: "a game's rules in short, or what NAME does (a race, power, place, relic or card)",
		gameHelp:  "the game's rules in short and what every piece in play does, or what NAME does",
		game:      (*run).cmdRules,
		lobby: func(s *Service, _ context.Context, c lobbyCall) (templates.Notice, error) {
			return s.lobbyRules(c.tx, c.args), nil
		}})
}

// cmdRules answers rules in a game: the game's rules in short and what every piece
// in play does; with a name, what that race, power, place, relic or card does.
func (r *run) cmdRules(a actor, args []string) string {
	if len(args) > 0 {
		tx := &lobbyTx{s: r.s, lang: r.langTo(a.Email)}
		n := r.s.lobbyRules(tx, append([]string{r.l.Game.Kind}, args...))
		if n.Kind == templates.Error {
			return n.Text
		}
		n.To = r.toName(a)
		r.notify(a.Email, n)
		return ""
	}
	view, err := viewMap(r.state.View(r.viewerFor(a)))
	if err != nil {
		r.s.log.Error("rules: view", "game", r.l.Game.ID, "err", err)
		view = nil
	}
	r.notify(a.Email, templates.Notice{Kind: templates.Rules, To: r.toName(a), View: view})
	return ""
}

// lobbyRules answers "rules GAME [NAME]": the game's summary, or what its race,
// power, place, relic or card NAME does. NAME is English or Italian, in any case;
// it may have spaces ("Dragon Master", "uomini ratto").
func (s *Service) lobbyRules(tx *lobbyTx, args []string) templates.Notice {
	if len(args) == 0 {
		return lobbyError(tx.t("Write rules GAME, or rules GAME NAME for a race, power or card, e.g. rules %s.", s.games.Names()[0]))
	}
	kind := strings.ToLower(args[0])
	g, err := s.games.Lookup(kind)
	if err != nil {
		return lobbyError(s.unknownGame(tx.lang, kind))
	}
	if len(args) == 1 {
		return templates.Notice{Kind: "rules", Game: templates.Game{Kind: kind, Title: templates.GameTitle(kind)}}
	}
	name := strings.Join(args[1:], " ")
	e, ok := s.glossaryEntry(g, name)
	if !ok {
		return lobbyError(tx.t("%s has no race, power, place, relic or card named %q; the offer and the state mails name them, and rules %s sums up the game.", templates.GameTitle(kind), name, kind))
	}
	text := s.tr.Text(tx.lang, e.Text)
	if e.Text.Key == "" {
		text, _ = s.tr.About(tx.lang, string(e.Name))
	}
	return templates.Notice{Kind: "rule", Game: templates.Game{Kind: kind, Title: templates.GameTitle(kind)},
		Text: templates.AboutLine(s.tr, tx.lang, e.Name, e.Kind, text)}
}
