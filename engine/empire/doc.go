// Package empire is the rules engine of Eight-Minute Empire: Legends for turnmail.
//
// The rulebook (shared/rules/eight-minute-empire-legends.it.txt) is the specification;
// docs/empire.md describes the commands, the boards turnmail ships (the printed ones
// are not available as data) and every judgement call. Game{} implements
// engine.Game under the name "empire".
//
// Files by concern: cards.go and boards.go load and validate the embedded data,
// options.go reads the game options, setup.go builds the initial state, state.go holds
// the immutable state, apply.go parses and dispatches commands, turns.go the bid and the
// card row, actions.go the card actions, legal.go the legal commands, score.go the
// scoring and view.go the JSON view.
package empire
