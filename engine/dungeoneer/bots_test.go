package dungeoneer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// distance returns the number of steps from grid card i to the card with map id
// through passable doors, or -1, and the first side to take.
func distance(grid []Placed, i int, id string) (int, int) {
	type node struct{ at, first, d int }
	seen := map[int]bool{i: true}
	queue := []node{{i, -1, 0}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if grid[n.at].ID == id {
			return n.d, n.first
		}
		for side := range 4 {
			j, ok := passable(grid, n.at, side)
			if !ok || seen[j] {
				continue
			}
			seen[j] = true
			first := n.first
			if first < 0 {
				first = side
			}
			queue = append(queue, node{j, first, n.d + 1})
		}
	}
	return -1, -1
}

// goals lists the map cards seat's hero wants to reach for its quests.
func (s *state) goals(seat int) []string {
	h := &s.Seats[seat]
	var out []string
	for _, q := range append(slices.Clone(h.Quests), s.Global) {
		if q == "" {
			continue
		}
		c := cards.quest[q]
		if c.Kind == "escort" && h.Carrying == q {
			out = append(out, c.To)
		} else if h.Carrying == "" || c.Kind != "escort" {
			out = append(out, c.At)
		}
	}
	return out
}

// botPick is a simple strategy: the Dungeon Lord plays whatever it can, heroes take
// quests, ready cards and walk towards their nearest quest, exploring when it is not
// on the map; the player to the left lets a quest or map monster attack with its best
// form; a hurt hero heals with a ready card; a hero asked to respond plays
// its first response.
func botPick(r *rand.Rand, s *state, seat int, legal []string) string {
	has := func(c string) bool { return slices.Contains(legal, c) }
	with := func(prefix string) []string {
		var out []string
		for _, c := range legal {
			if strings.HasPrefix(c, prefix) {
				out = append(out, c)
			}
		}
		return out
	}
	h := &s.Seats[seat]
	// Ilvo heals with his ability when hurt, at any moment, and so do ready cards.
	if has("ability") && h.Life < 4 {
		return "ability"
	}
	for _, u := range with("use ") {
		act := cards.adv[strings.Fields(u)[1]].Activate
		if act.Effects[0].Op == opHeal && h.Life < 4 {
			return u
		}
	}
	legal = slices.DeleteFunc(slices.Clone(legal), func(c string) bool {
		return c == "ability" || strings.HasPrefix(c, "use ") && s.Phase != phRespond
	})
	switch s.Phase {
	case phGuard:
		return "attack" // the monster's best form
	case phCounter:
		if ch := with("challenge "); len(ch) > 0 {
			return ch[0]
		}
		return "pass"
	case phSpoils:
		// Discard the most wounded over three, keep unhurt monsters in the pack while
		// there is room, give the Peril to the next player.
		if ds := with("discard "); len(ds) > 0 {
			return ds[0]
		}
		if ks := with("keep "); len(ks) > 0 {
			if len(h.Pack) < packSize {
				return strings.Replace(ks[0], " hand", " pack", 1)
			}
			return ks[0]
		}
		return legal[0]
	case phLord:
		if plays := with("play "); len(plays) > 0 && r.IntN(4) > 0 {
			return plays[r.IntN(len(plays))]
		}
		return "done"
	case phRespond:
		if plays := with("play "); len(plays) > 0 {
			return plays[0]
		}
		for _, u := range with("use ") {
			// A defense: a ward, or the wand's escape when one more hit may kill.
			if cards.adv[strings.Fields(u)[1]].Activate.Effects[0].Op == opWard || h.Life <= 2 {
				return u
			}
		}
		return "pass"
	case phHero:
		// Quests first, with the hero's best standard attack for a kill.
		if qs := with("quest "); len(qs) > 0 {
			best, bv := qs[0], -1
			for _, q := range qs {
				f := strings.Fields(q)
				v := 0
				if len(f) == 3 {
					v = s.stat(seat, f[2])
				}
				if v > bv {
					best, bv = q, v
				}
			}
			return best
		}
		for _, p := range with("play ") {
			a := cards.adv[strings.Fields(p)[1]]
			heal := slices.ContainsFunc(a.Effects, func(e Effect) bool { return e.Op == opHeal })
			if !heal || h.Life < maxLife {
				return p
			}
		}
		if has("stand") {
			return "stand"
		}
		if ts := with("take "); len(ts) > 0 {
			return ts[0]
		}
		if ch := with("challenge m"); len(ch) > 0 && h.Life >= 4 {
			best, bv := ch[0], -1
			for _, c := range ch {
				if v := s.stat(seat, strings.Fields(c)[2]); v > bv {
					best, bv = c, v
				}
			}
			return best
		}
		bestD, bestSide := -1, -1
		for _, g := range s.goals(seat) {
			d, side := distance(s.Grid, s.cell(seat), g)
			if d >= 0 && (bestD < 0 || d < bestD) {
				bestD, bestSide = d, side
			}
		}
		if bestD > 0 && has("move "+sideNames[bestSide]) {
			return "move " + sideNames[bestSide]
		}
		if bestD < 0 && has("explore") {
			return "explore"
		}
		if bestD < 0 {
			if moves := with("move "); len(moves) > 0 && r.IntN(2) == 0 {
				return moves[r.IntN(len(moves))]
			}
		}
		return "done"
	case phLayout:
		return layoutPick(r, s, seat, legal)
	case phDiscard:
		// Keep Favors and Treasures, discard an Encounter or Bane when there is one;
		// with an empty hand, discard nothing.
		for _, c := range legal {
			if f := strings.Fields(c); len(f) == 2 && (cards.adv[f[1]].Kind == kBane || cards.adv[f[1]].Kind == kTrap) {
				return c
			}
		}
		if has("done") {
			return "done"
		}
	}
	return legal[r.IntN(len(legal))]
}

// botOutOfTurn is what a bot whose turn it is not does on its own initiative: with
// the Movement it saved, a knocked-down hero stands up, and a hero with 3 life or more
// challenges, with its best standard attack, an Encounter monster that attacked in its
// space; "" for nothing.
func botOutOfTurn(s *state, seat int, legal []string) string {
	if slices.Contains(legal, "stand") {
		return "stand"
	}
	best, bv := "", -1
	for _, c := range legal {
		f := strings.Fields(c)
		if len(f) != 3 || f[0] != "challenge" || cards.adv[f[1]] == nil || s.Seats[seat].Life < 3 {
			continue
		}
		if v := s.stat(seat, f[2]); v > bv {
			best, bv = c, v
		}
	}
	return best
}

// layoutPick places a map card in the placement round of the map in view: one
// another player's quests need as far from the Entrance as it can, else one its own
// quests need as near as it can, else any at random.
func layoutPick(r *rand.Rand, s *state, seat int, legal []string) string {
	var best []string
	bv := -1
	for _, c := range legal {
		f := strings.Fields(c) // build <card> at x,y rot r
		var x, y int
		if _, err := fmt.Sscanf(f[3], "%d,%d", &x, &y); err != nil {
			continue
		}
		d := abs(x) + abs(y)
		v := 0
		for o := range s.Seats {
			if o != seat && slices.Contains(s.questMaps(o), f[1]) {
				v = 100 + d
			}
		}
		if v == 0 && slices.Contains(s.questMaps(seat), f[1]) {
			v = 50 - d
		}
		switch {
		case v > bv:
			best, bv = []string{c}, v
		case v == bv:
			best = append(best, c)
		}
	}
	if len(best) == 0 {
		return legal[r.IntN(len(legal))]
	}
	return best[r.IntN(len(best))]
}

func abs(n int) int { return max(n, -n) }
