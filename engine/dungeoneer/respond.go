package dungeoneer

import "slices"

// Responding implements engine.Responder: in the respond step of the Dungeon Lord
// phase the targets who can respond are asked (play a response or always Favor, or
// pass).
func (s *state) Responding(player string) bool {
	return s.Phase == phRespond && slices.Contains(s.ToAct(), player)
}
