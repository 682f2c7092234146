package smallworld

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// The core verbs; the abilities register theirs (ability.verbs) between them.
func init() {
	registerVerbs(
		&verb{name: "pick", rank: rankPick, apply: applyPick, legal: legalPick},
		&verb{name: "decline", rank: rankDecline, apply: applyDecline, legal: legalDecline, notes: notesDecline},
		&verb{name: "conquer", rank: rankConquer, apply: applyConquer, legal: legalConquer, notes: notesConquer},
		&verb{name: "abandon", rank: rankAbandon, apply: applyAbandon, legal: legalAbandon},
		&verb{name: "redeploy", rank: rankRedeploy, apply: applyRedeploy, legal: legalRedeploy, notes: notesRedeploy},
		&verb{name: "done", rank: rankDone, apply: applyDone, legal: legalDone, notes: notesDone},
	)
}

// Apply implements engine.State. The command is matched case-insensitively; the
// receiver is never modified.
func (s *state) Apply(player, command string, rng *engine.Rand) (engine.State, error) {
	v, p, words, err := s.check(player, command)
	if err != nil {
		return nil, err
	}
	return s.apply(s.clone(), v, p, words, rng)
}

// ApplyInto implements engine.Reuser.
func (s *state) ApplyInto(spare engine.State, player, command string, rng *engine.Rand) (engine.State, error) {
	n, ok := spare.(*state)
	if !ok || n == s {
		return s.Apply(player, command, rng)
	}
	v, p, words, err := s.check(player, command)
	if err != nil {
		return nil, err
	}
	return s.apply(s.cloneInto(n), v, p, words, rng)
}

// apply carries out verb v of player p on n, the copy of s that becomes the new state.
func (s *state) apply(n *state, v *verb, p int, words []string, rng *engine.Rand) (engine.State, error) {
	n.story, n.actor, n.told, n.toldKinds, n.via = nil, p, nil, nil, engine.Text{}
	if err := v.apply(n, p, words[1:], rng); err != nil {
		if re, ok := err.(*engine.RuleError); ok && re.Instead == nil {
			re.Instead = s.instead(p, v.name)
		}
		return nil, err
	}
	if after := n.cat.variant.afterApply; after != nil {
		if err := after(s, n, rng); err != nil {
			return nil, err
		}
	}
	if err := n.refill(rng); err != nil {
		return nil, err
	}
	n.tellChanges(s)
	n.told, n.toldKinds, n.via = nil, nil, engine.Text{} // what the story told, used while applying only
	n.keepStacks()
	return n, nil
}

// check finds what player's command asks for (the verb, the player's index, the
// command's words) and whether the player may give it now.
func (s *state) check(player, command string) (*verb, int, []string, error) {
	if s.Over {
		return nil, 0, nil, engine.Illegal("the game is over")
	}
	p := s.playerIndex(player)
	if p < 0 {
		return nil, 0, nil, engine.Illegal("%q does not play in this game", player)
	}
	words := strings.Fields(engine.Normalize(command))
	if len(words) == 0 {
		return nil, 0, nil, illegalInstead(s.Legal(player), "empty command")
	}
	if err := s.mayAct(p); err != nil {
		return nil, 0, nil, err
	}
	v, ok := reg.verbIndex[words[0]]
	if !ok {
		return nil, 0, nil, illegalInstead(s.Legal(player), "unknown command %q", words[0])
	}
	if v.owner != nil && !s.has(p, v.owner.name) {
		return nil, 0, nil, illegalInstead(s.Legal(player), "only %s can use %q", engine.Term(v.owner.name), engine.Command(v.name))
	}
	if why := s.forbidden(p, words); why.Key != "" {
		return nil, 0, nil, illegalInstead(s.instead(p, v.name), "%s", why)
	}
	return v, p, words, nil
}

// reason is a rule's explanation of why something may not be done, built where the
// decision is (targetReason, keptReason …) and given to engine.Illegal as its one
// argument: a text of the smallworld catalogue, so that it is translated with the
// error (i18n checks its formats like Illegal's).
func reason(format string, args ...any) engine.Text { return engine.Textf(format, args...) }

// text is a player-visible text of this engine other than a rule error: a note on a
// Legal entry (Notes). Its format is a key of the smallworld message catalogue
// (i18n/catalog/LANG/smallworld.json), whose test reads the formats of every call of
// text, as it reads those of engine.Illegal and reason.
func text(format string, args ...any) engine.Text { return engine.Textf(format, args...) }

// nTokens and nCoins are counts of tokens and coins as text arguments, with their
// plural forms ("1 token", "3 tokens"; keys of the accounts catalogue).
func nTokens(n int) engine.Text { return engine.Textf("%d tokens", n) }

func nCoins(n int) engine.Text { return engine.Textf("%d coins", n) }

// syntax is a command's usage for an error: its pattern in command words (shown in
// the reader's words), with what it means when a note is given.
func syntax(pattern string, note ...engine.Text) engine.Text {
	if len(note) == 0 {
		return reason("%s", engine.Command(pattern))
	}
	return reason("%s (%s)", engine.Command(pattern), note[0])
}

// illegalInstead is engine.Illegal with what the player may do instead.
func illegalInstead(instead []string, format string, args ...any) *engine.RuleError {
	e := engine.Illegal(format, args...)
	e.Instead = instead
	return e
}

// mayAct reports whether player p has anything to do now.
func (s *state) mayAct(p int) error {
	if len(s.Pending) > 0 {
		if slices.Contains(s.Pending, int8(p)) {
			return nil
		}
		return engine.Illegal("it is not your turn: waiting for %s to place the tokens (or encampments) they lost in an attack", strings.Join(s.ToAct(), ", "))
	}
	if p != s.Cur {
		return engine.Illegal("it is not your turn: %s is to play", s.names[s.Cur])
	}
	return nil
}

// ownTurn reports whether p plays their turn now (no defender is redeploying).
func (s *state) ownTurn(p int) bool {
	return !s.Over && len(s.Pending) == 0 && p == s.Cur
}

func (s *state) defending(p int) bool {
	return !s.Over && slices.Contains(s.Pending, int8(p))
}

// instead lists the legal commands starting with verb, or all legal commands.
func (s *state) instead(p int, verb string) []string {
	all := s.Legal(s.names[p])
	var out []string
	for _, c := range all {
		if c == verb || strings.HasPrefix(c, verb+" ") {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// needActive refuses commands that need an active race.
func (s *state) needActive(p int) error {
	if !s.army(p, slotActive).exists() {
		return engine.Illegal("you have no active race: pick one first (pick 1 to pick %d)", len(s.Offer))
	}
	return nil
}

// needOwnTurn refuses commands of the turn from a defender.
func (s *state) needOwnTurn(p int) error {
	if !s.ownTurn(p) {
		return engine.Illegal("you are placing tokens lost in an attack: use redeploy (or done to place them automatically)")
	}
	return nil
}

// needConquests refuses conquest commands after the conquest phase.
func (s *state) needConquests(p int) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if err := s.needActive(p); err != nil {
		return err
	}
	if s.T.Closed {
		return engine.Illegal("your conquests are over for this turn (after the reinforcement roll or once redeployment began)")
	}
	return nil
}

// needPower refuses a power's command to a player whose active race lacks the power.
func (s *state) needPower(p int, power string) error {
	if !s.has(p, power) {
		return engine.Illegal("only a race with the %s power can do that", engine.Term(power))
	}
	return nil
}

func wantArgs(args []string, n int, usage engine.Text) error {
	if len(args) != n {
		return engine.Illegal("usage: %s", usage)
	}
	return nil
}

// ---- pick ----

func legalPick(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || s.army(p, slotActive).exists() || s.lastRedeploy(p) {
		return out
	}
	for i := range s.Offer {
		if i <= s.Players[p].Coins {
			out = append(out, "pick "+strconv.Itoa(i+1))
		}
	}
	return out
}

func applyPick(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if err := wantArgs(args, 1, syntax("pick N", reason("a position of the offer, 1 is free"))); err != nil {
		return err
	}
	pl := &s.Players[p]
	if a := pl.Armies[slotActive]; a.exists() {
		return engine.Illegal("you already play the %s %s; a new race comes after a decline", engine.Term(a.Power), engine.Term(a.Race))
	}
	if s.lastRedeploy(p) {
		return engine.Illegal("your race has just gone into decline: make its last redeployment (redeploy) or end your turn with done; you take a new race next turn")
	}
	i, err := strconv.Atoi(args[0])
	if err != nil || i < 1 || i > len(s.Offer) {
		return engine.Illegal("there is no combo at position %s: the offer has positions 1–%d", args[0], len(s.Offer))
	}
	i--
	if pl.Coins < i {
		return engine.Illegal("combo %d costs %d coins (one on each combo above it) and you have %d", i+1, i, pl.Coins)
	}
	c := s.Offer[i]
	pl.Coins -= i
	for j := range i {
		s.Offer[j].Coins++
	}
	pl.Coins += c.Coins
	s.Offer = slices.Delete(s.Offer, i, i+1)
	pl.Armies[slotActive] = newArmy(c.Race, c.Power, s.comboTokens(c.Race, c.Power))
	pl.tally.Combos += c.Coins - i
	s.tell(-1, engine.HapCombo, -1, "%s took %s (offer position %d) with %s: paid %s, took the %s on it", s.names[p], comboName(c.Power, c.Race), i+1, nTokens(pl.Armies[slotActive].Hand), nCoins(i), nCoins(c.Coins))
	s.T.Acted = true
	for ab := range s.acting(p, slotActive) {
		if ab.onPick != nil {
			ab.onPick(s, p)
		}
	}
	return nil
}

// ---- decline ----

func legalDecline(s *state, p int, out []string) []string {
	if s.ownTurn(p) && s.army(p, slotActive).exists() && (!s.T.Acted || s.declineEndsTurn(p)) {
		out = append(out, "decline")
	}
	return out
}

// declineEndsTurn reports whether player p's `decline` ends a normal turn (Stout).
func (s *state) declineEndsTurn(p int) bool {
	for ab := range s.acting(p, slotActive) {
		if ab.declineEndsTurn {
			return true
		}
	}
	return false
}

func applyDecline(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if err := wantArgs(args, 0, syntax("decline")); err != nil {
		return err
	}
	if err := s.needActive(p); err != nil {
		return err
	}
	if s.declineEndsTurn(p) {
		s.finishTurn(p, true)
		return nil
	}
	if s.T.Acted {
		return engine.Illegal("going into decline takes the whole turn: it must be your first command of the turn")
	}
	s.declineTurn(p)
	return nil
}

// ---- conquer ----

// conquerArgs parses "R [RACE] [roll]": RACE names a declined race that plays in
// decline (conquer R ghouls).
func (s *state) conquerArgs(p int, args []string) (r, slot int, roll bool, err error) {
	usage := func() engine.Text { // built only for an error: a replay applies many conquests
		return reason("%s, %s (final conquest with the reinforcement die), %s (declined Ghouls)",
			engine.Command("conquer R"), engine.Command("conquer R roll"), engine.Command("conquer R ghouls [roll]"))
	}
	if len(args) == 0 || len(args) > 3 {
		return 0, 0, false, engine.Illegal("usage: %s", usage())
	}
	r, err = s.regionIndex(args[0])
	if err != nil {
		return 0, 0, false, err
	}
	slot = slotActive
	for _, w := range args[1:] {
		switch {
		case w == "roll" && !roll:
			roll = true
		case slot == slotActive && !roll && playsInDecline(w) != "":
			slot = s.ghoulSlot(p)
			if slot < 0 || !strings.EqualFold(s.army(p, slot).Race, w) {
				return 0, 0, false, engine.Illegal("you have no declined %s", playsInDecline(w))
			}
		default:
			return 0, 0, false, engine.Illegal("usage: %s", usage())
		}
	}
	return r, slot, roll, nil
}

// playsInDecline returns the race named by the command word w when that race plays
// in decline (ability.playsInDecline), or "".
func playsInDecline(w string) string {
	for name, ab := range reg.abilities {
		if ab.playsInDecline && engine.Normalize(name) == w {
			return name
		}
	}
	return ""
}

// ghoulPhase reports whether player p's declined Ghouls may still conquer.
func (s *state) ghoulPhase(p int) bool {
	return s.ownTurn(p) && !s.T.ActiveActed && !s.T.Closed && s.ghoulSlot(p) >= 0
}

func applyConquer(s *state, p int, args []string, rng *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	r, slot, roll, err := s.conquerArgs(p, args)
	if err != nil {
		return err
	}
	if slot == slotActive {
		if err := s.needConquests(p); err != nil {
			return err
		}
	} else if !s.ghoulPhase(p) {
		return engine.Illegal("declined Ghouls conquer at the start of the turn, before your active race acts")
	}
	a := s.army(p, slot)
	holds := s.count(p, slot) > 0
	if why := s.targetReason(p, slot, r, holds); why.Key != "" {
		if t := s.targets(p, slot); len(t) > 0 {
			return engine.Illegal("%s; you can conquer %s", why, s.idList(t))
		}
		return engine.Illegal("%s; no region is open to your %s", why, s.raceName(p, slot))
	}
	cost := s.cost(p, slot, r)
	id := s.b.id(r)
	berserk := slot == slotActive && s.T.Die >= 0
	if roll {
		switch {
		case berserk:
			return engine.Illegal("you rolled the Berserk die already: conquer %d (it takes %d)", id, max(1, cost-int(s.T.Die)))
		case a.Hand < 1:
			return engine.Illegal("you have no tokens in hand")
		case a.Hand >= cost:
			return engine.Illegal("you have enough tokens for region %d (it takes %d): conquer %d", id, cost, id)
		case cost-a.Hand > 3:
			return engine.Illegal("region %d takes %d tokens: with %d in hand even a 3 on the die is not enough", id, cost, a.Hand)
		}
		die, err := rng.Pick("die", dieFaces)
		if err != nil {
			return fmt.Errorf("reinforcement die: %w", err)
		}
		if a.Hand+die >= cost {
			s.tell(-1, engine.HapOther, -1, "%s rolled %d on the reinforcement die: enough for region %d", s.names[p], die, id)
			s.occupy(p, slot, r, a.Hand)
		} else {
			s.tell(-1, engine.HapOther, -1, "%s rolled %d on the reinforcement die: not enough for region %d (it takes %d)", s.names[p], die, id, cost)
		}
		s.T.Acted = true
		s.closeConquests()
		return nil
	}
	need := cost
	if berserk {
		need = max(1, cost-int(s.T.Die))
	}
	if a.Hand < need {
		if !berserk && a.Hand >= 1 && need-a.Hand <= 3 {
			return engine.Illegal("region %d takes %d tokens and you have %d in hand: %s tries it with the reinforcement die and ends your conquests", id, need, a.Hand, engine.Command(fmt.Sprintf("conquer %d roll", id)))
		}
		return engine.Illegal("region %d takes %d tokens and you have %d in hand", id, need, a.Hand)
	}
	s.occupy(p, slot, r, need)
	s.T.Die = -1
	return nil
}

func legalConquer(s *state, p int, out []string) []string {
	if !s.ownTurn(p) {
		return out
	}
	if g := s.ghoulSlot(p); g >= 0 && s.ghoulPhase(p) {
		out = s.legalConquerSlot(p, g, " "+engine.Normalize(s.army(p, g).Race), out)
	}
	if s.army(p, slotActive).exists() && !s.T.Closed {
		out = s.legalConquerSlot(p, slotActive, "", out)
	}
	return out
}

func (s *state) legalConquerSlot(p, slot int, suffix string, out []string) []string {
	a := s.army(p, slot)
	if a.Hand < 1 {
		return out
	}
	holds := s.count(p, slot) > 0
	berserk := slot == slotActive && s.T.Die >= 0
	for r := range s.Regions {
		if s.block(p, slot, r, holds) != okTarget {
			continue
		}
		cost := s.cost(p, slot, r)
		switch {
		case berserk:
			if max(1, cost-int(s.T.Die)) <= a.Hand {
				out = append(out, "conquer "+s.b.ids[r]+suffix)
			}
		case cost <= a.Hand:
			out = append(out, "conquer "+s.b.ids[r]+suffix)
		case cost-a.Hand <= 3:
			out = append(out, "conquer "+s.b.ids[r]+suffix+" roll")
		}
	}
	return out
}

// ---- abandon ----

func (s *state) abandonable(p, r int) bool {
	g := &s.Regions[r]
	if int(g.Owner) != p || !s.ownTurn(p) || s.T.Die >= 0 {
		return false
	}
	if g.Slot == slotActive {
		return !s.T.Closed
	}
	return int(g.Slot) == s.ghoulSlot(p) && s.ghoulPhase(p) && s.count(p, int(g.Slot)) > 1
}

func legalAbandon(s *state, p int, out []string) []string {
	if !s.ownTurn(p) {
		return out
	}
	for r := range s.Regions {
		if s.abandonable(p, r) {
			out = append(out, "abandon "+s.b.ids[r])
		}
	}
	return out
}

func applyAbandon(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if err := wantArgs(args, 1, syntax("abandon R")); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	g := s.Regions[r]
	switch {
	case int(g.Owner) != p:
		return engine.Illegal("region %d is not yours", s.b.id(r))
	case s.T.Die >= 0:
		return engine.Illegal("you rolled the Berserk die: conquer a region first")
	case g.Slot == slotActive && s.T.Closed:
		return engine.Illegal("regions are abandoned during conquests, and yours are over for this turn")
	case g.Slot != slotActive && !s.abandonable(p, r):
		return engine.Illegal("your declined %s cannot abandon region %d (only declined Ghouls can, before your active race acts, and not their last region)", engine.Term(s.army(p, int(g.Slot)).Race), s.b.id(r))
	}
	s.vacate(r)
	s.mark(r)
	s.tell(-1, engine.HapMove, -1, "%s abandoned region %d", s.names[p], s.b.id(r))
	s.T.Acted = true
	if g.Slot == slotActive {
		s.T.ActiveActed = true
	}
	return nil
}

// ---- redeploy ----

// redeployable reports whether army (p, slot) may move its tokens freely (its own
// turn: active race and declined Ghouls), and whether it may place tokens at all.
func (s *state) redeployable(p, slot int) (move, place bool) {
	a := s.army(p, slot)
	if !a.exists() {
		return false, false
	}
	if s.ownTurn(p) && (slot == slotActive || slot == s.ghoulSlot(p)) {
		return true, true
	}
	if slot == slotDeclined && s.lastRedeploy(p) {
		return true, true
	}
	return false, a.Hand > 0
}

// redeployPattern is the Legal entry of a redeployment; its note (notesRedeploy)
// says which regions it may name and what it must achieve.
const redeployPattern = "redeploy <region>=<tokens> …"

func legalRedeploy(s *state, p int, out []string) []string {
	if regs, _ := s.redeployPlan(p); len(regs) > 0 {
		out = append(out, redeployPattern)
	}
	return out
}

// notesRedeploy notes the redeploy pattern: each region named ends with the number
// given; the regions it may name; the tokens to place or to take back.
func notesRedeploy(s *state, p int, notes map[string]engine.Text) {
	if regs, _ := s.redeployPlan(p); len(regs) > 0 && s.lastRedeploy(p) {
		notes[redeployPattern] = text("the region ends with that many; regions %s; the last redeployment of your race in decline", regionIDs(s, regs))
		return
	}
	if regs, need := s.redeployPlan(p); len(regs) > 0 {
		notes[redeployPattern] = text("the region ends with that many; regions %s; %s", regionIDs(s, regs), describeNeed(need, !s.ownTurn(p)))
	}
}

// redeployPlan is what a redeployment by player p involves now: the regions it may
// name (sorted) and what each of p's races that places must do; no regions when p
// may not redeploy.
func (s *state) redeployPlan(p int) ([]int, []redeployNeed) {
	if !(s.ownTurn(p) && s.army(p, slotActive).exists()) && !s.defending(p) && !s.lastRedeploy(p) {
		return nil, nil
	}
	if s.ownTurn(p) && !s.T.Closed && s.cat.variant.rules != nil {
		// What is left once conquests end: tokens leave Underground's rivers.
		s = s.clone()
		s.closeConquests()
	}
	var regs []int
	var need []redeployNeed
	for slot := range nSlots {
		if _, place := s.redeployable(p, slot); !place {
			continue
		}
		h := s.held(p, slot)
		if len(h) == 0 {
			continue
		}
		regs = append(regs, h...)
		a := s.army(p, slot)
		n := redeployNeed{race: a.Race, hand: a.Hand}
		if slot == slotActive && s.ownTurn(p) {
			n.keep = s.handTarget(p, slot)
			if !s.T.Closed {
				n.hand += s.reinforcement(p)
			}
		}
		need = append(need, n)
	}
	slices.Sort(regs)
	return regs, need
}

// redeployNeed is what one of a player's races must do in a redeployment: the
// tokens it has in hand, and how many of them it keeps there (Amazons).
type redeployNeed struct {
	race       string
	hand, keep int
}

// describeNeed says what a redeployment must achieve: the tokens to place (by race
// when several place), tokens to take back into the hand, and for a defender that
// only additions are allowed.
func describeNeed(need []redeployNeed, defending bool) engine.Text {
	place := 0
	var byRace, back []engine.Text
	for _, n := range need {
		switch {
		case n.hand > n.keep:
			place += n.hand - n.keep
			byRace = append(byRace, engine.Textf("%d %s", n.hand-n.keep, engine.Term(n.race)))
		case n.hand < n.keep:
			back = append(back, text("take %d tokens back into your hand: your %s keep %d there", n.keep-n.hand, engine.Term(n.race), n.keep))
		}
	}
	out := text("%d tokens to place", place)
	if defending {
		out = text("%d tokens to place, lost in an attack", place)
	}
	if len(byRace) > 1 {
		out = engine.Textf("%s: %s", out, joinTexts("%s, %s", byRace))
	}
	if defending {
		out = text("%s; additions only, on the regions you still hold; the others stay", out)
	}
	if len(back) > 0 {
		if place == 0 {
			return joinTexts("%s; %s", back)
		}
		out = engine.Textf("%s; %s", out, joinTexts("%s; %s", back))
	}
	return out
}

// joinTexts joins texts into one with sep, a format that joins two ("%s, %s"; the
// joining formats are keys of the accounts catalogue, as "%s + %s" is).
func joinTexts(sep string, ts []engine.Text) engine.Text {
	if len(ts) == 0 {
		return engine.Text{}
	}
	out := ts[0]
	for _, t := range ts[1:] {
		out = engine.Textf(sep, out, t)
	}
	return out
}

// regionIDs lists regions by their ids for a note: "3,7,12".
func regionIDs(s *state, rs []int) string { return strings.Join(idsOf(s, rs), ",") }

func idsOf(s *state, rs []int) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = s.b.ids[r]
	}
	return out
}

// pairArgs parses "R=N" arguments into region indexes and numbers.
func (s *state) pairArgs(args []string, usage func() engine.Text) ([]int, []int, error) {
	if len(args) == 0 {
		return nil, nil, engine.Illegal("usage: %s", usage())
	}
	var rs, ns []int
	for _, arg := range args {
		k, v, ok := strings.Cut(arg, "=")
		if !ok {
			return nil, nil, engine.Illegal("%q is not REGION=NUMBER; usage: %s", arg, usage())
		}
		r, err := s.regionIndex(k)
		if err != nil {
			return nil, nil, err
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, nil, engine.Illegal("%q is not a number of tokens", v)
		}
		if slices.Contains(rs, r) {
			return nil, nil, engine.Illegal("region %s is named twice", k)
		}
		rs, ns = append(rs, r), append(ns, n)
	}
	return rs, ns, nil
}

func applyRedeploy(s *state, p int, args []string, _ *engine.Rand) error {
	own := s.ownTurn(p)
	if own && !s.lastRedeploy(p) {
		if err := s.needActive(p); err != nil {
			return err
		}
		s.closeConquests()
	}
	rs, ns, err := s.pairArgs(args, func() engine.Text { return syntax("redeploy R=N [R=N …]", reason("region R ends with N tokens")) })
	if err != nil {
		return err
	}
	var before []region // the regions before, for the account (none when quiet)
	if !s.quiet {
		before = slices.Clone(s.Regions)
	}
	var delta [nSlots]int
	for i, r := range rs {
		g := &s.Regions[r]
		id := s.b.id(r)
		if int(g.Owner) != p {
			return engine.Illegal("region %d is not yours", id)
		}
		slot := int(g.Slot)
		move, place := s.redeployable(p, slot)
		switch {
		case !place:
			return engine.Illegal("your %s in region %d cannot move", s.raceName(p, slot), id)
		case ns[i] < 1 && (s.Scn == nil || !s.Scn.mayBeEmpty(r)):
			return engine.Illegal("every region you hold keeps at least one token (region %d)", id)
		case !move && ns[i] < int(g.Tokens):
			return engine.Illegal("you can only add tokens to region %d (it has %d)", id, g.Tokens)
		}
		delta[slot] += int(g.Tokens) - ns[i]
	}
	for slot := range nSlots {
		a := s.army(p, slot)
		if !a.exists() || s.count(p, slot) == 0 {
			continue
		}
		target := 0
		if own {
			target = s.handTarget(p, slot)
		}
		left := a.Hand + delta[slot]
		switch {
		case left < 0:
			return engine.Illegal("that places %d %s tokens more than you have (%d in hand)", -left, s.raceName(p, slot), a.Hand)
		case left < target:
			return engine.Illegal("your %s set %d attack-only tokens aside at the end of the turn: leave %d in hand", engine.Term(a.Race), target, target)
		case left > target:
			return engine.Illegal("%d %s tokens would stay in hand: place them all (regions %s)", left-target, s.raceName(p, slot), s.idList(s.held(p, slot)))
		}
	}
	for i, r := range rs {
		g := &s.Regions[r]
		s.army(p, int(g.Slot)).Hand += int(g.Tokens) - ns[i]
		g.Tokens = int16(ns[i])
	}
	s.tellRedeploy(p, before)
	if !own {
		s.defenderDone(p)
	}
	return nil
}

// ---- done ----

func legalDone(s *state, p int, out []string) []string {
	if (s.ownTurn(p) && s.army(p, slotActive).exists()) || s.defending(p) || s.lastRedeploy(p) {
		out = append(out, "done")
	}
	return out
}

func applyDone(s *state, p int, args []string, _ *engine.Rand) error {
	if err := wantArgs(args, 0, syntax("done")); err != nil {
		return err
	}
	if s.defending(p) {
		for slot := range nSlots {
			if a := s.army(p, slot); a.exists() && a.Hand > 0 {
				s.autoPlace(p, slot, 0)
			}
		}
		s.settle(p, true)
		s.defenderDone(p)
		return nil
	}
	if s.lastRedeploy(p) {
		s.endDeclineTurn(p)
		return nil
	}
	if err := s.needActive(p); err != nil {
		return err
	}
	s.finishTurn(p, false)
	return nil
}

// commandWords lists every verb of the family that is a command: the core's and the
// abilities' (not those that only explain, see verb.explains).
func commandWords() []string {
	words := make([]string, 0, len(reg.verbs))
	for _, v := range reg.verbs {
		if !v.explains {
			words = append(words, v.name)
		}
	}
	return words
}

// Words implements engine.Worder.
func (Game) Words() []string { return commandWords() }

// Words implements engine.Worder.
func (Necromancer) Words() []string { return commandWords() }

// Words implements engine.Worder.
func (Underground) Words() []string { return commandWords() }
