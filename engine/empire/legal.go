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
// number of armies, 1 when left out), "<region>" and "<n>" for any region and number.
// What an entry does or costs is its note (Notes), never part of the entry.
func (s *state) Legal(player string) []string {
	entries := s.entries(player)
	if len(entries) == 0 {
		return nil
	}
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.cmd
	}
	return out
}

// Notes explains player's Legal entries (engine.Noter): what a card gives and costs,
// what a placement pays, what a move costs and how many movement points are left,
// what skipping forgoes. Entries that speak for themselves have none.
func (s *state) Notes(player string) map[string]engine.Text {
	notes := map[string]engine.Text{}
	for _, e := range s.entries(player) {
		if e.note.Key != "" {
			notes[e.cmd] = e.note
		}
	}
	if len(notes) == 0 {
		return nil
	}
	return notes
}

// entry is one Legal entry and the note that explains it (an empty Key: none).
type entry struct {
	cmd  string
	note engine.Text
}

// entries lists what player may say now, each with its note.
func (s *state) entries(player string) []entry {
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
		return rangeOrList("settle", off, text("one army of every player, in a region off the centre board"))
	case phNeutral:
		return []entry{{fmt.Sprintf("neutral <1…%d>", len(s.Armies)), text("one neutral army, in any region")}}
	case phBid:
		if s.Coins[seat] == 0 {
			return []entry{{cmd: "bid 0"}}
		}
		return []entry{{fmt.Sprintf("bid <0…%d>", s.Coins[seat]), text("secret; the highest bid is paid")}}
	case phFirst:
		var out []entry
		for i := range s.n() {
			out = append(out, entry{cmd: "first " + s.name(i)})
		}
		return out
	case phBonus:
		return append(s.legalTake(seat), entry{cmd: "pass"})
	}
	if s.Pending == nil {
		return s.legalTake(seat)
	}
	var out []entry
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
				out = append(out, entry{cmd: fmt.Sprintf("city %d", r+1)})
			}
		case acDestroy:
			for _, t := range s.destroyTargets(seat) {
				out = append(out, entry{cmd: fmt.Sprintf("destroy %s %d", s.name(t.owner), t.region+1)})
			}
		}
	}
	return append(out, entry{"skip", s.skipNote()})
}

// skipNote says what skip forgoes: the armies left to place, the movement points
// left, the city or destruction not made.
func (s *state) skipNote() engine.Text {
	p := s.Pending
	if len(p.Parts) != 1 || p.Choose || p.Left <= 0 {
		return text("forgo the rest of this action")
	}
	switch p.Parts[0].Kind {
	case acPlace:
		return text("forgo the rest of this action: %s not placed", nArmies(p.Left))
	case acMove:
		return text("forgo the rest of this action: %d movement points unused", p.Left)
	}
	return text("forgo the rest of this action")
}

// rangeOrList lists verb with each region, as one pattern when the regions run on;
// the pattern (or a lone region) has the note.
func rangeOrList(verb string, rs []int, note engine.Text) []entry {
	if len(rs) == 0 {
		return nil
	}
	if rs[len(rs)-1]-rs[0] == len(rs)-1 {
		if len(rs) == 1 {
			return []entry{{fmt.Sprintf("%s %d", verb, rs[0]+1), note}}
		}
		return []entry{{fmt.Sprintf("%s <%d…%d>", verb, rs[0]+1, rs[len(rs)-1]+1), note}}
	}
	var out []entry
	for _, r := range rs {
		out = append(out, entry{cmd: fmt.Sprintf("%s %d", verb, r+1)})
	}
	return out
}

// legalTake lists the cards seat can pay for, each noted with its name, cost, ability
// and action (for the Fairy Queen's extra card: without its action).
func (s *state) legalTake(seat int) []entry {
	var out []entry
	for i, c := range s.Row {
		cost := s.cfg.costs[i]
		if cost > s.Coins[seat] {
			continue
		}
		cd := s.cfg.cards[c]
		ab, ac := cd.texts()
		note := text("%s (cost %d): %s; %s", engine.Term(cd.Name), cost, ab, ac)
		if own := func(a action) int { return s.amountTaking(seat, c, a) }; slices.ContainsFunc(cd.Actions, func(a action) bool { return own(a) != a.Count }) {
			// the amounts the player's bonuses give, as the account will tell them
			note = text("%s (cost %d): %s; with your bonuses: %s", engine.Term(cd.Name), cost, ab, cd.actionText(own))
		}
		if s.Phase == phBonus {
			note = text("%s (cost %d): %s; %s: one more card, without its action", engine.Term(cd.Name), cost, ab, engine.Term(leaderNames[leaderFairyQueen]))
		}
		out = append(out, entry{fmt.Sprintf("take %d", i+1), note})
	}
	return out
}

func (s *state) legalPlace(seat, left int) []entry {
	most := min(left, s.supply(seat))
	targets := s.placeTargets(seat)
	var groups []group
	var where []string
	for _, t := range targets {
		k := most
		if t.payee >= 0 {
			k = min(k, s.Coins[seat])
		}
		where = append(where, fmt.Sprint(t.region+1))
		groups = addTo(groups, group{most: k, payee: t.payee}, t.region)
	}
	var out []entry
	for _, g := range groups {
		var note engine.Text
		if g.payee >= 0 {
			note = text("pays %s 1 coin per army", s.name(g.payee))
		}
		if g.most == 1 {
			out = append(out, entry{fmt.Sprintf("place %s=1", g.regions()), note})
		} else {
			out = append(out, entry{fmt.Sprintf("place %s=<1…%d>", g.regions(), g.most), note})
		}
	}
	if len(targets) > 1 && most > 1 {
		out = append(out, entry{"place <region>=<n> <region>=<n> …", text("up to %d armies in all, in %s", most, strings.Join(where, ", "))})
	}
	return out
}

// group is regions that one Legal entry lists together: the same region moved from,
// the same number of armies at most and the same player paid (placements).
type group struct {
	from   int // the region moved from (move only)
	most   int
	payee  int // the player a placement pays, or -1 (place only)
	lo, hi int // the least and most movement points a move costs
	to     []int
}

// addTo adds region r to the group like g in gs, or a new one.
func addTo(gs []group, g group, r int) []group {
	for i := range gs {
		if gs[i].from == g.from && gs[i].most == g.most && gs[i].payee == g.payee {
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

func (s *state) legalMove(seat, left int) []entry {
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
			groups = addTo(groups, group{from: src, most: min(have, left/c), payee: -1, lo: c, hi: c}, dst)
		}
	}
	var out []entry
	for _, g := range groups {
		cost := text("%d points", g.hi)
		if g.lo < g.hi {
			cost = text("%d to %d points", g.lo, g.hi)
		}
		if g.most == 1 {
			out = append(out, entry{fmt.Sprintf("move %d>%s", g.from+1, g.regions()), cost})
		} else {
			out = append(out, entry{fmt.Sprintf("move %d>%s [1…%d]", g.from+1, g.regions(), g.most), text("%s per army", cost)})
		}
	}
	if len(out) > 0 {
		out = append(out, entry{"move <region>><region>>…><region> [<n>]",
			text("along the path you name: land and crossings 1 point, sea routes %d, %d points left", s.seaCost(seat), left)})
	}
	return out
}
