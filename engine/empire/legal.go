package empire

import (
	"fmt"
	"slices"
	"strings"
)

// Legal lists what player may say now. Entries are concrete commands, or patterns:
// "<a…b>" stands for a number from a to b, " [a…b]" for an optional one (the number of
// armies, 1 when left out), "<region>" and "<n>" for any region and number. A "#"
// starts an explanation that is not part of the command.
func (s *state) Legal(player string) []string {
	seat := s.seat(player)
	if seat < 0 || s.Phase == phOver || !slices.Contains(s.ToAct(), s.name(seat)) {
		return nil
	}
	switch s.Phase {
	case phSettle:
		var off []int
		for r, info := range s.cfg.board.Regions {
			if info.Face != 0 {
				off = append(off, r)
			}
		}
		return rangeOrList("settle", off, "# one army of every player, in a region off the centre board")
	case phNeutral:
		return []string{fmt.Sprintf("neutral <1…%d> # one neutral army, in any region", len(s.Armies))}
	case phBid:
		if s.Coins[seat] == 0 {
			return []string{"bid 0"}
		}
		return []string{fmt.Sprintf("bid <0…%d> # secret; the highest bid is paid", s.Coins[seat])}
	case phFirst:
		var out []string
		for i := range s.n() {
			out = append(out, "first "+s.name(i))
		}
		return out
	case phBonus:
		return append(s.legalTake(seat, "# Fairy Queen: one more card, without its action"), "pass")
	}
	if s.Pending == nil {
		return s.legalTake(seat, "")
	}
	var out []string
	p := s.Pending
	for i, part := range p.Parts {
		left := p.Left
		if p.Choose || i > 0 {
			left = s.amount(seat, part)
		}
		if !s.possible(part.Kind, left) {
			continue
		}
		switch part.Kind {
		case acPlace:
			out = append(out, s.legalPlace(seat, left)...)
		case acMove:
			out = append(out, s.legalMove(seat, left)...)
		case acCity:
			for _, r := range s.cityTargets(seat) {
				out = append(out, fmt.Sprintf("city %d", r+1))
			}
		case acDestroy:
			for _, t := range s.destroyTargets(seat) {
				out = append(out, fmt.Sprintf("destroy %s %d", s.name(t.owner), t.region+1))
			}
		}
	}
	return append(out, "skip # forgo the rest of this action")
}

// rangeOrList lists verb with each region, as one pattern when the regions run on.
func rangeOrList(verb string, rs []int, note string) []string {
	if len(rs) == 0 {
		return nil
	}
	if rs[len(rs)-1]-rs[0] == len(rs)-1 {
		if len(rs) == 1 {
			return []string{fmt.Sprintf("%s %d %s", verb, rs[0]+1, note)}
		}
		return []string{fmt.Sprintf("%s <%d…%d> %s", verb, rs[0]+1, rs[len(rs)-1]+1, note)}
	}
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s %d", verb, r+1))
	}
	return out
}

func (s *state) legalTake(seat int, note string) []string {
	var out []string
	for i, c := range s.Row {
		cost := s.cfg.costs[i]
		if cost > s.Coins[seat] {
			continue
		}
		cd := s.cfg.cards[c]
		ab, ac := cd.describe()
		if note == "" {
			out = append(out, fmt.Sprintf("take %d # %s, %s: %s; %s", i+1, cd.Name, coins(cost), ab, ac))
		} else {
			out = append(out, fmt.Sprintf("take %d # %s, %s: %s %s", i+1, cd.Name, coins(cost), ab, note))
		}
	}
	return out
}

func (s *state) legalPlace(seat, left int) []string {
	most := min(left, s.supply(seat))
	targets := s.placeTargets(seat)
	var out, where []string
	for _, t := range targets {
		k, note := most, ""
		if t.payee >= 0 {
			k = min(k, s.Coins[seat])
			note = fmt.Sprintf(" # pays %s 1 coin per army", s.name(t.payee))
		}
		where = append(where, fmt.Sprint(t.region+1))
		if k == 1 {
			out = append(out, fmt.Sprintf("place %d=1%s", t.region+1, note))
		} else {
			out = append(out, fmt.Sprintf("place %d=<1…%d>%s", t.region+1, k, note))
		}
	}
	if len(targets) > 1 && most > 1 {
		out = append(out, fmt.Sprintf("place <region>=<n> <region>=<n> … # up to %d armies in all, in %s", most, strings.Join(where, ", ")))
	}
	return out
}

func (s *state) legalMove(seat, left int) []string {
	var out []string
	for src := range s.Armies {
		have := s.Armies[src][seat]
		if have == 0 {
			continue
		}
		rt := s.routesFrom(seat, src)
		for dst, c := range rt.cost {
			if c <= 0 || c > left {
				continue
			}
			if k := min(have, left/c); k == 1 {
				out = append(out, fmt.Sprintf("move %d>%d # %s", src+1, dst+1, points(c)))
			} else {
				out = append(out, fmt.Sprintf("move %d>%d [1…%d] # %s per army", src+1, dst+1, k, points(c)))
			}
		}
	}
	if len(out) > 0 {
		out = append(out, fmt.Sprintf("move <region>><region>>…><region> [<n>] # along the path you name: land and crossings 1 point, sea routes %d, %d points left", s.seaCost(seat), left))
	}
	return out
}

func points(n int) string {
	if n == 1 {
		return "1 point"
	}
	return fmt.Sprintf("%d points", n)
}

func coins(n int) string {
	if n == 1 {
		return "1 coin"
	}
	return fmt.Sprintf("%d coins", n)
}
