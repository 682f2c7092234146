package smallworld

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// Pieces of Small World Underground a player moves by a verb during their own turn
// (it ends the conquests): the Black Queen (Royal), Lara's Ghost (the Crypt of the
// Tomb-raider), the Scepter of Avarice and Froggy's Ring.
//
//	queen R    Royal: the Black Queen to a region of yours (immune)
//	ghost R    Crypt: Lara's Ghost to any region but the Crypt's (immune)
//	scepter R  Scepter: to a region of yours; that region's coins are doubled
//	ring R     Ring: to a region of yours; 1 coin from each player with an active
//	           race token next to it, at the end of your turn
type placer struct {
	verb string
	// piece names the piece kind (looked up once the kinds are registered); title
	// names it in the answers ("the Black Queen").
	piece string
	title engine.Text
	// holder is the ability whose active owner moves the piece.
	holder string
	// where tells whether region r may receive the piece from player p; wrong says
	// where it may go.
	where func(s *state, p, r int) bool
	wrong engine.Text
}

var (
	// blackQueen makes its region immune; it stays when the race declines (and no
	// longer moves), and leaves the map with the race.
	blackQueen = &pieceKind{name: "black_queen", order: 80, flag: true, immune: reason("the Black Queen"), title: reason("the Black Queen"), box: 1, stays: onDecline}
	// larasGhost makes its region immune, whoever holds it; it never leaves the map.
	larasGhost = &pieceKind{name: "laras_ghost", order: 81, flag: true, immune: reason("Lara's Ghost"), title: reason("Lara's Ghost"), box: 1,
		stays: onConquest | onAbandon | onDecline | onRemoval}
)

// kept lists the regions of player p's active race that it keeps when conquests end
// (see ownRegion): where pieces placed during the turn may go.
func (s *state) kept(p int) []int {
	return slices.DeleteFunc(s.held(p, slotActive), func(r int) bool { return !ownRegion(s, p, r) })
}

// keptReason says why region r cannot take a piece of player p's active race (it is
// not theirs, or a river they leave when conquests end), or returns "".
func (s *state) keptReason(p, r int) engine.Text {
	switch {
	case !s.owns(r, p, slotActive):
		return reason("region %d is not held by your %s", s.b.id(r), engine.Term(s.army(p, slotActive).Race))
	case !ownRegion(s, p, r):
		return reason("region %d is a river your %s leave when conquests end; choose a region you keep", s.b.id(r), engine.Term(s.army(p, slotActive).Race))
	}
	return engine.Text{}
}

// ownRegion: a region of player p's active race that it keeps when conquests end (a
// river is left then unless the race keeps water). Pieces placed during the turn go
// only there (Heroic, Fortified, Bivouacking, Royal, the Scepter, the Ring).
func ownRegion(s *state, p, r int) bool {
	if !s.owns(r, p, slotActive) {
		return false
	}
	if s.T.Closed || !s.b.ford[r] {
		return true
	}
	for ab := range s.acting(p, slotActive) {
		if ab.water {
			return true
		}
	}
	return false
}

var placers = []*placer{
	{verb: "queen", piece: "black_queen", title: reason("the Black Queen"), holder: "Royal", where: ownRegion, wrong: reason("the Black Queen goes to a region of your active race")},
	{verb: "ghost", piece: "laras_ghost", title: reason("Lara's Ghost"), holder: "Crypt of the Tomb-raider", wrong: reason("Lara's Ghost goes to any region but the Crypt's (not a chasm)"),
		where: func(s *state, p, r int) bool {
			return !s.b.blocked[r] && s.pieces(r, pieceNamed("crypt_of_the_tomb_raider")) == 0
		}},
	{verb: "scepter", piece: "scepter_of_avarice", title: reason("the Scepter of Avarice"), holder: "Scepter of Avarice", where: ownRegion, wrong: reason("the Scepter goes to a region of your active race")},
	{verb: "ring", piece: "froggys_ring", title: reason("Froggy's Ring"), holder: "Froggy's Ring", where: ownRegion, wrong: reason("the Ring goes to a region of your active race")},
}

func init() {
	registerPieces(larasGhost)
	for _, pl := range placers {
		pl := pl
		registerVerbs(&verb{name: pl.verb, rank: rankRedeploy + 20,
			apply: func(s *state, p int, args []string, _ *engine.Rand) error { return pl.apply(s, p, args) },
			legal: func(s *state, p int, out []string) []string { return pl.legal(s, p, out) }})
	}
}

func (pl *placer) ready(s *state, p int) bool {
	return s.ownTurn(p) && s.army(p, slotActive).exists() && s.has(p, pl.holder)
}

func (pl *placer) legal(s *state, p int, out []string) []string {
	if !pl.ready(s, p) {
		return out
	}
	for r := range s.Regions {
		if pl.where(s, p, r) && s.pieces(r, pieceNamed(pl.piece)) == 0 {
			out = append(out, pl.verb+" "+s.b.ids[r])
		}
	}
	return out
}

func (pl *placer) apply(s *state, p int, args []string) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if err := s.needActive(p); err != nil {
		return err
	}
	if !s.has(p, pl.holder) {
		return engine.Illegal("only the active race with %s can move %s", engine.Term(pl.holder), pl.title)
	}
	if err := wantArgs(args, 1, syntax(pl.verb+" R")); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	if !pl.where(s, p, r) {
		return engine.Illegal("%s; not region %d", pl.wrong, s.b.id(r))
	}
	if s.pieces(r, pieceNamed(pl.piece)) > 0 {
		return engine.Illegal("it is in region %d already", s.b.id(r))
	}
	s.closeConquests() // where held before: the region is kept
	s.moveFlag(pieceNamed(pl.piece), r)
	return nil
}

// Royal (§4.13): the Black Queen is placed at the end of every turn; a player who did
// not place it gets it in their first region (by number).
var royal = &ability{name: "Royal", kind: kindPower, pack: packUnderground, pieces: []*pieceKind{blackQueen},
	turnEnd: func(s *state, p, slot int) {
		rs := s.held(p, slot)
		if slot != slotActive || len(rs) == 0 {
			return
		}
		for _, r := range rs {
			if s.pieces(r, blackQueen) > 0 {
				return
			}
		}
		s.moveFlag(blackQueen, rs[0])
	}}

func init() { register(royal) }

// scepterBonus doubles the coins of the Scepter's region: its coin, and the Keep's
// there (a BGG report counts Keep + Scepter as 4); nothing in the Mine of the Lost
// Dwarf's region (§5).
func scepterBonus(s *state, p, slot int) int {
	n := 0
	for _, r := range s.foundRegions(p, slot, "scepter_of_avarice") {
		n += scepterRegion(s, r)
	}
	return n
}

// scepterRegion is what the Scepter (or the Bag of Wonders standing for it) adds to
// the coins of region r.
func scepterRegion(s *state, r int) int {
	if s.pieces(r, pieceNamed("mine_of_the_lost_dwarf")) > 0 {
		return 0
	}
	n := 1
	if s.pieces(r, pieceNamed("keep_on_the_motherland")) > 0 {
		n++
	}
	return n
}

// ringBonus takes 1 coin from each other player with an active race token in a
// region bordering the Ring's and not protected against the holder (state.protected:
// immune, Gnomes); nothing from an empty purse.
func ringBonus(s *state, p, slot int) int {
	n := 0
	for _, r := range s.foundRegions(p, slot, "froggys_ring") {
		n += ringRegion(s, p, r)
	}
	return n
}

// ringRegion takes for player p the coins the Ring (or the Bag of Wonders standing for
// it) in region r takes: 1 from each other player with an active race token next to
// it, not protected against p, with a coin to give.
func ringRegion(s *state, p, r int) int {
	n := 0
	for q := range s.Players {
		if q == p || s.Players[q].Coins == 0 {
			continue
		}
		for _, x := range s.b.adj[r] {
			if s.owns(x, q, slotActive) && s.protected(p, x).Key == "" {
				s.Players[q].Coins--
				n++
				break
			}
		}
	}
	return n
}

// altar: `altar R` removes one token of your declined race from region R for 3 coins,
// once per turn, even while the race holding the Altar is in decline.
var altarVerb = &verb{name: "altar", rank: rankRedeploy + 21, legal: legalAltar, apply: applyAltar}

func init() { registerVerbs(altarVerb) }

func (s *state) altarReady(p int) bool {
	if !s.ownTurn(p) || s.T.get(relicsUsed)&usedAltar != 0 {
		return false
	}
	k := pieceNamed("altar_of_souls")
	for r := range s.Regions {
		if int(s.Regions[r].Owner) == p && s.pieces(r, k) > 0 {
			return true
		}
	}
	return false
}

func legalAltar(s *state, p int, out []string) []string {
	if !s.altarReady(p) {
		return out
	}
	for r := range s.Regions {
		if int(s.Regions[r].Owner) == p && s.Regions[r].Slot != slotActive {
			out = append(out, "altar "+s.b.ids[r])
		}
	}
	return out
}

func applyAltar(s *state, p int, args []string, _ *engine.Rand) error {
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if !s.altarReady(p) {
		return engine.Illegal("you need the Altar of Souls in one of your regions, once per turn")
	}
	if err := wantArgs(args, 1, syntax("altar R", reason("a region of your race in decline"))); err != nil {
		return err
	}
	r, err := s.regionIndex(args[0])
	if err != nil {
		return err
	}
	g := &s.Regions[r]
	if int(g.Owner) != p || g.Slot == slotActive {
		return engine.Illegal("region %d is not held by your race in decline", s.b.id(r))
	}
	slot := int(g.Slot)
	if s.ownTurn(p) && !s.T.Closed {
		s.closeConquests()
	}
	g.Tokens--
	s.mark(r)
	s.tell(-1, engine.HapOther, -1, "%s gave a token of the declined %s in region %d to the Altar of Souls for 3 coins", s.names[p], engine.Term(s.army(p, slot).Race), s.b.id(r))
	if g.Tokens == 0 {
		s.Regions[r] = region{Owner: ownerNone, Pieces: s.keptPieces(r, onAbandon)}
		if s.count(p, slot) == 0 {
			s.removeArmy(p, slot)
		}
	}
	s.Players[p].Coins += 3
	s.T.set(relicsUsed, s.T.get(relicsUsed)|usedAltar)
	return nil
}
