package dungeoneer

import (
	"slices"

	"github.com/turnmail/turnmail/engine"
)

// View is the state JSON of a game as one viewer may see it. Hands are shown only to
// their owner; the order of the decks is shown to nobody but the archive (empty viewer).
type View struct {
	Game     string   `json:"game"`
	Turn     int      `json:"turn"`
	Current  *string  `json:"current"`
	ToAct    []string `json:"to_act"`
	Finished bool     `json:"finished"`
	Winners  []string `json:"winners"`
	Legal    []string `json:"legal"`
	// Phase is layout (the map in view's placement round), lord, respond, counter,
	// spoils, guard, build, hero, place, discard or over.
	Phase string `json:"phase"`
	// Layout is the placement round of the map in view (layout phase).
	Layout *LayoutView `json:"layout,omitempty"`
	// LordStep is "" before the Encounters are declared, "declare" while they are,
	// "after" once they are resolved (Banes only).
	LordStep string `json:"lord_step,omitempty"`
	// Fight is the monster that has just attacked (counter phase, rulesOriginal).
	Fight *Pending `json:"fight,omitempty"`
	// Fought are the Encounter monsters that attacked in this Dungeon Lord phase and
	// stay in their spaces, where a hero may challenge them out of turn (rulesText).
	Fought []Fought `json:"fought,omitempty"`
	// Guard is the quest or map monster whose attack the player to the left chooses
	// (guard phase); GuardBy is that player.
	Guard   *Guard `json:"guard,omitempty"`
	GuardBy string `json:"guard_by,omitempty"`
	// UsedOnce are the ready cards used this turn that work once per turn.
	UsedOnce []string `json:"used_once,omitempty"`
	// Discarded: the one card of the discard phase is discarded; Treasures over the
	// limit are left to discard.
	Discarded bool `json:"discarded,omitempty"`
	// PerilOwed and Unhurt are the Dungeon Lord's choices left (spoils phase).
	PerilOwed int      `json:"peril_owed,omitempty"`
	Unhurt    []string `json:"unhurt,omitempty"`
	// Movement is the current hero's movement left.
	Movement int `json:"movement"`
	// Drawn is the map card to place (build and place phases).
	Drawn string `json:"drawn,omitempty"`
	// Map is the dungeon; DrawMap draws it as text.
	Map []MapCell `json:"map"`
	// Global is the global quest.
	Global string `json:"global"`
	// Wounds are the wounds on the monsters of quests (by quest) and map cards (by
	// map card), as the tokens on the cards show them.
	Wounds   map[string]int `json:"wounds,omitempty"`
	Pending  []Pending      `json:"pending,omitempty"`
	Deck     int            `json:"deck"`
	MapDeck  int            `json:"map_deck"`
	Discard  []string       `json:"discard"`
	Players  []PlayerView   `json:"players"`
	Log      []engine.Text  `json:"log,omitempty"`
	Complete *state         `json:"complete,omitempty"`
}

// PlayerView is one seat as a viewer sees it.
type PlayerView struct {
	Seat      int           `json:"seat"`
	Name      string        `json:"name"`
	Hero      string        `json:"hero"`
	HeroName  Names         `json:"hero_name"`
	Level     int           `json:"level"`
	Life      int           `json:"life"`
	Glory     int           `json:"glory"`
	Peril     int           `json:"peril"`
	X         int           `json:"x"`
	Y         int           `json:"y"`
	Prone     bool          `json:"prone,omitempty"`
	Out       bool          `json:"out,omitempty"`
	Melee     int           `json:"melee"`
	Magic     int           `json:"magic"`
	Speed     int           `json:"speed"`
	HandSize  int           `json:"hand_size"`
	Hand      []string      `json:"hand,omitempty"`
	Favors    []string      `json:"favors"`
	Treasures []string      `json:"treasures"`
	Banes     []string      `json:"banes"`
	Pack      []PackMonster `json:"pack"`
	Quests    []string      `json:"quests"`
	Done      []string      `json:"done"`
	Carrying  string        `json:"carrying,omitempty"`
	Saved     int           `json:"saved"`
	// Struck: the hero has made its standard attack of this turn.
	Struck bool `json:"struck,omitempty"`
	// AbilityUsed: its activated ability is used until its next start phase.
	AbilityUsed bool `json:"ability_used,omitempty"`
	// Charges are the charges left on its ready cards that have charges.
	Charges map[string]int `json:"charges,omitempty"`
	// TreasureRoom is how many Treasures it may have ready (its limit and what its
	// carrying items carry).
	TreasureRoom int `json:"treasure_room"`
	// Attached are its integrations, each with the Treasure it modifies.
	Attached map[string]string `json:"attached,omitempty"`
	// MapCards is how many map cards it holds in the placement round of the map in
	// view.
	MapCards int `json:"map_cards,omitempty"`
}

// LayoutView is the placement round of the map in view as one viewer sees it: who won
// the initiative, and what only the viewer knows — its map cards, those it passed to
// the player on its left and those the player on its right passed to it.
type LayoutView struct {
	// First received the Entrance: the initiative, and the first turn of the game.
	First string `json:"first"`
	// Maps are the viewer's map cards.
	Maps []string `json:"maps,omitempty"`
	// Passed went to To, the player on the viewer's left; Received came from From, the
	// player on its right: the map cards the passer's quests need.
	To       string   `json:"to,omitempty"`
	Passed   []string `json:"passed,omitempty"`
	From     string   `json:"from,omitempty"`
	Received []string `json:"received,omitempty"`
}

// View implements engine.State.
func (s *state) View(viewer string) any {
	v := View{Game: "dungeoneer", Turn: s.Round, ToAct: s.ToAct(), Finished: s.Finished(), Winners: s.Winners(),
		Phase: s.Phase, LordStep: s.LordStep, Fight: s.Fight, Fought: s.Fought, Guard: s.Guard, UsedOnce: s.UsedOnce, Discarded: s.Discarded,
		PerilOwed: s.PerilOwed, Unhurt: s.Unhurt, Movement: s.Movement, Drawn: s.Drawn, Global: s.Global, Pending: s.Pending,
		Deck: len(s.Deck), MapDeck: len(s.MapDeck), Discard: s.Discard, Log: s.Log, Map: s.mapCells()}
	if v.ToAct == nil {
		v.ToAct = []string{}
	}
	if s.Phase != phOver {
		name := s.Seats[s.Current].Name
		v.Current = &name
	}
	if s.Guard != nil {
		v.GuardBy = s.Seats[s.left(s.guardHero())].Name
	}
	for id, n := range s.QuestWounds {
		if n > 0 {
			if v.Wounds == nil {
				v.Wounds = map[string]int{}
			}
			v.Wounds[id] = n
		}
	}
	seat := s.seat(viewer)
	if s.Phase == phLayout {
		v.Layout = &LayoutView{First: s.Seats[0].Name}
		if seat >= 0 {
			right := (seat + s.n() - 1) % s.n()
			v.Layout.Maps, v.Layout.Passed, v.Layout.Received = slices.Clone(s.Seats[seat].Maps), s.Seats[seat].Passed, s.Seats[right].Passed
			if len(v.Layout.Passed) > 0 {
				v.Layout.To = s.Seats[(seat+1)%s.n()].Name
			}
			if len(v.Layout.Received) > 0 {
				v.Layout.From = s.Seats[right].Name
			}
		}
	}
	switch {
	case viewer == "":
		v.Complete = s
		if len(v.ToAct) > 0 {
			v.Legal = s.Legal(v.ToAct[0])
		}
	case seat >= 0:
		v.Legal = s.Legal(viewer)
	}
	for i, h := range s.Seats {
		pv := PlayerView{Seat: i + 1, Name: h.Name, Hero: h.Hero, HeroName: s.hero(i).Name, Level: h.Level, Life: h.Life,
			Glory: h.Glory, Peril: h.Peril, X: h.X, Y: h.Y, Prone: h.Prone, Out: h.Out,
			Melee: s.stat(i, melee), Magic: s.stat(i, magic), Speed: s.stat(i, speed), HandSize: len(h.Hand),
			Favors: h.Favors, Treasures: h.Treasures, Banes: h.Banes, Pack: h.Pack, Quests: h.Quests, Done: h.Done,
			Carrying: h.Carrying, Saved: h.Saved, Struck: h.Struck, AbilityUsed: h.AbilityUsed, Charges: h.Charges,
			TreasureRoom: s.treasureRoom(i), Attached: h.Attached, MapCards: len(h.Maps)}
		if viewer == "" || i == seat {
			pv.Hand = slices.Clone(h.Hand)
		}
		v.Players = append(v.Players, pv)
	}
	return v
}

// mapCells lists the placed map cards with their rotated doors and heroes.
func (s *state) mapCells() []MapCell {
	var out []MapCell
	comps := s.components()
	for _, p := range s.Grid {
		c := cards.mapc[p.ID]
		mc := MapCell{X: p.X, Y: p.Y, ID: p.ID, Name: c.Name, Type: c.Type, Glory: c.Glory, Peril: c.Peril,
			Obstacle: obstacleText(c.Obstacle)}
		for side := range 4 {
			mc.Doors[side] = doorText(p.door(side))
			if slices.Contains(s.Opened, doorKey(p.X, p.Y, side)) {
				mc.Doors[side] = doorOpen
			}
		}
		for i, h := range s.Seats {
			if !h.Out && h.X == p.X && h.Y == p.Y {
				mc.Heroes = append(mc.Heroes, i+1)
			}
		}
		if c.Monster != nil && !slices.Contains(s.Slain, p.ID) {
			mc.Monster, mc.Wounds = true, s.QuestWounds[p.ID]
		}
		for _, it := range comps {
			if it.X == p.X && it.Y == p.Y {
				mc.Items = append(mc.Items, it.Quest)
			}
		}
		out = append(out, mc)
	}
	return out
}
