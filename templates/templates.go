// Package templates puts every mail a player or host reads into words. Each mail is
// built once as a small document (package doc: paragraphs, lists, tables, the
// command block, the picture, the details) from its data (State, Refusal, Notice,
// Lobby, HowTo, Cut) and written by doc's two writers as the plain-text and the
// HTML part. Every word comes from the message catalogues (i18n/catalog/LANG), keyed
// by its English format: this package's Go code holds keys, never words of its own.
//
// A state mail leads with the turn (whose move it is, until when), then what
// happened since the reader's last mail, the picture of the board, what changed and
// what the reader may act on, the commands they may send (each a mailto: link in
// HTML), and a short details section; a game's part of it is its gameMail
// (smallworld.go, empire.go, dungeoneer.go). A notice's kind is a NoticeKind, whose
// topic and body are defined once, in notices.go.
package templates

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/templates/doc"
)

// Set renders mails. It is immutable once loaded and safe for concurrent use.
type Set struct {
	tr *i18n.Bundle
}

// Load loads the message catalogues the mails are worded from.
func Load() (*Set, error) {
	tr, err := i18n.Load()
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	return &Set{tr: tr}, nil
}

// Render builds mail kind ("state", "refusal", "notice", "lobby", "howto") from data
// and returns the plain-text and the HTML part.
func (s *Set) Render(kind string, data any) (text, html string, err error) {
	d, err := s.Doc(kind, data)
	if err != nil {
		return "", "", err
	}
	return doc.Text(d), doc.HTML(d), nil
}

// Doc builds the document of mail kind from data: the mail as both parts say it.
func (s *Set) Doc(kind string, data any) (*doc.Doc, error) {
	switch d := data.(type) {
	case State:
		if kind == "state" {
			return s.stateDoc(d), nil
		}
		if kind == "terminal" {
			return s.terminalDoc(d), nil
		}
	case Refusal:
		if kind == "refusal" {
			return s.refusalDoc(d), nil
		}
	case Notice:
		if kind == "notice" {
			return s.noticeDoc(d)
		}
	case Lobby:
		if kind == "lobby" {
			return s.lobbyDoc(d)
		}
	case HowTo:
		if kind == "howto" {
			return s.howtoDoc(d), nil
		}
	case Cut:
		if kind == "cut" {
			return s.cutDoc(d), nil
		}
	}
	return nil, fmt.Errorf("render %s: no such mail for %T", kind, data)
}

// Text builds only the plain-text part of kind (the terminal's view of a state,
// the note that ends a mail cut to the size limit).
func (s *Set) Text(kind string, data any) (string, error) {
	d, err := s.Doc(kind, data)
	if err != nil {
		return "", err
	}
	return doc.Text(d), nil
}

// Subject returns the subject of mail kind: every mail of a started game has the
// game's one subject ("[sw-ab12] Small World — alice, bob"), so that mail clients
// keep the game in one conversation; what a mail is about is its first line.
func (s *Set) Subject(kind string, data any) (string, error) {
	var subject string
	switch d := data.(type) {
	case State:
		subject = s.gameSubject(d.Game, d.Lang)
	case Refusal:
		subject = s.gameSubject(d.Game, d.Lang)
	case Notice:
		subject = s.noticeSubject(d)
	case Lobby:
		switch {
		case len(d.Game.Players) > 0: // every answer is about one game: its thread
			subject = s.gameSubject(d.Game, d.Lang)
		case len(d.Answers) == 0:
			return "", fmt.Errorf("subject of %s: a lobby answer without answers", kind)
		default:
			subject = "turnmail: " + s.lobbyTopic(d.Answers[0])
		}
	case HowTo:
		subject = s.words(d.Lang).t("How to send your moves to turnmail")
	default:
		return "", fmt.Errorf("subject of %s: no such mail for %T", kind, data)
	}
	return oneLine(subject), nil
}

// gameSubject is the one subject of a game's mails: its id and title, the same
// from its opening in the lobby on.
func (s *Set) gameSubject(g Game, lang string) string {
	return "[" + g.ID + "] " + s.words(lang).term(g.Title)
}

// oneLine joins the words of s with single spaces: a subject is one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// words puts one reader's mail into words: the catalogues in the reader's language.
type words struct {
	tr   *i18n.Bundle
	lang i18n.Lang
}

// words returns the words of a reader of lang ("" reads English).
func (s *Set) words(lang string) words {
	return words{tr: s.tr, lang: i18n.Lang(lang).Or(i18n.English)}
}

// t is the translation of key (an English format) with args, in the reader's
// language. Numbers choose plural forms; engine.Term and engine.Text arguments are
// translated too.
func (w words) t(key string, args ...any) string { return w.tr.Sprintf(w.lang, key, args...) }

// rich is t for a sentence that holds runs set apart: each argument that is a
// doc.Inline (a command as code, a name in bold) is put in as a run of its own, the
// rest of the sentence as plain text.
func (w words) rich(key string, args ...any) doc.Line {
	pass := make([]any, len(args))
	runs := map[string]doc.Inline{}
	for i, a := range args {
		in, ok := a.(doc.Inline)
		if !ok {
			pass[i] = a
			continue
		}
		mark := fmt.Sprintf("\ue000%d\ue000", i) // a private-use character: never in a text
		pass[i] = mark
		runs[mark] = in
	}
	text := w.tr.Sprintf(w.lang, key, pass...)
	if len(runs) == 0 {
		return doc.L(text)
	}
	var out doc.Line
	for text != "" {
		i := strings.IndexRune(text, '\ue000')
		if i < 0 {
			out = append(out, doc.T(text))
			break
		}
		j := strings.IndexRune(text[i+3:], '\ue000')
		if j < 0 {
			out = append(out, doc.T(text))
			break
		}
		mark := text[i : i+3+j+3]
		if i > 0 {
			out = append(out, doc.T(text[:i]))
		}
		if in, ok := runs[mark]; ok {
			out = append(out, in)
		} else {
			out = append(out, doc.T(mark))
		}
		text = text[i+3+j+3:]
	}
	return out
}

// prefix is the text of a one-argument format before its argument ("next to " of
// "next to %s"), in the reader's language.
func (w words) prefix(key string) string {
	before, _, _ := strings.Cut(w.tr.Sprintf(w.lang, key, "\x00"), "\x00")
	return before
}

// term is a game term (a race, a card, a game's title) in the reader's language.
func (w words) term(v any) string { return w.tr.Term(w.lang, Str(v)) }

// text is an engine text in the reader's language.
func (w words) text(t engine.Text) string { return w.tr.Text(w.lang, t) }

// cmd is a command of game in the reader's command words ("pick N" → "prendi N").
func (w words) cmd(game, c string) string { return w.tr.Command(game, w.lang, c) }

// word is a command of the service in the reader's command words.
func (w words) word(c string) string { return w.tr.Command("", w.lang, c) }

// code is a command of the service in the reader's words, set as code.
func (w words) code(c string) doc.Inline { return doc.C(w.word(c)) }

// list joins names as a sentence lists them: "ann, ben and cy".
func (w words) list(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return w.t("%s and %s", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
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
	case int:
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

// Strs renders each element of a JSON-decoded list with Str.
func Strs(v any) []string {
	list, _ := v.([]any)
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = Str(x)
	}
	return out
}

// Num returns a JSON-decoded number as an int (0 for anything else), for the texts
// whose plural form it selects.
func Num(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case int:
		return x
	}
	return 0
}

// obj is a JSON-decoded object (nil when v is none).
func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// objs is a JSON-decoded list of objects (the others left out).
func objs(v any) []map[string]any {
	list, _ := v.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
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

// commands is the command block of legal entries with their notes: each a line to
// copy in the text part, a mailto: link to replyTo in the HTML part.
func commands(title doc.Line, legal []string, notes map[string]string, replyTo, subject string) *doc.Commands {
	c := &doc.Commands{Title: title, ReplyTo: replyTo, Subject: subject}
	for _, e := range legal {
		c.Lines = append(c.Lines, doc.Command{Text: e, Note: notes[e], Pattern: engine.IsPattern(e)})
	}
	return c
}

// suggesting is the line of text, which names the command cmd to send instead (a
// typo's nearest command: "did you mean conquista 22?"), with cmd a reply to
// replyTo that sends it (a mailto: link in the HTML part, as in the commands
// block); text as it is when there is no such command or address. The command is
// found from the end: a mistyped word quoted before it may hold it.
func suggesting(text, cmd, replyTo, subject string) doc.Line {
	i := strings.LastIndex(text, cmd)
	if cmd == "" || replyTo == "" || i < 0 {
		return doc.L(text)
	}
	return doc.Line{doc.T(text[:i]), doc.Reply(cmd, replyTo, subject), doc.T(text[i+len(cmd):])}
}

// replySubject is the subject of a reply to a game's mail.
func replySubject(subject string) string { return "Re: " + subject }

// MaxLine is the longest line of a plain-text part (doc.MaxLine): only commands to
// copy are longer.
const MaxLine = doc.MaxLine
