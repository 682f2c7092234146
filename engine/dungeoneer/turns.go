package dungeoneer

import (
	"maps"
	"slices"
	"strconv"

	"github.com/turnmail/turnmail/engine"
)

// startTurn carries out the start phase of seat's turn: doors reset, movement from
// Speed, the saved movement lapses, upkeep is paid or the card returns to the hand,
// abilities; then the Dungeon Lord phase begins.
func (s *state) startTurn(seat int) {
	s.Current = seat
	h := &s.Seats[seat]
	s.Opened, s.QuestAttacked, s.Pending, s.Responders = nil, nil, nil, nil
	s.Visited = []string{cellKey(h.X, h.Y)}
	s.Moved, s.QuestDone, s.QuestTries = false, false, 0
	s.LordStep, s.Fight, s.PerilOwed, s.Unhurt, s.Fought, s.Held = "", nil, 0, nil, nil, nil
	s.Guard, s.UsedOnce, s.Found, s.Discarded, s.Interrupted = nil, nil, nil, false, ""
	// "sulla soglia": a door a hero stands on stays open until it has had its next turn.
	for i := range s.Seats {
		t := &s.Seats[i]
		switch {
		case len(t.Threshold) == 0:
			continue
		case i == seat:
			t.ThresholdDue = true
		case t.ThresholdDue:
			t.Threshold, t.ThresholdDue = nil, false
			continue
		}
		s.Opened = append(s.Opened, t.Threshold...)
	}
	for i := range s.Seats {
		s.Seats[i].Ward = 0
		s.Seats[i].Struck = false // one standard attack per hero per turn
	}
	h.Saved, h.AbilityUsed = 0, false
	var kept []string
	for _, id := range h.Favors {
		if up := cards.adv[id].Upkeep; up > 0 {
			if h.Glory < up {
				h.Hand = append(h.Hand, id)
				s.logf("%s cannot pay the upkeep of %s: it returns to the hand", h.Name, engine.Term(cards.adv[id].Name.En))
				continue
			}
			h.Glory -= up
		}
		kept = append(kept, id)
	}
	h.Favors = kept
	if n := s.passive(seat, opRegen); n > 0 && h.Life < 4 {
		h.Life = min(h.Life+n, maxLife)
		s.logf("%s heals to %d life", h.Name, h.Life)
	}
	if n := s.passive(seat, opGloryStart); n > 0 {
		h.Glory += n
		s.logf("%s gains %d Glory at the start of the turn", h.Name, n)
	}
	s.Movement = s.stat(seat, speed) + s.passive(seat, opMove)
	s.Phase = phLord
}

// nextTurn passes the turn to the next seat still in the game.
func (s *state) nextTurn() {
	if s.Phase == phOver {
		return
	}
	next := s.Current
	for {
		next = (next + 1) % s.n()
		if next == 0 {
			s.Round++
		}
		if !s.Seats[next].Out {
			break
		}
	}
	s.startTurn(next)
}

// roll rolls one die for a named draw.
func roll(rng *engine.Rand) int {
	v, err := rng.Pick("die", dieFaces)
	if err != nil {
		// A dictated outcome out of range: the archive is wrong; a 1 keeps replay defined.
		return 1
	}
	return v
}

// test rolls a peril test of seat: die + score + bonus ≥ value, the score a form's,
// the hero's life or its level.
func (s *state) test(seat int, stat string, value, bonus int, rng *engine.Rand) bool {
	d := roll(rng)
	score := s.stat(seat, stat)
	switch stat {
	case "life":
		score = s.Seats[seat].Life
	case "level":
		score = s.Seats[seat].Level
	}
	total := d + score + bonus + s.passive(seat, opTrapBonus) + s.Seats[seat].Ward
	ok := total >= value
	s.logf("%s rolls %d: %s %d against %d, %s", s.Seats[seat].Name, d, formWord(stat), total, value, engine.Term(map[bool]string{true: "success", false: "failure"}[ok]))
	return ok
}

// wound deals n wounds to seat's hero and reports how many counted (capped by life).
func (s *state) wound(seat, n int) int {
	h := &s.Seats[seat]
	if h.Out {
		return 0
	}
	n = min(n, h.Life)
	h.Life -= n
	if n > 0 {
		s.logf("%s takes %d wounds, %d life left", h.Name, n, h.Life)
	}
	if h.Life == 0 {
		s.defeat(seat)
	}
	return n
}

// defeat takes seat's hero out of the game: its cards are discarded, its personal
// quests go under the quest deck.
func (s *state) defeat(seat int) {
	h := &s.Seats[seat]
	h.Out = true
	s.logf("%s is defeated and leaves the game", h.Name)
	s.Discard = append(s.Discard, h.Hand...)
	s.Discard = append(s.Discard, h.Favors...)
	s.Discard = append(s.Discard, h.Treasures...)
	s.Discard = append(s.Discard, h.Banes...)
	for _, m := range h.Pack {
		s.Discard = append(s.Discard, m.ID)
	}
	// A component lies where it fell, with its quest; the other quests go under the deck.
	s.putDown(seat)
	for _, q := range h.Quests {
		if s.itemOf(q) < 0 {
			s.QDeck = append(s.QDeck, q)
		}
	}
	s.Discard = append(s.Discard, slices.Sorted(maps.Keys(h.Attached))...)
	h.Hand, h.Favors, h.Treasures, h.Banes, h.Pack, h.Quests, h.Charges, h.Threshold, h.Attached = nil, nil, nil, nil, nil, nil, nil, nil, nil
	s.Responders = slices.DeleteFunc(s.Responders, func(r int) bool { return r == seat })
	if alive := s.alive(); len(alive) == 1 {
		s.logf("%s wins as Dungeon Lord", s.Seats[alive[0]].Name)
		s.over(alive)
	}
}

func (s *state) over(winners []int) {
	s.Win = winners
	s.Phase = phOver
	s.Responders = nil
}

// apply applies effects to seat's hero.
func (s *state) apply(seat int, effs []Effect, rng *engine.Rand) {
	for _, e := range effs {
		h := &s.Seats[seat]
		if h.Out || s.Phase == phOver {
			return
		}
		switch e.Op {
		case opWound:
			s.wound(seat, e.N)
		case opHeal:
			if h.Life < maxLife {
				h.Life = min(h.Life+e.N, maxLife)
				s.logf("%s heals to %d life", h.Name, h.Life)
			}
		case opGlory:
			h.Glory += e.N
			s.logf("%s gains %d Glory", h.Name, e.N)
		case opPeril:
			h.Peril += e.N
			s.logf("%s gains %d Peril", h.Name, e.N)
		case opLoseGlory:
			if n := min(e.N, h.Glory); n > 0 {
				h.Glory -= n
				s.logf("%s loses %d Glory", h.Name, n)
			}
		case opMove:
			if seat == s.Current {
				s.Movement += e.N
			}
		case opProne:
			h.Prone = true
			s.logf("%s is knocked down", h.Name)
		case opDiscard:
			// Discarded face up: the card is named.
			for range e.N {
				if len(h.Hand) == 0 {
					break
				}
				i, _ := rng.Pick("discard", seq(len(h.Hand)))
				s.logf("%s discards %s at random", h.Name, engine.Term(cards.adv[h.Hand[i]].Name.En))
				s.Discard = append(s.Discard, h.Hand[i])
				h.Hand = slices.Delete(h.Hand, i, i+1)
			}
		case opTeleport:
			h.X, h.Y, h.Prone, h.Threshold, h.ThresholdDue = 0, 0, false, nil, false
			s.logf("%s is sent back to the Entrance", h.Name)
			if seat == s.Current {
				s.Moved = true
			}
		case opLevel:
			if h.Level < maxLevel {
				h.Level = min(h.Level+e.N, maxLevel)
				s.logf("%s reaches level %d", h.Name, h.Level)
				if h.Life < maxLife {
					h.Life++
					s.logf("%s heals to %d life", h.Name, h.Life)
				}
			}
		case opWard:
			h.Ward += e.N
		case opDropItem:
			s.putDown(seat)
		}
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// fight resolves one standard attack: the attacker's die plus its score in form against
// the defender's die plus its score (a counter-attack). The higher total hits: the
// attacker with its hit effect, the defender with 1 wound. It returns the wounds each
// side took. A side is a seat (≥0) or a monster.
type fighter struct {
	seat    int // -1 for a monster
	monster *Monster
	wounds  int // wounds a monster already carries
	name    string
}

// who is the fighter as an argument of a log line: a hero by its player's name, a
// monster by its name, a term of the reader's language.
func (f fighter) who() any {
	if f.seat >= 0 {
		return f.name
	}
	return engine.Term(f.name)
}

func (s *state) score(f fighter, form string) int {
	if f.seat >= 0 {
		return s.stat(f.seat, form)
	}
	return f.monster.stat(form).V
}

// clash rolls one standard attack and reports who hits: 1 the attacker, -1 the
// defender (its counter-attack), 0 nobody.
func (s *state) clash(att, def fighter, form string, rng *engine.Rand) int {
	a, d := roll(rng), roll(rng)
	ta, td := a+s.score(att, form), d+s.score(def, form)
	if def.seat >= 0 {
		td += s.defense(def.seat)
	}
	s.logf("%s attacks %s with %s: %d against %d", att.who(), def.who(), formWord(form), ta, td)
	switch {
	case ta > td:
		return 1
	case td > ta:
		return -1
	}
	return 0
}

// fight resolves one standard attack and returns the wounds dealt to the attacker and
// to the defender: the attacker hits with its hit effect, the defender with 1 wound.
func (s *state) fight(att, def fighter, form string, rng *engine.Rand) (toAtt, toDef int) {
	switch s.clash(att, def, form, rng) {
	case 1:
		if att.seat < 0 && def.seat >= 0 {
			effs := att.monster.Hit[form]
			if len(effs) == 0 {
				effs = []Effect{{Op: opWound, N: 1}}
			}
			before := s.Seats[def.seat].Life
			s.apply(def.seat, effs, rng)
			return 0, before - s.Seats[def.seat].Life
		}
		if def.seat >= 0 {
			return 0, s.wound(def.seat, 1)
		}
		return 0, s.hurt(def, 1)
	case -1:
		if att.seat >= 0 {
			return s.wound(att.seat, 1), 0
		}
		return s.hurt(att, 1), 0
	}
	s.logf("nobody is hurt")
	return 0, 0
}

// hurt deals n wounds to monster m (capped by its remaining life) and reports how
// many counted.
func (s *state) hurt(m fighter, n int) int {
	n = min(n, m.monster.Life-m.wounds)
	if n > 0 {
		s.logf("%s takes %d wounds", engine.Term(m.name), n)
	}
	return n
}

// heroWoundsMonster rewards seat for wounds dealt to a monster (capped by the
// monster's remaining life, which fight already did).
func (s *state) heroWoundsMonster(seat, wounds int) {
	if wounds > 0 && !s.Seats[seat].Out {
		n := wounds + s.passive(seat, opKillGlory)
		s.Seats[seat].Glory += n
		s.logf("%s gains %d Glory for the wounds dealt", s.Seats[seat].Name, n)
	}
}

// resolve resolves the pending Encounters and Banes in order. Under rulesOriginal a
// monster's attack may wait for its target's challenge (phCounter); under rulesText a
// monster that attacked stays in its space for the rest of the phase (Fought), where
// heroes may challenge it out of turn. At the end the Dungeon Lord settles the spoils,
// then the Dungeon Lord phase goes on — or, when a Bane played among the declared
// Encounters has resolved, they wait for done again.
func (s *state) resolve(rng *engine.Rand) {
	lord := s.Current
	s.Responders = nil
	for len(s.Pending) > 0 {
		if s.Phase == phOver {
			return
		}
		p := s.Pending[0]
		s.Pending = s.Pending[1:]
		a := cards.adv[p.Card]
		t := &s.Seats[p.Target]
		if p.Cancelled || t.Out {
			s.returnMonster(lord, p)
			continue
		}
		switch a.Kind {
		case kBane:
			if a.Permanent {
				t.Banes = append(t.Banes, p.Card)
			} else {
				s.Discard = append(s.Discard, p.Card)
			}
			for _, v := range s.alive() {
				if s.strikes(p, v) {
					s.logf("%s suffers %s", s.Seats[v].Name, engine.Term(a.Name.En))
					s.apply(v, a.Effects, rng)
				}
			}
		case kTrap:
			// A trap strikes every hero in the space where it was played.
			if t.X == p.X && t.Y == p.Y {
				s.logf("%s springs on %s", engine.Term(a.Name.En), t.Name)
			} else {
				s.logf("%s is no longer at %d,%d: %s misses", t.Name, p.X, p.Y, engine.Term(a.Name.En))
			}
			s.Discard = append(s.Discard, p.Card)
			mod := 0
			if o := cards.mapc[s.Grid[cellAt(s.Grid, p.X, p.Y)].ID].Obstacle; o != nil && o.Kind == "risk" {
				mod = o.Mod
				s.logf("the risk of the space adds %d to the trap's value", mod)
			}
			for _, v := range s.alive() {
				if s.Seats[v].X != p.X || s.Seats[v].Y != p.Y {
					continue
				}
				if s.test(v, a.Test.Stat, a.Test.V+mod, 0, rng) {
					s.apply(v, a.Success, rng)
				} else {
					s.apply(v, a.Fail, rng)
				}
			}
		case kMonster:
			if t.X != p.X || t.Y != p.Y {
				// The hero left the space before the resolution: the monster cannot strike.
				s.logf("%s is no longer at %d,%d: %s misses", t.Name, p.X, p.Y, engine.Term(a.Name.En))
				s.returnMonster(lord, p)
				continue
			}
			m := a.Monster
			toM, toH := s.fight(fighter{seat: -1, monster: &m, wounds: p.Wounds, name: a.Name.En},
				fighter{seat: p.Target, name: t.Name}, p.Form, rng)
			s.PerilOwed += toH
			s.heroWoundsMonster(p.Target, toM)
			p.Wounds += toM
			if s.canCounter(p) {
				s.Fight, s.Phase, s.Responders = &p, phCounter, []int{p.Target}
				return
			}
			if s.Rules >= rulesText && p.Wounds < a.Life {
				s.Fought = append(s.Fought, Fought{Card: p.Card, X: p.X, Y: p.Y})
			}
			s.returnMonster(lord, p)
		}
	}
	if s.Phase == phOver {
		return
	}
	s.Pending = nil
	if s.Seats[lord].Out { // fallen to a trap sprung in her own space
		s.Discard = append(s.Discard, s.Unhurt...)
		for _, h := range s.Held {
			s.Discard = append(s.Discard, h.Card)
		}
		s.Unhurt = nil
		s.nextTurn()
		return
	}
	if len(s.Held) > 0 {
		// A Bane played among the declared Encounters has resolved: they wait for done.
		s.Pending, s.Held, s.Phase = s.Held, nil, phLord
		return
	}
	if s.Interrupted != "" {
		s.resume(rng)
		return
	}
	s.settle()
}

// canCounter reports whether the target of monster p, which has just attacked, is
// asked whether it challenges it (the counter step of rulesOriginal): alive, standing,
// with a saved movement to spend and its standard attack of the turn unused, the
// monster still alive. Under rulesText nobody is asked: a hero challenges when it
// likes, out of turn (challengeEncounter).
func (s *state) canCounter(p Pending) bool {
	h := &s.Seats[p.Target]
	return s.Rules < rulesText && s.Phase != phOver && !h.Out && !h.Prone && h.Saved > 0 && !h.Struck &&
		p.Wounds < cards.adv[p.Card].Life
}

// counter is the answer of the hero a monster attacked: challenge <form> (1 saved
// movement, the hero's standard attack of the turn) or pass; then the resolution goes on.
func (s *state) counter(seat int, verb string, args []string, rng *engine.Rand) error {
	p := s.Fight
	switch {
	case verb == "pass" && len(args) == 0:
	case verb == "challenge" && len(args) == 1 && s.heroStd(seat, args[0]):
	case verb == "challenge":
		return engine.Illegal("say challenge with a standard attack of your hero: %s", formList(s.hero(seat).Standard))
	default:
		return engine.Illegal("say challenge <form> to attack %s, or pass", p.Card)
	}
	if rng == nil {
		return nil
	}
	if verb == "challenge" {
		h := &s.Seats[seat]
		h.Saved--
		h.Struck = true
		a := cards.adv[p.Card]
		m := a.Monster
		toH, toM := s.fight(fighter{seat: seat, name: h.Name}, fighter{seat: -1, monster: &m, wounds: p.Wounds, name: a.Name.En}, args[0], rng)
		s.PerilOwed += toH
		s.heroWoundsMonster(seat, toM)
		p.Wounds += toM
	}
	s.Fight = nil
	s.returnMonster(s.Current, *p)
	s.resolve(rng)
	return nil
}

// returnMonster puts a card back after its resolution: a cancelled card is discarded;
// a monster is discarded when slain, goes to the pack when wounded and waits for the
// Dungeon Lord's choice (hand or pack) when unhurt.
func (s *state) returnMonster(lord int, p Pending) {
	a := cards.adv[p.Card]
	if p.Cancelled || (a.Kind == kMonster && s.Seats[lord].Out) {
		s.Discard = append(s.Discard, p.Card)
		return
	}
	if a.Kind != kMonster {
		if s.Seats[p.Target].Out {
			s.Discard = append(s.Discard, p.Card)
		}
		return
	}
	switch {
	case p.Wounds >= a.Life:
		s.logf("%s is slain", engine.Term(a.Name.En))
		s.Discard = append(s.Discard, p.Card)
	case p.Wounds > 0:
		s.Seats[lord].Pack = append(s.Seats[lord].Pack, PackMonster{ID: p.Card, Wounds: p.Wounds})
	default:
		s.Unhurt = append(s.Unhurt, p.Card)
	}
}

// settle enters the spoils step when the Dungeon Lord has choices to make (Peril to
// give, unhurt monsters to keep, a pack over three), else goes on with the phase: it
// ends once the Encounters are resolved unless the lord holds a Bane to play or, under
// rulesText, a hero could still challenge a monster that attacked (fightOpen); the
// lord ends it then with done.
func (s *state) settle() { s.settleWith(true) }

// settleWith is settle; mayEnd false keeps the Dungeon Lord phase open whatever is
// left to do in it: after a hero's challenge out of turn, the lord ends the phase
// (done), so that a command the lord sent meanwhile meets the phase it was sent for.
func (s *state) settleWith(mayEnd bool) {
	if s.PerilOwed > 0 || len(s.Unhurt) > 0 || len(s.Seats[s.Current].Pack) > packSize {
		s.Phase = phSpoils
		return
	}
	s.Phase = phLord
	if s.LordStep == "declare" {
		s.LordStep = "after"
		if mayEnd && !s.canBane(s.Current) && !s.fightOpen() {
			s.beginBuild()
		}
	}
}

// canBane reports whether seat holds a Bane some opponent's Peril pays for.
func (s *state) canBane(seat int) bool {
	for _, id := range s.Seats[seat].Hand {
		a := cards.adv[id]
		for _, t := range s.alive() {
			if a.Kind == kBane && t != seat && s.Seats[t].Peril >= a.Cost {
				return true
			}
		}
	}
	return false
}

// spoils carries out one choice of the Dungeon Lord after the Encounters: peril
// <player> <n> gives n of the Peril earned by the monsters' wounds to any player; keep
// <monster> hand|pack puts an unhurt monster back; discard <monster> trims a pack over
// three.
func (s *state) spoils(seat int, verb string, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	switch {
	case verb == "peril" && len(args) == 2:
		t := s.findTarget(args[0])
		n, err := strconv.Atoi(args[1])
		if t < 0 || s.Seats[t].Out {
			return engine.Illegal("%s is not a player in the game", args[0])
		}
		if err != nil || n < 1 || n > s.PerilOwed || args[1] != strconv.Itoa(n) {
			return engine.Illegal("you have %d Peril to give", s.PerilOwed)
		}
		if rng != nil {
			s.Seats[t].Peril += n
			s.PerilOwed -= n
			s.logf("%s gives %d Peril to %s", h.Name, n, s.Seats[t].Name)
		}
	case verb == "keep" && len(args) == 2 && (args[1] == "hand" || args[1] == "pack"):
		i := slices.Index(s.Unhurt, args[0])
		if i < 0 {
			return engine.Illegal("%s is not an unhurt monster of this phase", args[0])
		}
		if rng != nil {
			s.Unhurt = slices.Delete(s.Unhurt, i, i+1)
			if args[1] == "hand" {
				h.Hand = append(h.Hand, args[0])
			} else {
				h.Pack = append(h.Pack, PackMonster{ID: args[0]})
			}
		}
	case verb == "discard" && len(args) == 1:
		i := slices.IndexFunc(h.Pack, func(m PackMonster) bool { return m.ID == args[0] })
		if len(h.Pack) <= packSize || i < 0 {
			return engine.Illegal("you discard from your pack only when it holds more than %d", packSize)
		}
		if rng != nil {
			h.Pack = slices.Delete(h.Pack, i, i+1)
			s.Discard = append(s.Discard, args[0])
		}
	default:
		return engine.Illegal("say peril <player> <n>, keep <monster> hand|pack or discard <monster>")
	}
	if rng != nil {
		s.settle()
	}
	return nil
}

// beginBuild draws a map card for the build phase; with no card or no legal spot the
// phase passes. With the map in view there is no build phase.
func (s *state) beginBuild() {
	s.Fought = nil // the Encounters leave the map with the Dungeon Lord phase
	s.Phase = phBuild
	if s.InView || !s.draw() {
		s.Phase = phHero
	}
}

// draw draws the next placeable map card into Drawn; cards with no legal spot go to
// the bottom of the map deck. It reports whether a card was drawn.
func (s *state) draw() bool {
	for range len(s.MapDeck) {
		id := s.MapDeck[0]
		s.MapDeck = s.MapDeck[1:]
		if len(placements(s.Grid, id)) > 0 {
			s.Drawn = id
			return true
		}
		s.MapDeck = append(s.MapDeck, id)
	}
	return false
}

// beginDiscard enters the discard/draw phase: points for staying, one saved movement;
// a player with nothing to discard draws and ends the turn at once.
func (s *state) beginDiscard(rng *engine.Rand) {
	h := &s.Seats[s.Current]
	if !s.Moved {
		c := s.cellCard(s.Current)
		h.Glory += c.Glory
		h.Peril += c.Peril
		if c.Glory > 0 || c.Peril > 0 {
			s.logf("%s stayed in %s: %d Glory and %d Peril", h.Name, engine.Term(c.Name.En), c.Glory, c.Peril)
		}
	}
	h.Saved = min(s.Movement, 1)
	s.Phase = phDiscard
	if !s.discardDue(s.Current) {
		s.finishTurn(rng)
	}
}

// finishTurn draws up to five (reshuffling the discards when the deck runs out) and
// passes the turn.
func (s *state) finishTurn(rng *engine.Rand) {
	h := &s.Seats[s.Current]
	for len(h.Hand) < handSize {
		if len(s.Deck) == 0 {
			if len(s.Discard) == 0 || rng == nil {
				break
			}
			d, err := rng.Shuffle("reshuffle", s.Discard)
			if err != nil {
				break
			}
			s.Deck, s.Discard = d, nil
		}
		h.Hand = append(h.Hand, s.Deck[0])
		s.Deck = s.Deck[1:]
	}
	s.nextTurn()
}
