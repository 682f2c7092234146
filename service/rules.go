package service

import (
	"context"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/templates"
)

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

// glossaryEntry finds the piece of game g named name: its English name or its name in
// any language, in any case, with surrounding blanks and quotes ignored.
func (s *Service) glossaryEntry(g engine.Game, name string) (engine.Entry, bool) {
	gl, ok := g.(engine.Glossary)
	if !ok {
		return engine.Entry{}, false
	}
	name = strings.Trim(strings.Join(strings.Fields(name), " "), `"“”`)
	term, _ := s.tr.TermOf(name)
	for _, e := range gl.Glossary() {
		if strings.EqualFold(string(e.Name), name) || term != "" && strings.EqualFold(string(e.Name), term) {
			return e, true
		}
	}
	return engine.Entry{}, false
}

func init() {
	registerVerbs(&serviceVerb{name: "rules", who: anyone, info: true,
		lobbyHelp: "a game's rules in short, or what NAME does (a race, power, place, relic or card)",
		gameHelp:  "the game's rules in short and what every piece in play does, or what NAME does",
		game:      (*run).cmdRules,
		lobby: func(s *Service, _ context.Context, c lobbyCall) (templates.Notice, error) {
			return s.lobbyRules(c.tx, c.args), nil
		}})
}
