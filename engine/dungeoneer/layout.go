package dungeoneer

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// The map in view (game option map=view), the rulebook's optional advanced rule
// "Mappa in vista": "In pratica non c'è più la Fase di Costruzione. Al contrario,
// l'intera mappa viene preparata prima dell'inizio della partita [...] Dopo avere
// distribuito le Missioni, dividete le carte Mappa, coperte e una alla volta, tra
// tutti i giocatori. Passate le Carte Mappa richieste dalla vostra Missione al
// giocatore alla vostra sinistra. Il giocatore che riceve l'Ingresso vince
// l'iniziativa. [...] Quel giocatore colloca l'Ingresso al centro dell'area di gioco.
// Poi, procedendo in senso orario, ogni giocatore piazza una carta Mappa in una
// posizione lecita fino a che tutte le carte non sono state piazzate. Il gioco inizia
// con il giocatore che ha vinto l'iniziativa."

// dealMap deals the shuffled map cards (order, the Entrance among them) one at a time
// among the seats, in the order the players were given, the first one first. Each
// player then passes the map cards its personal quests need (where they are done, an
// escort's destination) to the player on its left, everybody at once: a card received
// is not passed on, even when the receiver's quests need it too. The player holding
// the Entrance then wins the initiative: the seats turn so that it sits first (the
// order around the table stays), it places the Entrance at 0,0, and the placement
// round begins with the player on its left.
func (s *state) dealMap(order []string) {
	n := s.n()
	for i, id := range order {
		s.Seats[i%n].Maps = append(s.Seats[i%n].Maps, id)
	}
	for i := range s.Seats {
		h := &s.Seats[i]
		need := s.questMaps(i)
		for _, id := range h.Maps {
			if slices.Contains(need, id) {
				h.Passed = append(h.Passed, id)
			}
		}
		h.Maps = slices.DeleteFunc(h.Maps, func(id string) bool { return slices.Contains(need, id) })
	}
	for i := range s.Seats {
		h := &s.Seats[i]
		h.Maps = append(h.Maps, s.Seats[(i+n-1)%n].Passed...)
		slices.Sort(h.Maps)
		slices.Sort(h.Passed)
	}
	entrance := cards.Maps[0].ID
	first := slices.IndexFunc(s.Seats, func(h HeroState) bool { return slices.Contains(h.Maps, entrance) })
	s.Seats = slices.Concat(s.Seats[first:], s.Seats[:first])
	h := &s.Seats[0]
	h.Maps = slices.DeleteFunc(h.Maps, func(id string) bool { return id == entrance })
	s.Grid = []Placed{{ID: entrance}}
	s.Phase, s.Current = phLayout, 0
	s.nextPlacer()
}

// questMaps lists the map cards seat's personal quests need: where each is done and
// an escort's destination.
func (s *state) questMaps(seat int) []string {
	var out []string
	for _, id := range s.Seats[seat].Quests {
		q := cards.quest[id]
		out = append(out, q.At)
		if q.To != "" {
			out = append(out, q.To)
		}
	}
	return out
}

// spot is one legal placement of one map card of a player's in the placement round.
type spot struct {
	id string
	pl placement
}

// layoutSpots lists where seat may place each of its map cards now, card by card:
// the placements of the build phase (aligned, connected, never closing the map).
// "Alla carta Ingresso si possono connettere soltanto dei passaggi/sentieri, a meno
// che non sia possibile posizionare una carta Mappa in altri modi": a room goes next
// to the Entrance only when no card of the player's can be placed otherwise.
func (s *state) layoutSpots(seat int) []spot {
	var clean, atEntrance []spot
	for _, id := range s.Seats[seat].Maps {
		for _, pl := range placements(s.Grid, id) {
			if sp := (spot{id, pl}); s.clean(sp) {
				clean = append(clean, sp)
			} else {
				atEntrance = append(atEntrance, sp)
			}
		}
	}
	if len(clean) > 0 {
		return clean
	}
	return atEntrance
}

// clean reports whether sp is no room next to the Entrance: a placement open whatever
// else the player holds.
func (s *state) clean(sp spot) bool {
	if cards.mapc[sp.id].Type == "passage" {
		return true
	}
	_, touchesEntrance := indexGrid(s.Grid).fit(sp.id, [2]int{sp.pl.X, sp.pl.Y}, sp.pl.Rot)
	return !touchesEntrance
}

// layoutBuild places one of seat's map cards in the placement round: build <card> at
// x,y rot r. Then the next player clockwise who can place a card is to place.
func (s *state) layoutBuild(seat int, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if len(args) != 5 || args[1] != "at" || args[3] != "rot" {
		return engine.Illegal("say build <map card> at <x>,<y> rot <0|90|180|270>")
	}
	id := args[0]
	if !slices.Contains(h.Maps, id) {
		return engine.Illegal("%s is not one of your map cards", id)
	}
	pl, err := parsePlace(args)
	if err != nil {
		return err
	}
	if !canPlace(s.Grid, id, pl) {
		return engine.Illegal("%s cannot be placed at %d,%d rot %d", id, pl.X, pl.Y, pl.Rot)
	}
	if !s.clean(spot{id, pl}) && slices.ContainsFunc(s.layoutSpots(seat), s.clean) {
		return engine.Illegal("%s is a room: only passages go next to the Entrance while a card of yours can be placed elsewhere", id)
	}
	if rng == nil {
		return nil
	}
	h.Maps = slices.DeleteFunc(h.Maps, func(m string) bool { return m == id })
	s.Grid = append(s.Grid, Placed{ID: id, X: pl.X, Y: pl.Y, Rot: pl.Rot})
	s.logf("%s places %s at %d,%d", h.Name, engine.Term(cards.mapc[id].Name.En), pl.X, pl.Y)
	s.nextPlacer()
	return nil
}

// nextPlacer passes the placement round to the next player clockwise after Current
// who holds a map card that can be placed. When nobody does, the round is over: a
// card left (one that fits nowhere: the map can only be left with one way on, and
// it closes it) is set aside in the map deck, where nothing draws it, and the game
// begins with the first seat, the initiative's.
func (s *state) nextPlacer() {
	fits := func(id string) bool { return len(placements(s.Grid, id)) > 0 }
	for i := 1; i <= s.n(); i++ {
		if p := (s.Current + i) % s.n(); slices.ContainsFunc(s.Seats[p].Maps, fits) {
			s.Current = p
			return
		}
	}
	var left []string
	for i := range s.Seats {
		left = append(left, s.Seats[i].Maps...)
		s.Seats[i].Maps, s.Seats[i].Passed = nil, nil
	}
	slices.Sort(left)
	for _, id := range left {
		s.logf("%s fits nowhere on the map and is set aside", engine.Term(cards.mapc[id].Name.En))
	}
	s.MapDeck = left
	s.logf("the map is laid out: %s begins", s.Seats[0].Name)
	s.startTurn(0)
}
