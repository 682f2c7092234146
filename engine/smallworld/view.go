package smallworld

import (
	"slices"
	"strconv"

	"github.com/turnmail/turnmail/engine"
)

// View is what one viewer sees of a game; it marshals to the archive's state JSON and
// is the value the mail templates render.
type View struct {
	// Game is the engine's name ("smallworld").
	Game string `json:"game"`
	// Map is the board's name.
	Map string `json:"map"`
	// Turn is the game-turn marker (1 during the first round).
	Turn int `json:"turn"`
	// Turns is the number of game turns on this board.
	Turns int `json:"turns"`
	// Current is the player who must act now (the first defender when several must
	// redeploy), or nil once the game is over.
	Current *string `json:"current"`
	// ToAct lists everyone who must act now.
	ToAct []string `json:"to_act"`
	// Finished reports the end of the game.
	Finished bool `json:"finished"`
	// Winners lists the winners of a finished game.
	Winners []string `json:"winners"`
	// Legal lists the commands Current may give (patterns for combinatorial ones).
	Legal []string `json:"legal"`
	// Players are in turn order.
	Players []PlayerView `json:"players"`
	// Offer is the column of combos for sale, position 1 (free) first; the last one
	// is the top of the stacks.
	Offer []OfferView `json:"offer"`
	// Regions are in board order.
	Regions []RegionView `json:"regions"`
	// RacesLeft and PowersLeft count the banners and badges left in the stacks below
	// the offer; UsedPowers the discarded badges waiting to be reshuffled.
	RacesLeft  int `json:"races_left"`
	PowersLeft int `json:"powers_left"`
	UsedPowers int `json:"used_powers"`
	// Pool counts Small World Underground's face-down places and relics still to be
	// found under the monsters (nil in games without places and relics).
	Pool *int `json:"pool,omitempty"`
	// Found lists the places and relics face up on the map, in the box's order.
	Found []FoundView `json:"found,omitempty"`
	// Necromancer is the Necromancer's side of a game of Necromancer Island (nil in
	// the other games).
	Necromancer *NecromancerView `json:"necromancer,omitempty"`
}

// PlayerView is one seat.
type PlayerView struct {
	// Name is the player's name.
	Name string `json:"name"`
	// Score is the player's coins; nil when hidden (coins are kept face down: only
	// their owner, the complete view, and everyone after the game see them).
	Score *int `json:"score"`
	// Scored is what the player earned at the end of their last turn (hidden like Score).
	Scored *int `json:"scored,omitempty"`
	// Active is the active race and power, nil when the player must pick one.
	Active *RaceView `json:"active"`
	// Declined lists the races in decline (two with Spirit).
	Declined []RaceView `json:"declined"`
	// Hand is the number of active-race tokens in hand.
	Hand int `json:"hand"`
	// Tokens counts the player's race tokens on the map (the tie-break).
	Tokens int `json:"tokens"`
	// Regions counts the regions the player holds.
	Regions int `json:"regions"`
	// Ally is the player at peace with this Diplomat until its next turn.
	Ally string `json:"ally,omitempty"`
}

// RaceView is a race banner with its power badge.
type RaceView struct {
	Race  string `json:"race"`
	Power string `json:"power,omitempty"`
	// Hand counts tokens in hand (declined Ghouls and defenders may hold some).
	Hand int `json:"hand"`
	// Aside counts Amazon attack-only tokens set aside until the next turn.
	Aside int `json:"aside,omitempty"`
	// Marks are the race's and power's counters and open choices, by a key the
	// mail templates know: "hammers" (Iron Dwarves' silver hammers joining the hand
	// next turn), "hammers_in_play" (of the tokens in hand or on the map, those that
	// are hammers), "may_swap" (Shadow Mimes may still swap their power: the number
	// of combos to choose from), "may_move_volcano" (Flames), "armours_to_place"
	// (Shield). Keys with 0 are left out.
	Marks map[string]int `json:"marks,omitempty"`
}

// FoundView is a place or relic of Small World Underground face up on the map.
type FoundView struct {
	// Name is its printed English name ("Shiny Orb").
	Name string `json:"name"`
	// Kind is "place" or "relic".
	Kind string `json:"kind"`
	// Region is the id of the region it is in.
	Region int `json:"region"`
	// Holder is the player holding that region, nil when nobody does (it is empty,
	// or the Balrog's).
	Holder *string `json:"holder"`
	// Race is the holder's race there; Declined reports it in decline (a place
	// works for a race in decline only when its text says so).
	Race     string `json:"race,omitempty"`
	Declined bool   `json:"declined,omitempty"`
	// Power is the power Stonehedge gives (drawn when it was found).
	Power string `json:"power,omitempty"`
}

// OfferView is one combo of the offer column.
type OfferView struct {
	// Position is 1 for the free combo; picking position N costs N-1 coins.
	Position int    `json:"position"`
	Race     string `json:"race"`
	Power    string `json:"power"`
	// Coins lie on the combo and go to whoever picks it.
	Coins int `json:"coins"`
	// Tokens is how many race tokens the combo brings.
	Tokens int `json:"tokens"`
}

// RegionView is one region of the board.
type RegionView struct {
	ID      int      `json:"id"`
	Terrain string   `json:"terrain"`
	Symbols []string `json:"symbols,omitempty"`
	// Border reports an entry region for a first conquest.
	Border bool `json:"border"`
	// Owner is a player name, "lost-tribe", "monsters", or nil for an empty region.
	Owner *string `json:"owner"`
	// Race is the occupying race ("" when empty or lost tribe).
	Race string `json:"race,omitempty"`
	// Tokens counts the tokens in the region.
	Tokens int `json:"tokens"`
	// Declined reports a race in decline.
	Declined bool `json:"declined,omitempty"`
	// Pieces are the other pieces in the region.
	Pieces Pieces `json:"pieces"`
	// Adjacent lists the ids of the regions that share a border with this one.
	Adjacent []int `json:"adjacent"`
}

// Pieces are the non-race pieces of a region: the number of each piece kind present
// by its name ("mountain", "fortress", "troll_lair", "encampments", "hero", "dragon",
// "hole" …). It marshals as an object in the registered kinds' order, a kind that is
// at most one per region as true, and kinds not present left out.
type Pieces map[string]int

// MarshalJSON implements json.Marshaler.
func (ps Pieces) MarshalJSON() ([]byte, error) {
	buf := []byte{'{'}
	for _, k := range reg.pieces {
		n, ok := ps[k.name]
		if !ok || n == 0 {
			continue
		}
		if len(buf) > 1 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendQuote(buf, k.name)
		buf = append(buf, ':')
		if k.flag {
			buf = strconv.AppendBool(buf, n > 0)
		} else {
			buf = strconv.AppendInt(buf, int64(n), 10)
		}
	}
	return append(buf, '}'), nil
}

// View implements engine.State. viewer "" is the complete state; engine.Observer and
// other players do not see coins other than their own until the game ends.
func (s *state) View(viewer string) any {
	v := &View{
		Game: s.cat.game, Map: s.b.name, Turn: s.TurnNo, Turns: s.b.turns,
		ToAct: s.ToAct(), Finished: s.Over, Winners: s.Winners(),
		RacesLeft: len(s.Races), PowersLeft: len(s.Powers), UsedPowers: len(s.Discard),
	}
	if v.ToAct == nil {
		v.ToAct = []string{}
	}
	if v.Winners == nil {
		v.Winners = []string{}
	}
	if len(v.ToAct) > 0 {
		cur := v.ToAct[0]
		v.Current = &cur
		v.Legal = s.Legal(cur)
	}
	if v.Legal == nil {
		v.Legal = []string{}
	}
	me := -1
	if viewer != "" && viewer != engine.Observer {
		me = s.playerIndex(viewer)
	}
	for p := range s.Players {
		pl := &s.Players[p]
		pv := PlayerView{Name: s.names[p], Declined: []RaceView{}, Tokens: s.mapTokens(p)}
		if viewer == "" || p == me || s.Over {
			coins, scored := pl.Coins, pl.Scored
			pv.Score, pv.Scored = &coins, &scored
		}
		for slot := range nSlots {
			a := &pl.Armies[slot]
			if !a.exists() {
				continue
			}
			rv := RaceView{Race: a.Race, Power: a.Power, Hand: a.Hand, Aside: a.Aside, Marks: s.marks(p, slot)}
			pv.Regions += s.count(p, slot)
			if slot == slotActive {
				pv.Active = &rv
				pv.Hand = a.Hand
			} else {
				pv.Declined = append(pv.Declined, rv)
			}
		}
		if pl.Ally >= 0 {
			pv.Ally = s.names[pl.Ally]
		}
		v.Players = append(v.Players, pv)
	}
	for i, c := range s.Offer {
		v.Offer = append(v.Offer, OfferView{Position: i + 1, Race: c.Race, Power: c.Power, Coins: c.Coins, Tokens: s.comboTokens(c.Race, c.Power)})
	}
	if v.Offer == nil {
		v.Offer = []OfferView{}
	}
	lost, monsters := "lost-tribe", "monsters"
	for r, g := range s.Regions {
		rd := s.b.regions[r]
		rv := RegionView{ID: rd.ID, Terrain: rd.Terrain, Symbols: rd.Symbols, Border: s.b.entry[r], Tokens: int(g.Tokens)}
		rv.Adjacent = make([]int, len(s.b.adj[r]))
		for i, j := range s.b.adj[r] {
			rv.Adjacent[i] = s.b.regions[j].ID
		}
		switch {
		case g.Owner == ownerLostTribe:
			rv.Owner = &lost
		case g.Owner == ownerMonster:
			rv.Owner = &monsters
		case g.Owner >= 0:
			name := s.names[g.Owner]
			rv.Owner = &name
			rv.Race = s.Players[g.Owner].Armies[g.Slot].Race
			rv.Declined = g.Slot != slotActive
		}
		rv.Pieces = Pieces{}
		for _, k := range reg.pieces {
			if n := s.pieces(r, k); n > 0 && !k.hidden {
				rv.Pieces[k.name] = n
			}
		}
		v.Regions = append(v.Regions, rv)
	}
	if s.hasFound() {
		pool := len(s.Pool)
		v.Pool = &pool
		v.Found = s.foundView()
	}
	if s.Scn != nil {
		s.Scn.view(s, v)
	}
	return v
}

// marks collects what the abilities acting for army (p, slot) show (ability.view),
// or nil when nothing.
func (s *state) marks(p, slot int) map[string]int {
	var m map[string]int
	for ab := range s.acting(p, slot) {
		if ab.view == nil {
			continue
		}
		if m == nil {
			m = map[string]int{}
		}
		ab.view(s, p, slot, m)
	}
	for k, n := range m {
		if n == 0 {
			delete(m, k)
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// hasFound reports whether the game has Small World Underground's places and relics.
func (s *state) hasFound() bool {
	for _, f := range foundPieces {
		if slices.Contains(s.cat.granting, f.kind) {
			return true
		}
	}
	return false
}

// foundView lists the places and relics face up on the map, in the box's order.
func (s *state) foundView() []FoundView {
	var out []FoundView
	for _, f := range foundPieces {
		for r, g := range s.Regions {
			if s.pieces(r, f.kind) == 0 {
				continue
			}
			fv := FoundView{Name: f.name, Kind: kindPlace, Region: s.b.id(r)}
			if f.relic {
				fv.Kind = kindRelic
			}
			if g.Owner >= 0 {
				name := s.names[g.Owner]
				fv.Holder, fv.Race, fv.Declined = &name, s.Players[g.Owner].Armies[g.Slot].Race, g.Slot != slotActive
			}
			if f.name == "Stonehedge" {
				fv.Power = stonehedgeName(s, r)
			}
			out = append(out, fv)
		}
	}
	return out
}
