package service

import (
	"context"
	"slices"

	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb games (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "games", who: anyone, info: true, lobbyHelp: "the open games you can join",
		lobby: func(s *Service, ctx context.Context, c lobbyCall) (templates.Notice, error) {
			return s.lobbyGames(ctx, c.tx)
		}})
}

// lobbyGames lists the public open games, as they are after the commands before
// it in the same mail: no private game, and no address (players are counted, not
// named: their names come from their addresses).
func (s *Service) lobbyGames(ctx context.Context, tx *lobbyTx) (templates.Notice, error) {
	stored, err := s.store.Games(ctx)
	if err != nil {
		return templates.Notice{}, err
	}
	var ids []string
	for _, ng := range slices.Backward(tx.batch.Games) {
		ids = append(ids, ng.Game.ID) // opened by this mail: the newest
	}
	for _, g := range stored {
		ids = append(ids, g.ID)
	}
	n := templates.Notice{Kind: "games"}
	for _, id := range ids {
		g, players, err := tx.seats(ctx, id)
		if err != nil {
			return n, err
		}
		st := settingsOf(g.Settings)
		if g.Status != store.GameOpen || st.Private {
			continue
		}
		gi := templates.GameInfo{Game: s.gameData(g, nil), Status: g.Status, Seats: st.MaxPlayers}
		for _, p := range players {
			if p.Role != store.RoleObserver {
				gi.Count++
			}
		}
		n.Games = append(n.Games, gi)
	}
	return n, nil
}
