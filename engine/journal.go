package engine

// Journaler is implemented by states that record, while a command is applied, what
// it did: the journal that Narrate reads from the state the command gave. Keeping it
// costs time and memory at every command, so a replay that does not narrate turns it
// off. A game's initial state keeps the journal.
type Journaler interface {
	// WithJournal returns the state (equal in Hash, Legal, View and everything else)
	// whose commands keep the journal, or do not; the states that follow from it do
	// the same. The receiver is not modified.
	WithJournal(on bool) State
}

// WithJournal returns s with its journal turned on or off (s itself when s is no
// Journaler: then every command keeps whatever the game narrates from).
func WithJournal(s State, on bool) State {
	if j, ok := s.(Journaler); ok {
		return j.WithJournal(on)
	}
	return s
}

// Reuser is implemented by states whose Apply can build the new state in the memory
// of a spare state, a state of the same game that nothing refers to any more, instead
// of allocating: a replay that keeps only its last state saves an allocation and its
// garbage per command.
type Reuser interface {
	// ApplyInto is Apply, writing the new state over spare, which must not be the
	// receiver, share memory with it, nor be used again by the caller. On an error
	// spare is left in an undefined state.
	ApplyInto(spare State, player, command string, rng *Rand) (State, error)
}
