package templates

import (
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
)

// aboutFormats is how a piece is presented with its text, by kind (engine.Entry).
var aboutFormats = map[string]string{
	"race":  "%s (race): %s",
	"power": "%s (special power): %s",
	"place": "%s (place): %s",
	"relic": "%s (relic): %s",
	"card":  "%s (card): %s",
}

// AboutLine presents the piece name of kind kind with what it does, text, in lang:
// "Ratmen (race): No ability: …" (the answer to "rules GAME NAME", the lines of the
// Small World state mail under the combos).
func AboutLine(tr *i18n.Bundle, lang i18n.Lang, name engine.Term, kind, text string) string {
	format, ok := aboutFormats[kind]
	if !ok {
		format = "%s: %s"
	}
	return tr.Sprintf(lang, format, name, text)
}

// swAbout lists, for the reader player of a Small World view, what the races and
// powers of the reader's own combos (active and in decline) and of the offer do, in
// lang, each once: the texts of the abilities catalogue. An observer ("" player) gets
// the offer's only.
func swAbout(tr *i18n.Bundle, lang, player string, view map[string]any) []string {
	var out []string
	seen := map[string]bool{}
	add := func(combo any) {
		c, _ := combo.(map[string]any)
		for _, kind := range []string{"race", "power"} {
			name, _ := c[kind].(string)
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			if text, ok := tr.About(i18n.Lang(lang), name); ok {
				out = append(out, AboutLine(tr, i18n.Lang(lang), engine.Term(name), kind, text))
			}
		}
	}
	players, _ := view["players"].([]any)
	for _, p := range players {
		pm, _ := p.(map[string]any)
		if player == "" || pm["name"] != player {
			continue
		}
		add(pm["active"])
		declined, _ := pm["declined"].([]any)
		for _, d := range declined {
			add(d)
		}
	}
	offer, _ := view["offer"].([]any)
	for _, c := range offer {
		add(c)
	}
	return out
}
