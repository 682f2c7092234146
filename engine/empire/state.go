package empire

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// maxArmies is the size of a player's set of armies ("Non puoi avere più di 18 armate
// in gioco"); maxCities the cities in the set.
const (
	maxArmies = 18
	maxCities = 3
)

// neutralName names the neutral armies of a two-player game in commands and views.
const neutralName = "neutral"

// Phases.
const (
	phSettle  = "settle"  // the drawn player places one army of everybody off the centre
	phNeutral = "neutral" // two players place the ten neutral armies in turn
	phBid     = "bid"     // secret simultaneous bid
	phFirst   = "first"   // the bid's winner names the first player
	phPlay    = "play"    // turns: take a card, do its action
	phBonus   = "bonus"   // the Fairy Queen may take one more card
	phOver    = "over"
)

// config is what stays fixed for a whole game; states share it.
type config struct {
	players    []engine.Player
	names      []string // normalized names by seat
	cards      []card
	costs      []int
	cardsToEnd int
	startCoins int
	board      *layout
	opts       options
	fixed      fixedSetup
	digest     string
}

// token is a token on the board (Holder -1) or in front of a player.
type token struct {
	Kind   string `json:"kind"`
	Region int    `json:"region"`
	Holder int    `json:"holder"`
}

// pending is the action of the card just taken: the parts still to do (an "or" card
// offers both until one is chosen) and what is left of the current part.
type pending struct {
	Card   int      `json:"card"`
	Parts  []action `json:"parts"`
	Choose bool     `json:"choose"`
	Left   int      `json:"left"`
}

// state is an immutable position. Seat n (one past the last player) holds the neutral
// armies of a two-player game.
type state struct {
	cfg         *config
	Config      string    `json:"config"`
	Phase       string    `json:"phase"`
	GameNo      int       `json:"game_no"`
	Start       int       `json:"start"`
	Placer      int       `json:"placer"`
	Current     int       `json:"current"`
	First       int       `json:"first"`
	NeutralLeft int       `json:"neutral_left"`
	Bids        []int     `json:"bids"`
	BidWinner   int       `json:"bid_winner"`
	Armies      [][]int   `json:"armies"`
	Cities      [][]int   `json:"cities"`
	Lost        []int     `json:"lost"`
	Coins       []int     `json:"coins"`
	Cards       [][]int   `json:"cards"`
	Leaders     []string  `json:"leaders"`
	Row         []int     `json:"row"`
	Deck        []int     `json:"deck"`
	Pending     *pending  `json:"pending"`
	Tokens      []token   `json:"tokens"`
	Known       [][]bool  `json:"known"`
	Taken       int       `json:"taken"`
	BonusDone   bool      `json:"bonus_done"`
	Past        [][]Sheet `json:"past"`
	WinnerSeats []int     `json:"winners"`
}

var _ engine.State = (*state)(nil)
var _ engine.Skipper = (*state)(nil)

func (s *state) n() int { return len(s.cfg.players) }

func (s *state) clone() *state {
	c := *s
	c.Bids = slices.Clone(s.Bids)
	c.Armies = clone2(s.Armies)
	c.Cities = clone2(s.Cities)
	c.Lost = slices.Clone(s.Lost)
	c.Coins = slices.Clone(s.Coins)
	c.Cards = clone2(s.Cards)
	c.Leaders = slices.Clone(s.Leaders)
	c.Row = slices.Clone(s.Row)
	c.Deck = slices.Clone(s.Deck)
	if s.Pending != nil {
		p := *s.Pending
		p.Parts = slices.Clone(p.Parts)
		c.Pending = &p
	}
	c.Tokens = slices.Clone(s.Tokens)
	c.Known = clone2(s.Known)
	c.Past = slices.Clone(s.Past)
	c.WinnerSeats = slices.Clone(s.WinnerSeats)
	return &c
}

func clone2[T any](x [][]T) [][]T {
	if x == nil {
		return nil
	}
	out := make([][]T, len(x))
	for i := range x {
		out[i] = slices.Clone(x[i])
	}
	return out
}

// seat returns the seat of a player name (any case), or -1.
func (s *state) seat(name string) int {
	return slices.Index(s.cfg.names, engine.Normalize(name))
}

func (s *state) name(seat int) string {
	if seat == s.n() {
		return neutralName
	}
	return s.cfg.players[seat].Name
}

// ToAct lists the players who must act now.
func (s *state) ToAct() []string {
	switch s.Phase {
	case phOver:
		return nil
	case phBid:
		var out []string
		for i, b := range s.Bids {
			if b < 0 {
				out = append(out, s.name(i))
			}
		}
		return out
	}
	return []string{s.name(s.Current)}
}

// Turn is the round of card taking, 1 during the first round (and the setup).
func (s *state) Turn() int {
	return min(s.Taken/s.n()+1, s.cfg.cardsToEnd)
}

// Finished reports whether the game (all three games of a long game) is over.
func (s *state) Finished() bool { return s.Phase == phOver }

// Winners lists the winners of a finished game.
func (s *state) Winners() []string {
	var out []string
	for _, w := range s.WinnerSeats {
		out = append(out, s.name(w))
	}
	return out
}

// Hash is a digest of the whole state.
func (s *state) Hash() string { return engine.HashJSON(s) }

func (s *state) onBoard(seat int) int {
	t := 0
	for _, r := range s.Armies {
		t += r[seat]
	}
	return t
}

// supply is how many armies seat may still put on the board.
func (s *state) supply(seat int) int { return maxArmies - s.onBoard(seat) - s.Lost[seat] }

func (s *state) citiesBuilt(seat int) int {
	t := 0
	for _, r := range s.Cities {
		t += r[seat]
	}
	return t
}

// abilityCount counts seat's cards with the ability kind.
func (s *state) abilityCount(seat int, kind string) int {
	t := 0
	for _, c := range s.Cards[seat] {
		if s.cfg.cards[c].Ability.Kind == kind {
			t++
		}
	}
	return t
}

// wordCount counts seat's cards whose name begins with word.
func (s *state) wordCount(seat int, word string) int {
	t := 0
	for _, c := range s.Cards[seat] {
		if s.cfg.cards[c].word() == word {
			t++
		}
	}
	return t
}

func (s *state) leader(seat int, id string) bool {
	return seat < len(s.Leaders) && s.Leaders[seat] == id
}

// holds reports whether seat holds a token of the kind.
func (s *state) holds(seat int, kind string) bool {
	for _, t := range s.Tokens {
		if t.Kind == kind && t.Holder == seat {
			return true
		}
	}
	return false
}

// tokenAt returns the index of a token lying on region whose kind satisfies match, or -1.
func (s *state) tokenAt(region int, match func(string) bool) int {
	for i, t := range s.Tokens {
		if t.Holder < 0 && t.Region == region && match(t.Kind) {
			return i
		}
	}
	return -1
}

// seaCost is what one army pays to cross a sea route: 3, less 1 per Flying, at least 1.
func (s *state) seaCost(seat int) int {
	return max(1, 3-s.abilityCount(seat, abFlying))
}

// strength is armies plus cities of seat in region.
func (s *state) strength(region, seat int) int {
	st := s.Armies[region][seat]
	if seat < s.n() {
		st += s.Cities[region][seat]
	}
	return st
}

// controller returns the seat (n for neutral) with the most armies and cities in
// region, or -1 when nobody is there or the first place is tied.
func (s *state) controller(region int) int {
	best, who := 0, -1
	for seat := 0; seat <= s.n(); seat++ {
		v := s.strength(region, seat)
		switch {
		case v > best:
			best, who = v, seat
		case v == best && v > 0:
			who = -1
		}
	}
	return who
}

// islandController returns the seat controlling the most regions of island i, or -1.
func (s *state) islandController(i int, ctrl []int) int {
	count := make([]int, s.n()+1)
	for _, r := range s.cfg.board.Islands[i].Regions {
		if c := ctrl[r]; c >= 0 {
			count[c]++
		}
	}
	best, who := 0, -1
	for seat, v := range count {
		switch {
		case v > best:
			best, who = v, seat
		case v == best && v > 0:
			who = -1
		}
	}
	return who
}

func (s *state) controllers() []int {
	out := make([]int, len(s.Armies))
	for r := range out {
		out[r] = s.controller(r)
	}
	return out
}

// regionTotal is the number of armies (all players and neutral) in region.
func (s *state) regionTotal(region int) int {
	t := 0
	for _, a := range s.Armies[region] {
		t += a
	}
	return t
}
