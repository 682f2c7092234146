// Package selfplay plays games of any rules engine to the end with random legal
// commands, for tests that need the states real games reach whatever the engine: it
// knows engines only through the engine package's contract (Legal, Apply, ToAct, and
// the optional engine.OptionChecker, engine.Skipper and engine.Sampler).
//
// Legal entries that are patterns are filled in from their text alone where the
// pattern is a number range ("<a…b>", or an optional " [a…b]") or a choice
// ("<4,5,9>"); entries with any
// other placeholder ("<region>=<tokens> …") are skipped. When a player has nothing
// concrete to send, their skip commands (engine.Skipper) are applied, as when a
// deadline passes.
package selfplay

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// DefaultMaxSteps bounds a game's length when Config.MaxSteps is 0.
const DefaultMaxSteps = 20000

// Config is one game to play.
type Config struct {
	// Seed seeds the game's setup and the choice of commands.
	Seed int64
	// Players is the number of seats: 0 means the least the game allows
	// (engine.OptionChecker), else 2.
	Players int
	// Options are the game's options (nil: none).
	Options map[string]json.RawMessage
	// MaxSteps bounds the number of commands (0: DefaultMaxSteps); a game that does not
	// end within it is an error.
	MaxSteps int
	// Fixed are setup fields the game records besides the seed, over those it stamps
	// on new games (engine.SetupStamper): {"rules": 0} plays the rules of games
	// recorded before the current ones.
	Fixed map[string]json.RawMessage
	// OutOfTurn lets players who are not to act play too: now and then one of them
	// sends one of the commands of any moment listed for it (engine.AnyTimer), as a
	// player out of turn may (a game without commands of any moment plays as without
	// it).
	OutOfTurn bool
}

// Step is one state a game reached and the command that led to it.
type Step struct {
	// N counts the commands applied so far (0 for the initial state).
	N int
	// Player gave Command ("" for the initial state).
	Player, Command string
	// State is the state after the command.
	State engine.State
}

// names are the seat names, in order.
var names = [...]string{"ann", "ben", "cy", "dee", "eve", "fay", "gus", "hal"}

// Seats returns the players of an n-seat game, in turn order: ann@example.org,
// ben@example.org … (at most 8).
func Seats(n int) []engine.Player {
	out := make([]engine.Player, 0, n)
	for _, name := range names[:min(n, len(names))] {
		out = append(out, engine.Player{Name: name, Email: name + "@example.org"})
	}
	return out
}

// Configs returns n configurations for g: seeds from seed on, every number of players
// the game allows in turn, and each of the option sets g samples (engine.Sampler) in
// turn, the default options first.
func Configs(g engine.Game, seed int64, n int) []Config {
	lo, hi := 2, 2
	if oc, ok := g.(engine.OptionChecker); ok {
		lo, hi = oc.PlayerRange()
	}
	options := []map[string]json.RawMessage{nil}
	if s, ok := g.(engine.Sampler); ok {
		options = append(options, s.SampleOptions()...)
	}
	out := make([]Config, n)
	for i := range out {
		out[i] = Config{Seed: seed + int64(i), Players: lo + i%(hi-lo+1), Options: options[i%len(options)]}
	}
	return out
}

// Play plays one game of g to its end and calls visit with the initial state and the
// state after every command; an error from visit stops the game and is returned. It
// returns the game's archive (outcomes and hashes recorded). An engine that leaves a
// player to act with nothing to send, lists a command Apply refuses, or does not end
// within MaxSteps commands is an error.
func Play(g engine.Game, cfg Config, visit func(Step) error) (*engine.Archive, error) {
	players := cfg.Players
	if players == 0 {
		players = 2
		if oc, ok := g.(engine.OptionChecker); ok {
			players, _ = oc.PlayerRange()
		}
	}
	if players > len(names) {
		return nil, fmt.Errorf("selfplay: %d players, at most %d", players, len(names))
	}
	maxSteps := cfg.MaxSteps
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	// The setup a new game records: the seed, and the rules version the game stamps
	// on new games (engine.SetupStamper), so that self-play plays the current rules.
	fixed := map[string]json.RawMessage{"seed": json.RawMessage(strconv.FormatInt(cfg.Seed, 10))}
	for k, v := range cfg.Fixed {
		fixed[k] = v
	}
	engine.StampSetup(g, fixed)
	a := &engine.Archive{Format: engine.ArchiveFormat, Game: g.Name(), Options: cfg.Options,
		Setup: mustJSON(fixed), Players: Seats(players)}
	setup, err := a.SetupOf()
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	st, out, err := engine.Start(g, setup, nil)
	if err != nil {
		return nil, fmt.Errorf("selfplay: %s %s: %w", g.Name(), string(mustJSON(cfg.Options)), err)
	}
	a.SetupOutcomes = out
	if err := visit(Step{State: st}); err != nil {
		return a, err
	}
	r := rand.New(rand.NewPCG(uint64(cfg.Seed), 0x5e1f))
	for !st.Finished() {
		if len(a.Events) >= maxSteps {
			return a, fmt.Errorf("selfplay: %s seed %d: no end after %d commands", g.Name(), cfg.Seed, len(a.Events))
		}
		toAct := st.ToAct()
		if len(toAct) == 0 {
			return a, fmt.Errorf("selfplay: %s seed %d: nobody to act in an unfinished game", g.Name(), cfg.Seed)
		}
		who := toAct[r.IntN(len(toAct))]
		if o := outOfTurn(st, a.Players, cfg, r); o != "" {
			who = o
		}
		legal := st.Legal(who)
		var cmds []string
		for _, e := range legal {
			if c := Fill(e, r); c != "" {
				cmds = append(cmds, c)
			}
		}
		if len(cmds) == 0 {
			if sk, ok := st.(engine.Skipper); ok {
				cmds = sk.SkipCommands(who)
			}
			if len(cmds) == 0 {
				return a, fmt.Errorf("selfplay: %s seed %d: %s must act but has no concrete command in %q", g.Name(), cfg.Seed, who, legal)
			}
		} else {
			cmds = []string{cmds[r.IntN(len(cmds))]}
		}
		for _, c := range cmds {
			seq := len(a.Events) + 1
			next, out, err := engine.Step(st, cfg.Seed, seq, who, c, nil)
			if err != nil {
				return a, fmt.Errorf("selfplay: %s seed %d: %s %q (legal %q): %w", g.Name(), cfg.Seed, who, c, legal, err)
			}
			a.Events = append(a.Events, engine.Event{Player: who, Command: engine.Normalize(c), Outcomes: out, Hash: next.Hash()})
			st = next
			if err := visit(Step{N: seq, Player: who, Command: engine.Normalize(c), State: st}); err != nil {
				return a, err
			}
		}
	}
	return a, nil
}

// outOfTurn returns, now and then when cfg plays out of turn, a player who is not to
// act and has commands of any moment to send (the game then plays only those for it:
// Legal lists nothing else for such a player), or "".
func outOfTurn(st engine.State, players []engine.Player, cfg Config, r *rand.Rand) string {
	if !cfg.OutOfTurn {
		return ""
	}
	var may []string
	for _, p := range players {
		if !slices.Contains(st.ToAct(), p.Name) && len(engine.AnyTime(st, p.Name)) > 0 {
			may = append(may, p.Name)
		}
	}
	if len(may) == 0 || r.IntN(4) > 0 {
		return ""
	}
	return may[r.IntN(len(may))]
}

// rangeRe matches the number ranges of Legal patterns: "<a…b>" and " [a…b]".
var rangeRe = regexp.MustCompile(`( \[|<)(\d+)…(\d+)(\]|>)`)

// choiceRe matches the choices of Legal patterns: "<4,5,9>" is one of 4, 5 and 9.
var choiceRe = regexp.MustCompile(`<\d+(?:,\d+)+>`)

// Fill turns a Legal entry into a concrete command: each number range gets a number
// drawn from it (an optional one is left out now and then), each choice one of its
// numbers. It returns "" when the entry has placeholders that are not number ranges
// or choices.
func Fill(entry string, r *rand.Rand) string {
	cmd := choiceRe.ReplaceAllStringFunc(engine.Normalize(entry), func(m string) string {
		alts := strings.Split(m[1:len(m)-1], ",")
		return alts[r.IntN(len(alts))]
	})
	cmd = rangeRe.ReplaceAllStringFunc(cmd, func(m string) string {
		g := rangeRe.FindStringSubmatch(m)
		lo, _ := strconv.Atoi(g[2])
		hi, _ := strconv.Atoi(g[3])
		if hi < lo {
			return m // not a range: left for IsPattern to refuse
		}
		v := strconv.Itoa(lo + r.IntN(hi-lo+1))
		if g[1] == " [" {
			if r.IntN(3) == 0 {
				return ""
			}
			return " " + v
		}
		return v
	})
	if cmd == "" || engine.IsPattern(cmd) {
		return ""
	}
	return cmd
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
