package dungeoneer

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Monsters on quest and map cards (the rulebook: "per quanto riguarda i mostri sulle
// carte Missione o Mappa, il giocatore seduto alla tua sinistra ricopre il ruolo di
// Signore del Dungeon"). They never go to a hand or pack and earn nobody Glory or
// Peril for their wounds: a kill quest's reward is the quest's, a map monster's its
// card's. Each strikes first, once a turn, as a free move; its wounds stay on its card.

// Guard is a quest or map monster about to make its first attack of the turn on the
// current hero, waiting for the player to the left to choose the form (it has more
// than one standard attack). Then is the form of the hero's attack that follows ("" for
// none: the hero only entered the space).
type Guard struct {
	Card string `json:"card"`
	Then string `json:"then,omitempty"`
	// By is 1 + the seat of a hero challenging a map monster out of turn (rulesText),
	// 0 for the current hero; Resume is the phase that goes on after the attacks.
	By     int    `json:"by,omitempty"`
	Resume string `json:"resume,omitempty"`
}

// guardHero is the seat of the hero the guard step's monster attacks: the current
// hero's, or the one that challenged it out of turn.
func (s *state) guardHero() int {
	if s.Guard != nil && s.Guard.By > 0 {
		return s.Guard.By - 1
	}
	return s.Current
}

// monsterOf returns the monster of a quest or map card, nil when it has none.
func monsterOf(card string) *Monster {
	if q := cards.quest[card]; q != nil {
		return q.Monster
	}
	if m := cards.mapc[card]; m != nil {
		return m.Monster
	}
	return nil
}

// left is the seat of the player to seat's left — the next one still in the game in
// turn order (play goes clockwise) — who plays the quest and map monsters against
// seat's hero.
func (s *state) left(seat int) int {
	for i := 1; i < s.n(); i++ {
		if l := (seat + i) % s.n(); !s.Seats[l].Out {
			return l
		}
	}
	return seat
}

// mapMonster returns the map card of the living monster in seat's space, or "".
func (s *state) mapMonster(seat int) string {
	id := s.Grid[s.cell(seat)].ID
	if cards.mapc[id].Monster != nil && !slices.Contains(s.Slain, id) {
		return id
	}
	return ""
}

// meet brings seat's hero (the current one, or one challenging a map monster out of
// turn) against the monster of card: the monster strikes first unless it has attacked
// this turn — in the form the player to the hero's left chooses (the guard step) when
// it has several standard attacks — then the hero attacks in form ("" for no attack).
func (s *state) meet(seat int, card, form string, rng *engine.Rand) {
	if !slices.Contains(s.QuestAttacked, card) {
		s.QuestAttacked = append(s.QuestAttacked, card)
		std := stdForms(monsterOf(card))
		if len(std) > 1 {
			s.Guard = &Guard{Card: card, Then: form}
			if seat != s.Current {
				s.Guard.By, s.Guard.Resume = seat+1, s.Phase
			}
			s.Phase = phGuard
			return
		}
		s.monsterStrikes(seat, card, std[0], rng)
	}
	s.heroStrikes(seat, card, form, rng)
}

// guardAttack is the choice of the player to the left: attack <form>, one of the
// monster's standard attacks, or attack alone, which leaves the choice to the game (its
// best form: bestForm); the attack and the hero's attack after it follow.
func (s *state) guardAttack(args []string, rng *engine.Rand) error {
	m := monsterOf(s.Guard.Card)
	std := stdForms(m)
	if len(args) > 1 || len(args) == 1 && !slices.Contains(std, args[0]) {
		return engine.Illegal("say attack %s, or just attack to leave it to the game", formList(std))
	}
	if rng == nil {
		return nil
	}
	hero := s.guardHero()
	form := s.bestForm(m, hero)
	if len(args) == 1 {
		form = args[0]
	}
	g := *s.Guard
	s.Guard, s.Phase = nil, phHero
	if g.Resume != "" {
		s.Phase = g.Resume
	}
	s.monsterStrikes(hero, g.Card, form, rng)
	s.heroStrikes(hero, g.Card, g.Then, rng)
	return nil
}

// bestForm is the standard attack of monster m with the greatest lead over the score
// of seat's hero in that form (the first such in melee, magic, speed order).
func (s *state) bestForm(m *Monster, seat int) string {
	best, lead := "", 0
	for _, f := range stdForms(m) {
		if d := m.stat(f).V - s.stat(seat, f); best == "" || d > lead {
			best, lead = f, d
		}
	}
	return best
}

// monsterStrikes: the monster of card attacks seat's hero in form, played by the
// player to the left.
func (s *state) monsterStrikes(seat int, card, form string, rng *engine.Rand) {
	m := *monsterOf(card)
	s.logf("%s plays %s against %s", s.Seats[s.left(seat)].Name, engine.Term(m.Name.En), s.Seats[seat].Name)
	toM, _ := s.fight(fighter{seat: -1, monster: &m, wounds: s.QuestWounds[card], name: m.Name.En},
		fighter{seat: seat, name: s.Seats[seat].Name}, form, rng)
	s.QuestWounds[card] += toM
}

// heroStrikes: seat's hero attacks the monster of card in form (its standard attack of
// the turn) when form is given and both still stand; then a defeated hero ends the
// turn, and a slain monster completes its kill quest or gives its map card's reward.
func (s *state) heroStrikes(seat int, card, form string, rng *engine.Rand) {
	h := &s.Seats[seat]
	m := *monsterOf(card)
	if form != "" && !h.Out && s.QuestWounds[card] < m.Life {
		h.Struck = true
		_, toM := s.fight(fighter{seat: seat, name: h.Name},
			fighter{seat: -1, monster: &m, wounds: s.QuestWounds[card], name: m.Name.En}, form, rng)
		s.QuestWounds[card] += toM
	}
	if h.Out {
		if seat == s.Current {
			s.nextTurn()
		}
		return
	}
	if s.QuestWounds[card] < m.Life {
		return
	}
	if q := cards.quest[card]; q != nil {
		s.complete(seat, q, rng)
		return
	}
	delete(s.QuestWounds, card)
	s.Slain = append(s.Slain, card)
	s.logf("%s is slain", engine.Term(m.Name.En))
	s.apply(seat, cards.mapc[card].Reward, rng)
}

// challengeMonster: challenge <map card> <form>, the living monster of the hero's
// space, for 1 Movement (out of turn the saved one) and the hero's standard attack of
// the turn; the monster strikes first if it has not attacked this turn.
func (s *state) challengeMonster(seat int, card, form string, rng *engine.Rand) error {
	if s.mapMonster(seat) != card {
		return engine.Illegal("no living monster of %s is in your space", card)
	}
	if !s.heroStd(seat, form) {
		return engine.Illegal("your hero has no standard attack in %s", formArg(form))
	}
	if rng == nil {
		return nil
	}
	s.payMove(seat)
	s.meet(seat, card, form, rng)
	return nil
}
