package smallworld

import (
	"fmt"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// Names of the powers whose commands check them (a function cannot refer to the
// variable of the ability that refers to the function).
const (
	nameBerserk     = "Berserk"
	nameBivouacking = "Bivouacking"
	nameDiplomat    = "Diplomat"
	nameFortified   = "Fortified"
	nameHeroic      = "Heroic"
)

// The 20 special powers of the base game: one entry each, with the pieces, variables
// and commands that belong to the power. The number (badge) is the power's line in
// data/races-powers.json.
func init() {
	register(
		&ability{name: "Alchemist", kind: kindPower, bonus: func(*state, int, int) int { return 2 }},
		berserk,
		bivouacking,
		&ability{name: "Commando", kind: kindPower, cost: func(*state, int, int, int) int { return -1 }},
		diplomat,
		dragonMaster,
		&ability{name: "Flying", kind: kindPower, reach: func(*state, int, int, int, bool) bool { return true }},
		&ability{name: "Forest", kind: kindPower, needs: []string{Forest}, bonus: countTerrain(Forest)},
		fortified,
		heroic,
		&ability{name: "Hill", kind: kindPower, needs: []string{Hill}, bonus: countTerrain(Hill)},
		&ability{name: "Merchant", kind: kindPower, bonus: func(s *state, p, slot int) int { return s.countScoring(p, slot) }},
		&ability{name: "Mounted", kind: kindPower, needs: []string{Hill, Farmland}, cost: func(s *state, _, _, r int) int {
			if c := s.b.class[r]; c == Hill || c == Farmland {
				return -1
			}
			return 0
		}},
		&ability{name: "Pillaging", kind: kindPower, bonus: conqueredBonus},
		&ability{name: "Seafaring", kind: kindPower, needs: []string{featWater}, water: true},
		&ability{name: "Spirit", kind: kindPower, spirit: true},
		&ability{name: "Stout", kind: kindPower, declineEndsTurn: true},
		&ability{name: "Swamp", kind: kindPower, needs: []string{Swamp}, bonus: countTerrain(Swamp)},
		&ability{name: "Underworld", kind: kindPower, needs: []string{featCavern},
			cost: func(s *state, _, _, r int) int {
				if s.b.has(r, symCavern) {
					return -1
				}
				return 0
			},
			// All caverns are adjacent to each other.
			adjacent: func(s *state, p, slot, r int) bool {
				if !s.b.has(r, symCavern) {
					return false
				}
				for _, c := range s.b.caverns {
					if c != r && s.owns(c, p, slot) {
						return true
					}
				}
				return false
			},
			linked: func(s *state, _, _, r, x int) bool { return r != x && s.b.has(r, symCavern) && s.b.has(x, symCavern) }},
		wealthy,
	)
}

// ---- Wealthy: 7 coins at the end of the first turn ----

var (
	wealthy = &ability{name: "Wealthy", kind: kindPower, vars: []*varKind{wealthyPaid},
		bonus: func(s *state, p, slot int) int {
			a := s.army(p, slot)
			if a.get(wealthyPaid) != 0 {
				return 0
			}
			a.set(wealthyPaid, 1)
			return 7
		}}
	// wealthyPaid records the one-time bonus (kept in decline, as it always was).
	wealthyPaid = &varKind{name: "paid", enc: encBool, legacy: 1, keepOnDecline: true}
)

// ---- Berserk: berserk roll, then conquer R at the cost minus the die ----

var berserk = &ability{name: nameBerserk, kind: kindPower,
	verbs: []*verb{{name: "berserk", rank: rankConquer - 10, apply: applyBerserk, legal: legalBerserk}}}

func legalBerserk(s *state, p int, out []string) []string {
	if s.ownTurn(p) && s.has(p, nameBerserk) && !s.T.Closed && s.T.Die < 0 && s.army(p, slotActive).Hand >= 1 {
		out = append(out, "berserk roll")
	}
	return out
}

func applyBerserk(s *state, p int, args []string, rng *engine.Rand) error {
	if err := s.needConquests(p); err != nil {
		return err
	}
	if err := s.needPower(p, nameBerserk); err != nil {
		return err
	}
	if len(args) != 1 || args[0] != "roll" {
		return engine.Illegal("usage: berserk roll (then conquer R)")
	}
	if s.T.Die >= 0 {
		return engine.Illegal("you rolled already (%d): conquer a region", s.T.Die)
	}
	if s.army(p, slotActive).Hand < 1 {
		return engine.Illegal("a conquest needs at least one token in hand")
	}
	die, err := rng.Pick("die", dieFaces)
	if err != nil {
		return fmt.Errorf("reinforcement die: %w", err)
	}
	s.T.Die = int8(die)
	s.tell(-1, engine.HapOther, -1, "%s rolled %d on the Berserk die: the next conquest costs %d less", s.names[p], die, die)
	s.T.Acted, s.T.ActiveActed = true, true
	// Without enough tokens for any region even with the die, this was the last
	// conquest attempt of the turn.
	if len(s.legalConquerSlot(p, slotActive, "", nil)) == 0 {
		s.closeConquests()
	}
	return nil
}

// ---- Bivouacking: camp R=N …, 5 encampments among your regions ----

//
// The rulebook: "Taberele nu sunt pierdute in timpul unui atac asupra regiunii in care
// sunt ele: ele sunt reamplasate la sfarsitul turului jucatorului activ." Under
// rulesCorrected the encampments of a conquered region are kept aside (campsDue) and
// their owner re-places them at the end of the attacker's turn, among the players who
// redeploy then: with one region they go there, with several the owner chooses with
// `camp` (`done`, or a missed deadline, puts each in the region of least defence).
// Under rulesOriginal they left the map and came back with `camp` in a later turn.

var (
	bivouacking = &ability{name: nameBivouacking, kind: kindPower, pieces: []*pieceKind{camp},
		vars: []*varKind{campsDue},
		onLoss: func(s *state, q, slot, r, _, loss int) int {
			if s.rules >= rulesCorrected {
				a := s.army(q, slot)
				a.set(campsDue, a.get(campsDue)+s.pieces(r, camp))
			}
			return loss
		},
		settle: settleCamps,
		verbs:  []*verb{{name: "camp", rank: rankRedeploy + 10, apply: applyCamp, legal: legalCamp, notes: notesCamp}}}
	// camp is an encampment: +1 defence each; they leave the map when the race
	// declines, or when their region is conquered (to be re-placed, see above).
	camp = &pieceKind{name: "encampments", order: 40, defense: 1, box: 5, many: "%d encampments", hash: hashCountByte}
	// campsDue counts the encampments lost in attacks this turn, to re-place at its end.
	campsDue = &varKind{name: "encampments due", enc: encVarint}
)

// settleCamps re-places player q's encampments lost in attacks (see ability.settle):
// with one region, or when forced, each goes to the region of least defence (lowest
// id first); with several regions the player chooses.
func settleCamps(s *state, q int, force bool) bool {
	a := s.army(q, slotActive)
	due := min(a.get(campsDue), camp.box-s.campsOnMap(q))
	regs := s.held(q, slotActive)
	if due <= 0 || len(regs) == 0 {
		a.set(campsDue, 0)
		return false
	}
	if len(regs) > 1 && !force {
		return true
	}
	for ; due > 0; due-- {
		best := regs[0]
		for _, r := range regs[1:] {
			if s.defense(r) < s.defense(best) {
				best = r
			}
		}
		s.setPieces(best, camp, s.pieces(best, camp)+1)
	}
	a.set(campsDue, 0)
	return false
}

func (s *state) campsOnMap(p int) int {
	n := 0
	for r := range s.Regions {
		if s.owns(r, p, slotActive) {
			n += s.pieces(r, camp)
		}
	}
	return n
}

// campPattern is the Legal entry of the encampments; its note (notesCamp) says
// which regions it may name and how many encampments there are.
const campPattern = "camp <region>=<encampments> …"

// campRegions lists the regions player p may name in a camp command now, or none
// when p may not place encampments.
func (s *state) campRegions(p int) []int {
	if !s.has(p, nameBivouacking) || !(s.ownTurn(p) || s.defending(p)) {
		return nil
	}
	return s.kept(p)
}

func legalCamp(s *state, p int, out []string) []string {
	if len(s.campRegions(p)) > 0 {
		out = append(out, campPattern)
	}
	return out
}

// notesCamp notes the camp pattern: each region named ends with the number given;
// the regions it may name; the encampments in all, free and on the map, and for a
// defender those lost in the attack, to place again.
func notesCamp(s *state, p int, notes map[string]engine.Text) {
	regs := s.campRegions(p)
	if len(regs) == 0 {
		return
	}
	on := s.campsOnMap(p)
	note := text("the region ends with that many; regions %s; %d encampments in all: %s, %d on the map", regionIDs(s, regs), camp.box, engine.Textf("%d free", max(camp.box-on, 0)), on)
	if n := s.army(p, slotActive).get(campsDue); n > 0 && s.defending(p) {
		note = text("%s; %d lost in the attack to re-place", note, n)
	}
	notes[campPattern] = note
}

func applyCamp(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needPower(p, nameBivouacking); err != nil {
		return err
	}
	own := s.ownTurn(p)
	if own {
		s.closeConquests()
	}
	rs, ns, err := s.pairArgs(args, func() engine.Text { return syntax("camp R=N [R=N …]", reason("region R ends with N encampments")) })
	if err != nil {
		return err
	}
	total := s.campsOnMap(p)
	for i, r := range rs {
		have := s.pieces(r, camp)
		if why := s.keptReason(p, r); why.Key != "" {
			return engine.Illegal("%s", why)
		}
		if !own && ns[i] < have {
			return engine.Illegal("you can only add encampments outside your turn (region %d has %d)", s.b.id(r), have)
		}
		total += ns[i] - have
	}
	if total > camp.box {
		return engine.Illegal("that puts %d encampments on the map; you have %d", total, camp.box)
	}
	added := total - s.campsOnMap(p)
	same := true
	for i, r := range rs {
		same = same && s.pieces(r, camp) == ns[i]
		s.setPieces(r, camp, ns[i])
	}
	if same {
		s.tell(-1, engine.HapBuild, -1, "%s left the encampments as they were", s.names[p])
	}
	if a := s.army(p, slotActive); !own && a.get(campsDue) > 0 {
		a.set(campsDue, max(0, a.get(campsDue)-added))
		s.defenderDone(p) // the re-placement may have been all that was left to do
	}
	return nil
}

// ---- Fortified: fortress R, once per turn, one per region, six on the map ----

var (
	fortified = &ability{name: nameFortified, kind: kindPower,
		pieces: []*pieceKind{fortress}, vars: []*varKind{fortressPlaced},
		bonus: func(s *state, p, slot int) int {
			n := 0
			for r := range s.Regions {
				if s.owns(r, p, slot) {
					n += s.pieces(r, fortress)
				}
			}
			return n
		},
		verbs: []*verb{{name: "fortress", rank: rankRedeploy + 11, apply: applyFortress, legal: legalFortress}}}
	// fortress: +1 defence; it stays when the race declines.
	fortress       = &pieceKind{name: "fortress", order: 20, flag: true, defense: 1, box: 6, title: reason("a fortress"), stays: onDecline, hash: hashFlag(0)}
	fortressPlaced = &varKind{name: "fortress placed", turn: true, enc: encBool, legacy: 2}
)

func (s *state) fortressReady(p int) engine.Text {
	switch {
	case !s.has(p, nameFortified):
		return reason("only a Fortified race can build fortresses")
	case s.T.get(fortressPlaced) != 0:
		return reason("you built a fortress this turn already")
	}
	if s.onMap(fortress, -1) >= fortress.box {
		return reason("all %d fortresses are on the map", fortress.box)
	}
	return engine.Text{}
}

func legalFortress(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || s.fortressReady(p).Key != "" {
		return out
	}
	for r := range s.Regions {
		if ownRegion(s, p, r) && s.pieces(r, fortress) == 0 {
			out = append(out, "fortress "+s.b.ids[r])
		}
	}
	return out
}

func applyFortress(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if why := s.fortressReady(p); why.Key != "" {
		return engine.Illegal("%s", why)
	}
	if err := wantArgs(args, 1, syntax("fortress R")); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	switch {
	case s.keptReason(p, r).Key != "":
		return engine.Illegal("%s", s.keptReason(p, r))
	case s.pieces(r, fortress) > 0:
		return engine.Illegal("region %d has a fortress already (one per region)", s.b.id(r))
	}
	s.closeConquests()
	s.setPieces(r, fortress, 1)
	s.T.set(fortressPlaced, 1)
	return nil
}

// ---- Heroic: hero R R, the two heroes in two of your regions ----
//
// The rulebook: "La sfarsitul turului tau, pune fiecare din cei doi eroi in doua
// regiuni diferite ocupate de tine. Aceste doua regiuni sunt acum imune […] pana cand
// se muta eroii." The heroes are placed at the end of every turn and may move each
// time (`hero` takes both off the map and puts them down again). Under rulesCorrected
// a player who ends the turn without placing them gets them placed, as lairs and holes
// are: a hero already in one of the player's regions stays, a missing one goes to the
// region with the most tokens (lowest id first) that has no hero. Under rulesOriginal
// heroes were only placed by `hero`.

var (
	heroic = &ability{name: nameHeroic, kind: kindPower, pieces: []*pieceKind{hero},
		turnEnd: func(s *state, p, slot int) {
			if s.rules >= rulesCorrected && slot == slotActive {
				placeHeroes(s, p)
			}
		},
		verbs: []*verb{{name: "hero", rank: rankRedeploy + 12, apply: applyHero, legal: legalHero, notes: notesHero}}}
	// hero: immune; the heroes leave the map when the race declines.
	hero = &pieceKind{name: "hero", order: 50, flag: true, immune: reason("a hero"), title: reason("a hero"), many: "%d heroes", box: 2, hash: hashFlag(2)}
)

// placeHeroes completes player p's heroes at the end of the turn: one in each of two
// different regions (one when p holds one region).
func placeHeroes(s *state, p int) {
	regs := s.held(p, slotActive)
	placed := 0
	for _, r := range regs {
		placed += s.pieces(r, hero)
	}
	for placed < min(len(regs), hero.box) {
		best := -1
		for _, r := range regs {
			if s.pieces(r, hero) == 0 && (best < 0 || s.Regions[r].Tokens > s.Regions[best].Tokens) {
				best = r
			}
		}
		s.setPieces(best, hero, 1)
		placed++
	}
}

// heroPattern is the Legal entry of the heroes when they may go to two regions of
// several; its note (notesHero) lists the regions.
const heroPattern = "hero <region> <region>"

// heroRegions lists the regions player p may put a hero in now (none when p may not).
func (s *state) heroRegions(p int) []int {
	if !s.ownTurn(p) || !s.has(p, nameHeroic) {
		return nil
	}
	return s.kept(p)
}

func legalHero(s *state, p int, out []string) []string {
	switch regs := s.heroRegions(p); len(regs) {
	case 0:
		return out
	case 1:
		return append(out, "hero "+s.b.ids[regs[0]])
	}
	return append(out, heroPattern)
}

// notesHero notes the hero pattern: two different regions of those listed.
func notesHero(s *state, p int, notes map[string]engine.Text) {
	if regs := s.heroRegions(p); len(regs) > 1 {
		notes[heroPattern] = text("two different regions of %s", regionIDs(s, regs))
	}
}

func applyHero(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if err := s.needPower(p, nameHeroic); err != nil {
		return err
	}
	regs := s.kept(p)
	want := min(len(regs), hero.box)
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
		if why := s.keptReason(p, r); why.Key != "" {
			return engine.Illegal("%s", why)
		}
		if slices.Contains(rs, r) {
			return engine.Illegal("the two heroes go to two different regions")
		}
		rs = append(rs, r)
	}
	s.closeConquests()
	if s.onMap(hero, -1) == len(rs) && !slices.ContainsFunc(rs, func(r int) bool { return s.pieces(r, hero) == 0 }) {
		s.tell(-1, engine.HapBuild, -1, "%s kept the heroes where they were (%s)", s.names[p], s.regionsText(rs))
	}
	s.moveFlag(hero, rs...)
	return nil
}

// ---- Diplomat: ally PLAYER, peace with a player whose active race you did not attack ----

var diplomat = &ability{name: nameDiplomat, kind: kindPower,
	peace: func(s *state, q, p int) bool { return int(s.Players[q].Ally) == p },
	// The peace lasts until the Diplomat's next turn, or its decline.
	turnStart: func(s *state, p, _ int) { s.Players[p].Ally = -1 },
	onDecline: func(s *state, p int) { s.Players[p].Ally = -1 },
	verbs:     []*verb{{name: "ally", rank: rankRedeploy + 13, apply: applyAlly, legal: legalAlly}}}

func legalAlly(s *state, p int, out []string) []string {
	if !s.ownTurn(p) || !s.has(p, nameDiplomat) {
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
	if err := s.needPower(p, nameDiplomat); err != nil {
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
	s.tell(-1, engine.HapOther, q, "%[1]s made peace with %[2]s: %[2]s may not attack %[1]s's active race until %[1]s's next turn", s.names[p], s.names[q])
	return nil
}
