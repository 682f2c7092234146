package empire

import "github.com/turnmail/turnmail/engine"

// The secret bid is made by every player at once, before the first turn: a player
// who has not bid is asked out of turn (engine.Responder), so the service gives them
// the game's short response deadline, after which they bid 0 (SkipCommands), and
// their mail says so (engine.Asker).
var (
	_ engine.Responder = (*state)(nil)
	_ engine.Asker     = (*state)(nil)
)

// Responding implements engine.Responder: player has a secret bid to make.
func (s *state) Responding(player string) bool {
	seat := s.seat(player)
	return s.Phase == phBid && seat >= 0 && seat < len(s.Bids) && s.Bids[seat] < 0
}

// Asked implements engine.Asker: why every player bids, and the bid made for a
// player who does not.
func (s *state) Asked(player string) (why, otherwise engine.Text) {
	if !s.Responding(player) {
		return engine.Text{}, engine.Text{}
	}
	return text("every player bids coins in secret for the first turn: the highest bid pays and chooses who plays first"),
		text("you bid 0 coins")
}
