package templates

import (
	"strings"

	"github.com/turnmail/turnmail/templates/doc"
)

// gameMail is a game's part of its mails, each a list of blocks in the reader's
// words.
type gameMail interface {
	// board is the state as the reader's next move needs it: what changed since
	// their last mail and what they may act on, with their own pieces' texts.
	board(w words, b board) []doc.Block
	// details is the rest, short, for the mail's details section.
	details(w words, b board) []doc.Block
	// full is the whole board (the answer to map).
	full(w words, b board) []doc.Block
	// help explains the verbs and patterns of the reader's legal commands.
	help(w words, b board) []doc.Block
	// pieces says what every piece in play does (the answer to rules, in a game).
	pieces(w words, b board) []doc.Block
}

// board is what a game's part of a mail is built from.
type board struct {
	Game Game
	// View is the engine's view for the reader, decoded from its JSON.
	View map[string]any
	// Player is the reader's seat ("" for an observer).
	Player string
	// Changed are the ids of the regions that changed since the reader's last mail.
	Changed []string
	// Legal are the reader's legal commands, in their words, and AnyTime those of
	// any moment.
	Legal, AnyTime []string
	// Lang is the reader's language.
	Lang string
	// Pictured is true when the mail carries the board's picture, which the HTML
	// part shows instead of a drawing of its own.
	Pictured bool
}

// boardOf returns the board of a mail's data.
func boardOf(g Game, view map[string]any, player string, changed, legal []string, lang string) board {
	if view == nil {
		view = map[string]any{}
	}
	return board{Game: g, View: view, Player: player, Changed: changed, Legal: legal, Lang: lang}
}

// gameMail returns the part of a game's mails for game kind.
func (s *Set) gameMail(kind string) gameMail {
	switch Family(kind) {
	case "smallworld":
		return smallWorld{}
	case "empire":
		return empire{}
	case "dungeoneer":
		return dungeon{}
	}
	return generic{}
}

// generic is the part of the mails of a game without its own (the test game
// tally): the turn and the players' scores.
type generic struct{}

func (generic) board(w words, b board) []doc.Block {
	if len(b.View) == 0 {
		return nil
	}
	l := &doc.List{Title: doc.L(w.t("Turn %s", Str(b.View["turn"])))}
	for _, p := range objs(b.View["players"]) {
		name := Str(p["name"])
		l.Items = append(l.Items, doc.Item{Line: append(playerCell(w, b.View, name, name == b.Player), doc.T(": "+Str(p["score"])))})
	}
	return []doc.Block{l}
}

func (generic) details(words, board) []doc.Block { return nil }

func (g generic) full(w words, b board) []doc.Block { return g.board(w, b) }

func (generic) help(words, board) []doc.Block { return nil }

func (generic) pieces(words, board) []doc.Block { return nil }

// verbsOf returns the distinct first words of commands, canonical (the reader's
// words read back by game's words), in their order.
func verbsOf(w words, game string, legal []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range legal {
		canon, _ := w.tr.Canonical(game, c)
		f := strings.Fields(canon)
		if len(f) == 0 {
			continue
		}
		v := strings.ToLower(f[0])
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// hasVerb reports whether a legal list offers verb (canonical).
func hasVerb(w words, game string, legal []string, verb string) bool {
	for _, v := range verbsOf(w, game, legal) {
		if v == verb {
			return true
		}
	}
	return false
}
