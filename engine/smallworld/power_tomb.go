package smallworld

// Tomb (Non morti, Small World Underground §4.17): «Quando entri in Declino, puoi
// tenere tutti i segnalini Non morti sulla mappa da gioco. Puoi compiere un'ultima
// Ridistribuzione durante il turno in cui vai in Declino.» Going into decline the race
// keeps all its tokens on the map (always: keeping fewer never helps, see
// docs/underground.md), and under rulesText the turn goes on with a last
// redeployment of those tokens (redeploy, then done) before the player scores. A
// conquered region's tokens but one are redeployed at the end of the opponent's turn
// as if active (the core does so for every race in decline), and the race leaves the
// map with its last region.
var tomb = &ability{name: "Tomb", kind: kindPower, pack: packUnderground, keepAllInDecline: true, lastRedeploy: true,
	vars: []*varKind{lastRedeployVar}}

// lastRedeployVar marks the turn of a Tomb decline whose last redeployment is open.
var lastRedeployVar = &varKind{name: "last_redeploy", turn: true, enc: encBool}

func init() { register(tomb) }

// lastRedeploy reports whether player p is making the last redeployment of a race
// that has just gone into decline (Tomb, rulesText).
func (s *state) lastRedeploy(p int) bool {
	return s.ownTurn(p) && s.T.get(lastRedeployVar) != 0
}

// openLastRedeploy keeps player p's decline turn open for the last redeployment of
// the race now in decline, when it has a choice to make (two regions or more).
func (s *state) openLastRedeploy(p int) bool {
	if s.rules < rulesText || len(s.held(p, slotDeclined)) < 2 {
		return false
	}
	s.T.Closed, s.T.Acted = true, true
	s.T.set(lastRedeployVar, 1)
	return true
}
