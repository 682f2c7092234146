package engine

// Responder is implemented by states in which a player can be asked to act out of
// turn, briefly: a response to an attack, a reaction to a card. The service gives
// such a player the game's response deadline (shorter than a turn's), passes for
// them when it expires whatever the expiry policy (Skipper says how), and applies
// their standing orders instead of asking.
type Responder interface {
	// Responding reports whether player is asked to respond now (player is then in
	// ToAct and Legal lists the responses and the command that declines).
	Responding(player string) bool
}

// Responding reports whether s asks player to respond now (false for games without
// responses).
func Responding(s State, player string) bool {
	r, ok := s.(Responder)
	return ok && r.Responding(player)
}

// Asker is implemented by Responders that explain what a player is asked: why they
// must decide now (what happened to them), and otherwise, what is done for them
// when they do not answer in time (their SkipCommands, in words). Both are empty when
// player is not asked.
type Asker interface {
	Asked(player string) (why, otherwise Text)
}

// Asked returns why s asks player to respond and what is done otherwise (empty Texts
// for a game without an Asker, or a player not asked).
func Asked(s State, player string) (why, otherwise Text) {
	if a, ok := s.(Asker); ok && Responding(s, player) {
		return a.Asked(player)
	}
	return Text{}, Text{}
}

// AnyTimer is implemented by states in which a player may give some commands at any
// moment, in or out of turn (Dungeoneer's "always" cards, activated abilities and ready
// cards): they neither make anybody wait nor answer what the player is asked now, so
// the mail lists them apart — a player out of turn learns that they may — and the
// service's standing orders never give them.
type AnyTimer interface {
	// AnyTime lists those of player's Legal commands that may be given at any moment
	// and are not also the answer to what player is asked now.
	AnyTime(player string) []string
}

// AnyTime returns s's any-time commands for player (nil for games without).
func AnyTime(s State, player string) []string {
	if a, ok := s.(AnyTimer); ok {
		return a.AnyTime(player)
	}
	return nil
}
