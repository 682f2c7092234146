package smallworld

import (
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// tale is one happening of the command that gave a state, with who may read it.
type tale struct {
	engine.Happening
	// only is the player who alone may read it (their coins are secret until the
	// game ends), or -1 for everyone.
	only int
}

// tally is what a player's coins came from, by source, for the final breakdown. It
// is derived from the events like the rest of the state and left out of the hash.
type tally struct {
	Regions, Race, Power, Places, Combos int
}

var (
	_ engine.Narrator = (*state)(nil)
	_ engine.Scorer   = (*state)(nil)
)

// tell records a happening of the command being applied; only is the player who
// alone may read it, or -1.
func (s *state) tell(only int, kind string, hit int, key string, args ...any) {
	if s.quiet {
		return
	}
	h := engine.Happening{Kind: kind, Actor: s.names[s.actor], Text: engine.Textf(key, args...)}
	if hit >= 0 && hit < len(s.names) {
		h.Hit = []string{s.names[hit]}
	}
	s.story = append(s.story, tale{Happening: h, only: only})
}

// Narrate implements engine.Narrator: the happenings the command recorded while it
// was applied (see tell), which a replay records again. A player's score is theirs
// alone until the game ends.
func (s *state) Narrate(player, command string, after engine.State, viewer string) []engine.Happening {
	a, ok := after.(*state)
	if !ok {
		return nil
	}
	me := -1
	if viewer != "" {
		me = a.playerIndex(viewer)
	}
	var out []engine.Happening
	for _, t := range a.story {
		if t.only >= 0 && viewer != "" && !a.Over && t.only != me {
			continue
		}
		out = append(out, t.Happening)
	}
	return out
}

// Scores implements engine.Scorer: each player's coins with where they came from.
func (s *state) Scores() []engine.Score {
	out := make([]engine.Score, 0, len(s.Players))
	for p, pl := range s.Players {
		t := pl.tally
		sc := engine.Score{Player: s.names[p], Total: pl.Coins}
		rest := pl.Coins - t.Regions - t.Race - t.Power - t.Places - t.Combos
		for _, part := range []struct {
			key string
			n   int
		}{
			{"regions: %d", t.Regions},
			{"race abilities: %d", t.Race},
			{"power abilities: %d", t.Power},
			{"places and relics: %d", t.Places},
			{"combos (coins taken less coins paid): %d", t.Combos},
			{"starting coins and others: %d", rest},
		} {
			if part.n != 0 {
				sc.Parts = append(sc.Parts, engine.Textf(part.key, part.n))
			}
		}
		out = append(out, sc)
	}
	return out
}

// armyName names army (p, slot) for a Text: its race, and its power when active.
func (s *state) armyName(p, slot int) engine.Text {
	a := s.army(p, slot)
	if a.Power == "" || slot != slotActive {
		return reason("%s", engine.Term(a.Race))
	}
	return comboName(a.Power, a.Race)
}

// comboName names a race and power combo for a Text ("Flying Ratmen"): the two terms
// in the catalogue's order for the reader's language.
func comboName(power, race string) engine.Text {
	return reason("%[1]s %[2]s", engine.Term(power), engine.Term(race))
}

// beaten is what a conquest did to the region's holder.
type beaten struct {
	owner      int8   // the holder before: a player, ownerNone, ownerLostTribe, ownerMonster
	race       string // the player's race there
	declined   bool
	tokens     int // tokens there before
	lost, back int // the player's tokens lost and taken back into hand
}

// tellConquest records the conquest of region r by army (p, slot) with n tokens.
func (s *state) tellConquest(p, slot, r, n int, b beaten) {
	if s.quiet {
		return
	}
	id := s.b.id(r)
	who, army := s.names[p], s.armyName(p, slot)
	switch {
	case b.owner >= 0:
		race := engine.Term(b.race)
		if b.declined {
			s.tell(-1, engine.HapConquest, int(b.owner), "%s (%s) conquered region %d from %s (declined %s) with %s: %s lost %s, %s", who, army, id, s.names[b.owner], race, nTokens(n), s.names[b.owner], nTokens(b.lost), backInHand(b.back))
			return
		}
		s.tell(-1, engine.HapConquest, int(b.owner), "%s (%s) conquered region %d from %s (%s) with %s: %s lost %s, %s", who, army, id, s.names[b.owner], race, nTokens(n), s.names[b.owner], nTokens(b.lost), backInHand(b.back))
	case b.owner == ownerLostTribe:
		s.tell(-1, engine.HapConquest, -1, "%s (%s) conquered region %d from the lost tribe (%s) with %s", who, army, id, nTokens(b.tokens), nTokens(n))
	case b.owner == ownerMonster:
		s.tell(-1, engine.HapConquest, -1, "%s (%s) conquered region %d from the monster with %s", who, army, id, nTokens(n))
	default:
		s.tell(-1, engine.HapConquest, -1, "%s (%s) conquered region %d (empty) with %s", who, army, id, nTokens(n))
	}
}

// backInHand is the tokens a player whose region was conquered takes back into
// their hand, as a text argument with its plural forms.
func backInHand(n int) engine.Text { return engine.Textf("%d back in hand", n) }

// tellScore records player p's score at the end of their turn: the total and, for
// p alone, its breakdown.
func (s *state) tellScore(p, regions int, bonus []engine.Text, total int) {
	if s.quiet {
		return
	}
	s.tell(p, engine.HapScore, -1, "%s scored %s (%d in all)", s.names[p], nCoins(total), s.Players[p].Coins)
	t := &s.story[len(s.story)-1]
	t.Details = append([]engine.Text{engine.Textf("regions: %d", regions)}, bonus...)
}

// tellRedeploy records a redeployment: the regions named with their tokens now.
func (s *state) tellRedeploy(p int, args []string) {
	if s.quiet {
		return
	}
	s.tell(-1, engine.HapMove, -1, "%s redeployed: %s", s.names[p], strings.Join(args, " "))
}
