package dungeoneer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Special actions out of turn (rulesText). The rulebook: «Azioni speciali: Alcune
// azioni possono essere effettuate dentro o fuori dal proprio turno. […] • Sollevare
// il tuo Eroe. […] • Sfidare un mostro o un Eroe. Potete iniziare un attacco standard
// solo una volta per turno, spendendo 1 Movimento. […] Devi trovarti nello stesso
// spazio dell'Eroe o del mostro che intendi sfidare»; out of turn the Movement is the
// one saved at the end of the hero's turn («puoi metterne da parte 1 per usarlo fuori
// dal tuo turno (ad esempio per effettuare Azioni Speciali)»). A hero whose turn it
// is not may, when it likes, and nobody waits for it:
//
//	stand                 stand up (knocked down out of its turn: a trap, a Ghoul)
//	challenge PLAYER FORM  challenge another hero in its space
//	steal PLAYER FORM      challenge the carrier of an escort quest for it
//	challenge CARD FORM    challenge an Encounter monster that attacked in this
//	                       Dungeon Lord phase and stays in its space
//	challenge MAP FORM     challenge the monster of the map card it stands on
//
// They are taken whenever nothing is being resolved (as an always Bane: quiet), and
// in the spoils step, where the monsters that attacked wait for the Dungeon Lord's
// choice.

// outOfTurnVerb reports whether verb, from seat, is a special action out of turn.
func (s *state) outOfTurnVerb(seat int, verb string) bool {
	return s.Rules >= rulesText && seat != s.Current && (verb == "stand" || verb == "challenge" || verb == "steal")
}

// interjectable reports whether a hero out of turn may act now: nothing is being
// resolved, or the Dungeon Lord settles the spoils.
func (s *state) interjectable() bool {
	return s.quiet() || s.Phase == phSpoils
}

// outOfTurn checks and, with rng, carries out one special action of seat's hero out of
// turn: stand, challenge or steal.
func (s *state) outOfTurn(seat int, verb string, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if !s.interjectable() {
		return engine.Illegal("cards are being resolved: a special action out of your turn waits until they are")
	}
	if verb == "stand" {
		switch {
		case len(args) > 0:
			return engine.Illegal("say just %s", engine.Command(verb))
		case !h.Prone:
			return engine.Illegal("your hero is standing")
		case h.Saved < 1:
			return engine.Illegal("out of your turn this costs the Movement you saved at the end of your turn, and your hero saved none")
		}
		if rng != nil {
			h.Saved--
			h.Prone = false
			s.logf("%s stands up with the Movement saved", h.Name)
		}
		return nil
	}
	return s.challenge(seat, verb == "steal", args, rng)
}

// canPay checks that seat's hero can pay 1 Movement for a special action: the turn's
// Movement in its own turn, else the Movement it saved; a hero knocked down pays
// Movement only to stand up.
func (s *state) canPay(seat int) error {
	if seat == s.Current {
		return s.spend(1, false)
	}
	h := &s.Seats[seat]
	switch {
	case h.Prone:
		return engine.Illegal("your hero is knocked down: stand first")
	case h.Saved < 1:
		return engine.Illegal("out of your turn this costs the Movement you saved at the end of your turn, and your hero saved none")
	}
	return nil
}

// payMove pays the 1 Movement canPay checked.
func (s *state) payMove(seat int) {
	if seat == s.Current {
		s.Movement--
		return
	}
	s.Seats[seat].Saved--
}

// fallout ends the turn of a current hero defeated in a fight — its own challenge, or
// one made on it out of turn: the unhurt monsters waiting for its choice are
// discarded with its cards.
func (s *state) fallout() {
	if s.Phase == phOver || !s.Seats[s.Current].Out {
		return
	}
	s.Discard = append(s.Discard, s.Unhurt...)
	s.Unhurt, s.PerilOwed = nil, 0
	s.nextTurn()
}

// foughtAt says where the Encounter monster card that attacked in this Dungeon Lord
// phase is now, and its wounds: waiting for the Dungeon Lord's choice ("unhurt"), in
// the lord's pack or hand; "" when it is gone (slain, discarded from the pack).
func (s *state) foughtAt(card string) (string, int) {
	lord := &s.Seats[s.Current]
	switch {
	case slices.Contains(s.Unhurt, card):
		return "unhurt", 0
	case slices.Contains(lord.Hand, card):
		return "hand", 0
	}
	if i := slices.IndexFunc(lord.Pack, func(m PackMonster) bool { return m.ID == card }); i >= 0 {
		return "pack", lord.Pack[i].Wounds
	}
	return "", 0
}

// foughtHere returns the Encounter monsters that attacked in this Dungeon Lord phase,
// are still in play, and stay in seat's space.
func (s *state) foughtHere(seat int) []string {
	h := &s.Seats[seat]
	var out []string
	for _, f := range s.Fought {
		if where, _ := s.foughtAt(f.Card); where != "" && f.X == h.X && f.Y == h.Y {
			out = append(out, f.Card)
		}
	}
	return out
}

// fightOpen reports whether a hero out of turn could challenge one of the Encounter
// monsters that attacked in this Dungeon Lord phase: the phase then stays open until
// the Dungeon Lord ends it (done), so that the hero may.
func (s *state) fightOpen() bool {
	for i, h := range s.Seats {
		if i != s.Current && !h.Out && !h.Prone && h.Saved > 0 && !h.Struck && len(s.foughtHere(i)) > 0 {
			return true
		}
	}
	return false
}

// challengeEncounter: challenge <card> <form>, an Encounter monster that attacked in
// this Dungeon Lord phase and stays in the space of seat's hero («Una Sfida può essere
// usata per attaccare un mostro dopo che esso vi ha attaccato»). Its wounds go with
// it: wounded, it goes to the Dungeon Lord's pack; slain, it is discarded; the Peril
// its wounds earn and a pack over three wait for the Dungeon Lord's choice (spoils).
func (s *state) challengeEncounter(seat int, card, form string, rng *engine.Rand) error {
	if !slices.Contains(s.foughtHere(seat), card) {
		return engine.Illegal("%s is not a monster that attacked in this Dungeon Lord phase and stays in your space", card)
	}
	if !s.heroStd(seat, form) {
		return engine.Illegal("your hero has no standard attack in %s", formArg(form))
	}
	if rng == nil {
		return nil
	}
	h := &s.Seats[seat]
	s.payMove(seat)
	h.Struck = true
	where, wounds := s.foughtAt(card)
	a := cards.adv[card]
	m := a.Monster
	toH, toM := s.fight(fighter{seat: seat, name: h.Name}, fighter{seat: -1, monster: &m, wounds: wounds, name: a.Name.En}, form, rng)
	s.PerilOwed += toH
	s.heroWoundsMonster(seat, toM)
	if toM > 0 {
		s.woundFought(card, where, wounds+toM)
	}
	if s.Phase != phOver {
		s.settleWith(false)
	}
	return nil
}

// woundFought moves the Encounter monster card, found where (foughtAt), now carrying
// wounds: slain it is discarded, else it goes to the Dungeon Lord's pack with them («I
// mostri feriti vanno sempre nel tuo Branco»).
func (s *state) woundFought(card, where string, wounds int) {
	lord := &s.Seats[s.Current]
	switch where {
	case "unhurt":
		s.Unhurt = slices.DeleteFunc(s.Unhurt, func(c string) bool { return c == card })
	case "hand":
		lord.Hand = slices.DeleteFunc(lord.Hand, func(c string) bool { return c == card })
	case "pack":
		lord.Pack = slices.DeleteFunc(lord.Pack, func(m PackMonster) bool { return m.ID == card })
	}
	if a := cards.adv[card]; wounds >= a.Life {
		s.logf("%s is slain", engine.Term(a.Name.En))
		s.Discard = append(s.Discard, card)
		s.Fought = slices.DeleteFunc(s.Fought, func(f Fought) bool { return f.Card == card })
		return
	}
	lord.Pack = append(lord.Pack, PackMonster{ID: card, Wounds: wounds})
}

// outOfTurnCommands lists the special actions seat's hero might take out of turn now
// (Legal keeps those the gate accepts).
func (s *state) outOfTurnCommands(seat int) []string {
	if s.Rules < rulesText || seat == s.Current || !s.interjectable() {
		return nil
	}
	h := &s.Seats[seat]
	if h.Prone {
		return []string{"stand"}
	}
	if h.Saved < 1 || h.Struck {
		return nil
	}
	// The monsters first, then the heroes; each target in each standard attack.
	targets := s.foughtHere(seat)
	if m := s.mapMonster(seat); m != "" {
		targets = append(targets, m)
	}
	var heroes []string
	for _, t := range s.alive() {
		if t != seat && s.Seats[t].X == h.X && s.Seats[t].Y == h.Y {
			heroes = append(heroes, s.targetOf(t))
		}
	}
	var out []string
	for _, verb := range []string{"challenge", "steal"} {
		for _, t := range slices.Concat(targets, heroes) {
			for _, f := range s.hero(seat).Standard {
				out = append(out, fmt.Sprintf("%s %s %s", verb, t, f))
			}
		}
		targets = nil // steal names heroes only
	}
	return out
}

// outOfTurnNotes notes seat's special actions out of turn that Legal lists: what they
// cost, and which monster a challenge of an Encounter names.
func (s *state) outOfTurnNotes(seat int, legal []string, notes map[string]engine.Text) {
	for _, c := range s.outOfTurnCommands(seat) {
		if !slices.Contains(legal, c) {
			continue
		}
		f := strings.Fields(c)
		if a := cards.adv[argOf(f, 1)]; a != nil {
			_, wounds := s.foughtAt(f[1])
			notes[c] = engine.Textf("%s, life %d", engine.Term(a.Name.En), a.Life-wounds)
			continue
		}
		notes[c] = engine.Textf("with the Movement you saved")
	}
}
