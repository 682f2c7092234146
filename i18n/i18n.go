// Package i18n renders player-visible text in the reader's language: message
// catalogues (golang.org/x/text/message) keyed by the English fmt format, the names of
// game terms (races, powers, places, cards …) and the command words of each game.
//
// Why golang.org/x/text/message: it is the Go project's own localisation library; a
// Printer per language formats like fmt, catalogues are keyed by the English format
// (so engines keep writing English formats and nothing else changes for English
// readers), and plural.Selectf picks the CLDR plural form of each language.
//
// The catalogues are embedded data, one file per language and domain
// (catalog/LANG/DOMAIN.json: service, smallworld, empire, dungeoneer, terms, templates,
// accounts, abilities, words), or a folder of files for a domain kept in parts
// (catalog/LANG/templates/: one file per mail section), loaded and validated by Load:
// a translation must use the same arguments with the same verbs as its key.
package i18n

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"

	"github.com/turnmail/turnmail/engine"
)

//go:embed catalog
var files embed.FS

// Lang is a language a player reads: English or Italian.
type Lang string

// The languages turnmail speaks.
const (
	English Lang = "en"
	Italian Lang = "it"
)

// Langs lists the languages, English first.
var Langs = []Lang{English, Italian}

// ParseLang returns the language named by s ("it", "italiano", "en", "english" …).
func ParseLang(s string) (Lang, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "en", "eng", "english", "inglese":
		return English, true
	case "it", "ita", "italian", "italiano":
		return Italian, true
	}
	return "", false
}

// Or returns l, or def when l is empty.
func (l Lang) Or(def Lang) Lang {
	if l == "" {
		return def
	}
	return l
}

func (l Lang) tag() language.Tag {
	if l == Italian {
		return language.Italian
	}
	return language.English
}

// Domains are the message catalogues of a language, one file each ("mail" holds what
// mail/compose says of an address it refuses, "web" the words of the game's web pages).
// "abilities" holds what each race, power, place and relic does (engine.Entry),
// keyed by its English name; it is looked up by About, not by Sprintf, so that a name
// such as "Forest" never doubles as a message key.
var Domains = []string{"service", "mail", "smallworld", "empire", "dungeoneer", "terms", "templates", "accounts", "abilities", "picture", "web"}

// Bundle is the loaded catalogues, term names and command words. It is immutable
// once loaded and safe for concurrent use.
type Bundle struct {
	printers map[Lang]*message.Printer
	// keys are the message keys of each language and domain.
	keys map[Lang]map[string]map[string]bool
	// terms maps an English term to its name per language; back maps a lower-case
	// name in any language to the English term.
	terms map[Lang]map[string]string
	back  map[string]string
	// about is the abilities domain: the text of each English term per language.
	about map[Lang]map[string]string
	words map[string]*gameWords
	// plural maps a key with plural forms to the argument (1-based) that selects them.
	plural map[string]int
	// forms are the formats of each key per language: its translation, or its
	// plural forms.
	forms map[Lang]map[string][]string
	// articles are the definite articles of term names per language (articles.json).
	articles map[Lang]map[string]string
}

// message is one catalogue entry: a plain translation, or plural forms chosen by
// argument Arg (1-based), formatted with Format.
type entry struct {
	Text   string
	Arg    int    `json:"arg"`
	Format string `json:"format"`
	One    string `json:"one"`
	Other  string `json:"other"`
}

func (e *entry) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Text)
	}
	type plain entry
	return json.Unmarshal(b, (*plain)(e))
}

// Load reads and validates the embedded catalogues.
func Load() (*Bundle, error) {
	b := &Bundle{printers: map[Lang]*message.Printer{}, keys: map[Lang]map[string]map[string]bool{},
		terms: map[Lang]map[string]string{}, back: map[string]string{}, about: map[Lang]map[string]string{},
		plural: map[string]int{}, forms: map[Lang]map[string][]string{}}
	cat := catalog.NewBuilder(catalog.Fallback(language.English))
	for _, l := range Langs {
		b.keys[l] = map[string]map[string]bool{}
		for _, d := range Domains {
			entries, err := readDomain(l, d)
			if err != nil {
				return nil, err
			}
			b.keys[l][d] = map[string]bool{}
			// In key order, so that a name two terms share ("lago": the terrain lake,
			// the Empire card Lake) always reads back as the same one.
			for _, key := range slices.Sorted(maps.Keys(entries)) {
				e := entries[key]
				if strings.HasPrefix(key, "_") {
					continue // a comment: where the names come from
				}
				if err := checkEntry(key, e); err != nil {
					return nil, fmt.Errorf("catalog %s/%s: %w", l, d, err)
				}
				b.keys[l][d][key] = true
				if d == "terms" {
					if b.terms[l] == nil {
						b.terms[l] = map[string]string{}
					}
					b.terms[l][key] = e.Text
					if name := strings.ToLower(e.Text); b.back[name] == "" {
						b.back[name] = key
					}
					if name := strings.ToLower(key); b.back[name] == "" || name == key {
						b.back[name] = key // a term's own name is itself
					}
					continue
				}
				if d == "abilities" {
					if b.about[l] == nil {
						b.about[l] = map[string]string{}
					}
					b.about[l][key] = e.Text
					continue
				}
				if e.Arg > 0 {
					b.plural[key] = e.Arg
				}
				if b.forms[l] == nil {
					b.forms[l] = map[string][]string{}
				}
				if e.Arg > 0 {
					b.forms[l][key] = []string{e.One, e.Other}
				} else {
					b.forms[l][key] = []string{e.Text}
				}
				if err := setEntry(cat, l.tag(), key, e); err != nil {
					return nil, fmt.Errorf("catalog %s/%s %q: %w", l, d, key, err)
				}
			}
		}
	}
	for _, l := range Langs {
		b.printers[l] = message.NewPrinter(l.tag(), message.Catalog(cat))
	}
	w, err := loadWords()
	if err != nil {
		return nil, err
	}
	b.words = w
	if b.articles, err = loadArticles(); err != nil {
		return nil, err
	}
	return b, nil
}

// readDomain reads lang's catalogue of domain: the file catalog/LANG/DOMAIN.json, or
// the files of the folder catalog/LANG/DOMAIN/ (a domain kept in parts, one per mail
// section, so that each stays short); a key may stand in one part only.
func readDomain(l Lang, domain string) (map[string]entry, error) {
	dir := path.Join("catalog", string(l), domain)
	parts, err := fs.Glob(files, path.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("read catalog %s: %w", dir, err)
	}
	if len(parts) == 0 {
		return readEntries(dir + ".json")
	}
	if _, err := fs.Stat(files, dir+".json"); err == nil {
		return nil, fmt.Errorf("catalog %s: both a file and a folder", dir)
	}
	out := map[string]entry{}
	where := map[string]string{}
	for _, p := range parts {
		entries, err := readEntries(p)
		if err != nil {
			return nil, err
		}
		for k, e := range entries {
			if strings.HasPrefix(k, "_") {
				continue
			}
			if prev, dup := where[k]; dup {
				return nil, fmt.Errorf("catalog %s: %q is in both %s and %s", dir, k, path.Base(prev), path.Base(p))
			}
			where[k], out[k] = p, e
		}
	}
	return out, nil
}

func readEntries(name string) (map[string]entry, error) {
	raw, err := fs.ReadFile(files, name)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	var entries map[string]entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("catalog %s: %w", name, err)
	}
	return entries, nil
}

func setEntry(cat *catalog.Builder, tag language.Tag, key string, e entry) error {
	if e.Arg == 0 {
		return cat.SetString(tag, key, e.Text)
	}
	format := e.Format
	if format == "" {
		format = "%d"
	}
	return cat.Set(tag, key, plural.Selectf(e.Arg, format, "one", e.One, "other", e.Other))
}

// checkEntry reports a translation whose arguments differ from its key's: a plain
// translation must use the same arguments with the same verbs; each plural form may
// leave arguments out but use no other.
func checkEntry(key string, e entry) error {
	want := Verbs(key)
	if e.Arg == 0 {
		if e.Text == "" {
			return fmt.Errorf("%q has an empty translation", key)
		}
		if got := Verbs(e.Text); !slices.Equal(got, want) {
			return fmt.Errorf("%q: translation %q uses %v, the key %v", key, e.Text, got, want)
		}
		return nil
	}
	if e.One == "" || e.Other == "" || e.Arg > len(want) {
		return fmt.Errorf("%q: a plural entry needs one, other and an argument of the key", key)
	}
	for _, form := range []string{e.One, e.Other} {
		for _, v := range Verbs(form) {
			if !slices.Contains(want, v) {
				return fmt.Errorf("%q: plural form %q uses %s, not an argument of the key %v", key, form, v, want)
			}
		}
	}
	return nil
}

// Verbs lists the arguments a fmt format uses, as "N:v" (argument number, 1-based, and
// verb), sorted: "%d of %[1]s" gives [1:d 1:s]. Flags, width and precision are left out.
func Verbs(format string) []string {
	var out []string
	arg := 1
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] == '[' {
			end := strings.IndexByte(format[i:], ']')
			if end < 0 {
				return append(out, "bad")
			}
			var n int
			if _, err := fmt.Sscanf(format[i+1:i+end], "%d", &n); err != nil {
				return append(out, "bad")
			}
			arg = n
			i += end + 1
		}
		for i < len(format) && (format[i] >= '0' && format[i] <= '9' || format[i] == '.') {
			i++
		}
		if i >= len(format) {
			return append(out, "bad")
		}
		if format[i] == '%' {
			continue
		}
		out = append(out, fmt.Sprintf("%d:%c", arg, format[i]))
		arg++
	}
	sort.Strings(out)
	return out
}

// Has reports whether lang's domain has a translation of key.
func (b *Bundle) Has(lang Lang, domain, key string) bool { return b.keys[lang][domain][key] }

// textDomains are the domains whose keys the engines' texts are looked up by: what
// an engine records in a state (a journal's happenings) is a key of one of them.
var textDomains = []string{"accounts", "smallworld", "empire", "dungeoneer", "terms", "abilities"}

// TextsDigest is a digest of the keys of the engines' texts in every language: it
// changes when a text's key is added, removed or reworded, and only then (not when a
// translation changes). A state kept with its texts (a snapshot's journal) is read
// back only under the same digest, so that it never holds a key the catalogues no
// longer know.
func (b *Bundle) TextsDigest() string {
	h := sha256.New()
	for _, l := range Langs {
		for _, d := range textDomains {
			for _, k := range slices.Sorted(maps.Keys(b.keys[l][d])) {
				fmt.Fprintf(h, "%s\x00%s\x00%s\n", l, d, k)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Forms returns the formats lang writes key with: its translation, or its plural
// forms ("one", "other"); the key itself when lang has no translation. Tests that
// read mails as a player does match them (a bot that reads Italian).
func (b *Bundle) Forms(lang Lang, key string) []string {
	if f, ok := b.forms[lang][key]; ok {
		return f
	}
	if f, ok := b.forms[English][key]; ok {
		return f
	}
	return []string{key}
}

// HasAny reports whether any domain of lang has a translation of key.
func (b *Bundle) HasAny(lang Lang, key string) bool {
	for _, d := range b.keys[lang] {
		if d[key] {
			return true
		}
	}
	return false
}

// Keys lists the keys of lang's domain.
func (b *Bundle) Keys(lang Lang, domain string) []string {
	var out []string
	for k := range b.keys[lang][domain] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Sprintf formats key in lang: its translation when the catalogue has one, else key
// itself. Arguments that are terms (engine.Term) are given their name in lang, plain
// strings (a player's name) are shown as they are; engine.Text arguments are rendered in lang; an
// engine.Command is given in the service's command words (see GameText for a game's).
func (b *Bundle) Sprintf(lang Lang, key string, args ...any) string {
	return b.sprintf("", lang, key, args...)
}

func (b *Bundle) sprintf(game string, lang Lang, key string, args ...any) string {
	p := b.printers[lang]
	if p == nil {
		p = b.printers[English]
	}
	if len(args) == 0 {
		return p.Sprintf(key)
	}
	tr := make([]any, len(args))
	for i, a := range args {
		tr[i] = b.arg(game, lang, a)
		if i+1 != b.plural[key] {
			tr[i] = plainNumber(tr[i])
		}
	}
	return p.Sprintf(key, tr...)
}

// plain formats a number as fmt does: the Printer would group digits ("5,000",
// "2.026"), which region numbers, counts and years must not be.
type plain struct{ v any }

// Format implements fmt.Formatter.
func (p plain) Format(f fmt.State, verb rune) { fmt.Fprintf(f, fmt.FormatString(f, verb), p.v) }

// plainNumber wraps an integer so that it prints without digit grouping; the
// argument that selects a plural form stays a number.
func plainNumber(a any) any {
	switch a.(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return plain{a}
	}
	return a
}

func (b *Bundle) arg(game string, lang Lang, a any) any {
	switch v := a.(type) {
	case engine.Term:
		name := b.Term(lang, string(v))
		return termArg{name: name, the: b.withArticle(lang, name)}
	case engine.Command:
		return b.Command(game, lang, string(v))
	case engine.Text:
		return b.GameText(game, lang, v)
	case string:
		return stringArg{s: v, lang: lang} // shown as it is: a player's name stays their name
	}
	return a
}

// Text renders t in lang.
func (b *Bundle) Text(lang Lang, t engine.Text) string { return b.GameText("", lang, t) }

// GameText renders t, a text of game's engine, in lang: its engine.Command arguments
// in the game's command words.
func (b *Bundle) GameText(game string, lang Lang, t engine.Text) string {
	if t.Key == "" {
		return ""
	}
	return b.sprintf(game, lang, t.Key, t.Args...)
}

// Term returns the name of an English game term in lang (the English name when there
// is no translation).
func (b *Bundle) Term(lang Lang, term string) string {
	if n, ok := b.terms[lang][term]; ok {
		return n
	}
	return term
}

// About returns what the game term named by its English name does, in lang (in
// English when lang has no text), and whether there is a text.
func (b *Bundle) About(lang Lang, term string) (string, bool) {
	if t, ok := b.about[lang][term]; ok {
		return t, true
	}
	t, ok := b.about[English][term]
	return t, ok
}

// TermOf returns the English term a name in any language stands for
// (case-insensitive), and whether it is one.
func (b *Bundle) TermOf(name string) (string, bool) {
	t, ok := b.back[strings.ToLower(strings.TrimSpace(name))]
	return t, ok
}
