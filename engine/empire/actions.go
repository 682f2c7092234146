package empire

import (
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// amount is what a card part gives seat now: armies to place and movement points
// include the +1 army / +1 move abilities (cards and tokens).
func (s *state) amount(seat int, a action) int {
	switch a.Kind {
	case acPlace:
		n := a.Count + s.abilityCount(seat, abExtraArmy)
		if s.holds(seat, tokCottage) {
			n++
		}
		return n
	case acMove:
		n := a.Count + s.abilityCount(seat, abExtraMove)
		if s.holds(seat, tokStable) {
			n++
		}
		return n
	}
	return a.Count
}

// amountTaking is amount as it will be once seat has taken card c, whose own
// ability counts for its action ("+1 move" on a card of "move 2": 3).
func (s *state) amountTaking(seat, c int, a action) int {
	n := s.amount(seat, a)
	switch k := s.cfg.cards[c].Ability.Kind; {
	case a.Kind == acPlace && k == abExtraArmy, a.Kind == acMove && k == abExtraMove:
		n++
	}
	return n
}

// begin starts the first pending part.
func (s *state) begin() {
	s.Pending.Left = s.amount(s.Current, s.Pending.Parts[0])
}

// skip forgoes the current part (an undecided "or" card: the whole action).
func (s *state) skip() {
	p := s.Pending
	if p.Choose {
		p.Parts = nil
		return
	}
	p.Parts = p.Parts[1:]
	if len(p.Parts) > 0 {
		s.begin()
	}
}

// choosePart makes verb's part the current one: it chooses an "or" card's action, or
// forgoes the earlier parts of an "and" card.
func (s *state) choosePart(verb string) error {
	p := s.Pending
	i := slices.IndexFunc(p.Parts, func(a action) bool { return a.Kind == verb })
	if i < 0 {
		kinds := any(engine.Command(p.Parts[0].Kind))
		if len(p.Parts) > 1 {
			kinds = text("%s, %s", engine.Command(p.Parts[0].Kind), engine.Command(p.Parts[1].Kind))
		}
		return engine.Illegal("%q is not part of this card's action now (%s, or skip)", engine.Command(verb), kinds)
	}
	if p.Choose {
		p.Parts, p.Choose = []action{p.Parts[i]}, false
		s.begin()
	} else if i > 0 {
		p.Parts = p.Parts[i:]
		s.begin()
	}
	return nil
}

// advance moves past parts that are done or impossible and ends the turn when the
// card's action is over.
func (s *state) advance(rng *engine.Rand) error {
	for {
		p := s.Pending
		if p == nil || len(p.Parts) == 0 {
			return s.endTurn(rng)
		}
		if p.Choose {
			if s.possible(p.Parts[0].Kind, s.amount(s.Current, p.Parts[0])) || s.possible(p.Parts[1].Kind, s.amount(s.Current, p.Parts[1])) {
				return nil
			}
			p.Parts = nil
			continue
		}
		if p.Left > 0 && s.possible(p.Parts[0].Kind, p.Left) {
			return nil
		}
		p.Parts = p.Parts[1:]
		if len(p.Parts) > 0 {
			s.begin()
		}
	}
}

// possible reports whether the current player can do anything with a part of the kind
// with left armies, points, cities or destructions.
func (s *state) possible(kind string, left int) bool {
	seat := s.Current
	if left <= 0 {
		return false
	}
	switch kind {
	case acPlace:
		return s.supply(seat) > 0 && len(s.placeTargets(seat)) > 0
	case acMove:
		for r := range s.Armies {
			if s.Armies[r][seat] > 0 {
				for _, e := range s.neighbours(seat, r) {
					if e.cost <= left {
						return true
					}
				}
			}
		}
		return false
	case acCity:
		return len(s.cityTargets(seat)) > 0
	case acDestroy:
		return len(s.destroyTargets(seat)) > 0
	}
	return false
}

// placeTarget is a region where seat may place, and who is paid 1 coin per army
// (-1: nobody).
type placeTarget struct {
	region, payee int
}

// placeTargets lists where seat may place: the start region and regions with an own
// city; the Bandit King also regions with another player's city, paying that player.
func (s *state) placeTargets(seat int) []placeTarget {
	var out []placeTarget
	for r := range s.Cities {
		if r == s.Start || s.Cities[r][seat] > 0 {
			out = append(out, placeTarget{r, -1})
			continue
		}
		if s.leader(seat, leaderBanditKing) && s.Coins[seat] > 0 {
			// Pay the player with the most cities there, the nearest in turn order on a tie.
			best, payee := 0, -1
			for k := 1; k < s.n(); k++ {
				o := (seat + k) % s.n()
				if c := s.Cities[r][o]; c > best {
					best, payee = c, o
				}
			}
			if payee >= 0 {
				out = append(out, placeTarget{r, payee})
			}
		}
	}
	return out
}

// place: "place R=N [R=N …]".
func (s *state) place(seat int, arg string) error {
	arg = strings.ReplaceAll(strings.ReplaceAll(arg, " =", "="), "= ", "=")
	fields := strings.Fields(arg)
	if len(fields) == 0 {
		return engine.Illegal("say where: place REGION=ARMIES, for example place %d=2", s.Start+1)
	}
	targets := s.placeTargets(seat)
	total, coins := 0, 0
	type put struct{ region, n, payee int }
	var puts []put
	for _, f := range fields {
		rs, ns, ok := strings.Cut(f, "=")
		if !ok {
			return engine.Illegal("%q: write REGION=ARMIES, for example %s=1", f, rs)
		}
		r, err := s.parseRegion(rs)
		if err != nil {
			return err
		}
		n, ok := parseCount(ns)
		if !ok || n == 0 {
			return engine.Illegal("%q: place at least 1 army", f)
		}
		i := slices.IndexFunc(targets, func(t placeTarget) bool { return t.region == r })
		if i < 0 {
			return engine.Illegal("you can place only in the start region (%d) or where you have a city", s.Start+1)
		}
		if slices.ContainsFunc(puts, func(p put) bool { return p.region == r }) {
			return engine.Illegal("region %d is named twice", r+1)
		}
		if targets[i].payee >= 0 {
			coins += n
		}
		total += n
		puts = append(puts, put{r, n, targets[i].payee})
	}
	if total > s.Pending.Left {
		return engine.Illegal("you may place %d armies now, not %d", s.Pending.Left, total)
	}
	if total > s.supply(seat) {
		return engine.Illegal("you have %d armies left in your set (at most %d on the board)", s.supply(seat), maxArmies)
	}
	if coins > s.Coins[seat] {
		return engine.Illegal("placing in other players' cities costs %d coins and you have %d", coins, s.Coins[seat])
	}
	for _, p := range puts {
		s.Armies[p.region][seat] += p.n
		if p.payee >= 0 {
			s.Coins[seat] -= p.n
			s.Coins[p.payee] += p.n
		}
		s.slayDragon(p.region, seat)
	}
	s.Pending.Left -= total
	return nil
}

// slayDragon gives the dragon to seat when seat's armies just made region hold seven.
func (s *state) slayDragon(region, seat int) {
	if i := s.tokenAt(region, func(k string) bool { return k == tokDragon }); i >= 0 && s.regionTotal(region) >= 7 {
		s.Tokens[i].Holder = seat
	}
}

func (s *state) cityTargets(seat int) []int {
	if s.citiesBuilt(seat) >= maxCities {
		return nil
	}
	var out []int
	for r := range s.Armies {
		if s.Armies[r][seat] > 0 {
			out = append(out, r)
		}
	}
	return out
}

// city: "city R" builds a city where seat has an army. The first city in a region
// with an exploration token takes the token; the White Knight adds a free army.
func (s *state) city(seat int, arg string) error {
	r, err := s.parseRegion(arg)
	if err != nil {
		return err
	}
	if s.citiesBuilt(seat) >= maxCities {
		return engine.Illegal("you have built all your %d cities", maxCities)
	}
	if s.Armies[r][seat] == 0 {
		return engine.Illegal("you have no army in region %d; build where you have one (%s)", r+1, joinRegions(s.cityTargets(seat)))
	}
	s.Cities[r][seat]++
	s.Pending.Left--
	if i := s.tokenAt(r, isExploration); i >= 0 {
		s.Tokens[i].Holder = seat
		if s.Tokens[i].Kind == tokHiddenTreasure {
			s.Coins[seat]++
		}
	}
	if s.leader(seat, leaderWhiteKnight) && s.supply(seat) > 0 {
		s.Armies[r][seat]++
		s.slayDragon(r, seat)
	}
	return nil
}

// destroyTarget is an army seat may destroy.
type destroyTarget struct {
	owner, region int
}

// destroyTargets lists the armies seat may destroy: any army ("un'armata
// qualunque": the neutral ones, the other players' and seat's own) in a region where
// seat has an army, except those of players immune to attack.
func (s *state) destroyTargets(seat int) []destroyTarget {
	var out []destroyTarget
	for r := range s.Armies {
		if s.Armies[r][seat] == 0 {
			continue
		}
		for o := 0; o <= s.n(); o++ {
			if s.Armies[r][o] > 0 && !s.immune(o) {
				out = append(out, destroyTarget{o, r})
			}
		}
	}
	return out
}

func (s *state) immune(seat int) bool {
	return seat < s.n() && s.abilityCount(seat, abImmune) > 0
}

// destroy: "destroy PLAYER R".
func (s *state) destroy(seat int, arg string) error {
	i := strings.LastIndexByte(arg, ' ')
	if i < 0 {
		return engine.Illegal("say whose army and where: destroy PLAYER REGION")
	}
	who, rs := arg[:i], arg[i+1:]
	o := s.seat(who)
	if who == neutralName && s.n() == 2 {
		o = s.n()
	}
	if o < 0 && who == neutralName {
		return engine.Illegal("there are no neutral armies in a game of %d players", s.n())
	}
	if o < 0 {
		return engine.Illegal("%q is not a player", who)
	}
	r, err := s.parseRegion(rs)
	if err != nil {
		return err
	}
	switch {
	case s.Armies[r][seat] == 0:
		return engine.Illegal("you need an army of your own in region %d", r+1)
	case s.Armies[r][o] == 0:
		return engine.Illegal("%s has no army in region %d", s.who(o), r+1)
	case s.immune(o):
		return engine.Illegal("%s's armies are immune to attack", s.who(o))
	}
	s.Armies[r][o]--
	s.Pending.Left--
	if o < s.n() && o != seat { // the leaders reward destroying another player's army
		if s.leader(seat, leaderRedSorceress) {
			s.Lost[o]++
		}
		if s.leader(seat, leaderBanditKing) && s.Coins[o] > 0 {
			s.Coins[o]--
			s.Coins[seat]++
		}
	}
	return nil
}
