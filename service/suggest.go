package service

import (
	"context"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/typo"
	"github.com/turnmail/turnmail/store"
)

// A mistyped word gets the nearest right one as a suggestion: a game id the lobby
// does not know ("did you mean sw-n9enj?"), a command word a game does not know
// ("did you mean conquista 22?"). Nearest is by edit distance, at most maxTypos, on
// words of at most maxSuggestLen bytes (a longer word gets no suggestion).
const (
	maxTypos      = 2
	maxSuggestLen = 40
)

// nearest returns the candidate nearest to word (at most maxTypos edits, and fewer
// than half of word's letters), and whether there is one; on a tie the first wins.
func nearest(word string, candidates []string) (string, bool) {
	if word == "" || len(word) > maxSuggestLen {
		return "", false
	}
	best, bestD := "", maxTypos+1
	for _, c := range candidates {
		if len(c) > maxSuggestLen+maxTypos {
			continue
		}
		if d := typo.Distance(word, c); d < bestD && 2*d < len([]rune(word)) {
			best, bestD = c, d
		}
	}
	return best, best != ""
}

// nearestGame suggests the game id nearest to id among the games from may learn of:
// the public games that are open or running, and those from plays in, hosts or
// observes ("" when none is near). A private game is never named to a stranger.
func (s *Service) nearestGame(ctx context.Context, from, id string) string {
	if len(id) > maxSuggestLen {
		return ""
	}
	games, err := s.store.Games(ctx)
	if err != nil {
		return ""
	}
	mine := map[string]bool{}
	if seats, err := s.store.SeatsOf(ctx, from); err == nil {
		for _, p := range seats {
			mine[p.GameID] = true
		}
	}
	var ids []string
	for _, g := range games {
		public := !settingsOf(g.Settings).Private && (g.Status == store.GameOpen || g.Status == "" || g.Status == store.GameRunning)
		if public || mine[g.ID] || strings.EqualFold(g.Host, from) {
			ids = append(ids, g.ID)
		}
	}
	best, _ := nearest(id, ids)
	return best
}

// commandSuggestion suggests, for a line of a game reply whose first word (typed,
// in the reader's language) is no command, the legal command of player nearest to
// it: the nearest verb of lang or of English, with the line's arguments when that
// makes a command Legal lists, else that verb's first entry. It returns the
// suggestion in lang's command words ("" when no verb is near).
func (s *Service) commandSuggestion(kind string, lang i18n.Lang, state engine.State, player, typed string, args []string) string {
	legal := state.Legal(player)
	verbs := map[string]string{} // a word the player may mean → its canonical verb
	var words []string
	for _, c := range legal {
		v, _, _ := strings.Cut(c, " ")
		for _, w := range []string{v, s.tr.Word(kind, lang, v)} {
			if _, ok := verbs[w]; !ok {
				verbs[w] = v
				words = append(words, w)
			}
		}
	}
	w, ok := nearest(strings.ToLower(typed), words)
	if !ok {
		return ""
	}
	verb := verbs[w]
	want := strings.TrimSpace(verb + " " + strings.Join(args, " "))
	var first string
	for _, c := range legal {
		if v, _, _ := strings.Cut(c, " "); v != verb {
			continue
		}
		if c == want {
			return s.tr.Command(kind, lang, c)
		}
		if first == "" {
			first = c
		}
	}
	if len(args) > 0 {
		// The rest may be right: if not, the engine will say what is wrong with it.
		return s.tr.Command(kind, lang, want)
	}
	return s.tr.Command(kind, lang, first)
}

// suggest returns, for a line of player's mail whose first word is no command, the
// command that word may have meant now (commandSuggestion) and the word as typed;
// "" for a line of more than maxLineSuggest bytes or a game without command words.
func (r *run) suggest(player, text string) (sug, typed string) {
	kind := r.l.Game.Kind
	if len(text) > maxLineSuggest || r.s.commandWords(kind) == nil {
		return "", ""
	}
	norm := engine.Normalize(text)
	words := strings.Fields(norm)
	cmd, _ := r.s.tr.Canonical(kind, norm)
	f := strings.Fields(cmd)
	if len(words) == 0 || len(f) == 0 {
		return "", ""
	}
	return r.s.commandSuggestion(kind, r.lang, r.state, player, words[0], f[1:]), words[0]
}

// maxLineSuggest bounds the lines suggest reads (a command line is far shorter).
const maxLineSuggest = 1000
