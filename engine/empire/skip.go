package empire

import (
	"fmt"

	"github.com/turnmail/turnmail/engine"
)

// SkipCommands returns what is applied for a player whose deadline passed: a bid of 0,
// the bid's winner starting, the placements in the lowest allowed region, the free card
// (position 1) with its action forgone, "skip" for a pending action, "pass" for the Fairy
// Queen's extra card.
func (s *state) SkipCommands(player string) []string {
	seat := s.seat(player)
	if seat < 0 || len(s.Legal(player)) == 0 {
		return nil
	}
	switch s.Phase {
	case phBid:
		return []string{"bid 0"}
	case phFirst:
		return []string{"first " + s.name(seat)}
	case phSettle:
		for r, info := range s.cfg.board.Regions {
			if info.Face != 0 {
				return []string{fmt.Sprintf("settle %d", r+1)}
			}
		}
	case phNeutral:
		return []string{"neutral 1"}
	case phBonus:
		return []string{"pass"}
	}
	// Play: take the free card if no action is pending, then skip until the turn ends.
	var out []string
	cur := engine.State(s)
	if s.Pending == nil {
		out = append(out, "take 1")
	} else {
		out = append(out, "skip")
	}
	// The turn's end may draw (the next game of a long game); a throwaway source does.
	for range 4 {
		next, err := cur.Apply(player, out[len(out)-1], engine.NewRand(0, 0, nil))
		if err != nil {
			return out[:len(out)-1]
		}
		ns := next.(*state)
		if ns.Phase != phPlay || ns.Pending == nil || ns.Current != seat {
			return out
		}
		cur = ns
		out = append(out, "skip")
	}
	return out
}
