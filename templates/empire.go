package templates

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine/empire"
	"github.com/turnmail/turnmail/i18n"
)

// empireFuncs are the template functions of the Eight-Minute Empire state mail: they
// put the view's data (a phase, a card of the row, the action under way, the neutral
// armies) and the shapes of the legal patterns into the reader's words.
func empireFuncs(tr *i18n.Bundle) map[string]any {
	return map[string]any{
		"emPhase": func(lang string, phase any) string {
			return tr.Text(readerLang(lang), empire.PhaseText(Str(phase)))
		},
		"emCard":   func(lang string, card any) EmpireCard { return empireCard(tr, readerLang(lang), card) },
		"emAction": func(lang string, action any) string { return empireAction(tr, readerLang(lang), action) },
		"emCmd":    func(lang, cmd string) string { return tr.Command("empire", readerLang(lang), cmd) },
		"emWho":    func(lang string, name any) string { return empireWho(tr, readerLang(lang), Str(name)) },
		"emOwners": func(lang string, counts any) string { return empireOwners(tr, readerLang(lang), counts) },
		"emNames": func(lang string, names any) string {
			list := Strs(names)
			for i, n := range list {
				list[i] = tr.Term(readerLang(lang), n)
			}
			return strings.Join(list, ", ")
		},
		"emPatterns": func(lang string, legal []string) []EmpirePattern {
			return EmpirePatterns(tr.Command("empire", readerLang(lang), "<region>"), legal)
		},
	}
}

// readerLang is the language of a mail's data ("" reads English).
func readerLang(lang string) i18n.Lang { return i18n.Lang(lang).Or(i18n.English) }

// EmpireCard is what a card of the row gives, in the reader's words.
type EmpireCard struct {
	Ability, Action string
}

// empireCard words a card of the view's row (a decoded RowCard): its ability and
// action from the card data, or the view's English texts for a card the data does
// not know.
func empireCard(tr *i18n.Bundle, lang i18n.Lang, card any) EmpireCard {
	m, _ := card.(map[string]any)
	ability, action, ok := empire.CardTexts(Str(m["id"]))
	if !ok {
		return EmpireCard{Ability: Str(m["ability"]), Action: Str(m["action"])}
	}
	return EmpireCard{Ability: tr.Text(lang, ability), Action: tr.Text(lang, action)}
}

// empireAction words what is left of the action under way (the view's "action").
func empireAction(tr *i18n.Bundle, lang i18n.Lang, action any) string {
	b, err := json.Marshal(action)
	if err != nil {
		return ""
	}
	var a empire.ActionView
	if json.Unmarshal(b, &a) != nil || len(a.Steps) == 0 {
		return strings.Join(a.Parts, ", ")
	}
	return tr.Text(lang, empire.ActionText(a))
}

// empireWho names an owner of armies in the view: a player by name, the neutral
// armies in the reader's words.
func empireWho(tr *i18n.Bundle, lang i18n.Lang, name string) string {
	if name == empire.Neutral {
		return tr.Term(lang, empire.Neutral)
	}
	return name
}

// empireOwners lists armies or cities by owner (a decoded map of name → count), as
// "ann×2 neutral×1" in the reader's words, by name.
func empireOwners(tr *i18n.Bundle, lang i18n.Lang, counts any) string {
	m, _ := counts.(map[string]any)
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	for i, n := range names {
		names[i] = empireWho(tr, lang, n) + "×" + Str(m[n])
	}
	return strings.Join(names, " ")
}

// EmpirePattern is one shape of the Legal patterns a list uses, which the mail
// explains under it: Kind is "choice" (<3,5>), "range" (<1…6>), "optional"
// ([1…3]), "path" (1>5) and "path-named" (1>2>5, the same shape) or "any" (<region>,
// <n>); Sample shows it as the list does, and for a range (and the optional number of
// armies) Lo and Hi are its bounds, as the first entry of the list that has one
// writes them.
type EmpirePattern struct {
	Kind, Sample string
	Lo, Hi       int
}

// empireShapes are the shapes of Legal patterns, in the order the mail explains them,
// each with what shows it.
var empireShapes = []struct {
	kind, sample string
	re           *regexp.Regexp
}{
	{"choice", "<3,5>", regexp.MustCompile(`<\d+(,\d+)+>`)},
	{"range", "<1…6>", regexp.MustCompile(`<\d+…\d+>`)},
	{"optional", "[1…3]", regexp.MustCompile(` \[\d+…\d+\]`)},
	{"path", "1>5", regexp.MustCompile(`[\d>]>[\d<]`)},
	{"path-named", "1>2>5", regexp.MustCompile(`[\d>]>[\d<]`)},
	{"any", "", regexp.MustCompile(`<[^\d>,…][^>]*>`)},
}

// EmpirePatterns lists the shapes of pattern the legal entries use (in the reader's
// words: region is how the list names <region>), once each.
func EmpirePatterns(region string, legal []string) []EmpirePattern {
	var out []EmpirePattern
	for _, sh := range empireShapes {
		for _, e := range legal {
			cmd, _, _ := strings.Cut(e, "#")
			if m := sh.re.FindString(cmd); m != "" {
				p := EmpirePattern{Kind: sh.kind, Sample: sh.sample}
				switch sh.kind {
				case "any":
					p.Sample = region + ", <n>"
				case "range", "optional":
					// The bounds the list uses: "<8…26>" is explained as 8 to 26.
					p.Sample = strings.TrimSpace(m)
					lo, hi, _ := strings.Cut(strings.Trim(p.Sample, "<>[]"), "…")
					p.Lo, _ = strconv.Atoi(lo)
					p.Hi, _ = strconv.Atoi(hi)
				}
				out = append(out, p)
				break
			}
		}
	}
	return out
}
