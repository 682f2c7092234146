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
