package dungeoneer

import "slices"

// Responding implements engine.Responder: in the respond step of the Dungeon Lord
// phase the targets who can respond are asked (play a response or always Favor, use a
// ready card's defense, or pass); in the guard step the player to the left is asked
// how a quest or map monster attacks.
func (s *state) Responding(player string) bool {
	return (s.Phase == phRespond || s.Phase == phGuard) && slices.Contains(s.ToAct(), player)
}
