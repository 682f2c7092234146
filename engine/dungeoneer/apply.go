package dungeoneer

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Apply implements engine.State.
func (s *state) Apply(player, command string, rng *engine.Rand) (engine.State, error) {
	seat := s.seat(player)
	if seat < 0 {
		return nil, engine.Illegal("%q is not a player of this game", player)
	}
	cmd := engine.Normalize(command)
	if err := s.do(seat, cmd, nil); err != nil {
		var re *engine.RuleError
		if errors.As(err, &re) && re.Instead == nil {
			re.Instead = s.Legal(player)
			if len(re.Instead) > 12 {
				re.Instead = append(re.Instead[:12:12], "…")
			}
		}
		return nil, err
	}
	ns := s.clone()
	if err := ns.do(seat, cmd, rng); err != nil {
		return nil, err // cannot happen: the dry run accepted it
	}
	return ns, nil
}

// do checks command of seat and, when rng is not nil, carries it out. With a nil rng
// it only validates and never modifies s: Legal and Apply share this one gate.
func (s *state) do(seat int, cmd string, rng *engine.Rand) error {
	if s.Phase == phOver {
		return engine.Illegal("the game is over")
	}
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return engine.Illegal("empty command")
	}
	verb, args := f[0], f[1:]
	if s.anyTimeCmd(seat, cmd, verb, args) || s.outOfTurnVerb(seat, verb) {
		return s.anyTime(seat, verb, args, rng)
	}
	if !slices.Contains(s.ToAct(), s.Seats[seat].Name) {
		return engine.Illegal("it is not your turn: waiting for %s", strings.Join(s.ToAct(), ", "))
	}
	want := func(verbs ...string) error {
		if slices.Contains(verbs, verb) {
			return nil
		}
		say := make([]any, len(verbs))
		for i, v := range verbs {
			say[i] = engine.Command(v)
		}
		return engine.Illegal("%q is not possible in the %s; say %s", engine.Command(cmd), PhaseText(s.Phase), orList(say))
	}
	switch s.Phase {
	case phLord:
		if err := want("play", "done"); err != nil {
			return err
		}
		if verb == "done" {
			return s.lordEnd(args, rng)
		}
		return s.lordPlay(seat, args, rng)
	case phRespond:
		if err := want("play", "pass"); err != nil {
			return err
		}
		if verb == "pass" {
			if len(args) > 0 {
				return engine.Illegal("say just pass")
			}
			if rng != nil {
				s.Responders = slices.DeleteFunc(s.Responders, func(r int) bool { return r == seat })
				if len(s.Responders) == 0 {
					s.resolve(rng)
				}
			}
			return nil
		}
		return s.respond(seat, args, rng)
	case phCounter:
		return s.counter(seat, verb, args, rng)
	case phSpoils:
		return s.spoils(seat, verb, args, rng)
	case phGuard:
		if err := want("attack"); err != nil {
			return err
		}
		return s.guardAttack(args, rng)
	case phBuild, phPlace:
		if err := want("build"); err != nil {
			return err
		}
		return s.build(seat, args, rng)
	case phLayout:
		if err := want("build"); err != nil {
			return err
		}
		return s.layoutBuild(seat, args, rng)
	case phHero:
		return s.heroAction(seat, verb, args, rng)
	case phDiscard:
		if verb == "done" && s.mayDiscard(seat) {
			if len(args) > 0 {
				return engine.Illegal("say just done")
			}
			if rng != nil {
				s.finishTurn(rng)
			}
			return nil
		}
		if err := want("discard"); err != nil {
			return err
		}
		return s.discard(seat, args, rng)
	}
	return engine.Illegal("nothing to do")
}

// anyTimeCmd reports whether cmd is one of the commands of any moment, which anyTime
// checks and carries out whoever's turn it is.
func (s *state) anyTimeCmd(seat int, cmd, verb string, args []string) bool {
	if verb == "ability" || verb == "use" || slices.Contains(s.anytime(seat), cmd) {
		return true
	}
	// An always Bane from the hand, however its target is written (name or @n).
	if a := cards.adv[argOf(args, 0)]; verb == "play" && len(args) == 3 && a != nil && a.Kind == kBane && a.Use == useAlways {
		return slices.Contains(s.Seats[seat].Hand, args[0]) && !(s.Phase == phLord && seat == s.Current)
	}
	return false
}

// argOf returns args[i], or "" when there are fewer.
func argOf(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

// findTarget returns the seat a command names: @n is seat n (1 for the first in turn
// order, as on the map), anything else a player's token; -1 when none.
func (s *state) findTarget(tok string) int {
	if n, ok := strings.CutPrefix(tok, "@"); ok {
		i, err := strconv.Atoi(n)
		if err != nil || i < 1 || i > s.n() || n != strconv.Itoa(i) {
			return -1
		}
		return i - 1
	}
	for i, h := range s.Seats {
		if token(h.Name) == tok {
			return i
		}
	}
	return -1
}

// lordPlay plays an Encounter or Bane: play <card> on <player> [form]. Encounters are
// declared together and resolve at done; a Bane resolves at once (after its
// responses): before the Encounters are declared, after they are resolved, and under
// rulesText also between their declaration and their resolution.
func (s *state) lordPlay(seat int, args []string, rng *engine.Rand) error {
	if len(args) < 3 || args[1] != "on" {
		return engine.Illegal("say play <card> on <player> [melee|magic|speed]")
	}
	id := args[0]
	a := cards.adv[id]
	h := &s.Seats[seat]
	inHand := slices.Contains(h.Hand, id)
	pi := slices.IndexFunc(h.Pack, func(m PackMonster) bool { return m.ID == id })
	if a == nil || (!inHand && pi < 0) {
		return engine.Illegal("%s is not in your hand or pack", id)
	}
	if a.Kind != kMonster && a.Kind != kTrap && a.Kind != kBane {
		return engine.Illegal("%s is not an Encounter or a Bane", id)
	}
	if a.Kind == kBane && s.LordStep == "declare" && s.Rules < rulesText {
		return engine.Illegal("Banes come before the Encounters are declared or after they are resolved: say done to resolve them first")
	}
	if a.Kind != kBane && s.LordStep == "after" {
		return engine.Illegal("the Encounters of this turn are resolved; only Banes are left")
	}
	t := s.findTarget(args[2])
	if t < 0 || t == seat || s.Seats[t].Out {
		return engine.Illegal("%s is not an opponent in the game", args[2])
	}
	form := ""
	if a.Kind == kMonster {
		if len(args) != 4 || !slices.Contains(forms, args[3]) || !a.stat(args[3]).Std {
			return engine.Illegal("say which standard attack of %s: %s", id, formList(stdForms(&a.Monster)))
		}
		form = args[3]
	} else if len(args) != 3 {
		return engine.Illegal("say play %s on <player>", id)
	}
	if s.Seats[t].Peril < a.Cost {
		return engine.Illegal("%s has %d Peril, %s costs %d", s.Seats[t].Name, s.Seats[t].Peril, id, a.Cost)
	}
	if rng == nil {
		return nil
	}
	s.Seats[t].Peril -= a.Cost
	if a.Kind == kBane && s.LordStep == "declare" {
		// «le carte Sventura possono essere giocate in qualsiasi momento durante la tua
		// Fase di Signore del Dungeon, prima o dopo aver risolto gli Incontri»: the
		// declared Encounters wait while the Bane resolves (resolve gives them back).
		s.Held, s.Pending = s.Pending, nil
	}
	p := Pending{Card: id, Target: t, By: seat, Form: form, X: s.Seats[t].X, Y: s.Seats[t].Y}
	if inHand {
		i := slices.Index(h.Hand, id)
		h.Hand = slices.Delete(h.Hand, i, i+1)
	} else {
		p.FromPack, p.Wounds = true, h.Pack[pi].Wounds
		h.Pack = slices.Delete(h.Pack, pi, pi+1)
	}
	s.Pending = append(s.Pending, p)
	s.logf("%s plays %s on %s", h.Name, engine.Term(a.Name.En), s.Seats[t].Name)
	if a.Kind == kBane {
		s.openResponses(rng)
	} else {
		s.LordStep = "declare"
	}
	return nil
}

func stdForms(m *Monster) []string {
	var out []string
	for _, f := range forms {
		if m.stat(f).Std {
			out = append(out, f)
		}
	}
	return out
}

// lordEnd resolves the declared Encounters, or ends the Dungeon Lord phase when there
// are none.
func (s *state) lordEnd(args []string, rng *engine.Rand) error {
	if len(args) > 0 {
		return engine.Illegal("say just done")
	}
	if rng == nil {
		return nil
	}
	if s.LordStep == "declare" {
		s.openResponses(rng)
		return nil
	}
	s.beginBuild()
	return nil
}

// openResponses asks every hero the pending cards strike for a response, whatever
// they hold — at the table every player is asked, and a window opened only for those
// who hold a response would tell everyone what is in their hand — or resolves the
// pending cards at once when they strike nobody.
func (s *state) openResponses(rng *engine.Rand) {
	s.Responders = nil
	for _, i := range s.alive() {
		if slices.ContainsFunc(s.Pending, func(p Pending) bool { return s.strikes(p, i) }) {
			s.Responders = append(s.Responders, i)
		}
	}
	if len(s.Responders) > 0 {
		s.Phase = phRespond
		return
	}
	s.resolve(rng)
}

// strikes reports whether pending card p is played on seat: its target, every hero
// but its player's for a Bane that strikes no specific hero, every hero in the space
// where a trap was played ("le carte Incontro Trappola hanno effetto su tutti gli Eroi
// presenti nello spazio").
func (s *state) strikes(p Pending, seat int) bool {
	if p.Target == seat {
		return true
	}
	h, a := &s.Seats[seat], cards.adv[p.Card]
	if h.Out {
		return false
	}
	if a.Kind == kTrap {
		return h.X == p.X && h.Y == p.Y
	}
	return a.All && seat != p.By
}

// responses lists the response commands seat could give now.
func (s *state) responses(seat int) []string {
	h := &s.Seats[seat]
	var out []string
	for _, id := range h.Hand {
		a := cards.adv[id]
		if a.Kind != kFavor || (a.Use != useResponse && a.Use != useAlways) || a.Cost > h.Glory {
			continue
		}
		if a.Effects[0].Op == opCancel {
			for _, p := range s.Pending {
				if s.strikes(p, seat) && !p.Cancelled {
					out = append(out, "play "+id+" "+p.Card)
				}
			}
			continue
		}
		out = append(out, "play "+id)
	}
	// Preparing a defense (Risposta: "preparare altre difese"): activations that add to
	// the hero's rolls or take it out of the space.
	for _, c := range s.activatable(seat) {
		if defends(strings.Fields(c)[1]) && s.do(seat, c, nil) == nil {
			out = append(out, c)
		}
	}
	return out
}

// respond plays a response or "always" Favor: play <card> [<cancelled card>].
func (s *state) respond(seat int, args []string, rng *engine.Rand) error {
	if len(args) == 0 || len(args) > 2 {
		return engine.Illegal("say play <card> or play <card> <encounter>")
	}
	h := &s.Seats[seat]
	a := cards.adv[args[0]]
	if a == nil || !slices.Contains(h.Hand, args[0]) || a.Kind != kFavor || (a.Use != useResponse && a.Use != useAlways) {
		return engine.Illegal("%s is not a response or always Favor in your hand", args[0])
	}
	if a.Cost > h.Glory {
		return engine.Illegal("%s costs %d Glory, you have %d", args[0], a.Cost, h.Glory)
	}
	cancel := a.Effects[0].Op == opCancel
	pi := -1
	if cancel {
		if len(args) != 2 {
			return engine.Illegal("say which Encounter or Bane %s cancels", args[0])
		}
		pi = slices.IndexFunc(s.Pending, func(p Pending) bool { return p.Card == args[1] && s.strikes(p, seat) && !p.Cancelled })
		if pi < 0 {
			return engine.Illegal("%s is not played on you", args[1])
		}
	} else if len(args) != 1 {
		return engine.Illegal("say play %s", args[0])
	}
	if rng == nil {
		return nil
	}
	s.payFavor(seat, args[0])
	if cancel {
		s.Pending[pi].Cancelled = true
		s.logf("%s cancels %s", h.Name, engine.Term(cards.adv[args[1]].Name.En))
	} else {
		s.apply(seat, a.Effects, rng)
	}
	// The responder stays asked until they pass: closing the window when they have
	// nothing left would tell the table so.
	return nil
}

// payFavor takes an instant card from seat's hand, pays its Glory and discards it.
func (s *state) payFavor(seat int, id string) {
	h := &s.Seats[seat]
	i := slices.Index(h.Hand, id)
	h.Hand = slices.Delete(h.Hand, i, i+1)
	h.Glory -= cards.adv[id].Cost
	s.Discard = append(s.Discard, id)
	s.logf("%s plays %s", h.Name, engine.Term(cards.adv[id].Name.En))
}

// build places the drawn map card for seat: build <card> at x,y rot r.
func (s *state) build(seat int, args []string, rng *engine.Rand) error {
	if len(args) != 5 || args[1] != "at" || args[3] != "rot" {
		return engine.Illegal("say build %s at <x>,<y> rot <0|90|180|270>", s.Drawn)
	}
	if args[0] != s.Drawn {
		return engine.Illegal("the map card to place is %s", s.Drawn)
	}
	pl, err := parsePlace(args)
	if err != nil {
		return err
	}
	if !canPlace(s.Grid, s.Drawn, pl) {
		return engine.Illegal("%s cannot be placed at %d,%d rot %d", s.Drawn, pl.X, pl.Y, pl.Rot)
	}
	if rng == nil {
		return nil
	}
	s.Grid = append(s.Grid, Placed{ID: s.Drawn, X: pl.X, Y: pl.Y, Rot: pl.Rot})
	s.logf("%s places %s at %d,%d", s.Seats[seat].Name, engine.Term(cards.mapc[s.Drawn].Name.En), pl.X, pl.Y)
	s.Drawn = ""
	s.Phase = phHero
	return nil
}

// parsePlace reads the place of a build command's arguments: <card> at <x>,<y> rot <r>.
func parsePlace(args []string) (placement, error) {
	xs, ys, ok := strings.Cut(args[2], ",")
	x, err1 := strconv.Atoi(xs)
	y, err2 := strconv.Atoi(ys)
	rot, err3 := strconv.Atoi(args[4])
	if !ok || err1 != nil || err2 != nil || err3 != nil {
		return placement{}, engine.Illegal("%q is not a place: say <x>,<y> rot <0|90|180|270>", strings.Join(args[2:], " "))
	}
	return placement{x, y, rot}, nil
}

// discard discards exactly one card (hand, Treasure or pack monster), then the turn
// ends — unless the hero has discarded a carrying item and has more Treasures ready
// than it can carry: it then discards Treasures of its choice until it has not.
func (s *state) discard(seat int, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if len(args) != 1 {
		return engine.Illegal("say discard <card>")
	}
	id := args[0]
	pi := slices.IndexFunc(h.Pack, func(m PackMonster) bool { return m.ID == id })
	if !slices.Contains(h.Hand, id) && !slices.Contains(h.Treasures, id) && pi < 0 {
		return engine.Illegal("%s is not in your hand, Treasures or pack", id)
	}
	if s.Discarded && !slices.Contains(h.Treasures, id) {
		return engine.Illegal("your hero has more Treasures ready than it can carry: discard one of them")
	}
	if rng == nil {
		return nil
	}
	switch {
	case slices.Contains(h.Hand, id):
		i := slices.Index(h.Hand, id)
		h.Hand = slices.Delete(h.Hand, i, i+1)
	case slices.Contains(h.Treasures, id):
		s.unready(seat, id)
	default:
		h.Pack = slices.Delete(h.Pack, pi, pi+1)
	}
	s.Discard = append(s.Discard, id)
	s.Discarded = true
	if s.mustDiscard(seat) {
		return nil // Treasures over the limit are left
	}
	s.finishTurn(rng)
	return nil
}

// anyTime carries out a command possible at any moment (Azioni speciali): ability,
// use <ready card>, play <always Favor> (paid with seat's Glory) or play <always Bane>
// on <player>. A hero asked to respond who has no response left after it is done
// responding; a current hero with nothing left to discard in its discard phase ends
// its turn.
func (s *state) anyTime(seat int, verb string, args []string, rng *engine.Rand) error {
	if s.Seats[seat].Out {
		return engine.Illegal("your hero has left the game")
	}
	if s.Phase == phLayout {
		return engine.Illegal("the map is being laid out: the game begins once every map card is placed")
	}
	if err := s.special(seat, verb, args, rng); err != nil || rng == nil {
		return err
	}
	// A responder who acts stays asked until they pass, even with nothing left to
	// respond with: closing the window for them would tell the others so.
	// The current hero's last card played, or its last Treasure spent, in its discard
	// phase: nothing is left to discard, and the turn ends.
	if s.Phase == phDiscard && seat == s.Current && !s.discardDue(seat) {
		s.finishTurn(rng)
	}
	return nil
}

// mustDiscard reports whether seat, in its discard phase, has a discard to make: its
// one card, or Treasures over the limit after it. «Se hai ancora carte in mano devi
// scartarne 1 (e solo 1) […]. Se non possiedi carte in mano non sei costretto a
// scartare»: under rulesText the one card is due only with cards in hand (before, with
// any card in hand, ready Treasures or pack).
func (s *state) mustDiscard(seat int) bool {
	h := &s.Seats[seat]
	if s.Discarded {
		return s.overloaded(seat)
	}
	if s.Rules >= rulesText {
		return len(h.Hand) > 0
	}
	return len(h.Hand)+len(h.Treasures)+len(h.Pack) > 0
}

// mayDiscard reports whether seat, in its discard phase, may discard without having
// to (rulesText): its hand is empty, and it has a ready Treasure or a pack monster to
// part with («è possibile scartare una carta Tesoro dall'Inventario durante la propria
// Fase di Scarto/Pesca»; «Si può scartare 1 carta dal proprio Branco»); done keeps
// them.
func (s *state) mayDiscard(seat int) bool {
	h := &s.Seats[seat]
	return s.Rules >= rulesText && !s.Discarded && len(h.Hand) == 0 && len(h.Treasures)+len(h.Pack) > 0
}

// discardDue reports whether seat's discard phase waits for it: a discard it must or
// may make.
func (s *state) discardDue(seat int) bool { return s.mustDiscard(seat) || s.mayDiscard(seat) }

// special checks and, with rng, carries out one special action of anyTime.
func (s *state) special(seat int, verb string, args []string, rng *engine.Rand) error {
	h := &s.Seats[seat]
	if verb == "use" {
		return s.use(seat, args, rng)
	}
	if s.outOfTurnVerb(seat, verb) {
		return s.outOfTurn(seat, verb, args, rng)
	}
	if len(args) == 3 {
		return s.alwaysBane(seat, args, rng)
	}
	if verb == "ability" {
		hero := s.hero(seat)
		switch {
		case len(args) > 0:
			return engine.Illegal("say just ability")
		case !hero.Activated:
			return engine.Illegal("the ability of %s always works: there is nothing to activate", engine.Term(hero.Name.En))
		case h.AbilityUsed:
			return engine.Illegal("the ability is used until your next turn")
		case h.Glory < hero.AbilityCost:
			return engine.Illegal("the ability costs %d Glory, you have %d", hero.AbilityCost, h.Glory)
		}
		if rng != nil {
			h.Glory -= hero.AbilityCost
			h.AbilityUsed = true
			s.logf("%s uses the ability of %s", h.Name, engine.Term(hero.Name.En))
			s.apply(seat, []Effect{hero.Ability}, rng)
		}
		return nil
	}
	a := cards.adv[args[0]]
	if a.Cost > h.Glory {
		return engine.Illegal("%s costs %d Glory, you have %d", args[0], a.Cost, h.Glory)
	}
	if rng != nil {
		s.payFavor(seat, args[0])
		s.apply(seat, a.Effects, rng)
	}
	return nil
}

func sideOf(word string) int { return slices.Index(sideNames, word) }

// spend checks that the hero can spend n movement (standing if prone).
func (s *state) spend(n int, standing bool) error {
	if s.Seats[s.Current].Prone && !standing {
		return engine.Illegal("your hero is knocked down: stand first")
	}
	if s.Movement < n {
		return engine.Illegal("you have %d movement left", s.Movement)
	}
	return nil
}

func doorKey(x, y, side int) string { return fmt.Sprintf("%d,%d,%s", x, y, sideNames[side]) }
