package smallworld

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/turnmail/turnmail/engine"
)

// nameGhosts is the Necromancer's race; it is not a banner of the race stack, and
// its kind is neither race nor power, so it has no data line.
const (
	nameGhosts = "Ghosts"
	kindGhosts = "ghosts"
)

// necroState is what Necromancer Island adds to the state (state.Scn). The Ghosts are
// the Necromancer's active army; the Island is the central lake, held by them with
// the island piece (immune, scores nothing) and possibly no token.
type necroState struct {
	P    int8  // the Necromancer's seat: the last in turn order
	Lake int16 // the Island's region index
	// Reserve counts the Ghosts in the Necromancer's reserve.
	Reserve int
	// The Soul Well: its Ghosts (always on top) and the other race tokens.
	WellGhosts, WellSouls int
	// Bought are the powers bought, beside the army's Power (the one kept).
	Bought []string
	// Spare are the powers in the Necromancer's reserve (the six drawn until he keeps one).
	Spare []string
	// Choosing: the setup waits for the Necromancer to keep one of the six powers he
	// drew; the first player's turn begins then (rulesText).
	Choosing bool
}

var (
	// ghosts is the Necromancer's race: the Island's Ghosts leave it at the start of
	// his turn (they may all conquer), each region he holds gives a bonus soul, the
	// Island scores nothing. The Necromancer's own commands are open verbs (they
	// explain themselves to the other players).
	ghosts = &ability{name: nameGhosts, kind: kindGhosts, pack: packNecromancer,
		turnStart: ghostsTurnStart,
		turnEnd: func(s *state, p, slot int) {
			if n, ok := s.Scn.(*necroState); ok {
				n.WellSouls += s.count(p, slot) - 1 // the Island gives no soul
			}
		},
		pieces: []*pieceKind{island},
		verbs: []*verb{
			{name: "keep", rank: rankPick + 1, open: true, apply: applyKeep, legal: legalKeep, notes: notesKeep},
			{name: "buy", rank: rankPick + 2, open: true, apply: applyBuy, legal: legalBuy, notes: notesBuy},
		},
	}
	// island is the Necromancer's Island on the central lake: no other army may enter
	// it (Seafaring included); it stays whatever happens.
	island = &pieceKind{name: "island", order: 80, flag: true, barren: true, immune: reason("the Necromancer's Island"), title: reason("the Necromancer's Island"),
		stays: onConquest | onAbandon | onDecline | onRemoval}
)

func init() { register(ghosts) }

// necro returns the scenario state and whether p is the Necromancer.
func (s *state) necro(p int) (*necroState, bool) {
	n, ok := s.Scn.(*necroState)
	return n, ok && int(n.P) == p
}

// ghostsTurnStart takes the Island's Ghosts into hand with the others: they need not
// stay on the Island, which nobody else can enter.
func ghostsTurnStart(s *state, p, slot int) {
	n, ok := s.necro(p)
	if !ok {
		return
	}
	g := &s.Regions[n.Lake]
	if g.Tokens > 0 {
		s.army(p, slot).Hand += int(g.Tokens)
		s.T.Readied = append(s.T.Readied, readied{R: n.Lake, Slot: int8(slot), N: g.Tokens})
		g.Tokens = 0
	}
}

// ---- the hook points (scenario) ----

func (n *necroState) copy() scenario {
	c := *n
	c.Bought = slices.Clone(n.Bought)
	c.Spare = slices.Clone(n.Spare)
	return &c
}

func (n *necroState) canon(s *state, buf []byte) []byte {
	buf = append(buf, 'N')
	for _, v := range [...]int{int(n.P), int(n.Lake), n.Reserve, n.WellGhosts, n.WellSouls} {
		buf = appendInt(buf, v)
	}
	buf = s.appendNames(buf, n.Bought)
	buf = s.appendNames(buf, n.Spare)
	if n.Choosing { // only in games of rulesText: older hashes stay as they were
		buf = append(buf, 'C')
	}
	return buf
}

func (n *necroState) acting(_ *state, p, slot int) []*ability {
	if p != int(n.P) || slot != slotActive || len(n.Bought) == 0 {
		return nil
	}
	out := make([]*ability, 0, len(n.Bought))
	for _, name := range n.Bought {
		if ab := abilityOf(name); ab != nil {
			out = append(out, ab)
		}
	}
	return out
}

// lost puts the tokens lost in a conquest in the Soul Well: Ghosts on top.
func (n *necroState) lost(_ *state, q, _, k int) {
	if q == int(n.P) {
		n.WellGhosts += k
	} else {
		n.WellSouls += k
	}
}

// declining puts the Elf tokens a decline removes from the map in the Well: «ogni
// segnalino Elfo scartato quando la Razza entra in Declino si aggiunge al Pozzo delle
// Anime» — those of the Elves going into decline. Every other token removed goes to
// the box («Ogni altro segnalino rimosso quando una razza entra in Declino viene
// scartato nel Contenitore»), declined Elves leaving the map for a newer declined
// race among them; under the rules before rulesText those went to the Well too.
func (n *necroState) declining(s *state, p int) {
	a := s.army(p, slotActive)
	race, power := abilityOf(a.Race), abilityOf(a.Power)
	dest := slotDeclined
	if (race != nil && race.spirit) || (power != nil && power.spirit) {
		dest = slotSpirit
	}
	if a.Race == "Elves" {
		n.WellSouls += s.boardTokens(p, slotActive) - s.count(p, slotActive) + a.Hand + a.Aside
	}
	if d := s.army(p, dest); d.Race == "Elves" && s.rules < rulesText {
		n.WellSouls += s.boardTokens(p, dest)
	}
}

// turnEnded summons Ghosts after every player's turn, and ends the game when the
// Necromancer has no Ghost left in reserve or in the Well.
func (n *necroState) turnEnded(s *state) bool {
	n.summon(s)
	return n.checkWin(s)
}

// summon takes every set of four tokens off the Well, Ghosts first: the Ghosts taken
// go back to the reserve, the others to the box, and each set brings a Ghost from
// the reserve onto the Island. It returns the Ghosts summoned.
func (n *necroState) summon(s *state) int {
	sets := (n.WellGhosts + n.WellSouls) / soulsPerGhost
	if sets == 0 {
		return 0
	}
	take := sets * soulsPerGhost
	g := min(n.WellGhosts, take)
	n.WellGhosts -= g
	n.WellSouls -= take - g
	n.Reserve += g
	k := min(sets, n.Reserve) // fewer only when the last Ghost comes out: a win
	n.Reserve -= k
	s.Regions[n.Lake].Tokens += int16(k)
	s.mark(int(n.Lake))
	s.tell(-1, engine.HapOther, -1, "the Soul Well summoned %s onto the Island (%d tokens of the Well used)", nGhosts(k), take)
	return k
}

// checkWin ends the game with the Necromancer's victory when no Ghost is left in his
// reserve or in the Well.
func (n *necroState) checkWin(s *state) bool {
	if n.Reserve > 0 || n.WellGhosts > 0 || s.Over {
		return false
	}
	s.Over = true
	s.Pending = nil
	s.T = turnInfo{Die: -1}
	s.Win = []string{s.names[n.P]}
	return true
}

func (n *necroState) competes(p int) bool { return p != int(n.P) }

func (n *necroState) mayBeEmpty(r int) bool { return r == int(n.Lake) }

// forbids refuses what the scenario rules out: the Necromancer takes no combo and
// never declines, keeps his power before anything else and never leaves the Island;
// the others make no peace with Ghosts and do not enchant them (a race in decline).
func (n *necroState) forbids(s *state, p int, words []string) engine.Text {
	regionOf := func() (int, bool) {
		if len(words) < 2 {
			return 0, false
		}
		id, err := strconv.Atoi(words[1])
		if err != nil {
			return 0, false
		}
		r, ok := s.b.index[id]
		return r, ok
	}
	if p == int(n.P) {
		switch {
		case s.ownTurn(p) && s.army(p, slotActive).Power == "" && words[0] != "keep":
			return reason("first choose the power you keep among the six you drew: keep 1 to keep %d", len(n.Spare))
		case words[0] == "ally" && s.rules >= rulesText:
			// «I Fantasma sono considerati sempre come una Razza in Declino […]; per cui
			// non è possibile stringervi patti diplomatici»: a Diplomat of his makes none.
			return reason("your Ghosts are always a race in decline: they make no diplomatic pact (Diplomat does nothing for them)")
		case words[0] == "decline":
			return reason("the Necromancer never goes into decline: end your turn with done")
		case words[0] == "pick":
			return reason("the Necromancer never takes a race and power combo: buy Ghosts and powers instead (buy ghost, buy power N)")
		case words[0] == "abandon":
			if r, ok := regionOf(); ok && r == int(n.Lake) {
				return reason("region %d is your Island: it is never abandoned (its Ghosts are in your hand during your turn)", s.b.id(r))
			}
		}
		return engine.Text{}
	}
	switch words[0] {
	case "ally":
		if len(words) == 2 && s.playerIndex(words[1]) == int(n.P) {
			return reason("%s is the Necromancer: Ghosts are always a race in decline, and no peace is made with them; ally another player", s.names[n.P])
		}
	case "enchant":
		if r, ok := regionOf(); ok && int(s.Regions[r].Owner) == int(n.P) {
			return reason("region %d holds Ghosts, always a race in decline: Sorcerers only convert an active race", s.b.id(r))
		}
	}
	return engine.Text{}
}

// ---- the Necromancer's commands ----

// price is what the Necromancer pays for a Ghost or a power now: his powers in use
// plus his Ghosts on the board and the Island (those in hand are too), not those in
// the Well.
func (n *necroState) price(s *state) int {
	a := s.army(int(n.P), slotActive)
	powers := len(n.Bought)
	if a.Power != "" {
		powers++
	}
	return powers + s.boardTokens(int(n.P), slotActive) + a.Hand
}

// buyPhase reports whether the Necromancer may buy now: his own turn, power kept,
// before his first conquest.
func (s *state) buyPhase(p int) bool {
	_, ok := s.necro(p)
	return ok && s.ownTurn(p) && s.army(p, slotActive).Power != "" && !s.T.ActiveActed && !s.T.Closed
}

func legalKeep(s *state, p int, out []string) []string {
	n, ok := s.necro(p)
	if !ok || !s.ownTurn(p) || s.army(p, slotActive).Power != "" {
		return out
	}
	for i := range n.Spare {
		out = append(out, fmt.Sprintf("keep %d", i+1))
	}
	return out
}

// notesKeep notes each power the Necromancer may keep: its name, and that the others
// go to the Necromancer's reserve (Notes keeps the notes of the entries Legal lists).
func notesKeep(s *state, p int, notes map[string]engine.Text) {
	if n, ok := s.necro(p); ok {
		for i, pw := range n.Spare {
			notes[fmt.Sprintf("keep %d", i+1)] = text("%s; the other powers go to your reserve", engine.Term(pw))
		}
	}
}

func applyKeep(s *state, p int, args []string, _ *engine.Rand) error {
	n, ok := s.necro(p)
	switch {
	case s.Scn == nil:
		return engine.Illegal("keep is a command of Necromancer Island")
	case !ok:
		return engine.Illegal("only the Necromancer, %s, keeps a power", s.names[s.Scn.(*necroState).P])
	}
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if s.army(p, slotActive).Power != "" {
		return engine.Illegal("you kept %s already: buy further powers with buy power N", engine.Term(s.army(p, slotActive).Power))
	}
	i, err := spareIndex(n, args, syntax("keep N", reason("one of the six powers you drew")))
	if err != nil {
		return err
	}
	a := s.army(p, slotActive)
	a.Power, a.abs[1] = n.Spare[i], reg.number[n.Spare[i]]
	n.Spare = slices.Delete(slices.Clone(n.Spare), i, i+1)
	s.tell(-1, engine.HapCombo, -1, "%s, the Necromancer, keeps the power %s; the other %d go to their reserve", s.names[p], engine.Term(a.Power), len(n.Spare))
	if n.Choosing { // the setup is complete: the first player's turn begins
		n.Choosing = false
		s.startTurn(0)
	}
	return nil
}

// spareIndex parses the position of a power in the Necromancer's reserve.
func spareIndex(n *necroState, args []string, usage engine.Text) (int, error) {
	if len(args) != 1 {
		return 0, engine.Illegal("usage: %s", usage)
	}
	i, err := strconv.Atoi(args[0])
	if err != nil || i < 1 || i > len(n.Spare) {
		if len(n.Spare) == 0 {
			return 0, engine.Illegal("no power is left in your reserve")
		}
		return 0, engine.Illegal("there is no power %s in your reserve: use 1 to %d", args[0], len(n.Spare))
	}
	return i - 1, nil
}

func legalBuy(s *state, p int, out []string) []string {
	if !s.buyPhase(p) {
		return out
	}
	n, _ := s.necro(p)
	if s.Players[p].Coins < n.price(s) {
		return out
	}
	if n.Reserve > 0 {
		out = append(out, "buy ghost")
	}
	for i := range n.Spare {
		out = append(out, fmt.Sprintf("buy power %d", i+1))
	}
	return out
}

// notesBuy notes what the Necromancer may buy: the price, and where a Ghost comes
// from and goes, or the power bought (Notes keeps the notes of the entries Legal
// lists).
func notesBuy(s *state, p int, notes map[string]engine.Text) {
	n, ok := s.necro(p)
	if !ok {
		return
	}
	price := nCoins(n.price(s))
	notes["buy ghost"] = text("%s: a Ghost from your reserve (%d there) to your hand on the Island", price, n.Reserve)
	for i, pw := range n.Spare {
		notes[fmt.Sprintf("buy power %d", i+1)] = text("%s for %s; its effects add to your other powers", engine.Term(pw), price)
	}
}

func applyBuy(s *state, p int, args []string, _ *engine.Rand) error {
	n, ok := s.necro(p)
	switch {
	case s.Scn == nil:
		return engine.Illegal("buy is a command of Necromancer Island")
	case !ok:
		return engine.Illegal("only the Necromancer, %s, buys Ghosts and powers", s.names[s.Scn.(*necroState).P])
	}
	if err := s.needOwnTurn(p); err != nil {
		return err
	}
	if !s.buyPhase(p) {
		return engine.Illegal("Ghosts and powers are bought at the start of your turn, before your first conquest: conquer, redeploy or end your turn with done")
	}
	usage := reason("%s, or %s (a power of your reserve)", engine.Command("buy ghost"), engine.Command("buy power N"))
	if len(args) == 0 {
		return engine.Illegal("usage: %s", usage)
	}
	price := n.price(s)
	pl := &s.Players[p]
	if pl.Coins < price {
		return engine.Illegal("a Ghost or a power costs %d coins now (your powers in use plus your Ghosts on the board and the Island) and you have %d", price, pl.Coins)
	}
	switch args[0] {
	case "ghost":
		if len(args) != 1 {
			return engine.Illegal("usage: %s", usage)
		}
		if n.Reserve == 0 {
			return engine.Illegal("no Ghost is left in your reserve")
		}
		n.Reserve--
		s.army(p, slotActive).Hand++
		s.tell(-1, engine.HapCombo, -1, "%s, the Necromancer, bought a Ghost for %s: %s in hand, %d left in reserve", s.names[p], nCoins(price), nTokens(s.army(p, slotActive).Hand), n.Reserve)
	case "power":
		i, err := spareIndex(n, args[1:], syntax("buy power N", reason("a power of your reserve")))
		if err != nil {
			return err
		}
		n.Bought = append(slices.Clone(n.Bought), n.Spare[i])
		n.Spare = slices.Delete(slices.Clone(n.Spare), i, i+1)
		s.tell(-1, engine.HapCombo, -1, "%s, the Necromancer, bought the power %s for %s", s.names[p], engine.Term(n.Bought[len(n.Bought)-1]), nCoins(price))
	default:
		return engine.Illegal("usage: %s", usage)
	}
	pl.Coins -= price
	n.checkWin(s)
	return nil
}

// ---- the view ----

// NecromancerView is the Necromancer's side of the table, public.
type NecromancerView struct {
	// Player is the Necromancer.
	Player string `json:"player"`
	// Island is the id of the Island's region (the central lake).
	Island int `json:"island"`
	// OnIsland counts the Ghosts on the Island (in his hand during his turn).
	OnIsland int `json:"on_island"`
	// Reserve counts the Ghosts in reserve.
	Reserve int `json:"reserve"`
	// WellGhosts and WellSouls are the Soul Well: Ghosts on top, other tokens below.
	WellGhosts int `json:"well_ghosts"`
	WellSouls  int `json:"well_souls"`
	// Powers are the powers in use, the kept one first; Spare those in reserve.
	Powers []string `json:"powers"`
	Spare  []string `json:"spare"`
	// Price is what a Ghost or a power costs him now (the rulebook: his powers in use
	// plus his Ghosts on the board and the Island); before he has kept his first power,
	// what it will cost once he has, when he may buy.
	Price int `json:"price"`
}

func (n *necroState) view(s *state, v *View) {
	price := n.price(s)
	if s.army(int(n.P), slotActive).Power == "" && len(n.Spare) > 0 {
		price++ // he buys once he has kept a power, which then counts: what the buy commands will say
	}
	nv := &NecromancerView{Player: s.names[n.P], Island: s.b.id(int(n.Lake)), OnIsland: int(s.Regions[n.Lake].Tokens),
		Reserve: n.Reserve, WellGhosts: n.WellGhosts, WellSouls: n.WellSouls, Price: price,
		Powers: []string{}, Spare: slices.Clone(n.Spare)}
	if a := s.army(int(n.P), slotActive); a.Power != "" {
		nv.Powers = append(nv.Powers, a.Power)
	}
	nv.Powers = append(nv.Powers, n.Bought...)
	if nv.Spare == nil {
		nv.Spare = []string{}
	}
	v.Necromancer = nv
}
