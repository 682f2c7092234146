package dungeoneer

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Carrying (the rulebook's "Scorta" and "Segnalino Indicatore"): an escort quest's
// component lies on the map — at its start until a hero whose quest it is picks it up,
// then wherever it is put down — and a hero carries at most one. A component put down
// (by choice, by a hit, or where its carrier fell) may be taken by any hero in its
// space, for free, and its quest goes with it: it becomes the taker's personal quest,
// even beyond two. A quest whose component lies on the map stays with it.

// Item is an escort component lying on the map away from its start: the marker of
// its quest at X, Y.
type Item struct {
	Quest string `json:"quest"`
	X     int    `json:"x"`
	Y     int    `json:"y"`
}

// itemOf returns the index in Items of the component of quest q, or -1.
func (s *state) itemOf(q string) int {
	return slices.IndexFunc(s.Items, func(it Item) bool { return it.Quest == q })
}

// putDown puts the component seat's hero carries down in its space.
func (s *state) putDown(seat int) {
	h := &s.Seats[seat]
	if h.Carrying == "" {
		return
	}
	s.Items = append(s.Items, Item{Quest: h.Carrying, X: h.X, Y: h.Y})
	s.logf("%s puts down the component of %s at %d,%d", h.Name, engine.Term(cards.quest[h.Carrying].Name.En), h.X, h.Y)
	h.Carrying = ""
}

// carried reports whether a hero carries the component of q.
func (s *state) carried(q string) bool {
	return slices.ContainsFunc(s.Seats, func(h HeroState) bool { return h.Carrying == q })
}

// components lists every escort component lying on the map: those put down, and those
// still at the start of an escort quest in play (a hero's or the global one) whose map
// card is placed.
func (s *state) components() []Item {
	out := slices.Clone(s.Items)
	var inPlay []string
	for _, h := range s.Seats {
		if !h.Out {
			inPlay = append(inPlay, h.Quests...)
		}
	}
	if s.Global != "" {
		inPlay = append(inPlay, s.Global)
	}
	for _, id := range inPlay {
		q := cards.quest[id]
		if q.Kind != "escort" || s.carried(id) || s.itemOf(id) >= 0 {
			continue
		}
		if i := slices.IndexFunc(s.Grid, func(p Placed) bool { return p.ID == q.At }); i >= 0 {
			out = append(out, Item{Quest: id, X: s.Grid[i].X, Y: s.Grid[i].Y})
		}
	}
	return out
}

// putCmd: put <quest>, the hero puts the component it carries down in its space.
func (s *state) putCmd(seat int, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if len(args) != 1 {
		return engine.Illegal("say put <quest>")
	}
	if h.Carrying == "" || args[0] != h.Carrying {
		return engine.Illegal("your hero carries no component of %s", args[0])
	}
	if rng != nil {
		s.putDown(seat)
	}
	return nil
}

// take: take <quest>, the hero picks up the component of quest put down in its space;
// the quest becomes its personal quest.
func (s *state) take(seat int, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if len(args) != 1 {
		return engine.Illegal("say take <quest>")
	}
	i := s.itemOf(args[0])
	if i < 0 || s.Items[i].X != h.X || s.Items[i].Y != h.Y {
		return engine.Illegal("no component of %s lies in your space", args[0])
	}
	if h.Carrying != "" {
		return engine.Illegal("your hero already carries %s", h.Carrying)
	}
	if h.Prone {
		return engine.Illegal("your hero is knocked down: stand first")
	}
	if rng == nil {
		return nil
	}
	q := args[0]
	s.Items = slices.Delete(s.Items, i, i+1)
	for o := range s.Seats {
		s.Seats[o].Quests = slices.DeleteFunc(s.Seats[o].Quests, func(id string) bool { return id == q && o != seat })
	}
	if !slices.Contains(h.Quests, q) {
		h.Quests = append(h.Quests, q)
	}
	h.Carrying = q
	s.logf("%s takes the component of %s", h.Name, engine.Term(cards.quest[q].Name.En))
	return nil
}
