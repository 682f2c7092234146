package service

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/templates"
)

// Tolerant reading: a player's mail may open with a greeting and end with a
// sign-off. The lines before the first line whose first word is a command word (of
// the game or of the service) and after the last such line are not read as
// commands: the answer quotes them (notice "not-read"). Between commands an unknown
// line still stops reading, as a mistyped move must not pass unnoticed.
const (
	// chatterShown is how many of the lines not read an answer quotes.
	chatterShown = 6
	// chatterEcho is how much of each quoted line the answer repeats.
	chatterEcho = 60
)

// commandWords is the set of words that start a command in a mail to a game of
// kind (see wordsOf); nil when the kind is unknown.
func (s *Service) commandWords(kind string) map[string]bool {
	g, err := s.games.Lookup(kind)
	if err != nil {
		return nil
	}
	return wordsOf(g)
}

// wordsOf is the set of words that start a command in a game of g: the engine's
// (engine.Worder) and the service's in a game (inGame); nil when the engine names
// none, and then every line is read as a command.
func wordsOf(g engine.Game) map[string]bool {
	w, ok := g.(engine.Worder)
	if !ok {
		return nil
	}
	words := map[string]bool{}
	for _, v := range w.Words() {
		words[v] = true
	}
	for _, v := range verbNames(true) {
		words[v] = true
	}
	return words
}

// canonicalIn returns the function giving a command line of a game of kind in its
// canonical (English) words, whatever language the player wrote it in.
func (s *Service) canonicalIn(kind string) func(string) string {
	return func(line string) string {
		canon, _ := s.tr.Canonical(kind, line)
		return canon
	}
}

// chatter splits the command lines of a mail into those read as commands and those
// around them that are not (see Tolerant reading). With no words, or when no line
// starts with one (a mistyped move alone), every line is read: the refusal of the
// first then says what the player can send. canonical, when not nil, gives a
// line's canonical (English) form, so that commands in the player's language count.
func chatter(lines []parse.Line, words map[string]bool, canonical func(string) string) (read, notRead []parse.Line) {
	if words == nil {
		return lines, nil
	}
	isCommand := func(l parse.Line) bool {
		text := engine.Normalize(l.Text)
		if canonical != nil {
			text = canonical(text)
		}
		f := strings.Fields(text)
		return len(f) > 0 && words[f[0]]
	}
	lines = slices.Clone(lines)
	first, last := -1, -1
	for i, l := range lines {
		if first < 0 && !isCommand(l) {
			// "Ciao! unisciti sw-ab12": a greeting before the first command, on its line.
			if rest, ok := withoutGreeting(l.Text); ok && isCommand(parse.Line{Text: rest}) {
				lines[i].Text = rest
			}
		}
		if isCommand(lines[i]) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return lines, nil // no command at all: the first line's refusal names the commands
	}
	notRead = append(append(notRead, lines[:first]...), lines[last+1:]...)
	return lines[first : last+1], notRead
}

// greetingWords may open a command's line on their own ("ciao unisciti sw-ab12").
var greetingWords = map[string]bool{"ciao": true, "salve": true, "buongiorno": true, "buonasera": true, "hi": true, "hello": true, "hey": true}

// maxGreetingWords bounds the words a greeting before a command may have.
const maxGreetingWords = 3

// withoutGreeting returns what follows a greeting at the start of line: at most
// maxGreetingWords words, the last ending in a punctuation mark ("Ciao!", "Hi
// Anna,"), or one greeting word; ok is false when the line opens with none (the
// caller checks that a command follows).
func withoutGreeting(line string) (rest string, ok bool) {
	f := strings.Fields(line)
	for i := 0; i < len(f)-1 && i < maxGreetingWords; i++ {
		w := f[i]
		if strings.ContainsAny(w[len(w)-1:], ",!.:;") || i == 0 && greetingWords[strings.ToLower(w)] {
			return strings.Join(f[i+1:], " "), true
		}
	}
	return "", false
}

// notReadNotice is the answer's note quoting the lines not read as commands (nil
// when there is none): at most chatterShown of them, each cut to chatterEcho bytes,
// with the command suggest says it may have meant (suggest may be nil); its Count is
// how many more there are.
func notReadNotice(lines []parse.Line, suggest func(text string) string) *templates.Notice {
	if len(lines) == 0 {
		return nil
	}
	shown := min(len(lines), chatterShown)
	n := &templates.Notice{Kind: "not-read", Count: len(lines) - shown}
	for _, l := range lines[:shown] {
		q := templates.Line{N: l.N, Text: cut(l.Text, chatterEcho)}
		if suggest != nil {
			q.Suggest = suggest(l.Text)
		}
		n.Quoted = append(n.Quoted, q)
	}
	return n
}

// cut returns text cut to at most max bytes on a rune boundary, marked "…" when cut.
func cut(text string, max int) string {
	if len(text) <= max {
		return text
	}
	for max > 0 && !utf8.RuneStart(text[max]) {
		max--
	}
	return text[:max] + "…"
}
