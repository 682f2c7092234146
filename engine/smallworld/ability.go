package smallworld

import (
	"fmt"
	"iter"
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Kinds of ability. Places, relics and monsters (Small World Underground) will be
// further kinds of the same type.
const (
	kindRace  = "race"
	kindPower = "power"
)

// ability is everything one race banner or power badge does, defined in one place: the
// printed numbers come from its data line (races-powers.json, looked up by name), the
// behaviour from the hooks below. The core calls the hooks of an army's race and power
// while the army is active, and of a declined army when inDecline is set. Every field
// is optional.
type ability struct {
	name string
	kind string
	// pack is the content pack the ability belongs to (packBase when "").
	pack string
	// inDecline: the hooks also apply to the army once in decline; they get its slot
	// (Dwarves' bonus).
	inDecline bool

	// needs lists the board features the ability refers to (terrain classes, feat…
	// in mixing.go), any one of which must be in play for it to make sense; an ability
	// whose features are all missing is left out of the stacks (mixing.go).
	needs []string

	// attackOnly tokens come with the banner but only attack (Amazons +4): the combo
	// brings them, and the box must hold them.
	attackOnly int

	// ---- conquest ----

	// cost is added to the cost of conquering region r (negative: a discount; Giants,
	// Tritons, Commando, Mounted, Underworld). A conquest always costs at least one token.
	cost func(s *state, p, slot, r int) int
	// costTerm names the cost's part in a conquest's note ("2 - 1 river") when the
	// ability's name does not (a variant's rules); "" names it by the ability.
	costTerm string
	// reach makes region r attackable whatever the border rule of a first conquest
	// (holds false) or the adjacency rule (holds true): Flying, Halflings.
	reach func(s *state, p, slot, r int, holds bool) bool
	// entry replaces the border rule of a first conquest: region r may be entered
	// (Flames enter next to the Volcano).
	entry func(s *state, p, slot, r int) bool
	// adjacent makes region r count as adjacent to the army's regions, for conquests and
	// for every rule that asks for adjacency (Underworld's caverns).
	adjacent func(s *state, p, slot, r int) bool
	// linked reports whether regions r and x count as adjacent by the ability, for the
	// army (p, slot): what adjacent says of one region of the army, for a rule about
	// that one region (the Great Ancient's).
	linked func(s *state, p, slot, r, x int) bool
	// water lets the army conquer and hold seas and lakes (Seafaring).
	water bool
	// peace forbids player p's active race to attack the active regions of player q,
	// whose army has this ability (Diplomat).
	peace func(s *state, q, p int) bool
	// shield: an opponent's abilities (and places and relics) give him no help to
	// conquer the army's regions — no cost cut, reach or extra adjacency; increases
	// still apply (Gnomes). See state.shielded.
	shield bool
	// guard, an ability of the army (q, qslot) holding region r, says why player p
	// may not conquer r ("" when it may): Liches in decline keep out a player with no
	// coins.
	guard func(s *state, q, qslot, p, r int) engine.Text
	// onConquer runs after the army occupied region r (Trolls' lairs, Halflings' holes).
	onConquer func(s *state, p, slot, r int)
	// onLoss returns how many tokens the army loses when region r is conquered by
	// player by, given the rulebook's loss (one): Elves lose none.
	onLoss func(s *state, p, slot, r, by, loss int) int
	// attacked runs for player p's active race when player by (another player)
	// conquers a region of any of p's races (Vengeful).
	attacked func(s *state, p, by int)

	// onPick runs when player p has just taken the race and power (Shadow Mimes may
	// then swap their power).
	onPick func(s *state, p int)

	// ---- the turn ----

	// playsInDecline: the declined army is readied at the start of its owner's turn,
	// conquers and redeploys before the active race acts (Ghouls).
	playsInDecline bool
	// turnStart runs at the start of its owner's turn, after the tokens were readied
	// (Amazons' tokens set aside come back; a Diplomat's peace ends).
	turnStart func(s *state, p, slot int)
	// conquestsEnd runs when the army's conquests end, before reinforcements (the
	// tokens on Small World Underground's rivers leave them).
	conquestsEnd func(s *state, p, slot int)
	// reinforce returns extra tokens taken from the box when conquests end
	// (Skeletons); the hook respects the box limit.
	reinforce func(s *state, p, slot int) int
	// borrowed is how many of the army's tokens in play are not race tokens from the
	// box (Iron Dwarves' silver hammers); the box count leaves them out.
	borrowed func(s *state, p, slot int) int
	// keepInHand is how many tokens the army keeps in hand after its own turn's
	// redeployment (Amazons' attack-only tokens).
	keepInHand func(s *state, p, slot int) int
	// turnEnd runs at the end of the owner's normal turn, after redeployment and before
	// scoring (Amazons set their tokens aside).
	turnEnd func(s *state, p, slot int)
	// settle places what player q's active race must place at the end of another
	// player's turn (Bivouacking's encampments lost in an attack): what needs no
	// decision, or everything when force is set (`done`, a missed deadline, the end of
	// the game); it reports whether q still has a choice to make, which keeps q among
	// the players to act before the next turn.
	settle func(s *state, q int, force bool) bool
	// bonus is the ability's coins at the end of its owner's turn.
	bonus func(s *state, p, slot int) int

	// ---- decline ----

	// onDecline runs when player p's active race is about to go into decline (a
	// Diplomat's peace ends).
	onDecline func(s *state, p int)
	// keepAllInDecline keeps every token on the map when the race declines (Ghouls).
	keepAllInDecline bool
	// lastRedeploy: the turn of the decline goes on with a last redeployment of the
	// tokens of the race now in decline (Tomb).
	lastRedeploy bool
	// spirit: the declined race goes to its own slot, does not count towards the
	// one-declined-race limit and keeps the badge (Spirit).
	spirit bool
	// keepBadge: the badge stays with the race in decline (its inDecline hooks keep
	// acting) and is discarded when the race leaves the map (Muddy, Wise).
	keepBadge bool
	// declineEndsTurn: `decline` may end a normal turn (after scoring) instead of
	// being the whole turn (Stout).
	declineEndsTurn bool

	// ---- what players see ----

	// view adds to marks what the army's owner and the others see of the ability's
	// counters and open choices, by the key the mail templates know (Iron Dwarves'
	// "hammers", Shadow Mimes' "may_swap").
	view func(s *state, p, slot int, marks map[string]int)

	// ---- what it brings ----

	// pieces are the piece kinds the ability puts on the map.
	pieces []*pieceKind
	// vars are the counters and flags the ability keeps in the state.
	vars []*varKind
	// verbs are the ability's own commands; only its active owner may use them
	// unless the verb is open.
	verbs []*verb
}

// verb is one command word: how it applies, which concrete commands or patterns it
// contributes to Legal and the notes that explain them. rank orders Legal (lower
// first). owner is the ability whose active owner alone may use it (nil for the core
// verbs and open verbs).
type verb struct {
	name string
	rank int
	open bool // any player may give it (it only explains; Halflings' hole)
	// explains: the verb is never accepted, it only says why (Halflings' hole, which
	// are placed automatically); Words leaves it out, as it is no command.
	explains bool
	owner    *ability
	apply    func(s *state, p int, args []string, rng *engine.Rand) error
	legal    func(s *state, p int, out []string) []string
	// notes adds to notes what the entries legal lists need explained (Notes): a
	// conquest's cost, where a pattern's regions are and what it must achieve, what a
	// choice gives. Nil when they speak for themselves.
	notes func(s *state, p int, notes map[string]engine.Text)
}

// Ranks of the core verbs; ability verbs take ranks between them.
const (
	rankPick     = 10
	rankDecline  = 20
	rankConquer  = 40
	rankAbandon  = 60
	rankRedeploy = 70
	rankDone     = 100
)

// abilityRegistry holds every ability, piece kind and verb of every pack, keyed by name. It
// is filled by the content files' init functions (register) and only read afterwards.
type abilityRegistry struct {
	abilities map[string]*ability
	list      []*ability       // by number; list[0] is nil
	number    map[string]uint8 // ability name → its index in list
	pieces    []*pieceKind     // view order
	defenders []*pieceKind     // the kinds that add to defence
	guards    []*pieceKind     // the kinds that make a region immune
	barren    []*pieceKind     // the kinds that make a region barren
	// legacyPieces and legacyVars have a place in the base game's hash encoding
	// (legacyVars by legacyKey, in legacy order).
	legacyPieces []*pieceKind
	legacyVars   [6][]*varKind
	legacyCounts []int        // pieceSet.Counts indexes summed into the count byte
	legacyFlags  [4][256]byte // legacy flag bits by each byte of pieceSet.Flags
	// trailerFlags and trailerCounts give the place in pieces of the kinds encoded in
	// the hash's trailer by their flag bit and count index (-1 for the others): see
	// appendTrailer.
	trailerFlags  [maxFlagKinds]int
	trailerCounts [maxCountKinds]int
	vars          []*varKind
	verbs         []*verb // Legal order
	verbIndex     map[string]*verb
}

var reg = &abilityRegistry{abilities: map[string]*ability{}, list: []*ability{nil}, number: map[string]uint8{}, verbIndex: map[string]*verb{}}

// register adds abilities and what they bring; it is called from init functions and
// panics on a programming error (a name given twice, too many piece kinds).
func register(abs ...*ability) {
	for _, ab := range abs {
		if _, dup := reg.abilities[ab.name]; dup || ab.name == "" {
			panic(fmt.Sprintf("smallworld: ability %q registered twice", ab.name))
		}
		reg.abilities[ab.name] = ab
		if len(reg.list) > 255 {
			panic("smallworld: more than 255 abilities")
		}
		reg.number[ab.name] = uint8(len(reg.list))
		reg.list = append(reg.list, ab)
		registerPieces(ab.pieces...)
		for _, v := range ab.vars {
			registerVar(v)
		}
		for _, v := range ab.verbs {
			if !v.open {
				v.owner = ab
			}
			registerVerbs(v)
		}
	}
}

// registerVerbs adds commands to the verb table, kept in rank order.
func registerVerbs(vs ...*verb) {
	for _, v := range vs {
		if _, dup := reg.verbIndex[v.name]; dup {
			panic(fmt.Sprintf("smallworld: verb %q registered twice", v.name))
		}
		reg.verbIndex[v.name] = v
		reg.verbs = append(reg.verbs, v)
	}
	slices.SortStableFunc(reg.verbs, func(a, b *verb) int { return a.rank - b.rank })
}

func (ab *ability) packName() string {
	if ab.pack == "" {
		return packBase
	}
	return ab.pack
}

// abilityOf returns the ability named name, or nil ("" and unknown names).
func abilityOf(name string) *ability { return reg.abilities[name] }

// acting yields the abilities that act for army (p, slot) now: its race and power
// while active, once declined those marked inDecline; the variant's own rules (an
// ability acting for every army, by the same rule); then, when the variant has piece
// kinds that grant abilities (places, relics), those of the pieces in the army's
// regions, by the same rule.
func (s *state) acting(p, slot int) iter.Seq[*ability] {
	return func(yield func(*ability) bool) {
		for _, n := range s.army(p, slot).abs {
			if ab := reg.list[n]; ab != nil && (slot == slotActive || ab.inDecline) && !yield(ab) {
				return
			}
		}
		if ru := s.cat.variant.rules; ru != nil && (slot == slotActive || ru.inDecline) && !yield(ru) {
			return
		}
		if s.Scn != nil {
			for _, ab := range s.Scn.acting(s, p, slot) {
				if !yield(ab) {
					return
				}
			}
		}
		if len(s.cat.granting) == 0 {
			return
		}
		for r := range s.Regions {
			if !s.owns(r, p, slot) {
				continue
			}
			if ps := &s.Regions[r].Pieces; !s.cat.grantingTerrain && ps.Flags == 0 && ps.Counts == ([maxCountKinds]int8{}) {
				continue // no piece there: nothing granted (most regions)
			}
			for _, k := range s.cat.granting {
				if s.pieces(r, k) == 0 {
					continue
				}
				ab := k.grants
				if k.grantsOf != nil {
					ab = k.grantsOf(s, r)
				}
				if ab != nil && (slot == slotActive || ab.inDecline) && !yield(ab) {
					return
				}
			}
		}
	}
}

// has reports whether the ability named name acts for player p's active race (its
// race, its power, or one granted by a piece in its regions).
func (s *state) has(p int, name string) bool {
	for ab := range s.acting(p, slotActive) {
		if ab.name == name {
			return true
		}
	}
	return false
}
