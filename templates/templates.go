// Package templates holds every text a player or host reads in a mail, as Go
// text/template (plain-text part) and html/template (HTML part) files embedded in the
// binary. Each mail kind K has K.txt.tmpl and K.html.tmpl; game-specific state sections
// are the templates "state-GAME" defined in GAME.txt.tmpl / GAME.html.tmpl, with
// "state-generic" as the fallback.
package templates

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	htmltemplate "html/template"
	"regexp"
	"strings"
	texttemplate "text/template"
	"unicode/utf8"

	"github.com/turnmail/turnmail/i18n"
)

//go:embed *.tmpl
var files embed.FS

// Set is the parsed templates.
type Set struct {
	text *texttemplate.Template
	html *htmltemplate.Template
}

// Load parses the embedded templates.
func Load() (*Set, error) {
	tr, err := i18n.Load()
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	funcs := map[string]any{
		"t":     func(lang, key string, args ...any) string { return tr.Sprintf(i18n.Lang(lang), key, args...) },
		"term":  func(lang string, v any) string { return tr.Term(i18n.Lang(lang), Str(v)) },
		"tHTML": func(lang, key string, args ...any) htmltemplate.HTML { return tHTML(tr, i18n.Lang(lang), key, args...) },
		"code": func(v any) htmltemplate.HTML {
			return htmltemplate.HTML("<code>" + htmltemplate.HTMLEscapeString(Str(v)) + "</code>")
		},
		"join":             strings.Join,
		"upper":            strings.ToUpper,
		"title":            Title,
		"family":           Family,
		"add":              func(a, b int) int { return a + b },
		"str":              func(v any) string { return Str(v) },
		"strs":             Strs,
		"pieces":           func(lang string, v any) string { return Pieces(tr, lang, v) },
		"name":             func(lang string, v any) string { return DisplayName(tr, lang, Str(v)) },
		"symbols":          func(lang string, v any) []string { return SymbolNames(tr, lang, v) },
		"owner":            func(lang string, v any) string { return Owner(tr, lang, v) },
		"combo":            func(lang string, race, power any) string { return Combo(tr, lang, race, power) },
		"terrainWidth":     func(lang string, regions any, least int) int { return TerrainWidth(tr, lang, regions, least) },
		"num":              Num,
		"terms":            func(lang string, v any) []string { return Terms(tr, lang, v) },
		"mapKeyPieces":     func(lang string, volcano bool) string { return MapKeyPieces(tr, lang, volcano) },
		"cmd":              func(lang, c string) string { return tr.Command(verbsGame, i18n.Lang(lang).Or(i18n.English), c) },
		"note":             VerbNote,
		"undergroundBoard": UndergroundBoard,
		"verbs": func(commands []string, known ...string) []string {
			return Verbs(canonicalVerbs(tr, commands), known...)
		},
		"has":       func(m map[string]any, k string) bool { _, ok := m[k]; return ok },
		"row":       Row,
		"noted":     Noted,
		"swAbout":   func(lang, player string, view map[string]any) []string { return swAbout(tr, lang, player, view) },
		"board":     Board,
		"withLang":  WithLang,
		"page":      func(v any, lang string) Page { return Page{Value: v, Lang: lang} },
		"pageValue": func(v any) any { return pageOf(v).Value },
		"pageLang":  func(v any) string { return pageOf(v).Lang },
		"word":      func(lang, cmd string) string { return tr.Command("", i18n.Lang(lang).Or(i18n.English), cmd) },
		"indent": func(n int, s string) string {
			pad := strings.Repeat(" ", n)
			return pad + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
		},
	}
	for k, f := range dungeonFuncs(tr) {
		funcs[k] = f
	}
	for k, f := range empireFuncs(tr) {
		funcs[k] = f
	}
	text, err := texttemplate.New("").Funcs(funcs).ParseFS(files, "*.txt.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parse text templates: %w", err)
	}
	html, err := htmltemplate.New("").Funcs(funcs).ParseFS(files, "*.html.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parse html templates: %w", err)
	}
	return &Set{text: text, html: html}, nil
}

// Render executes mail kind (for example "state") with data and returns the plain-text
// and the HTML part.
func (s *Set) Render(kind string, data any) (text, html string, err error) {
	var tb, hb bytes.Buffer
	if err := s.text.ExecuteTemplate(&tb, kind+".txt.tmpl", data); err != nil {
		return "", "", fmt.Errorf("render %s (text): %w", kind, err)
	}
	htmlData, err := s.page(kind, data)
	if err != nil {
		return "", "", err
	}
	if err := s.html.ExecuteTemplate(&hb, kind+".html.tmpl", htmlData); err != nil {
		return "", "", fmt.Errorf("render %s (html): %w", kind, err)
	}
	return tidy(tb.String()), hb.String(), nil
}

// NoticePage is the data of a notice's HTML part: the notice and, as the page's
// title, the mail's subject (what it is about, for a notice of a started game).
type NoticePage struct {
	Title string
	Notice
}

// LobbyPage is the data of a lobby answer's HTML part: the answers and, as the
// page's title, the mail's subject.
type LobbyPage struct {
	Title string
	Lobby
}

// page wraps the data of the short administrative mails (notice, lobby) with their
// subject, the title of their HTML part; other kinds' data is used as it is.
func (s *Set) page(kind string, data any) (any, error) {
	switch d := data.(type) {
	case Notice:
		if len(d.Game.Players) > 0 { // the game's one subject: the title says what it is about
			title, err := s.line("topic-notice", data)
			return NoticePage{Title: title, Notice: d}, err
		}
		title, err := s.Subject(kind, data)
		return NoticePage{Title: title, Notice: d}, err
	case Lobby:
		if len(d.Game.Players) > 0 && len(d.Answers) > 0 { // the game's one subject: the title says what it is about
			title, err := s.line("topic-lobby", d.Answers[0])
			return LobbyPage{Title: title, Lobby: d}, err
		}
		title, err := s.Subject(kind, data)
		return LobbyPage{Title: title, Lobby: d}, err
	}
	return data, nil
}

// Subject executes the one-line template "subject-KIND" and returns it trimmed.
func (s *Set) Subject(kind string, data any) (string, error) { return s.line("subject-"+kind, data) }

// line executes the text template name with data as one line of words.
func (s *Set) line(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := s.text.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("render %s: %w", name, err)
	}
	return strings.Join(strings.Fields(b.String()), " "), nil
}

// HasState reports whether a game-specific state section exists for game.
func (s *Set) HasState(game string) bool { return s.text.Lookup("state-"+game) != nil }

// tidy trims trailing spaces and collapses runs of more than one blank line, so that
// templates can be written legibly.
func tidy(s string) string {
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	blank := 0
	for _, l := range lines {
		if l != "-- " { // the signature separator keeps its space
			l = strings.TrimRight(l, " \t")
		}
		if l == "" {
			blank++
			if blank > 1 || len(out) == 0 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, wrap(l)...)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n") + "\n"
}

// MaxLine is the longest line of a plain-text part, in characters, so that text
// clients and quoting ("> ") do not break lines (RFC 5322 recommends 78).
const MaxLine = 78

// commandIndent is the indentation of a line that is a command to copy.
const commandIndent = "    "

// numberedRow matches the start of an indented row that begins with a number (a
// region, an offer's position, an event), perhaps marked "*": "  12 ", " * 3 ",
// "  1. ".
var numberedRow = regexp.MustCompile(`^[ *]*\d+\.? +`)

// wrap breaks a line longer than MaxLine at spaces. A command line — indented by
// exactly four spaces, a command with perhaps a "# note" — is kept whole, so that it
// can be copied into a reply; a table row (four spaces, a first column, a gap of two
// spaces or more, the rest) continues under its second column; any other line
// continues under its own indentation, an indented list item ("- ", "! ") or a
// numbered row ("  12 forest …") under its text, so that no continuation looks like a
// row of its own. A word longer than the width stays whole.
// Breaks in a line without indentation are soft (RFC 3676 format=flowed: the
// broken line ends in a space), so that clients that reflow join them again.
func wrap(l string) []string {
	if utf8.RuneCountInString(l) <= MaxLine {
		return []string{l}
	}
	body := strings.TrimLeft(l, " ")
	cut := len(l) - len(body) // the text before cut is kept as it is, the rest is wrapped
	if cut > 0 && (strings.HasPrefix(body, "- ") || strings.HasPrefix(body, "! ")) {
		cut += 2 // a list item ("- " or "! ") continues under its text
	} else if n := numberedRow.FindString(l); n != "" && cut > 0 {
		cut = len(n) // a numbered row continues under its text, never under its number
	} else if l[:cut] == commandIndent {
		gap := strings.Index(body, "  ")
		if gap < 0 || strings.HasPrefix(strings.TrimLeft(body[gap:], " "), "#") {
			return []string{l}
		}
		col := cut + gap + len(body[gap:]) - len(strings.TrimLeft(body[gap:], " "))
		if utf8.RuneCountInString(l[:col]) <= MaxLine/2 {
			cut = col
		}
	}
	prefix, pad := l[:cut], strings.Repeat(" ", utf8.RuneCountInString(l[:cut]))
	soft := "" // a line without indentation breaks softly (format=flowed)
	if cut == 0 {
		soft = " "
	}
	rest := strings.TrimRight(l[cut:], " ")
	var out []string
	for utf8.RuneCountInString(prefix+rest) > MaxLine {
		room := MaxLine - len(soft) - utf8.RuneCountInString(prefix) // in characters
		at := -1                                                     // the byte index of the break
		for i, n := 0, 0; i < len(rest); i++ {
			if rest[i] == ' ' && strings.TrimLeft(rest[:i], " ") != "" && (n <= room || at < 0) {
				at = i
			}
			if utf8.RuneStart(rest[i]) {
				n++
			}
			if n > room && at >= 0 {
				break
			}
		}
		if at < 0 {
			break // one word longer than the line
		}
		out = append(out, prefix+strings.TrimRight(rest[:at], " ")+soft)
		prefix, rest = pad, strings.TrimLeft(rest[at:], " ")
	}
	return append(out, prefix+rest)
}

// tHTML is t for an HTML part whose sentence holds markup: key is translated and
// escaped like any text, its string arguments are escaped, and its HTML arguments
// (code) are put in as they are — "your moves go to <code>ADDRESS</code>". Numbers
// are given to the catalogue as they are, so that they still choose plural forms.
func tHTML(tr *i18n.Bundle, lang i18n.Lang, key string, args ...any) htmltemplate.HTML {
	pass := make([]any, len(args))
	var marks []string // the placeholder of argument i and what replaces it
	for i, a := range args {
		var out string
		switch v := a.(type) {
		case htmltemplate.HTML:
			out = string(v)
		case string:
			out = htmltemplate.HTMLEscapeString(v)
		default:
			pass[i] = a
			continue
		}
		mark := fmt.Sprintf("\ue000%d\ue000", i) // a private-use character: never in a text, kept by escaping
		pass[i] = mark
		marks = append(marks, mark, out)
	}
	text := htmltemplate.HTMLEscapeString(tr.Sprintf(lang, key, pass...))
	return htmltemplate.HTML(strings.NewReplacer(marks...).Replace(text))
}

// Page is the data of the parts every HTML mail shares ("head", "foot", "lines"): a
// value (the title, the reply address, the lines) and the reader's language.
type Page struct {
	Value any
	Lang  string
}

// pageOf reads the data of a shared part: a Page, or a bare value read in English.
func pageOf(v any) Page {
	if p, ok := v.(Page); ok {
		if p.Lang == "" {
			p.Lang = string(i18n.English)
		}
		return p
	}
	return Page{Value: v, Lang: string(i18n.English)}
}

// WithLang returns a copy of a game's view with the reader's language added as
// "Lang", so that the game's state section can translate its texts (see Board, which
// does the same for map games).
func WithLang(view map[string]any, lang string) map[string]any {
	out := make(map[string]any, len(view)+1)
	for k, v := range view {
		out[k] = v
	}
	out["Lang"] = lang
	return out
}

// Title turns a name like "dragon-master" or "lost-tribe" into "Dragon Master".
func Title(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == ' ' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// Str renders a JSON-decoded value compactly: nil as "-", numbers without decimals.
func Str(v any) string {
	switch x := v.(type) {
	case nil:
		return "-"
	case string:
		return x
	case float64:
		if x == float64(int64(x)) {
			return fmt.Sprint(int64(x))
		}
		return fmt.Sprint(x)
	case bool:
		if x {
			return "yes"
		}
		return "no"
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// Text executes only the plain-text template of kind (for terminal output).
func (s *Set) Text(kind string, data any) (string, error) {
	var tb bytes.Buffer
	if err := s.text.ExecuteTemplate(&tb, kind+".txt.tmpl", data); err != nil {
		return "", fmt.Errorf("render %s (text): %w", kind, err)
	}
	return tidy(tb.String()), nil
}

// Strs renders each element of a JSON-decoded list with Str.
func Strs(v any) []string {
	list, _ := v.([]any)
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = Str(x)
	}
	return out
}

// verbsGame is the game whose command words the "verbs" template function reads: its
// only caller explains Small World's verbs (Necromancer Island and Underground share
// its words).
const verbsGame = "smallworld"

// canonicalVerbs returns legal entries with their words canonical (English), as they
// are listed in either language, so that Verbs finds the verbs a template explains.
func canonicalVerbs(tr *i18n.Bundle, commands []string) []string {
	out := make([]string, len(commands))
	for i, c := range commands {
		out[i], _ = tr.Canonical(verbsGame, c)
	}
	return out
}

// Verbs returns the distinct first words of the commands that are among known, in
// the order of known: the verbs of a legal list that a template explains.
func Verbs(commands []string, known ...string) []string {
	have := map[string]bool{}
	for _, c := range commands {
		if f := strings.Fields(c); len(f) > 0 {
			have[strings.ToLower(f[0])] = true
		}
	}
	var out []string
	for _, k := range known {
		if have[k] {
			out = append(out, k)
		}
	}
	return out
}

// Noted returns the legal entries as a mail lists them: each with its note, if it
// has one, as a comment after it ("conquer 9   # 3 tokens: 2 + 1 mountain"), so that
// the whole line can be copied into a reply.
func Noted(legal []string, notes map[string]string) []string {
	out := make([]string, len(legal))
	for i, e := range legal {
		out[i] = e
		if n, ok := notes[e]; ok && n != "" {
			out[i] = e + "   # " + n
		}
	}
	return out
}
