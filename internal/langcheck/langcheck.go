// Package langcheck finds English left in a text written for an Italian reader: the
// tests' check that an Italian game's mails hold no English sentence (issue 14).
//
// It looks for English words that are no Italian word — the articles, pronouns,
// auxiliaries and prepositions every English sentence has, and the game words a
// mail uses most (turn, region, tokens, cards …) — so an English sentence left in an
// Italian mail is found even when nobody listed it. Addresses, links, file names and
// the text between quotes that stands for what the reader typed are left out.
package langcheck

import (
	"regexp"
	"strings"
	"unicode"
)

// englishWords are words of English sentences that are no Italian word.
var englishWords = wordSet(`
the an and or of to from for with without into onto by at on off as than then
is are was were be been being has have had having does did done not yes
can cannot could may might must will would should shall
you your yours we our us they them their it its it's he him his she her hers
this that these those which who whom whose what when where why how there here
each every any some all none both either neither only also just still yet already
after before since until while during about above below between through over under
up down out again more most less least many much few other another such same own
turn turns game games player players move moves region regions token tokens coin
coins card cards army armies deck hand hands phase life level quest quests hero
heroes monster monsters wound wounds glory peril race races power powers decline
empty next held left right waiting applied line lines reply send legal mail's
host seat seats observer deadline reminder reminders vacation history undo resign
winner winners score scores round rounds bid bids city cities island islands
please thanks hello sorry if else because but
rules rule use used take took taken back cost costs lost place placed points point
new open start join leave help status pick conquer redeploy done
`)

// wordSet reads a space-separated list of words.
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

// notText are the parts of a mail that are no sentence of its language: mail
// addresses, links, Message-IDs, file names, programs' command lines, the options
// of a game, whose names and values are typed in English in every language
// (deadline=48h, expiry=skip|pause), paths and time zones (docs/it/, Europe/Rome),
// code (`turnmail games`), the language codes a command names (lingua it) and game
// ids, whose random letters may spell an English word (swu-cc2be).
var notText = regexp.MustCompile("\\S+@\\S+|https?://\\S+|<[^>\\s]+>|\\S+\\.(?:json|eml|yaml|db)\\b|\\b[a-z]{2,4}-[a-z0-9]{4,6}\\b|" +
	"turnmail (?:replay|export|show|retry|play|new)[^#\\n]*|\\S*[=|/]\\S*|`[^`]*`|\\b(?:lingua|lang) (?:it|en)\\b")

// Allowed words are English words an Italian text may hold as they are: names of
// people, games or pieces that are printed in English in the Italian editions too.
type Allowed map[string]bool

// Rulebook returns the English words a game's Italian rulebook uses as Italian words,
// which that game's Italian mails may hold as they are: Dungeoneer's "round" ("Un
// round è composto da 1 turno giocato da ogni singolo giocatore"). It is nil for a
// game whose rulebook has none.
func Rulebook(game string) Allowed {
	if game == "dungeoneer" {
		return Allowed{"round": true}
	}
	return nil
}

// English returns the English words found in text, each once, in the order they
// first appear, each with its line ("next: «4 foresta — anna ×2; next to 3»"),
// leaving out the words of allow (lower case).
func English(text string, allow Allowed) []string { return english(text, allow, nil) }

// A Checker is English with a memory of the lines it has read, for a test that
// checks many mails of one game: they repeat most of their lines (the board, the
// commands) from one state to the next. Its zero value is ready; it is not safe for
// concurrent use.
type Checker struct {
	lines map[string][]string // a line → its English words, lower case, in order
}

// English is the package's English, remembering each line's words.
func (c *Checker) English(text string, allow Allowed) []string {
	if c.lines == nil {
		c.lines = map[string][]string{}
	}
	return english(text, allow, c.lines)
}

// english is English; memo, when not nil, keeps each line's English words.
func english(text string, allow Allowed, memo map[string][]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		words, ok := memo[line]
		if !ok {
			words = lineWords(line)
			if memo != nil {
				memo[line] = words
			}
		}
		for _, lw := range words {
			if allow[lw] || seen[lw] {
				continue
			}
			seen[lw] = true
			out = append(out, lw+": «"+strings.TrimSpace(line)+"»")
		}
	}
	return out
}

// lineWords returns the English words of one line, lower case, in the order they
// appear (repeated when the line repeats them).
func lineWords(line string) []string {
	var out []string
	clean := notText.ReplaceAllString(line, " ")
	words := strings.FieldsFunc(clean, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	for _, w := range words {
		if lw := strings.ToLower(strings.Trim(w, "'")); englishWords[lw] {
			out = append(out, lw)
		}
	}
	return out
}
