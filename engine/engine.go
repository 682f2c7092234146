// Package engine defines the game-independent contract every turnmail rules engine
// implements, the seeded random source whose outcomes are recorded in events, and the
// archive format with its replay.
//
// An engine is pure: no I/O, no clock, no global mutable state. A game is the fold of
// its events through Game.New and State.Apply.
package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Player is one seat of a game, in turn order.
type Player struct {
	Name      string `json:"name"`
	Email     string `json:"email,omitempty"`
	BirthYear int    `json:"birth_year,omitempty"`
}

// Setup is event 0 of a game: everything needed to build the initial state.
type Setup struct {
	// Game is the engine name, for example "smallworld".
	Game string
	// Options are the game options (map, variant …) as given in the archive.
	Options map[string]json.RawMessage
	// Players are listed in turn order; the first one starts.
	Players []Player
	// Seed seeds every random draw of the game.
	Seed int64
	// Fixed is the archive's "setup" object (seed included): fields a game reads to
	// fix what would otherwise be drawn from the seed, such as the order of a stack.
	Fixed json.RawMessage
}

// Game builds initial states of one kind of game.
type Game interface {
	// Name is the engine name used in archives, for example "smallworld".
	Name() string
	// New returns the initial state. Random setup draws come from rng (sequence 0).
	New(setup Setup, rng *Rand) (State, error)
}

// SetupStamper is implemented by games whose rules were corrected after games were
// recorded: SetupStamp returns the setup fields every new game records (its rules
// version), so that archives without them replay under the rules they were played by.
type SetupStamper interface {
	SetupStamp() map[string]json.RawMessage
}

// StampSetup adds g's stamp (SetupStamper) to a new game's setup object, keeping the
// fields the setup already has.
func StampSetup(g Game, setup map[string]json.RawMessage) {
	st, ok := g.(SetupStamper)
	if !ok {
		return
	}
	for k, v := range st.SetupStamp() {
		if _, set := setup[k]; !set {
			setup[k] = v
		}
	}
}

// State is an immutable game position. Apply never modifies its receiver.
type State interface {
	// Apply validates command for player and returns the resulting state. Rule
	// violations are reported as *RuleError (errors.Is(err, ErrIllegal)).
	Apply(player, command string, rng *Rand) (State, error)
	// Legal lists every command player may give now, in the text form a player types.
	// Where choices are combinatorial, an entry is a pattern (it contains '<' or '…')
	// describing the allowed values; IsPattern tells the two apart.
	Legal(player string) []string
	// ToAct lists the players who must act now (several during simultaneous phases);
	// it is empty when the game is finished.
	ToAct() []string
	// Turn is the game-turn marker (1 during the first round).
	Turn() int
	// Finished reports whether the game is over.
	Finished() bool
	// Winners lists the winners of a finished game (more than one on a tie).
	Winners() []string
	// View returns what viewer may see, as a value that marshals to the state JSON of
	// the archive format. An empty viewer means the complete state (archive replay);
	// Observer means the public view.
	View(viewer string) any
	// Hash is a stable digest of the whole state, recorded with each event.
	Hash() string
}

// Observer is the viewer name of the public view given to observers and mailing lists.
const Observer = "*observer*"

// Skipper is implemented by states that define what "no move" means for a player whose
// deadline passed (ending the turn, bidding 0 …).
type Skipper interface {
	// SkipCommands returns the commands applied on player's behalf, or nil when the
	// player has nothing pending.
	SkipCommands(player string) []string
}

// Worder is implemented by games that name their command words: the first word of
// every command they accept, in canonical (lower case) form. The service reads a
// line of a mail that starts with none of them, before the first command or after
// the last, as a greeting or a sign-off rather than a command.
type Worder interface {
	Words() []string
}

// Noter is implemented by states that explain some of their Legal entries: Notes
// returns a note for player's entries where one helps (what a conquest costs, what
// a card gives), keyed by the entry exactly as Legal lists it. Mails show a note
// after its command as a comment, so that the whole line can still be copied.
type Noter interface {
	Notes(player string) map[string]Text
}

// NotesOf returns s's notes for player (nil when s is no Noter).
func NotesOf(s State, player string) map[string]Text {
	if n, ok := s.(Noter); ok {
		return n.Notes(player)
	}
	return nil
}

// Glossary is implemented by games whose named pieces a player may ask about with
// "rules GAME NAME": races, powers, places, relics, cards. Glossary lists them.
type Glossary interface {
	Glossary() []Entry
}

// Entry is one named piece of a game: its English name (a Term), its kind ("race",
// "power", "place", "relic", "card") and what it does. An empty Text means the text
// lives in the "abilities" message catalogue, keyed by the name (Small World's races
// and powers, written by hand); a game that can describe a piece from its data (an
// Empire card) gives the Text.
type Entry struct {
	Name Term
	Kind string
	Text Text
}

// ErrIllegal is matched (errors.Is) by every rule violation.
var ErrIllegal = errors.New("illegal command")

// Text is player-visible text an engine produces, kept language-neutral so that the
// service can render it in the reader's language. Key is the English text with fmt
// verbs; it is also the key of the translations in the message catalogues
// (golang.org/x/text/message). Args are its arguments; an argument of type Term is a
// game term (a race, power, card or terrain name) that is translated too.
type Text struct {
	Key  string `json:"key"`
	Args []any  `json:"args,omitempty"`
}

// Textf returns the Text of key with args.
func Textf(key string, args ...any) Text { return Text{Key: key, Args: args} }

// String renders t in English.
func (t Text) String() string {
	if len(t.Args) == 0 {
		return t.Key
	}
	return fmt.Sprintf(t.Key, t.Args...)
}

// Term is a game term used as a Text argument — a race, power, place, card, leader or
// terrain name, in English — which catalogues translate like a message.
type Term string

// Command is a canonical command or Legal pattern ("conquer R", "buy power N") used as
// a Text argument: a reader sees it in the command words of their language.
type Command string

// RuleError is a rule violation a player can act on: what is wrong and what is
// possible instead.
type RuleError struct {
	// Reason says what is wrong, in English, for example "region 12 is not adjacent
	// to your Ratmen".
	Reason string
	// Text is Reason as a translatable text; its Key is empty for errors built
	// without Illegal, whose Reason is then the only form.
	Text Text
	// Instead lists what the player may do instead (possibly empty).
	Instead []string
}

// Error implements error.
func (e *RuleError) Error() string {
	if len(e.Instead) == 0 {
		return e.Reason
	}
	return e.Reason + "; possible: " + strings.Join(e.Instead, ", ")
}

// Is makes errors.Is(err, ErrIllegal) true for every RuleError.
func (e *RuleError) Is(target error) bool { return target == ErrIllegal }

// Illegal returns a *RuleError with a formatted reason.
func Illegal(format string, args ...any) *RuleError {
	t := Textf(format, args...)
	return &RuleError{Reason: t.String(), Text: t}
}

// Normalize returns the canonical text of a command: lower case, single spaces, and
// no comment (a '#' starts one).
func Normalize(command string) string {
	if isNormal(command) {
		return command // the common case (a stored command, a Legal entry): no copy
	}
	if i := strings.IndexByte(command, '#'); i >= 0 {
		command = command[:i]
	}
	return strings.Join(strings.Fields(strings.ToLower(command)), " ")
}

// isNormal reports whether command is its own normal form: ASCII without upper case
// letters, '#' or white space other than single spaces between words.
func isNormal(command string) bool {
	for i := 0; i < len(command); i++ {
		switch c := command[i]; {
		case c >= 0x80 || c == '#' || 'A' <= c && c <= 'Z':
			return false
		case c == ' ':
			if i == 0 || i == len(command)-1 || command[i+1] == ' ' {
				return false
			}
		case c < ' ' || c == 0x7f:
			return false
		}
	}
	return true
}

// IsPattern reports whether a Legal entry is a pattern rather than a concrete command.
func IsPattern(entry string) bool {
	return strings.ContainsAny(entry, "<…[")
}

// HashJSON returns a short hex SHA-256 digest of v's JSON encoding; map keys are
// sorted by encoding/json, so equal values give equal digests.
func HashJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		// Only unsupported types (channels, funcs) fail; states never hold them.
		return "unhashable:" + err.Error()
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// Registry maps engine names to games.
type Registry map[string]Game

// Lookup returns the game called name.
func (r Registry) Lookup(name string) (Game, error) {
	g, ok := r[name]
	if !ok {
		return nil, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(r.Names(), ", "))
	}
	return g, nil
}

// Names lists the registered games in alphabetical order.
func (r Registry) Names() []string {
	names := make([]string, 0, len(r))
	for n := range r {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Masker is implemented by states in which a command can be secret, such as a sealed
// bid. MaskCommand returns command, given by player, as viewer may see it in the list
// of moves, judged on the state after it; the empty viewer sees everything.
type Masker interface {
	MaskCommand(player, command, viewer string) string
}

// MaskCommand returns command as viewer may see it: masked when s is a Masker,
// unchanged otherwise.
func MaskCommand(s State, player, command, viewer string) string {
	if m, ok := s.(Masker); ok {
		return m.MaskCommand(player, command, viewer)
	}
	return command
}
