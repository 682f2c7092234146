package dungeoneer

import "slices"

// privateDraws are the draws whose recorded outcomes show hidden cards: the order of
// the quest, map and adventure decks (hands are dealt from it), the reshuffled
// discards, and the index of a random discard from a hand. Initiative, hero deal and
// dice are public.
var privateDraws = []string{"quests", "maps", "deck", "reshuffle", "discard"}

// HiddenOutcome implements engine.Redactor: the deck orders and random discards are
// hidden from every player and observer.
func (Game) HiddenOutcome(name, viewer string) bool { return slices.Contains(privateDraws, name) }

// HiddenSetup implements engine.Redactor: the seed reproduces every shuffle, so it is
// hidden; the game has no other setup field.
func (Game) HiddenSetup(field, viewer string) bool { return field == "seed" }
