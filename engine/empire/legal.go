package empire

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Legal lists what player may say now. Entries are concrete commands, or patterns:
// "<a…b>" stands for a number from a to b, "<a,b,c>" for one of the numbers listed
// (the regions a move or placement may go to), " [a…b]" for an optional number (the
// number of armies, 1 when left out), "<region>" and "<n>" for any region and number. A "#"
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
		return append(s.legalTake(seat), "pass")
	}
	if s.Pending == nil {
		return s.legalTake(seat)
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

func (s *state) legalTake(seat int) []string {
	var out []string
	for i := range s.Row {
		if s.cfg.costs[i] <= s.Coins[seat] {
			out = append(out, fmt.Sprintf("take %d", i+1))
		}
	}
	return out
}

// Notes says what each card player may take gives: its name, cost, ability and
// action (engine.Noter).
func (s *state) Notes(player string) map[string]engine.Text {
	seat := s.seat(player)
	if seat < 0 || (s.Phase != phBonus && s.Pending != nil) {
		return nil
	}
	notes := map[string]engine.Text{}
	for _, e := range s.Legal(player) {
		var pos int
		if _, err := fmt.Sscanf(e, "take %d", &pos); err != nil || pos < 1 || pos > len(s.Row) {
			continue
		}
		cd := s.cfg.cards[s.Row[pos-1]]
		ab, ac := cd.texts()
		if s.Phase == phBonus {
			notes[e] = engine.Textf("%s (cost %d): %s; Fairy Queen: one more card, without its action", engine.Term(cd.Name), s.cfg.costs[pos-1], ab)
		} else {
			notes[e] = engine.Textf("%s (cost %d): %s; %s", engine.Term(cd.Name), s.cfg.costs[pos-1], ab, ac)
		}
	}
	return notes
}

func (s *state) legalPlace(seat, left int) []string {
	most := min(left, s.supply(seat))
	targets := s.placeTargets(seat)
	var groups []group
	var where []string
	for _, t := range targets {
		k, note := most, ""
		if t.payee >= 0 {
			k = min(k, s.Coins[seat])
			note = fmt.Sprintf(" # pays %s 1 coin per army", s.name(t.payee))
		}
		where = append(where, fmt.Sprint(t.region+1))
		groups = addTo(groups, group{most: k, note: note}, t.region)
	}
	var out []string
	for _, g := range groups {
		if g.most == 1 {
			out = append(out, fmt.Sprintf("place %s=1%s", g.regions(), g.note))
		} else {
			out = append(out, fmt.Sprintf("place %s=<1…%d>%s", g.regions(), g.most, g.note))
		}
	}
	if len(targets) > 1 && most > 1 {
		out = append(out, fmt.Sprintf("place <region>=<n> <region>=<n> … # up to %d armies in all, in %s", most, strings.Join(where, ", ")))
	}
	return out
}

// group is regions that one Legal entry lists together: the same region moved from,
// the same number of armies at most and the same note.
type group struct {
	from   int // the region moved from (move only)
	most   int
	note   string
	lo, hi int // the least and most movement points a move costs
	to     []int
}

// addTo adds region r to the group like g in gs, or a new one.
func addTo(gs []group, g group, r int) []group {
	for i := range gs {
		if gs[i].from == g.from && gs[i].most == g.most && gs[i].note == g.note {
			gs[i].to = append(gs[i].to, r)
			gs[i].lo, gs[i].hi = min(gs[i].lo, g.lo), max(gs[i].hi, g.hi)
			return gs
		}
	}
	g.to = []int{r}
	return append(gs, g)
}

// regions renders the group's regions: one number, or a choice "<4,5,9>".
func (g group) regions() string {
	ids := make([]string, len(g.to))
	for i, r := range g.to {
		ids[i] = strconv.Itoa(r + 1)
	}
	if len(ids) == 1 {
		return ids[0]
	}
	return "<" + strings.Join(ids, ",") + ">"
}

func (s *state) legalMove(seat, left int) []string {
	var groups []group
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
			groups = addTo(groups, group{from: src, most: min(have, left/c), lo: c, hi: c}, dst)
		}
	}
	var out []string
	for _, g := range groups {
		cost := points(g.hi)
		if g.lo < g.hi {
			cost = fmt.Sprintf("%d to %d points", g.lo, g.hi)
		}
		if g.most == 1 {
			out = append(out, fmt.Sprintf("move %d>%s # %s", g.from+1, g.regions(), cost))
		} else {
			out = append(out, fmt.Sprintf("move %d>%s [1…%d] # %s per army", g.from+1, g.regions(), g.most, cost))
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
