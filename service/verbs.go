package service

import (
	"context"
	"fmt"
	"sort"

	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/templates"
)

// The service's own commands (help, join, undo, vacation …), as opposed to a game's
// moves. Each is registered in its own file, verb_NAME.go, which carries it out,
// by one serviceVerb that says everything the service needs to know of it: where it is understood,
// who may send it, whether it only informs, its help line, and what runs it. The
// Italian words of a verb are in the i18n catalogue (the "service" domain of
// words.json), which turns them into the English name before the verb is looked up.

// sender is who may send a verb to the service address (serviceVerb.who).
type sender int

const (
	// anyone: a verb that names no game (help, games, rules, new).
	anyone sender = iota
	// self: a verb that acts for its sender in the game it names (join, leave,
	// observe, unobserve): without a proof of the sender (credential.proven) it
	// waits for the sender's confirmation.
	self
	// host: a host command on the game it names: only the game's host, from the
	// host reply address, or after confirming from the host's address.
	host
)

// serviceVerb is one service command.
type serviceVerb struct {
	// name is the command word, in English (the canonical word).
	name string
	// who may send it to the service address (for a game verb, the handler checks
	// who may send it in the game: actor).
	who sender
	// info: it only tells something (status, legal, help …): it changes nothing and
	// is answered once per mail however often it is repeated.
	info bool
	// lobbyHelp and gameHelp are the keys (the English texts) of the verb's lines
	// in the help at the service address and in a game (the help notice,
	// templates), translated by the catalogue; "" for a line shared with others
	// ("(host)").
	lobbyHelp, gameHelp string
	// game runs it in a reply to a game mail; nil when it is not understood there.
	// It returns why the line is refused ("" when done).
	game func(r *run, a actor, args []string) string
	// lobby runs it at the service address; nil when it is not understood there.
	lobby func(s *Service, ctx context.Context, c lobbyCall) (templates.Notice, error)
	// pending, for a self verb, is the command the confirmation request shows and
	// runs (verb and game id when nil); a host verb's is the host's own line.
	pending func(id string, args []string) string
}

// lobbyCall is one line of a mail to the service address, for a verb's lobby: the
// verb's arguments (after the game id, for a verb that names one), and the game it
// names (l, with n the answer's notice started for it).
type lobbyCall struct {
	tx     *lobbyTx
	from   string
	args   []string
	msg    *parse.Message
	lineNo int
	cred   credential
	l      *Loaded
	n      templates.Notice
}

// verbs are the registered service verbs by name. It is filled by registerVerbs
// from the init functions of the files that carry the verbs out, and only read
// afterwards.
var verbs = map[string]*serviceVerb{}

// registerVerbs adds service verbs; a name registered twice is a programming error.
func registerVerbs(vs ...*serviceVerb) {
	for _, v := range vs {
		if _, dup := verbs[v.name]; dup || v.name == "" {
			panic(fmt.Sprintf("service: verb %q registered twice", v.name))
		}
		if v.game == nil && v.lobby == nil {
			panic(fmt.Sprintf("service: verb %q is understood nowhere", v.name))
		}
		verbs[v.name] = v
	}
}

// gameVerb is the service verb name understood in a game's reply (nil when none).
func gameVerb(name string) *serviceVerb {
	if v := verbs[name]; v != nil && v.game != nil {
		return v
	}
	return nil
}

// lobbyVerb is the service verb name understood at the service address (nil when
// none).
func lobbyVerb(name string) *serviceVerb {
	if v := verbs[name]; v != nil && v.lobby != nil {
		return v
	}
	return nil
}

// isInfo reports whether name is a service verb that only informs.
func isInfo(name string) bool {
	v := verbs[name]
	return v != nil && v.info
}

// verbNames are the names of the verbs understood in a game's reply (game) or at
// the service address (!game), sorted.
func verbNames(game bool) []string {
	var out []string
	for name, v := range verbs {
		if game && v.game != nil || !game && v.lobby != nil {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// lobbyVerbSet is the set of the verbs understood at the service address.
func lobbyVerbSet() map[string]bool {
	set := map[string]bool{}
	for _, name := range verbNames(false) {
		set[name] = true
	}
	return set
}
