package dungeoneer

import (
	"slices"
	"strconv"

	"github.com/turnmail/turnmail/engine"
)

// heroAction carries out one command of the hero phase.
func (s *state) heroAction(seat int, verb string, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	noArgs := func() error {
		if len(args) > 0 {
			return engine.Illegal("say just %s", engine.Command(verb))
		}
		return nil
	}
	switch verb {
	case "done":
		if err := noArgs(); err != nil {
			return err
		}
		if rng != nil {
			s.beginDiscard(rng)
		}
		return nil
	case "stand":
		if err := noArgs(); err != nil {
			return err
		}
		if !h.Prone {
			return engine.Illegal("your hero is standing")
		}
		if err := s.spend(1, true); err != nil {
			return err
		}
		if rng != nil {
			s.Movement--
			h.Prone = false
		}
		return nil
	case "move":
		if len(args) != 1 || sideOf(args[0]) < 0 {
			return engine.Illegal("say move n, e, s or w")
		}
		return s.move(seat, sideOf(args[0]), rng)
	case "explore":
		if err := noArgs(); err != nil {
			return err
		}
		if s.InView {
			return engine.Illegal("the whole map is in view: there is nothing to explore")
		}
		if err := s.spend(1, false); err != nil {
			return err
		}
		if !slices.ContainsFunc(s.MapDeck, func(id string) bool { return len(placements(s.Grid, id)) > 0 }) {
			return engine.Illegal("no map card left can be placed")
		}
		if rng != nil {
			s.Movement--
			s.draw()
			s.Phase = phPlace
		}
		return nil
	case "sewer", "portal":
		if err := noArgs(); err != nil {
			return err
		}
		if err := s.spend(1, false); err != nil {
			return err
		}
		dest := -1
		here := s.cellCard(seat)
		if o := here.Obstacle; o != nil && o.Kind == verb {
			if verb == "portal" {
				dest = 0
			}
			for i, p := range s.Grid {
				o2 := cards.mapc[p.ID].Obstacle
				if verb == "sewer" && p.ID != here.ID && o2 != nil && o2.Kind == "sewer" && o2.Pair == o.Pair {
					dest = i
				}
			}
		}
		switch {
		case dest < 0 && verb == "portal":
			return engine.Illegal("there is no portal here leading to a placed map card")
		case dest < 0:
			return engine.Illegal("there is no sewer here leading to a placed map card")
		}
		if rng != nil {
			s.Movement--
			s.enter(seat, dest, rng)
		}
		return nil
	case "play":
		if len(args) == 3 && args[1] == "on" {
			return s.attach(seat, args[0], args[2], rng)
		}
		if len(args) != 1 {
			return engine.Illegal("say play <card>")
		}
		return s.playOwn(seat, args[0], rng)
	case "challenge", "steal":
		return s.challenge(seat, verb == "steal", args, rng)
	case "drop":
		return s.drop(seat, args, rng)
	case "quest":
		return s.quest(seat, args, rng)
	case "take":
		return s.take(seat, args, rng)
	case "put":
		return s.putCmd(seat, args, rng)
	}
	return engine.Illegal("%q is not a command of the hero phase (move, explore, quest, play, challenge, stand, sewer, portal, drop, steal, take, put, use, ability, done)", engine.Command(verb))
}

// move crosses the door on side: the door of the space left is resolved as a peril.
func (s *state) move(seat, side int, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if err := s.spend(1, false); err != nil {
		return err
	}
	i := s.cell(seat)
	j, ok := passable(s.Grid, i, side)
	if j < 0 {
		return engine.Illegal("no map card lies %s of you: explore first", engine.Term(directions[sideNames[side]]))
	}
	if !ok {
		return engine.Illegal("a wall blocks the way %s", engine.Term(directions[sideNames[side]]))
	}
	if rng == nil {
		return nil
	}
	key := doorKey(h.X, h.Y, side)
	d := s.Grid[i].door(side)
	if (d.Kind == doorLocked || d.Kind == doorTrapped) && !slices.Contains(s.Opened, key) {
		if d.Kind == doorLocked {
			s.logf("%s tries the locked door (value %d)", h.Name, d.V)
		} else {
			s.logf("%s tries the trapped door (value %d)", h.Name, d.V)
		}
		ok := s.test(seat, speed, d.V, 0, rng)
		s.Opened = append(s.Opened, key)
		if !ok && d.Kind == doorTrapped {
			s.wound(seat, 1)
			if s.Seats[seat].Out {
				s.nextTurn()
				return nil
			}
		}
		if !ok && d.Kind == doorLocked {
			s.Movement--
			if s.Movement == 0 {
				// "Sulla soglia": the door counts as open both ways and for everybody
				// until the hero has had its next turn to step through.
				h.Threshold = []string{key, doorKey(s.Grid[j].X, s.Grid[j].Y, (side+2)%4)}
				s.Opened = append(s.Opened, h.Threshold[1])
				s.logf("%s stands on the threshold", h.Name)
				return nil
			}
		}
	}
	s.Movement--
	s.enter(seat, j, rng)
	return nil
}

// enter moves seat's hero into grid card j during its turn: a space new this turn
// gives its Glory and Peril and springs its obstacle and effects.
func (s *state) enter(seat, j int, rng *engine.Rand) {
	h := &s.Seats[seat]
	p := s.Grid[j]
	h.X, h.Y, h.Threshold, h.ThresholdDue = p.X, p.Y, nil, false
	s.Moved = true
	key := cellKey(p.X, p.Y)
	c := cards.mapc[p.ID]
	s.logf("%s enters %s at %d,%d", h.Name, engine.Term(c.Name.En), p.X, p.Y)
	if slices.Contains(s.Visited, key) {
		return
	}
	s.Visited = append(s.Visited, key)
	h.Glory += c.Glory
	h.Peril += c.Peril
	switch {
	case c.Glory > 0 && c.Peril > 0:
		s.logf("%s gains %d Glory and %d Peril, first in this space this turn", h.Name, c.Glory, c.Peril)
	case c.Glory > 0:
		s.logf("%s gains %d Glory, first in this space this turn", h.Name, c.Glory)
	case c.Peril > 0:
		s.logf("%s gains %d Peril, first in this space this turn", h.Name, c.Peril)
	}
	if o := c.Obstacle; o != nil {
		switch o.Kind {
		case "pit":
			s.logf("%s meets the pit (value %d)", h.Name, o.V)
			if !s.test(seat, o.Stat, o.V, 0, rng) {
				h.Prone = true
				s.logf("%s falls into the pit", h.Name)
			}
		case "spikes":
			s.logf("%s meets the spikes (value %d)", h.Name, o.V)
			if !s.test(seat, o.Stat, o.V, 0, rng) {
				s.wound(seat, 1)
			}
		}
	}
	s.apply(seat, c.OnEnter, rng)
	if s.Seats[seat].Out {
		s.nextTurn()
		return
	}
	if m := s.mapMonster(seat); m != "" {
		s.meet(seat, m, "", rng) // the monster of the space attacks the hero who enters
	}
}

// playOwn readies a Favor or Treasure from the hand, paying its Glory.
func (s *state) playOwn(seat int, id string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	a := cards.adv[id]
	if a == nil || !slices.Contains(h.Hand, id) {
		return engine.Illegal("%s is not in your hand", id)
	}
	if a.Kind != kFavor && a.Kind != kTreasure {
		return engine.Illegal("%s is not a Favor or a Treasure", id)
	}
	if a.Kind == kFavor && a.Use == useResponse {
		return engine.Illegal("%s is a response: it is played when an Encounter or Bane is played on you", id)
	}
	if a.Attach != "" {
		return engine.Illegal("%s modifies a ready Treasure of yours of category %s", id, CategoryText(a.Attach))
	}
	if a.Cost > h.Glory {
		return engine.Illegal("%s costs %d Glory, you have %d", id, a.Cost, h.Glory)
	}
	if slices.ContainsFunc(a.Effects, func(e Effect) bool { return e.Op == opCancel || e.Op == opWard }) {
		return engine.Illegal("%s only works against an Encounter or Bane", id)
	}
	if a.Permanent {
		hero := s.hero(seat)
		switch {
		case a.Kind == kFavor && len(h.Favors) >= hero.FavorLimit:
			return engine.Illegal("your hero has %d Favors ready, the most it can", len(h.Favors))
		case a.Kind == kTreasure && len(h.Treasures)+1 > s.treasureRoom(seat)+a.Carry:
			// A carrying item counts 1 but brings its own room: it fits even when full.
			return engine.Illegal("your hero has %d Treasures ready, the most it can", len(h.Treasures))
		case a.Kind == kTreasure && slices.ContainsFunc(h.Treasures, func(t string) bool { return cards.adv[t].Category == a.Category }):
			return engine.Illegal("your hero already has a Treasure of category %s ready", CategoryText(a.Category))
		}
	}
	if rng == nil {
		return nil
	}
	if !a.Permanent {
		s.payFavor(seat, id)
		s.apply(seat, a.Effects, rng)
		return nil
	}
	i := slices.Index(h.Hand, id)
	h.Hand = slices.Delete(h.Hand, i, i+1)
	h.Glory -= a.Cost
	if a.Kind == kFavor {
		h.Favors = append(h.Favors, id)
	} else {
		h.Treasures = append(h.Treasures, id)
	}
	if act := a.Activate; act != nil && act.Charges > 0 {
		if h.Charges == nil {
			h.Charges = map[string]int{}
		}
		h.Charges[id] = act.Charges
	}
	s.logf("%s readies %s", h.Name, engine.Term(a.Name.En))
	return nil
}

// heroStd reports whether seat's hero has a standard attack in form.
func (s *state) heroStd(seat int, form string) bool {
	return slices.Contains(s.hero(seat).Standard, form)
}

// challenge: challenge <player> <form>, another hero in the same space, once a turn
// for 1 movement; the hero who hits gains 1 Glory per wound. steal <player> <form> is
// the challenge for the escort quest the other hero carries: a hit deals no wound but
// takes the quest, which becomes the challenger's personal quest (even beyond two).
func (s *state) challenge(seat int, steal bool, args []string, rng *engine.Rand) error {
	if len(args) != 2 {
		return engine.Illegal("say challenge|steal <player> <melee|magic|speed>")
	}
	if s.Seats[seat].Struck {
		return engine.Illegal("your hero has made its standard attack this turn")
	}
	if err := s.canPay(seat); err != nil {
		return err
	}
	if cards.mapc[args[0]] != nil && !steal {
		return s.challengeMonster(seat, args[0], args[1], rng)
	}
	if cards.adv[args[0]] != nil && !steal && s.Rules >= rulesText {
		return s.challengeEncounter(seat, args[0], args[1], rng)
	}
	t := s.findTarget(args[0])
	h := &s.Seats[seat]
	if t < 0 || t == seat || s.Seats[t].Out || s.Seats[t].X != h.X || s.Seats[t].Y != h.Y {
		return engine.Illegal("%s is not another hero in your space", args[0])
	}
	if !s.heroStd(seat, args[1]) {
		return engine.Illegal("your hero has no standard attack in %s", formArg(args[1]))
	}
	if steal && s.Seats[t].Carrying == "" {
		return engine.Illegal("%s carries no escort quest", s.Seats[t].Name)
	}
	if steal && h.Carrying != "" {
		return engine.Illegal("your hero already carries %s", h.Carrying)
	}
	if rng == nil {
		return nil
	}
	s.payMove(seat)
	h.Struck = true
	if steal {
		switch s.clash(fighter{seat: seat, name: h.Name}, fighter{seat: t, name: s.Seats[t].Name}, args[1], rng) {
		case 1:
			v := &s.Seats[t]
			q := v.Carrying
			v.Quests = slices.DeleteFunc(v.Quests, func(id string) bool { return id == q })
			v.Carrying = ""
			h.Quests = append(h.Quests, q)
			h.Carrying = q
			s.logf("%s takes the quest %s from %s", h.Name, engine.Term(cards.quest[q].Name.En), v.Name)
		case -1:
			if s.wound(seat, 1) > 0 && !s.Seats[t].Out {
				s.Seats[t].Glory++
			}
		}
		s.fallout()
		return nil
	}
	toA, toD := s.fight(fighter{seat: seat, name: h.Name}, fighter{seat: t, name: s.Seats[t].Name}, args[1], rng)
	if toD > 0 && !s.Seats[seat].Out {
		s.Seats[seat].Glory += toD
	}
	if toA > 0 && !s.Seats[t].Out {
		s.Seats[t].Glory += toA
	}
	s.fallout()
	return nil
}

// quest attempts a quest: quest <card> [form] (a form for kill quests; a number of
// Glory to add to the roll for chance quests). A quest with a search first needs its
// search test passed, once in each turn.
func (s *state) quest(seat int, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if len(args) == 0 || len(args) > 2 {
		return engine.Illegal("say quest <card> [melee|magic|speed]")
	}
	id := args[0]
	q := cards.quest[id]
	if q == nil || (!slices.Contains(h.Quests, id) && s.Global != id) {
		return engine.Illegal("%s is neither one of your quests nor the global quest", id)
	}
	if s.QuestDone {
		return engine.Illegal("you have completed a quest this turn")
	}
	if h.Prone {
		return engine.Illegal("your hero is knocked down: stand first")
	}
	here := s.Grid[s.cell(seat)].ID
	at := q.At
	if q.Kind == "escort" && h.Carrying == id {
		at = q.To
	}
	if here != at {
		return engine.Illegal("%s is done at %s (%s)", id, at, engine.Term(cards.mapc[at].Name.En))
	}
	cost, boost := 0, 0
	switch q.Kind {
	case "kill":
		if len(args) != 2 || !s.heroStd(seat, args[1]) {
			return engine.Illegal("say quest %s with a standard attack of your hero: %s", id, formList(s.hero(seat).Standard))
		}
		if h.Struck {
			return engine.Illegal("your hero has made its standard attack this turn")
		}
		cost = 1
	case "fetch":
		if s.QuestTries > 0 {
			cost = 1
		}
	case "chance":
		cost = 1
		if len(args) == 2 {
			n, err := strconv.Atoi(args[1])
			c := q.Chance
			if err != nil || c.Boost == 0 || n < 1 || n >= c.V || args[1] != strconv.Itoa(n) {
				return engine.Illegal("say quest %s, or quest %s N to pay Glory for +N to the roll (N from 1 to %d)", id, id, c.V-1)
			}
			if n*c.Boost > h.Glory {
				return engine.Illegal("+%d to the roll costs %d Glory, you have %d", n, n*c.Boost, h.Glory)
			}
			boost = n
		}
	case "visit":
		for _, e := range q.Cost {
			if e.Op == opLoseGlory && h.Glory < e.N {
				return engine.Illegal("%s costs %d Glory, you have %d", id, e.N, h.Glory)
			}
		}
	case "escort":
		if h.Carrying != "" && h.Carrying != id {
			return engine.Illegal("your hero already carries %s", h.Carrying)
		}
		if i := s.itemOf(id); i >= 0 {
			return engine.Illegal("the component of %s lies at %d,%d: take it there", id, s.Items[i].X, s.Items[i].Y)
		}
	}
	if q.Kind != "kill" && q.Kind != "chance" && len(args) != 1 {
		return engine.Illegal("say quest %s", id)
	}
	if err := s.spend(cost, false); err != nil {
		return err
	}
	if rng == nil {
		return nil
	}
	s.Movement -= cost
	s.QuestTries++
	if q.Search != nil && !slices.Contains(s.Found, id) {
		s.logf("%s searches for the way to %s (value %d)", h.Name, engine.Term(q.Name.En), q.Search.V)
		if !s.test(seat, q.Search.Stat, q.Search.V, 0, rng) {
			s.logf("%s does not find the way to %s", h.Name, engine.Term(q.Name.En))
			return nil
		}
		s.Found = append(s.Found, id)
	}
	switch q.Kind {
	case "kill":
		s.meet(seat, id, args[1], rng)
	case "fetch":
		if s.test(seat, q.Test.Stat, q.Test.V, 0, rng) {
			s.complete(seat, q, rng)
			return nil
		}
		// A failed attempt strikes every hero in the space, as a trap does.
		for _, v := range s.alive() {
			if s.Seats[v].X == h.X && s.Seats[v].Y == h.Y {
				s.apply(v, q.Fail, rng)
			}
		}
		if h.Out {
			s.nextTurn()
		}
	case "chance":
		h.Glory -= boost * q.Chance.Boost
		d := roll(rng)
		ok := d+boost >= q.Chance.V
		s.logf("%s rolls %d and adds %d: %d against %d, %s", h.Name, d, boost, d+boost, q.Chance.V, engine.Term(map[bool]string{true: "success", false: "failure"}[ok]))
		if ok {
			s.complete(seat, q, rng)
			return nil
		}
		s.apply(seat, q.Fail, rng)
		if h.Out {
			s.nextTurn()
		}
	case "visit":
		s.apply(seat, q.Cost, rng)
		if h.Out {
			s.nextTurn()
			return nil
		}
		s.complete(seat, q, rng)
	case "escort":
		if h.Carrying == "" {
			h.Carrying = id
			s.logf("%s takes up the quest %s", h.Name, engine.Term(q.Name.En))
			if s.Global == id {
				h.Quests = append(h.Quests, id)
				s.newGlobal()
			}
			return nil
		}
		h.Carrying = ""
		s.complete(seat, q, rng)
	}
	return nil
}

// drop gives up a personal quest whose map card cannot be placed on the map now (and is
// not on it): the quest goes under the quest deck and the top quest replaces it.
// (The rulebook puts a discarded quest under the deck but says nothing of quests that
// cannot be done; this is our rule, docs/dungeoneer.md.)
func (s *state) drop(seat int, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if len(args) != 1 {
		return engine.Illegal("say drop <quest>")
	}
	id := args[0]
	q := cards.quest[id]
	if q == nil || !slices.Contains(h.Quests, id) || h.Carrying == id {
		return engine.Illegal("%s is not a personal quest of yours you can drop", id)
	}
	stuck := func(m string) bool {
		return m != "" && !slices.ContainsFunc(s.Grid, func(p Placed) bool { return p.ID == m }) && len(placements(s.Grid, m)) == 0
	}
	if !stuck(q.At) && !stuck(q.To) {
		return engine.Illegal("%s can still be done: its map cards are on the map or can be placed", id)
	}
	if rng == nil {
		return nil
	}
	h.Quests = slices.DeleteFunc(h.Quests, func(x string) bool { return x == id })
	if i := s.itemOf(id); i >= 0 {
		s.Items = slices.Delete(s.Items, i, i+1) // its component goes with it
	}
	s.QDeck = append(s.QDeck, id)
	h.Quests = append(h.Quests, s.QDeck[0])
	s.QDeck = s.QDeck[1:]
	s.logf("%s drops the quest %s", h.Name, engine.Term(q.Name.En))
	return nil
}

// newGlobal turns up the next global quest.
func (s *state) newGlobal() {
	s.Global = ""
	if len(s.QDeck) > 0 {
		s.Global, s.QDeck = s.QDeck[0], s.QDeck[1:]
	}
}

// complete completes quest q for seat: the reward, the win at three, and the turn goes
// straight to the discard/draw phase.
func (s *state) complete(seat int, q *Quest, rng *engine.Rand) {
	h := &s.Seats[seat]
	if i := slices.Index(h.Quests, q.ID); i >= 0 {
		h.Quests = slices.Delete(h.Quests, i, i+1)
	} else {
		s.newGlobal()
	}
	delete(s.QuestWounds, q.ID)
	h.Done = append(h.Done, q.ID)
	s.QuestDone = true
	s.logf("%s completes the quest %s", h.Name, engine.Term(q.Name.En))
	if g := cards.quest[s.Global]; g != nil && !slices.Contains(h.Quests, q.ID) && q.ID != s.Global {
		s.logf("the new global quest is %s", engine.Term(g.Name.En))
	}
	s.apply(seat, q.Reward, rng)
	if len(h.Done) >= questsWin {
		s.logf("%s completes a third quest and wins", h.Name)
		s.over([]int{seat})
		return
	}
	s.beginDiscard(rng)
}
