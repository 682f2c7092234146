package empire

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

var (
	_ engine.Narrator = (*state)(nil)
	_ engine.Scorer   = (*state)(nil)
)

// Narrate implements engine.Narrator, from the command and the two states: the card
// taken with what it gives, armies placed, moved and destroyed, cities, bids (a bid
// stays secret from the others until the last one reveals them all) and the scores
// when a game ends.
func (s *state) Narrate(player, command string, after engine.State, viewer string) []engine.Happening {
	a, ok := after.(*state)
	seat := s.seat(player)
	if !ok || seat < 0 {
		return nil
	}
	who := s.name(seat)
	var out []engine.Happening
	add := func(kind string, hit []string, key string, args ...any) {
		out = append(out, engine.Happening{Kind: kind, Actor: who, Hit: hit, Text: engine.Textf(key, args...)})
	}
	verb, rest, _ := strings.Cut(engine.Normalize(command), " ")
	switch verb {
	case "take":
		pos, err := strconv.Atoi(rest)
		if err != nil || pos < 1 || pos > len(s.Row) || pos > len(s.cfg.costs) {
			break
		}
		out = append(out, s.took(a, seat, pos))
	case acPlace:
		out = append(out, s.placed(a, seat))
	case acMove:
		out = append(out, s.moved(a, seat, rest))
	case acCity:
		add(engine.HapBuild, nil, "%s built a city in region %s", who, rest)
	case acDestroy:
		if i := strings.LastIndexByte(rest, ' '); i > 0 {
			victim := rest[:i]
			if victim == neutralName {
				out = append(out, engine.Happening{Kind: engine.HapLoss, Actor: who, Text: text("%s destroyed a neutral army in region %s", who, rest[i+1:])})
				break
			}
			if s.seat(victim) == seat {
				add(engine.HapLoss, nil, "%s destroyed one of their own armies in region %s", who, rest[i+1:])
				break
			}
			var hit []string
			if o := s.seat(victim); o >= 0 {
				victim = s.name(o)
				hit = []string{victim}
			}
			add(engine.HapLoss, hit, "%s destroyed an army of %s in region %s", who, victim, rest[i+1:])
			if o := s.seat(victim); o >= 0 && o < s.n() && a.Coins[o] < s.Coins[o] {
				out[len(out)-1].Details = append(out[len(out)-1].Details, engine.Textf("%s took %s from %s (Bandit King)", who, nCoins(s.Coins[o]-a.Coins[o]), victim))
			}
		}
	case "skip":
		out = append(out, engine.Happening{Kind: engine.HapOther, Actor: who, Text: s.skipped(seat)})
	case "pass":
		add(engine.HapOther, nil, "%s passed", who)
	case "settle":
		add(engine.HapMove, nil, "%s placed everyone's first army in region %s", who, rest)
	case "neutral":
		add(engine.HapMove, nil, "%s placed a neutral army in region %s", who, rest)
	case "first":
		if o := s.seat(rest); o >= 0 {
			rest = s.name(o)
		}
		if rest == who {
			add(engine.HapOther, nil, "%s chose to play first", who)
		} else {
			add(engine.HapOther, nil, "%s chose %s to play first", who, rest)
		}
	case "bid":
		if viewer == "" || s.seat(viewer) == seat || a.Phase != phBid {
			if n, err := strconv.Atoi(rest); err == nil {
				add(engine.HapBid, nil, "%s bid %s", who, nCoins(n))
			}
		} else {
			add(engine.HapBid, nil, "%s made a secret bid", who)
		}
		if s.Phase == phBid && a.Phase != phBid {
			out = append(out, s.revealed(a))
		}
	}
	out = append(out, s.scored(a)...)
	return out
}

// took is the happening of seat's taking the card at pos: what it cost, its ability
// and the action as seat carries it out, with the amounts seat's bonuses give (the
// card's "move 4" is 5 movement points with a "+1 move" card), so that the account
// tells the figures the moves after it spend; the Fairy Queen's extra card comes
// without its action.
func (s *state) took(a *state, seat, pos int) engine.Happening {
	who := s.name(seat)
	c := s.cfg.cards[s.Row[pos-1]]
	ability, printed := c.texts()
	h := engine.Happening{Kind: engine.HapCard, Actor: who}
	switch {
	case s.Phase == phBonus:
		h.Text = engine.Textf("%s took %s (position %d, cost %d): %s; an extra card, without its action", who, engine.Term(c.Name), pos, s.cfg.costs[pos-1], ability)
	case slices.ContainsFunc(c.Actions, func(ac action) bool { return a.amount(seat, ac) != ac.Count }):
		h.Text = engine.Textf("%s took %s (position %d, cost %d): %s; its action, with %s's bonuses: %s", who, engine.Term(c.Name), pos, s.cfg.costs[pos-1], ability, who,
			c.actionText(func(ac action) int { return a.amount(seat, ac) }))
	default:
		h.Text = engine.Textf("%s took %s (position %d, cost %d): %s; its action: %s", who, engine.Term(c.Name), pos, s.cfg.costs[pos-1], ability, printed)
	}
	return h
}

// skipped is what seat's skip forgoes: the armies left to place, the movement points
// left, the city or the destruction, or an undecided "or" card's whole action.
func (s *state) skipped(seat int) engine.Text {
	who := s.name(seat)
	p := s.Pending
	switch {
	case p == nil || len(p.Parts) == 0:
	case p.Choose:
		return engine.Textf("%s skipped the card's action", who)
	case p.Parts[0].Kind == acPlace && p.Left > 0:
		return engine.Textf("%s skipped the rest of the placement: %d armies not placed", who, p.Left)
	case p.Parts[0].Kind == acMove && p.Left > 0:
		return engine.Textf("%s skipped the rest of the move: %d movement points unused", who, p.Left)
	case p.Parts[0].Kind == acCity:
		return engine.Textf("%s chose not to build the city", who)
	case p.Parts[0].Kind == acDestroy:
		return engine.Textf("%s chose not to destroy an army", who)
	}
	return engine.Textf("%s skipped the rest of the action", who)
}

// placed is the happening of seat's placement: the armies each region got, the
// coins paid to the owners of the cities placed in, and the armies left to place.
func (s *state) placed(a *state, seat int) engine.Happening {
	var parts []engine.Text
	for r := range s.Armies {
		if d := a.Armies[r][seat] - s.Armies[r][seat]; d > 0 {
			parts = append(parts, engine.Textf("%d armies in region %d", d, r+1))
		}
	}
	h := engine.Happening{Kind: engine.HapMove, Actor: s.name(seat), Text: engine.Textf("%s placed %s", s.name(seat), joinTexts(parts))}
	for q := range s.Coins {
		if d := a.Coins[q] - s.Coins[q]; q != seat && d > 0 {
			h.Details = append(h.Details, engine.Textf("%s paid %s to %s for placing in their city", s.name(seat), nCoins(d), s.name(q)))
		}
	}
	if left := a.partLeft(seat, acPlace); left > 0 {
		h.Details = append(h.Details, engine.Textf("%s left to place", nArmies(left)))
	}
	return h
}

// partLeft is what seat has left of the part of kind of the card's action under way:
// the armies to place or the movement points (0 when that part is not the current
// one, or seat is not acting).
func (s *state) partLeft(seat int, kind string) int {
	p := s.Pending
	if p == nil || s.Current != seat || p.Choose || len(p.Parts) == 0 || p.Parts[0].Kind != kind {
		return 0
	}
	return p.Left
}

// partGives is what seat may use of the part of kind of the card's action under way
// before using it: what is left of it when it is the current part, all it gives when
// it is still to come (an undecided "or" card, a later part of an "and" card), and
// false when the card has no such part.
func (s *state) partGives(seat int, kind string) (int, bool) {
	p := s.Pending
	if p == nil || s.Current != seat {
		return 0, false
	}
	for i, part := range p.Parts {
		switch {
		case part.Kind != kind:
		case i == 0 && !p.Choose:
			return p.Left, true
		default:
			return s.amount(seat, part), true
		}
	}
	return 0, false
}

// moved is the happening of seat's move (rest is the command's arguments: the path
// and the number of armies): where from and to, the movement it cost and what is
// left, the coins the Bandit King took.
func (s *state) moved(a *state, seat int, rest string) engine.Happening {
	path, count, _ := strings.Cut(strings.ReplaceAll(strings.ReplaceAll(rest, " >", ">"), "> ", ">"), " ")
	regions := strings.Split(path, ">")
	n, err := strconv.Atoi(strings.TrimSpace(count))
	if err != nil || n < 1 {
		n = 1
	}
	from, to := regions[0], regions[len(regions)-1]
	h := engine.Happening{Kind: engine.HapMove, Actor: s.name(seat), Text: engine.Textf("%s moved %s from region %s to region %s", s.name(seat), nArmies(n), from, to)}
	if len(regions) > 2 {
		h.Text = engine.Textf("%s moved %s from region %s to region %s through %s", s.name(seat), nArmies(n), from, to, strings.Join(regions[1:len(regions)-1], ", "))
	}
	if before, ok := s.partGives(seat, acMove); ok {
		if m, err := s.planMove(seat, rest); err == nil && m.count*m.cost <= before {
			spent := m.count * m.cost
			h.Details = append(h.Details, engine.Textf("%d movement points spent, %d left", spent, before-spent))
		}
	}
	if d := s.Coins[seat] - a.Coins[seat]; d > 0 {
		h.Details = append(h.Details, engine.Textf("the bandits on the way took %s", nCoins(d)))
	}
	return h
}

// nArmies and nCoins are counts as text arguments, with their plural forms.
func nArmies(n int) engine.Text { return engine.Textf("%d armies", n) }

func nCoins(n int) engine.Text { return engine.Textf("%d coins", n) }

// joinTexts joins texts with "%s, %s" (an accounts key).
func joinTexts(ts []engine.Text) engine.Text {
	if len(ts) == 0 {
		return engine.Text{}
	}
	out := ts[0]
	for _, t := range ts[1:] {
		out = engine.Textf("%s, %s", out, t)
	}
	return out
}

// revealed is the happening of the last bid: every bid and who won.
func (s *state) revealed(a *state) engine.Happening {
	bids := make([]string, 0, s.n())
	for i := range s.n() {
		bids = append(bids, fmt.Sprintf("%s %d", s.name(i), a.Bids[i]))
	}
	w := a.BidWinner
	return engine.Happening{Kind: engine.HapBid, Text: engine.Textf("the bids were %s: %s won and paid %d coins", strings.Join(bids, ", "), a.name(w), s.Coins[w]-a.Coins[w])}
}

// scored is the happening of a game's end (the last game of a long game too): every
// player's score with its breakdown.
func (s *state) scored(a *state) []engine.Happening {
	var sheets []Sheet
	switch {
	case a.Phase == phOver && s.Phase != phOver:
		sheets = a.sheets()
	case a.GameNo > s.GameNo && len(a.Past) > 0:
		sheets = a.Past[len(a.Past)-1]
	default:
		return nil
	}
	out := make([]engine.Happening, 0, len(sheets))
	for i, sh := range sheets {
		out = append(out, engine.Happening{Kind: engine.HapScore, Actor: a.name(i),
			Text: engine.Textf("%s scored %d VP", a.name(i), sh.Total), Details: sheetParts(sh)})
	}
	return out
}

// sheetParts are a score sheet's lines.
func sheetParts(sh Sheet) []engine.Text {
	out := []engine.Text{engine.Textf("regions: %d VP", sh.Regions), engine.Textf("islands: %d VP", sh.Islands)}
	for _, it := range sh.Items {
		out = append(out, engine.Textf("%s: %d VP", it.text, it.VP))
	}
	return out
}

// Scores implements engine.Scorer: each player's VP (summed over a long game's games)
// with the sheet of the last game.
func (s *state) Scores() []engine.Score {
	cur := s.sheets()
	tot := s.totals(cur)
	out := make([]engine.Score, 0, len(cur))
	for i, sh := range cur {
		parts := sheetParts(sh)
		if d := tot[i] - sh.Total; d != 0 {
			parts = append(parts, engine.Textf("earlier games: %d VP", d))
		}
		out = append(out, engine.Score{Player: s.name(i), Total: tot[i], Parts: parts})
	}
	return out
}
