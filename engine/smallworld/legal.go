package smallworld

import (
	"maps"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Legal implements engine.State: every command player may give now. Redeployment,
// encampments and heroes are combinatorial and listed as patterns (engine.IsPattern).
func (s *state) Legal(player string) []string {
	p := s.playerIndex(player)
	if p < 0 || s.Over {
		return nil
	}
	if len(s.Pending) > 0 {
		if !slices.Contains(s.Pending, int8(p)) {
			return nil
		}
	} else if p != s.Cur {
		return nil
	}
	out := make([]string, 0, 32)
	for _, v := range reg.verbs {
		out = v.legal(s, p, out)
	}
	if s.Scn != nil {
		out = slices.DeleteFunc(out, func(c string) bool { return s.forbidden(p, strings.Fields(engine.Normalize(c))).Key != "" })
	}
	return out
}

// Notes implements engine.Noter: the notes of player's Legal entries that need one
// (what a conquest costs, where a pattern's regions are and what it must achieve,
// what a choice gives), each from the verb that lists the entry. Entries are only the
// command; everything that explains them is a note.
func (s *state) Notes(player string) map[string]engine.Text {
	legal := s.Legal(player)
	if len(legal) == 0 {
		return nil
	}
	p := s.playerIndex(player)
	notes := map[string]engine.Text{}
	for _, v := range reg.verbs {
		if v.notes != nil {
			v.notes(s, p, notes)
		}
	}
	// A note only for what Legal lists (a scenario forbids some entries).
	maps.DeleteFunc(notes, func(entry string, n engine.Text) bool { return n.Key == "" || !slices.Contains(legal, entry) })
	if len(notes) == 0 {
		return nil
	}
	return notes
}

// SkipCommands implements engine.Skipper: a player who misses the deadline ends the
// turn with `done` (tokens in hand are placed automatically, see autoPlace), after
// picking the free combo at position 1 when they have no active race; a defender who
// misses it has their tokens placed automatically (`done`).
func (s *state) SkipCommands(player string) []string {
	p := s.playerIndex(player)
	switch {
	case p < 0 || s.Over:
		return nil
	case s.defending(p), s.lastRedeploy(p):
		return []string{"done"}
	case !s.ownTurn(p):
		return nil
	case s.forbidden(p, []string{"done"}).Key != "":
		// A choice must come first (Necromancer Island's keep): the first one, then done.
		if l := s.Legal(player); len(l) > 0 {
			if n, ok := s.Scn.(*necroState); ok && n.Choosing {
				return l[:1] // the setup's choice: the first player's turn follows
			}
			return []string{l[0], "done"}
		}
		return nil
	case !s.army(p, slotActive).exists():
		return []string{"pick 1", "done"}
	}
	return []string{"done"}
}
