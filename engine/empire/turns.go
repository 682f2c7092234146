package empire

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// settle places one army of every player in a region off the centre board.
func (s *state) settle(seat int, arg string) error {
	r, err := s.parseRegion(arg)
	if err != nil {
		return err
	}
	if s.cfg.board.Regions[r].Face == 0 {
		return engine.Illegal("region %d is on the centre board; choose a region of an island on another board", r+1)
	}
	for i := range s.n() {
		s.Armies[r][i]++
	}
	if s.NeutralLeft > 0 {
		s.Phase, s.Current = phNeutral, 0
	} else {
		s.Phase = phBid
	}
	return nil
}

// neutral places one neutral army (two players, in turn from the first seat).
func (s *state) neutral(arg string) error {
	r, err := s.parseRegion(arg)
	if err != nil {
		return err
	}
	s.Armies[r][s.n()]++
	s.NeutralLeft--
	s.Current = (s.Current + 1) % s.n()
	if s.NeutralLeft == 0 {
		s.Phase = phBid
	}
	return nil
}

// bid records a secret bid; the last bid resolves the auction: the highest bid is
// paid, a tie goes to the youngest (or the die, by option).
func (s *state) bid(seat int, arg string, rng *engine.Rand) error {
	v, ok := parseCount(arg)
	if !ok {
		return engine.Illegal("%q is not a number of coins", arg)
	}
	if v > s.Coins[seat] {
		return engine.Illegal("you have %d coins; bid 0 to %d", s.Coins[seat], s.Coins[seat])
	}
	s.Bids[seat] = v
	if slices.Contains(s.Bids, -1) {
		return nil
	}
	high := slices.Max(s.Bids)
	var tied []int
	for i, b := range s.Bids {
		if b == high {
			tied = append(tied, i)
		}
	}
	if len(tied) > 1 && s.cfg.opts.DieTiebreak {
		w, err := rng.Pick("die", plus1(tied))
		if err != nil {
			return err
		}
		tied = []int{w - 1}
	}
	if len(tied) > 1 {
		// The youngest wins: the latest birth year (unknown counts as oldest).
		young := 0
		for _, i := range tied {
			young = max(young, s.cfg.players[i].BirthYear)
		}
		tied = slices.DeleteFunc(tied, func(i int) bool { return s.cfg.players[i].BirthYear != young })
	}
	if len(tied) > 1 {
		w, err := rng.Pick("tiebreak", plus1(tied))
		if err != nil {
			return err
		}
		tied = []int{w - 1}
	}
	w := tied[0]
	s.Coins[w] -= high
	s.BidWinner, s.Phase, s.Current = w, phFirst, w
	return nil
}

// first names the first player.
func (s *state) first(arg string) error {
	p := s.seat(arg)
	if p < 0 {
		return engine.Illegal("%q is not a player", arg)
	}
	s.First, s.Current, s.Phase = p, p, phPlay
	return nil
}

// take takes the card at a row position (1–6), pays its cost and gains its ability;
// with action the card's action becomes pending.
func (s *state) take(seat int, arg string, withAction bool) error {
	pos, ok := parseCount(arg)
	if !ok {
		return engine.Illegal("%q is not a position in the row", arg)
	}
	if pos < 1 || pos > len(s.Row) {
		return engine.Illegal("there is no card at position %d: the row has %d cards", pos, len(s.Row))
	}
	cost := s.cfg.costs[pos-1]
	if cost > s.Coins[seat] {
		return engine.Illegal("the card at position %d costs %d coins and you have %d", pos, cost, s.Coins[seat])
	}
	c := s.Row[pos-1]
	s.Coins[seat] -= cost
	s.Row = slices.Delete(s.Row, pos-1, pos)
	s.Cards[seat] = append(s.Cards[seat], c)
	s.Taken++
	cd := s.cfg.cards[c]
	if cd.Ability.Kind == abElixirCoins {
		s.Coins[seat] += cd.Ability.Coins
	}
	if withAction {
		s.Pending = &pending{Card: c, Parts: slices.Clone(cd.Actions), Choose: cd.Combine == "or" && len(cd.Actions) > 1}
		if !s.Pending.Choose {
			s.begin()
		}
	}
	return nil
}

// endTurn ends the current player's turn: peeks at face-down tokens (swamp variant),
// refills the row, and passes to the next player or ends the game.
func (s *state) endTurn(rng *engine.Rand) error {
	seat := s.Current
	s.Pending = nil
	if s.cfg.opts.Swamp {
		for i, t := range s.Tokens {
			if t.Holder < 0 && isExploration(t.Kind) && s.controller(t.Region) == seat {
				s.Known[seat][i] = true
			}
		}
	}
	for len(s.Row) < 6 && len(s.Deck) > 0 {
		s.Row = append(s.Row, s.Deck[0])
		s.Deck = s.Deck[1:]
	}
	for _, cs := range s.Cards {
		if len(cs) < s.cfg.cardsToEnd {
			s.Current = (s.Current + 1) % s.n()
			return nil
		}
	}
	if !s.BonusDone && len(s.Row) > 0 {
		for i := range s.n() {
			if s.leader(i, leaderFairyQueen) {
				s.Phase, s.Current = phBonus, i
				return nil
			}
		}
	}
	return s.finishGame(rng)
}

// finishGame scores the game; a long game goes on to its next game until the third.
func (s *state) finishGame(rng *engine.Rand) error {
	s.BonusDone = true
	if s.cfg.opts.Long && s.GameNo < 3 {
		s.Past = append(s.Past, s.sheets())
		s.GameNo++
		return s.newGame(rng, false)
	}
	s.Phase = phOver
	s.WinnerSeats = s.winners()
	return nil
}
