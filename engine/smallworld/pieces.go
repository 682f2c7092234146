package smallworld

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Room in the state for piece kinds and ability variables (base game: 5 flag kinds,
// 1 counted kind, 5 variables; Small World Underground adds its 15 places and relics
// and about a dozen more kinds).
const (
	maxFlagKinds  = 32 // bits of pieceSet.Flags
	maxCountKinds = 6
	maxArmyVars   = 8
	maxTurnVars   = 16
)

// pieceSet holds the pieces of one region: a bit per flag kind (at most one per
// region) and a count per counted kind. It is a small value, copied with the region.
type pieceSet struct {
	Flags  uint32
	Counts [maxCountKinds]int8
}

func (ps *pieceSet) get(k *pieceKind) int {
	if k.flag {
		return int(ps.Flags>>k.idx) & 1
	}
	return int(ps.Counts[k.idx])
}

func (ps *pieceSet) set(k *pieceKind, n int) {
	switch {
	case !k.flag:
		ps.Counts[k.idx] = int8(n)
	case n > 0:
		ps.Flags |= 1 << k.idx
	default:
		ps.Flags &^= 1 << k.idx
	}
}

// Events after which a piece may stay in its region (pieceKind.stays).
const (
	onConquest uint8 = 1 << iota // the region is conquered (or converted)
	onAbandon                    // the region is abandoned
	onDecline                    // its race goes into decline
	onRemoval                    // its race leaves the map for good
)

// Legacy places of the base game's pieces in a region's canonical encoding (canon):
// the encampment count byte, or a bit of the flags byte. Pieces added later are
// encoded after the base game's fields, so base-game hashes never change.
const (
	hashTrailer   = 0
	hashCountByte = -1
)

// hashFlag is the legacy bit of a flag piece in the region's flags byte.
func hashFlag(bit int) int { return bit + 1 }

// pieceKind is one sort of piece on the map (fortress, troll lair, encampment …): the
// core's defence, immunity, cleanup, hash and view loop over the registered kinds.
type pieceKind struct {
	// name is the key in the view's pieces object ("troll_lair").
	name string
	// order sorts the view's pieces object.
	order int
	// flag: at most one per region; viewed as true.
	flag bool
	// defense is added to the region's defence per piece.
	defense int
	// immune, when set, protects the region against every army but its occupant; the
	// text names the piece in messages ("a hero"), translated with them.
	immune engine.Text
	// terrain: the piece stands on every region of that terrain class from setup and
	// is not in the state (the mountains of the base game).
	terrain string
	// box is the number of such pieces in the box (0: no limit checked).
	box int
	// stays is the set of events (onConquest …) after which the piece stays; it is
	// removed after the others.
	stays uint8
	// grants is the ability the piece gives to the army holding its region (a place or
	// relic of Small World Underground), or nil.
	grants *ability
	// grantsOf, when set, decides the ability granted in region r from the state
	// (Stonehedge: the power drawn for it); grants then only names the kind's pack.
	grantsOf func(s *state, r int) *ability
	// barren: a region holding the piece gives its holder no coin, and counts for no
	// bonus by regions (the Necromancer's Island, a region only in name).
	barren bool
	// hidden keeps the kind out of the view's pieces (the view shows it in another
	// way: the power drawn for Stonehedge).
	hidden bool
	// taken runs when player by conquers region r, which holds the piece, from
	// another player (the Crypt of the Tomb-raider hands Lara's Ghost over).
	taken func(s *state, r, by int)
	// hash is the legacy place in canon (hashCountByte, hashFlag(n)) or hashTrailer.
	hash int
	// title names one piece of the kind in an account of the game ("a fortress", "the
	// dragon"); many, for a counted kind, names n of them (a key with plural forms,
	// "%d encampments"). A kind without either is not told (terrain, hidden kinds).
	title engine.Text
	many  string

	idx int // bit or index in pieceSet (-1 for terrain pieces)
}

// varKind is one number or flag an ability keeps in the state, per army (Halflings'
// holes placed) or per turn (the dragon attacked). Turn variables are reset at the
// start of every turn.
type varKind struct {
	name string
	turn bool // per turn, else per army
	// keepOnDecline: the army's value survives its decline (Wealthy's bonus paid).
	keepOnDecline bool
	// enc and legacy give the value's place in the base game's canonical encoding:
	// legacy > 0 is the position among the variables of the same scope and encoding;
	// 0 puts it after the base game's fields.
	enc    int
	legacy int

	idx int
}

// Encodings of a variable in canon.
const (
	encVarint = iota
	encBool
	encByte
)

func registerPieces(ks ...*pieceKind) {
	for _, k := range ks {
		if slices.ContainsFunc(reg.pieces, func(o *pieceKind) bool { return o.name == k.name }) {
			panic(fmt.Sprintf("smallworld: piece kind %q registered twice", k.name))
		}
		k.idx = -1
		if k.terrain == "" {
			n := 0
			for _, o := range reg.pieces {
				if o.idx >= 0 && o.flag == k.flag {
					n++
				}
			}
			if (k.flag && n >= maxFlagKinds) || (!k.flag && n >= maxCountKinds) {
				panic("smallworld: too many piece kinds; raise maxFlagKinds or maxCountKinds")
			}
			k.idx = n
		}
		reg.pieces = append(reg.pieces, k)
	}
	slices.SortStableFunc(reg.pieces, func(a, b *pieceKind) int { return a.order - b.order })
	reg.legacyPieces = slices.DeleteFunc(slices.Clone(reg.pieces), func(k *pieceKind) bool { return k.idx < 0 || k.hash == hashTrailer })
	legacyTables()
	reg.defenders = slices.DeleteFunc(slices.Clone(reg.pieces), func(k *pieceKind) bool { return k.defense == 0 })
	reg.guards = slices.DeleteFunc(slices.Clone(reg.pieces), func(k *pieceKind) bool { return k.immune.Key == "" })
	reg.barren = slices.DeleteFunc(slices.Clone(reg.pieces), func(k *pieceKind) bool { return !k.barren })
}

func registerVar(v *varKind) {
	n := 0
	for _, o := range reg.vars {
		if o.name == v.name {
			panic(fmt.Sprintf("smallworld: variable %q registered twice", v.name))
		}
		if o.turn == v.turn {
			n++
		}
	}
	if (v.turn && n >= maxTurnVars) || (!v.turn && n >= maxArmyVars) {
		panic("smallworld: too many ability variables; raise maxTurnVars or maxArmyVars")
	}
	v.idx = n
	reg.vars = append(reg.vars, v)
	if v.legacy > 0 {
		key := legacyKey(v.turn, v.enc)
		reg.legacyVars[key] = append(reg.legacyVars[key], v)
		slices.SortFunc(reg.legacyVars[key], func(a, b *varKind) int { return a.legacy - b.legacy })
	}
}

// ---- pieces in regions ----

// pieces returns the number of pieces of kind k in region r.
func (s *state) pieces(r int, k *pieceKind) int {
	if k.terrain != "" {
		if s.b.class[r] == k.terrain {
			return 1
		}
		return 0
	}
	return s.Regions[r].Pieces.get(k)
}

// barren reports whether region r gives no coin: it holds a barren piece.
func (s *state) barren(r int) bool {
	for _, k := range reg.barren {
		if s.pieces(r, k) > 0 {
			return true
		}
	}
	return false
}

// setPieces puts n pieces of kind k in region r.
func (s *state) setPieces(r int, k *pieceKind, n int) { s.Regions[r].Pieces.set(k, n) }

// moveFlag takes every piece of kind k off the map and puts one in each region of rs
// (the dragon, the heroes).
func (s *state) moveFlag(k *pieceKind, rs ...int) {
	for r := range s.Regions {
		s.Regions[r].Pieces.set(k, 0)
	}
	for _, r := range rs {
		s.Regions[r].Pieces.set(k, 1)
	}
}

// onMap counts the pieces of kind k on the map, in the regions of player p (p < 0:
// everywhere).
func (s *state) onMap(k *pieceKind, p int) int {
	n := 0
	for r := range s.Regions {
		if p < 0 || int(s.Regions[r].Owner) == p {
			n += s.pieces(r, k)
		}
	}
	return n
}

// clearPieces removes from region r the pieces that do not stay after event.
func (s *state) clearPieces(r int, event uint8) {
	s.Regions[r].Pieces = s.keptPieces(r, event)
}

// keptPieces returns the pieces of region r that stay after event.
func (s *state) keptPieces(r int, event uint8) pieceSet {
	out := s.Regions[r].Pieces
	if out == (pieceSet{}) {
		return out
	}
	for _, k := range reg.pieces {
		if k.idx >= 0 && k.stays&event == 0 {
			out.set(k, 0)
		}
	}
	return out
}

// defense is what stands in region r: tokens (a lost tribe counts as one) and the
// defence of its pieces (mountain, fortress, troll lair, encampments).
func (s *state) defense(r int) int {
	d := int(s.Regions[r].Tokens)
	for _, k := range reg.defenders {
		d += k.defense * s.pieces(r, k)
	}
	return d
}

// fortified reports whether a piece in the state (not a terrain piece) adds to region
// r's defence: a lone token there is not alone (Sorcerers).
func (s *state) fortified(r int) bool {
	for _, k := range reg.defenders {
		if k.idx >= 0 && s.Regions[r].Pieces.get(k) > 0 {
			return true
		}
	}
	return false
}

// immune names the piece that protects region r against every army but its own (a
// hero, the dragon, a hole-in-the-ground), or returns an empty Text.
func (s *state) immune(r int) engine.Text {
	for _, k := range reg.guards {
		if s.pieces(r, k) > 0 {
			return k.immune
		}
	}
	return engine.Text{}
}

// ---- ability variables ----

func (a *army) get(v *varKind) int        { return int(a.Vars[v.idx]) }
func (a *army) set(v *varKind, n int)     { a.Vars[v.idx] = int16(n) }
func (t *turnInfo) get(v *varKind) int    { return int(t.Vars[v.idx]) }
func (t *turnInfo) set(v *varKind, n int) { t.Vars[v.idx] = int32(n) }

// declineVars clears the army variables that do not survive a decline.
func (a *army) declineVars() {
	for _, v := range reg.vars {
		if !v.turn && !v.keepOnDecline {
			a.Vars[v.idx] = 0
		}
	}
}

// ---- canonical encoding ----

// appendLegacyVars encodes the variables of one scope and encoding that have a legacy
// place, in legacy order.
func appendLegacyVars(buf []byte, turn bool, enc int, get func(*varKind) int) []byte {
	for _, v := range reg.legacyVars[legacyKey(turn, enc)] {
		buf = appendEnc(buf, enc, get(v))
	}
	return buf
}

// appendArmyLegacyVars is appendLegacyVars for an army's variables, both encodings
// (varint, then bool), read straight from its array.
func appendArmyLegacyVars(buf []byte, a *army) []byte {
	for _, v := range reg.legacyVars[legacyKey(false, encVarint)] {
		buf = appendInt(buf, int(a.Vars[v.idx]))
	}
	for _, v := range reg.legacyVars[legacyKey(false, encBool)] {
		buf = appendBool(buf, a.Vars[v.idx] != 0)
	}
	return buf
}

func legacyKey(turn bool, enc int) int {
	if turn {
		return 3 + enc
	}
	return enc
}

func appendEnc(buf []byte, enc, n int) []byte {
	switch enc {
	case encBool:
		return appendBool(buf, n != 0)
	case encByte:
		return append(buf, byte(n))
	}
	return appendInt(buf, n)
}

// appendRegionLegacy encodes a region's pieces as the base game did: the encampment
// count byte and a flags byte.
func appendRegionLegacy(buf []byte, g *region) []byte {
	var count byte
	for _, i := range reg.legacyCounts {
		count += byte(g.Pieces.Counts[i])
	}
	f := g.Pieces.Flags
	return append(buf, count, reg.legacyFlags[0][f&0xff]|reg.legacyFlags[1][f>>8&0xff]|reg.legacyFlags[2][f>>16&0xff]|reg.legacyFlags[3][f>>24])
}

// legacyTables precomputes appendRegionLegacy's lookups: the counted kinds written in
// the count byte, and for each byte of pieceSet.Flags the legacy flag bits it sets.
func legacyTables() {
	reg.legacyCounts = nil
	reg.legacyFlags = [4][256]byte{}
	for i := range reg.trailerFlags {
		reg.trailerFlags[i] = -1
	}
	for i := range reg.trailerCounts {
		reg.trailerCounts[i] = -1
	}
	for i, k := range reg.pieces {
		switch {
		case k.idx < 0:
		case k.hash == hashTrailer && k.flag:
			reg.trailerFlags[k.idx] = i
		case k.hash == hashTrailer:
			reg.trailerCounts[k.idx] = i
		case k.hash == hashCountByte && !k.flag:
			reg.legacyCounts = append(reg.legacyCounts, k.idx)
		case k.hash > 0 && k.flag:
			half, bit := k.idx/8, k.idx%8
			for v := range 256 {
				if v&(1<<bit) != 0 {
					reg.legacyFlags[half][v] |= 1 << (k.hash - 1)
				}
			}
		case k.hash != hashTrailer:
			panic(fmt.Sprintf("smallworld: piece kind %s: a flag kind takes a flag bit, a counted kind the count byte", k.name))
		}
	}
}

// appendTrailer encodes what the base game did not have: every non-zero piece count
// and variable without a legacy place, by name. It is empty for base-game states.
func (s *state) appendTrailer(buf []byte) []byte {
	entry := func(tag byte, where int, name string, n int) {
		buf = append(buf, tag)
		buf = appendInt(buf, where)
		buf = append(buf, name...)
		buf = append(buf, 0)
		buf = appendInt(buf, n)
	}
	// The pieces of the trailer's kinds, region by region, then in the order of the
	// kinds (reg.pieces) and of the regions: one pass over the regions.
	type found struct{ pos, r, n int }
	var list [64]found
	pieces := list[:0]
	for r := range s.Regions {
		ps := &s.Regions[r].Pieces
		for f := ps.Flags; f != 0; f &= f - 1 {
			if pos := reg.trailerFlags[bits.TrailingZeros32(f)]; pos >= 0 {
				pieces = append(pieces, found{pos, r, 1})
			}
		}
		if ps.Counts == ([maxCountKinds]int8{}) {
			continue
		}
		for i, n := range ps.Counts {
			if pos := reg.trailerCounts[i]; pos >= 0 && n != 0 {
				pieces = append(pieces, found{pos, r, int(n)})
			}
		}
	}
	// By kind, the regions in order within a kind (they were found in region order):
	// an insertion sort of the few found.
	for i := 1; i < len(pieces); i++ {
		for j := i; j > 0 && pieces[j-1].pos > pieces[j].pos; j-- {
			pieces[j-1], pieces[j] = pieces[j], pieces[j-1]
		}
	}
	for _, p := range pieces {
		entry('r', p.r, reg.pieces[p.pos].name, p.n)
	}
	// The armies with a variable set (most have none), looked at for each variable.
	var set [maxArmies]int
	armies := set[:0]
	for p := range s.Players {
		for slot := range nSlots {
			if s.Players[p].Armies[slot].Vars != ([maxArmyVars]int16{}) {
				armies = append(armies, p*nSlots+slot)
			}
		}
	}
	for _, v := range reg.vars {
		if v.legacy != 0 {
			continue
		}
		if v.turn {
			if n := s.T.get(v); n != 0 {
				entry('t', 0, v.name, n)
			}
			continue
		}
		for _, a := range armies {
			if n := s.army(a/nSlots, a%nSlots).get(v); n != 0 {
				entry('a', a, v.name, n)
			}
		}
	}
	return buf
}

// maxArmies bounds the armies of a game for appendTrailer's list (the list grows
// beyond it if need be).
const maxArmies = 8 * nSlots

// mountain is the mountain piece of the base game: it stands on every mountain-class
// region (Underground's black mountains too) and adds one to its defence.
var mountain = &pieceKind{name: "mountain", order: 10, flag: true, defense: 1, terrain: Mountain}

func init() { registerPieces(mountain) }
