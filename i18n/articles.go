package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"unicode"
)

// articlesFile is catalog/LANG/articles.json: the definite article of game terms in
// that language, keyed by the term's name in that language ("Amazzoni": "le"). Keys
// starting with "_" are comments. A term it does not list takes the language's
// default (English "the"; Italian the masculine plural, "i" or "gli" by its first
// letters, as most names of races and powers are).
type articlesFile map[string]string

// loadArticles reads the articles of every language.
func loadArticles() (map[Lang]map[string]string, error) {
	out := map[Lang]map[string]string{}
	for _, l := range Langs {
		raw, err := fs.ReadFile(files, "catalog/"+string(l)+"/articles.json")
		if err != nil {
			return nil, fmt.Errorf("read articles: %w", err)
		}
		var f articlesFile
		if err := json.Unmarshal(raw, &f); err != nil {
			return nil, fmt.Errorf("articles %s: %w", l, err)
		}
		out[l] = map[string]string{}
		for name, art := range f {
			if strings.HasPrefix(name, "_") {
				continue
			}
			out[l][name] = art
		}
	}
	return out, nil
}

// withArticle returns name (a term's name in lang) with its definite article.
func (b *Bundle) withArticle(lang Lang, name string) string {
	art, ok := b.articles[lang][name]
	if !ok {
		art = defaultArticle(lang, name)
	}
	switch {
	case art == "":
		return name
	case strings.HasSuffix(art, "'"): // elided: l'Altare
		return art + name
	}
	return art + " " + name
}

// defaultArticle is lang's article for a name articles.json does not list.
func defaultArticle(lang Lang, name string) string {
	if lang != Italian {
		return "the"
	}
	r := []rune(strings.ToLower(name))
	if len(r) == 0 {
		return "i"
	}
	switch {
	case strings.ContainsRune("aeiouàèéìòù", r[0]), r[0] == 'z', r[0] == 'x', r[0] == 'y':
		return "gli"
	case r[0] == 's' && len(r) > 1 && !strings.ContainsRune("aeiou", r[1]) && unicode.IsLetter(r[1]):
		return "gli"
	case strings.HasPrefix(string(r), "gn"), strings.HasPrefix(string(r), "ps"):
		return "gli"
	}
	return "i"
}

// termArg is a game term as a message argument: "%s" prints its name in the reader's
// language, "%#s" the name with its definite article ("the Giants", "i Giganti").
type termArg struct {
	name, the string
}

// Format implements fmt.Formatter.
func (t termArg) Format(f fmt.State, verb rune) {
	if (verb == 's' || verb == 'v') && f.Flag('#') {
		fmt.Fprint(f, t.the)
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), t.name)
}

// stringArg is a plain string as a message argument (a player's name, a message):
// "%s" prints it as it is; "%#s" prints it as the object of "to", which Italian
// writes "a bob", "ad alice" (and English leaves to its format: "to %s").
type stringArg struct {
	s    string
	lang Lang
}

// Format implements fmt.Formatter.
func (a stringArg) Format(f fmt.State, verb rune) {
	if (verb == 's' || verb == 'v') && f.Flag('#') {
		fmt.Fprint(f, dative(a.lang, a.s))
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), a.s)
}

// dative is s after the preposition "to" in lang: Italian "ad" before an a, "a"
// otherwise; English s alone (its formats write the preposition).
func dative(lang Lang, s string) string {
	if lang != Italian {
		return s
	}
	if strings.HasPrefix(strings.ToLower(s), "a") {
		return "ad " + s
	}
	return "a " + s
}
