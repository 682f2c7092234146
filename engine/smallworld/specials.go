package smallworld

import (
	"fmt"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Commands of single races and powers. Each is registered in the verb table
// (commands.go) with the race or power that owns it.

// ---- Berserk: berserk roll, then conquer R at the cost minus the die ----

func legalBerserk(s *state, p int, out []string) []string {
	if s.ownTurn(p) && s.hasPower(p, "Berserk") && !s.T.Closed && s.T.Berserk < 0 && s.army(p, slotActive).Hand >= 1 {
		out = append(out, "berserk roll")
	}
	return out
}

func applyBerserk(s *state, p int, args []string, rng *engine.Rand) error {
	if err := s.needConquests(p); err != nil {
		return err
	}
	if err := s.needPower(p, "Berserk"); err != nil {
		return err
	}
	if len(args) != 1 || args[0] != "roll" {
		return engine.Illegal("usage: berserk roll (then conquer R)")
	}
	if s.T.Berserk >= 0 {
		return engine.Illegal("you rolled already (%d): conquer a region", s.T.Berserk)
	}
	if s.army(p, slotActive).Hand < 1 {
		return engine.Illegal("a conquest needs at least one token in hand")
	}
	die, err := rng.Pick("die", dieFaces)
	if err != nil {
		return fmt.Errorf("reinforcement die: %w", err)
	}
	s.T.Berserk = int8(die)
	s.T.Acted, s.T.ActiveActed = true, true
	// Without enough tokens for any region even with the die, this was the last
	// conquest attempt of the turn.
	if len(s.legalConquerSlot(p, slotActive, "", nil)) == 0 {
		s.closeConquests()
	}
	return nil
}

// ---- Dragon Master: dragon R, once per turn, one token whatever defends R ----

func (s *state) dragonReady(p int) bool {
	return s.ownTurn(p) && s.hasPower(p, "Dragon Master") && !s.T.Closed && !s.T.DragonUsed && s.T.Berserk < 0 && s.army(p, slotActive).Hand >= 1
}

func legalDragon(s *state, p int, out []string) []string {
	if !s.dragonReady(p) {
		return out
	}
	for _, r := range s.targets(p, slotActive) {
		out = append(out, "dragon "+s.b.ids[r])
	}
	return out
}

func applyDragon(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needConquests(p); err != nil {
		return err
	}
	if err := s.needPower(p, "Dragon Master"); err != nil {
		return err
	}
	if err := wantArgs(args, 1, "dragon R"); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	switch {
	case s.T.DragonUsed:
		return engine.Illegal("the dragon attacks once per turn")
	case s.T.Berserk >= 0:
		return engine.Illegal("you rolled the Berserk die: conquer a region first")
	case s.army(p, slotActive).Hand < 1:
		return engine.Illegal("the dragon needs one token in hand to conquer with")
	}
	if why := s.targetReason(p, slotActive, r, s.count(p, slotActive) > 0); why != "" {
		return engine.Illegal("%s; the dragon can attack %s", why, s.idList(s.targets(p, slotActive)))
	}
	for i := range s.Regions {
		s.Regions[i].Dragon = false
	}
	s.occupy(p, slotActive, r, 1)
	s.Regions[r].Dragon = true
	s.T.DragonUsed = true
	return nil
}

// ---- Sorcerers: enchant R, a lone active enemy token replaced by one from the box ----

// enchantReason says why player p's Sorcerers cannot convert region r, or "".
func (s *state) enchantReason(p, r int) string {
	g := &s.Regions[r]
	id := s.b.id(r)
	if g.Owner < 0 || int(g.Owner) == p || g.Slot != slotActive {
		return fmt.Sprintf("region %d holds no active enemy race", id)
	}
	q := int(g.Owner)
	switch {
	case g.Tokens != 1:
		return fmt.Sprintf("region %d holds %d tokens: only a lone token can be converted", id, g.Tokens)
	case g.Camps > 0 || g.Fortress || g.Lair:
		return fmt.Sprintf("region %d is defended by an encampment, fortress or lair, which counts as a second token", id)
	case s.immune(r) != "":
		return fmt.Sprintf("region %d is protected by %s", id, s.immune(r))
	case s.b.water[r] && !s.hasPower(p, "Seafaring"):
		return fmt.Sprintf("region %d is a %s: only a Seafaring race can conquer seas and lakes", id, s.b.terrain[r])
	case s.atPeace(p, slotActive, r):
		return fmt.Sprintf("you are at peace with %s (Diplomat)", s.names[q])
	case s.T.Enchanted&(1<<q) != 0:
		return fmt.Sprintf("you converted a token of %s this turn already (once per opponent per turn)", s.names[q])
	}
	near := false
	for _, n := range s.b.adj[r] {
		near = near || s.owns(n, p, slotActive)
	}
	if !near && s.hasPower(p, "Underworld") && s.b.has(r, symCavern) {
		for _, c := range s.b.caverns {
			near = near || s.owns(c, p, slotActive)
		}
	}
	if !near {
		return fmt.Sprintf("region %d is not adjacent to your Sorcerers", id)
	}
	return ""
}

func (s *state) enchantReady(p int) string {
	a := s.army(p, slotActive)
	switch {
	case !a.exists() || !raceRules[a.Race].converts:
		return "only active Sorcerers can convert tokens"
	case s.T.Berserk >= 0:
		return "you rolled the Berserk die: conquer a region first"
	case s.inPlay(a.Race) >= s.cat.races[a.Race].Box:
		return fmt.Sprintf("all %d %s tokens are in play: none is left in the box to convert with", s.cat.races[a.Race].Box, a.Race)
	}
	return ""
}

func legalEnchant(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || s.T.Closed || s.enchantReady(p) != "" {
		return out
	}
	for r := range s.Regions {
		g := &s.Regions[r]
		if g.Owner >= 0 && int(g.Owner) != p && g.Slot == slotActive && g.Tokens == 1 && s.enchantReason(p, r) == "" {
			out = append(out, "enchant "+s.b.ids[r])
		}
	}
	return out
}

func applyEnchant(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needConquests(p); err != nil {
		return err
	}
	if why := s.enchantReady(p); why != "" {
		return engine.Illegal("%s", why)
	}
	if err := wantArgs(args, 1, "enchant R"); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	if why := s.enchantReason(p, r); why != "" {
		return engine.Illegal("%s", why)
	}
	q := s.Regions[r].Owner
	// The converted token goes back to the box (Elves lose it too); the Sorcerer
	// token comes from the box, not from hand.
	s.Regions[r] = region{Owner: int8(p), Slot: slotActive, Tokens: 1}
	s.T.Attacked |= 1 << q
	s.T.Enchanted |= 1 << q
	s.T.NonEmpty++
	s.T.Conquered = append(s.T.Conquered, int16(r))
	s.T.Acted, s.T.ActiveActed = true, true
	return nil
}

// ---- Halflings: holes-in-the-ground are placed automatically ----

func applyHole(s *state, p int, _ []string, _ *engine.Rand) error {
	return engine.Illegal("holes-in-the-ground are placed automatically in the first two regions your Halflings conquer; there is no choice to make")
}

// ---- Bivouacking: camp R=N …, 5 encampments among your regions ----

func (s *state) campsOnMap(p int) int {
	n := 0
	for r := range s.Regions {
		if s.owns(r, p, slotActive) {
			n += int(s.Regions[r].Camps)
		}
	}
	return n
}

func legalCamp(s *state, p int, out []string) []string {
	if !s.hasPower(p, "Bivouacking") || !(s.ownTurn(p) || s.defending(p)) {
		return out
	}
	regs := s.held(p, slotActive)
	if len(regs) == 0 {
		return out
	}
	return append(out, fmt.Sprintf("camp <region>=<encampments> … (the region ends with that many; regions %s; %d encampments, %d on the map)", strings.Join(idsOf(s, regs), ","), campsInBox, s.campsOnMap(p)))
}

func applyCamp(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needPower(p, "Bivouacking"); err != nil {
		return err
	}
	own := s.ownTurn(p)
	if own {
		s.closeConquests()
	}
	rs, ns, err := s.pairArgs(args, "camp R=N [R=N …] (region R ends with N encampments)")
	if err != nil {
		return err
	}
	total := s.campsOnMap(p)
	for i, r := range rs {
		g := &s.Regions[r]
		if !s.owns(r, p, slotActive) {
			return engine.Illegal("region %d is not held by your %s", s.b.id(r), s.army(p, slotActive).Race)
		}
		if !own && ns[i] < int(g.Camps) {
			return engine.Illegal("you can only add encampments outside your turn (region %d has %d)", s.b.id(r), g.Camps)
		}
		total += ns[i] - int(g.Camps)
	}
	if total > campsInBox {
		return engine.Illegal("that puts %d encampments on the map; you have %d", total, campsInBox)
	}
	for i, r := range rs {
		s.Regions[r].Camps = int8(ns[i])
	}
	return nil
}

// ---- Fortified: fortress R, once per turn, one per region, six on the map ----

func (s *state) fortressReady(p int) string {
	switch {
	case !s.hasPower(p, "Fortified"):
		return "only a Fortified race can build fortresses"
	case s.T.FortressPlaced:
		return "you built a fortress this turn already"
	}
	n := 0
	for r := range s.Regions {
		if s.Regions[r].Fortress {
			n++
		}
	}
	if n >= maxFortresses {
		return fmt.Sprintf("all %d fortresses are on the map", maxFortresses)
	}
	return ""
}

func legalFortress(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || s.fortressReady(p) != "" {
		return out
	}
	for r := range s.Regions {
		if s.owns(r, p, slotActive) && !s.Regions[r].Fortress {
			out = append(out, "fortress "+s.b.ids[r])
		}
	}
	return out
}

func applyFortress(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if why := s.fortressReady(p); why != "" {
		return engine.Illegal("%s", why)
	}
	if err := wantArgs(args, 1, "fortress R"); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	switch {
	case !s.owns(r, p, slotActive):
		return engine.Illegal("region %d is not held by your %s", s.b.id(r), s.army(p, slotActive).Race)
	case s.Regions[r].Fortress:
		return engine.Illegal("region %d has a fortress already (one per region)", s.b.id(r))
	}
	s.closeConquests()
	s.Regions[r].Fortress = true
	s.T.FortressPlaced = true
	return nil
}

// ---- Heroic: hero R R, the two heroes in two of your regions ----

func legalHero(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || !s.hasPower(p, "Heroic") {
		return out
	}
	regs := s.held(p, slotActive)
	switch len(regs) {
	case 0:
		return out
	case 1:
		return append(out, "hero "+s.b.ids[regs[0]])
	}
	return append(out, fmt.Sprintf("hero <region> <region> (two different regions of %s)", strings.Join(idsOf(s, regs), ",")))
}

func applyHero(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if err := s.needPower(p, "Heroic"); err != nil {
		return err
	}
	regs := s.held(p, slotActive)
	want := min(len(regs), heroesInBox)
	if want == 0 {
		return engine.Illegal("you hold no region to put a hero in")
	}
	if len(args) != want {
		return engine.Illegal("usage: hero R R (two different regions of yours; one when you hold one region)")
	}
	var rs []int
	for _, w := range args {
		r, err := s.regionIndex(w)
		if err != nil {
			return err
		}
		if !s.owns(r, p, slotActive) {
			return engine.Illegal("region %d is not held by your %s", s.b.id(r), s.army(p, slotActive).Race)
		}
		if slices.Contains(rs, r) {
			return engine.Illegal("the two heroes go to two different regions")
		}
		rs = append(rs, r)
	}
	s.closeConquests()
	for r := range s.Regions {
		s.Regions[r].Hero = false
	}
	for _, r := range rs {
		s.Regions[r].Hero = true
	}
	return nil
}

// ---- Diplomat: ally PLAYER, peace with a player whose active race you did not attack ----

func legalAlly(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || !s.hasPower(p, "Diplomat") {
		return out
	}
	for q := range s.Players {
		if q != p && s.T.Attacked&(1<<q) == 0 {
			out = append(out, "ally "+s.names[q])
		}
	}
	return out
}

func applyAlly(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if err := s.needPower(p, "Diplomat"); err != nil {
		return err
	}
	if len(args) == 0 {
		return engine.Illegal("usage: ally PLAYER")
	}
	q := s.playerIndex(strings.Join(args, " "))
	switch {
	case q < 0:
		return engine.Illegal("%q does not play in this game", strings.Join(args, " "))
	case q == p:
		return engine.Illegal("you cannot ally with yourself")
	case s.T.Attacked&(1<<q) != 0:
		return engine.Illegal("you attacked the active race of %s this turn", s.names[q])
	}
	s.closeConquests()
	s.Players[p].Ally = int8(q)
	return nil
}
