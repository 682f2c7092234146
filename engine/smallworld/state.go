package smallworld

import (
	"encoding/binary"
	"slices"
	"strconv"

	"github.com/turnmail/turnmail/engine"
)

// Army slots of a player: the active race, the declined race, and the declined race
// that carries the Spirit badge (which does not count towards the one-declined-race
// limit).
const (
	slotActive   = 0
	slotDeclined = 1
	slotSpirit   = 2
	nSlots       = 3
)

// Region owners that are not players.
const (
	ownerNone      int8 = -1
	ownerLostTribe int8 = -2
	ownerMonster   int8 = -3 // Small World Underground's monsters: Tokens of them, never moving nor scoring
)

// Numbers of the rulebook's setup.
const (
	startCoins = 5
	offerSize  = 6
)

// Reinforcement die faces.
var dieFaces = []int{0, 0, 0, 1, 2, 3}

// army is one race of a player: active (slot 0) or declined.
type army struct {
	Race  string
	Power string             // "" once declined, except for Spirit
	Hand  int                // tokens in hand
	Aside int                // tokens set aside off the map until the next turn (Amazons' attack-only)
	Vars  [maxArmyVars]int16 // the abilities' variables (varKind)
	// abs caches the abilities of Race and Power as indexes in the registry's list (0
	// for "" and unknown names); it is derived from them and not part of the hash.
	abs [2]uint8
}

// newArmy returns a fresh army of race and power with hand tokens.
func newArmy(race, power string, hand int) army {
	return army{Race: race, Power: power, Hand: hand, abs: [2]uint8{reg.number[race], reg.number[power]}}
}

func (a *army) exists() bool { return a.Race != "" }

// player is one seat.
type player struct {
	Coins  int
	Scored int // coins gained at the end of the player's last turn
	Armies [nSlots]army
	// Ally is the player at peace with this Diplomat until its next turn, or -1.
	Ally int8
	// tally is where Coins came from (not hashed: derived from the events).
	tally tally
}

// region is the changing part of a board region.
type region struct {
	Owner  int8 // player index, ownerNone, ownerLostTribe or ownerMonster
	Slot   int8 // army slot of the owner
	Tokens int16
	Pieces pieceSet // the pieces of the registered kinds
}

// combo is a race banner with a power badge in the offer column.
type combo struct {
	Race  string
	Power string
	Coins int
}

// readied records tokens taken back into hand at the start of a turn, so that a
// decline (which must be the first act) can put them back and `done` can return
// unused tokens where they came from.
type readied struct {
	R    int16
	Slot int8
	N    int16
}

// turnInfo is what the current turn has done so far.
type turnInfo struct {
	Acted       bool // any command of the turn was applied (decline must come first)
	ActiveActed bool // the active race acted (declined Ghouls must conquer before)
	Closed      bool // conquests are over (redeployment phase)
	// Die is a reinforcement die rolled before the next conquest, which then costs
	// that much less (Berserk); -1 when none.
	Die       int8
	NonEmpty  int     // occupied regions conquered by the active race (Skeletons)
	Conquered []int16 // occupied regions conquered by the active race (Orcs, Pillaging)
	Attacked  uint8   // bit per player whose active race was attacked (Diplomat)
	Readied   []readied
	Vars      [maxTurnVars]int32 // the abilities' turn variables (varKind)
	// Taken are the regions taken from other players this turn, whose holders may
	// have tokens to redeploy (the defenders are told why they are asked). Derived
	// from the commands, it is not hashed.
	Taken []taking
}

// taking is a region r taken from player Q.
type taking struct {
	Q int8
	R int16
}

// state is an immutable Small World position (Apply works on a copy).
type state struct {
	b       *board
	cat     *catalogue
	rules   int      // the rules version of the setup (rulesOriginal …), never modified
	names   []string // player names in turn order (shared, never modified)
	keys    []string // the same, normalized for matching commands
	Players []player
	Regions []region
	Offer   []combo
	Races   []string // race stack, top first (never modified in place)
	Powers  []string // power stack, top first (never modified in place)
	Discard []string // used power badges (never modified in place)
	TurnNo  int
	Cur     int
	T       turnInfo
	Pending []int8 // defenders who must redeploy before the next turn starts
	// Pool is Small World Underground's face-down places and relics, sorted (never
	// modified in place); a conquered monster region reveals one at random.
	Pool []string
	Over bool
	Win  []string
	// Scn is the state and rules of a scenario beside the core's (Necromancer
	// Island), nil in the other games.
	Scn scenario
	// story is what the command that gave this state did, and actor the player who
	// gave it (see Narrate); told are the regions and toldKinds the piece kinds the
	// story tells of already (see tellChanges), via what helps the conquest being
	// applied (the dragon, a relic). None is hashed: a replay records them again.
	// quiet turns the story off for the commands applied to this state (a replay
	// that does not narrate: engine.Journaler).
	story     []tale
	actor     int
	told      []int16
	toldKinds []*pieceKind
	via       engine.Text
	quiet     bool
	// stacks is the encoding of the stacks in the hash, worked out by Apply (see
	// stacksCode); nil until then.
	stacks *stacksCode
}

// stacksCode is the canonical encoding (canon) of a state's stacks (Races, Powers,
// Discard) kept with the slices it encodes. The stacks are never modified in place
// (a change makes a new slice), so while a state's stacks are these slices — the
// same first element, the same length — their encoding is this one, and Hash does not
// look their names up again. It is made by Apply, never by Hash (a state is read by
// several goroutines).
type stacksCode struct {
	races, powers, discard []string
	code                   []byte
	// offer is the encoding of the names of the combos of the offer when it was
	// made, by position: still used while a combo has the same names.
	offer []comboCode
}

// comboCode is the encoding of the names of a combo of the offer: their numbers
// (ok is false when one has none: then Hash encodes them in full).
type comboCode struct {
	race, power string
	code        [2]byte
	ok          bool
}

// encodes reports whether m is the encoding of s's stacks.
func (m *stacksCode) encodes(s *state) bool {
	return m != nil && sameSlice(m.races, s.Races) && sameSlice(m.powers, s.Powers) && sameSlice(m.discard, s.Discard)
}

// sameSlice reports whether a and b are the same slice: the same length, and the
// same first element when not empty.
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// appendStacks appends the encoding of the stacks.
func (s *state) appendStacks(buf []byte) []byte {
	buf = s.appendNames(buf, s.Races)
	buf = s.appendNames(buf, s.Powers)
	return s.appendNames(buf, s.Discard)
}

// keepStacks makes s.stacks the encoding of s's stacks when it is not (Apply calls
// it on the state it makes).
func (s *state) keepStacks() {
	if s.stacks.encodes(s) && s.stacks.encodesOffer(s) {
		return
	}
	m := &stacksCode{races: s.Races, powers: s.Powers, discard: s.Discard, code: s.appendStacks(make([]byte, 0, 64)),
		offer: make([]comboCode, len(s.Offer))}
	for i, c := range s.Offer {
		r, okR := s.cat.nameIndex[c.Race]
		p, okP := s.cat.nameIndex[c.Power]
		m.offer[i] = comboCode{race: c.Race, power: c.Power, code: [2]byte{r, p}, ok: okR && okP && c.Race != "" && c.Power != ""}
	}
	s.stacks = m
}

// encodesOffer reports whether m has the encoding of the names of every combo of s's
// offer.
func (m *stacksCode) encodesOffer(s *state) bool {
	if m == nil || len(m.offer) != len(s.Offer) {
		return false
	}
	for i, c := range s.Offer {
		if m.offer[i].race != c.Race || m.offer[i].power != c.Power {
			return false
		}
	}
	return true
}

var _ engine.State = (*state)(nil)
var _ engine.Skipper = (*state)(nil)

// clone returns a copy that Apply may modify. Stacks are copy-on-write.
func (s *state) clone() *state { return s.cloneInto(new(state)) }

// cloneInto is clone writing the copy over n, reusing its memory: n must be a state
// that nothing refers to any more and that shares no memory with s.
func (s *state) cloneInto(n *state) *state {
	players, regions, offer, pending := n.Players[:0], n.Regions[:0], n.Offer[:0], n.Pending[:0]
	conquered, readied, taken := n.T.Conquered[:0], n.T.Readied[:0], n.T.Taken[:0]
	*n = *s
	n.Players = append(players, s.Players...)
	n.Regions = append(regions, s.Regions...)
	n.Offer = cloneInto(offer, s.Offer)
	n.Pending = cloneInto(pending, s.Pending)
	n.T.Conquered = cloneInto(conquered, s.T.Conquered)
	n.T.Readied = cloneInto(readied, s.T.Readied)
	n.T.Taken = cloneInto(taken, s.T.Taken)
	if s.Scn != nil {
		n.Scn = s.Scn.copy()
	}
	return n
}

// cloneInto appends src to dst[:0], keeping nil as nil (the hash does not tell them
// apart, but a round trip through a snapshot compares states deeply).
func cloneInto[T any](dst, src []T) []T {
	if src == nil {
		return nil
	}
	if dst == nil {
		dst = make([]T, 0, len(src))
	}
	return append(dst[:0], src...)
}

// WithJournal implements engine.Journaler.
func (s *state) WithJournal(on bool) engine.State {
	if s.quiet == !on {
		return s
	}
	n := *s
	n.quiet = !on
	return &n
}

func (s *state) army(p, slot int) *army { return &s.Players[p].Armies[slot] }

func (s *state) owns(r, p, slot int) bool {
	g := &s.Regions[r]
	return int(g.Owner) == p && int(g.Slot) == slot
}

// count returns the number of regions army (p, slot) holds.
func (s *state) count(p, slot int) int {
	n := 0
	for i := range s.Regions {
		if s.owns(i, p, slot) {
			n++
		}
	}
	return n
}

// countScoring is count without the barren regions, which give no coin.
func (s *state) countScoring(p, slot int) int {
	return len(slices.DeleteFunc(s.held(p, slot), s.barren))
}

// held lists the region indexes army (p, slot) holds.
func (s *state) held(p, slot int) []int {
	var out []int
	for i := range s.Regions {
		if s.owns(i, p, slot) {
			out = append(out, i)
		}
	}
	return out
}

// boardTokens returns the tokens army (p, slot) has on the map.
func (s *state) boardTokens(p, slot int) int {
	n := 0
	for i := range s.Regions {
		if s.owns(i, p, slot) {
			n += int(s.Regions[i].Tokens)
		}
	}
	return n
}

// inPlay returns how many tokens of race are out of the box (map, hands, set aside).
func (s *state) inPlay(race string) int {
	for p := range s.Players {
		for slot := range nSlots {
			a := s.army(p, slot)
			if a.Race == race {
				n := s.boardTokens(p, slot) + a.Hand + a.Aside
				for ab := range s.acting(p, slot) {
					if ab.borrowed != nil {
						n -= ab.borrowed(s, p, slot)
					}
				}
				return n
			}
		}
	}
	return 0
}

// ghoulSlot returns the slot of player p's declined race when it may conquer in
// decline (Ghouls), or -1.
func (s *state) ghoulSlot(p int) int {
	for slot := slotDeclined; slot < nSlots; slot++ {
		if a := s.army(p, slot); a.exists() && abilityOf(a.Race) != nil && abilityOf(a.Race).playsInDecline {
			return slot
		}
	}
	return -1
}

func (s *state) playerIndex(name string) int {
	n := engine.Normalize(name)
	for i := range s.Players {
		if engine.Normalize(s.names[i]) == n {
			return i
		}
	}
	return -1
}

// regionIndex parses a region id typed by a player.
func (s *state) regionIndex(word string) (int, error) {
	id, err := strconv.Atoi(word)
	if err != nil {
		return 0, engine.Illegal("%q is not a region number", word)
	}
	r, ok := s.b.index[id]
	if !ok {
		return 0, engine.Illegal("there is no region %d on this map (regions %s–%s)", id, s.b.ids[0], s.b.ids[len(s.b.ids)-1])
	}
	return r, nil
}

// raceName names army (p, slot) in messages: "Ratmen", "declined Ghouls".
func (s *state) raceName(p, slot int) engine.Text {
	a := s.army(p, slot)
	if slot != slotActive {
		return reason("declined %s", engine.Term(a.Race))
	}
	return reason("%s", engine.Term(a.Race))
}

// Turn implements engine.State.
func (s *state) Turn() int { return s.TurnNo }

// Finished implements engine.State.
func (s *state) Finished() bool { return s.Over }

// Winners implements engine.State.
func (s *state) Winners() []string { return slices.Clone(s.Win) }

// ToAct implements engine.State: the current player, or the defenders who must place
// tokens in hand after the attacker's turn.
func (s *state) ToAct() []string {
	if s.Over {
		return nil
	}
	if len(s.Pending) > 0 {
		out := make([]string, len(s.Pending))
		for i, q := range s.Pending {
			out[i] = s.names[q]
		}
		return out
	}
	return []string{s.names[s.Cur]}
}

// Hash implements engine.State: a digest (engine.HashJSON) of a compact canonical
// binary encoding of the whole state — every field, in a fixed order, names of races
// and powers as their index in the data. The pieces and variables of the base game
// keep the places they had before abilities were registered (pieceKind.hash,
// varKind.legacy), and later ones are encoded after them only when present, so a
// base-game state hashes as it always did.
func (s *state) Hash() string {
	var buf [1024]byte // a 5-player game's encoding is about 450 bytes
	return engine.HashBytes(s.canon(buf[:0]))
}

func appendInt(buf []byte, v int) []byte { return binary.AppendVarint(buf, int64(v)) }

func appendBool(buf []byte, v bool) []byte {
	if v {
		return append(buf, 1)
	}
	return append(buf, 0)
}

// appendName encodes a race or power name by its index in the data (0 for "").
func (s *state) appendName(buf []byte, name string) []byte {
	if name == "" {
		return append(buf, 0)
	}
	if i, ok := s.cat.nameIndex[name]; ok {
		return append(buf, i)
	}
	buf = append(buf, 255)
	buf = appendInt(buf, len(name))
	return append(buf, name...)
}

// appendArmyName is appendName for an army's race or power, whose ability number
// (army.abs) gives its index without a lookup by name.
func (s *state) appendArmyName(buf []byte, name string, ab uint8) []byte {
	if i := s.cat.byAbility[ab]; i != 0 && name != "" {
		return append(buf, i)
	}
	return s.appendName(buf, name)
}

func (s *state) appendNames(buf []byte, v []string) []byte {
	buf = appendInt(buf, len(v))
	for _, x := range v {
		buf = s.appendName(buf, x)
	}
	return buf
}

func (s *state) canon(buf []byte) []byte {
	buf = append(buf, s.b.name...)
	buf = append(buf, 0)
	buf = appendInt(buf, s.TurnNo)
	buf = appendInt(buf, s.Cur)
	buf = appendBool(buf, s.Over)
	buf = appendInt(buf, len(s.Win))
	for _, w := range s.Win {
		buf = append(buf, w...)
		buf = append(buf, 0)
	}
	buf = appendInt(buf, len(s.Players))
	for i := range s.Players {
		p := &s.Players[i]
		buf = append(buf, s.names[i]...)
		buf = append(buf, 0)
		buf = appendInt(buf, p.Coins)
		buf = appendInt(buf, p.Scored)
		buf = appendInt(buf, int(p.Ally))
		for j := range p.Armies {
			a := &p.Armies[j]
			buf = s.appendArmyName(buf, a.Race, a.abs[0])
			buf = s.appendArmyName(buf, a.Power, a.abs[1])
			buf = appendInt(buf, a.Hand)
			buf = appendInt(buf, a.Aside)
			buf = appendArmyLegacyVars(buf, a)
		}
	}
	buf = appendInt(buf, len(s.Regions))
	for i := range s.Regions {
		g := &s.Regions[i]
		buf = append(buf, byte(g.Owner), byte(g.Slot))
		buf = appendRegionLegacy(buf, g)
		buf = appendInt(buf, int(g.Tokens))
	}
	buf = appendInt(buf, len(s.Offer))
	for i := range s.Offer {
		c := &s.Offer[i]
		if m := s.stacks; m != nil && i < len(m.offer) && m.offer[i].ok && m.offer[i].race == c.Race && m.offer[i].power == c.Power {
			buf = append(buf, m.offer[i].code[:]...)
		} else {
			buf = s.appendName(buf, c.Race)
			buf = s.appendName(buf, c.Power)
		}
		buf = appendInt(buf, c.Coins)
	}
	if m := s.stacks; m.encodes(s) {
		buf = append(buf, m.code...)
	} else {
		buf = s.appendStacks(buf)
	}
	t := &s.T
	for _, f := range [...]bool{t.Acted, t.ActiveActed, t.Closed} {
		buf = appendBool(buf, f)
	}
	buf = appendLegacyVars(buf, true, encBool, t.get)
	buf = appendInt(buf, int(t.Die))
	buf = appendInt(buf, t.NonEmpty)
	buf = append(buf, t.Attacked)
	buf = appendLegacyVars(buf, true, encByte, t.get)
	buf = appendInt(buf, len(t.Conquered))
	for _, c := range t.Conquered {
		buf = appendInt(buf, int(c))
	}
	buf = appendInt(buf, len(t.Readied))
	for _, r := range t.Readied {
		buf = appendInt(buf, int(r.R))
		buf = appendInt(buf, int(r.Slot))
		buf = appendInt(buf, int(r.N))
	}
	buf = appendInt(buf, len(s.Pending))
	for _, q := range s.Pending {
		buf = appendInt(buf, int(q))
	}
	if len(s.Pool) > 0 { // absent from base-game states, whose hashes stay unchanged
		buf = append(buf, 'P')
		buf = s.appendNames(buf, s.Pool)
	}
	buf = s.appendTrailer(buf)
	if s.Scn != nil {
		buf = append(buf, s.Scn.canon(s, nil)...) // not given buf, which then stays on Hash's stack
	}
	return buf
}
