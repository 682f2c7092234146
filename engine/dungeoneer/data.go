package dungeoneer

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
)

//go:embed data/cards.json
var cardsJSON []byte

// Names is a card's name or text in English and Italian.
type Names struct {
	En string `json:"en"`
	It string `json:"it"`
}

// Effect is one entry of the effect vocabulary (docs/dungeoneer.md lists it): Op names
// what happens, N how much, Stat which score when the op needs one.
type Effect struct {
	Op   string `json:"op"`
	N    int    `json:"n"`
	Stat string `json:"stat,omitempty"`
}

// Effect ops the engine implements.
const (
	opWound     = "wound"      // the hero takes N wounds
	opHeal      = "heal"       // the hero heals N, up to 6 life
	opGlory     = "glory"      // the hero gains N Glory
	opPeril     = "peril"      // the hero gains N Peril
	opLoseGlory = "lose_glory" // the hero loses N Glory (not below 0)
	opMove      = "move"       // N more Movement this turn
	opProne     = "prone"      // the hero is knocked down
	opDiscard   = "discard"    // N random cards of the hand are discarded
	opTeleport  = "teleport"   // the hero goes back to the Entrance
	opMalus     = "malus"      // permanent bane: Stat -N
	opBonus     = "bonus"      // permanent favor or treasure: Stat +N
	opDefense   = "defense"    // +N to defense rolls in combat
	opCancel    = "cancel"     // response: cancel one Encounter or Bane on you
	opWard      = "ward"       // response: +N to your rolls this Dungeon Lord phase
	opLevel     = "level"      // quest reward: N levels up
	opDropItem  = "drop_item"  // the hero puts down the component it carries, in its space
	// Passive effects: hero abilities, and lasting effects of quests and ready cards.
	opRegen      = "regen"       // heal N at the start of the turn when below 4 life
	opTrapBonus  = "trap_bonus"  // +N to every peril test
	opKillGlory  = "kill_glory"  // +N Glory for each wound dealt to a monster
	opGloryStart = "glory_start" // +N Glory at the start of the turn
)

var cardOps = []string{opWound, opHeal, opGlory, opPeril, opLoseGlory, opMove, opProne, opDiscard,
	opTeleport, opMalus, opBonus, opDefense, opCancel, opWard, opLevel, opDropItem}
var instantOps = []string{opHeal, opGlory, opMove}

// lastingOps are the effects that work as long as their card is in play: a permanent
// Favor, Treasure or Bane, a quest's while effects, an artifact. A lasting move is
// N more Movement each turn.
var lastingOps = []string{opBonus, opMalus, opDefense, opRegen, opTrapBonus, opKillGlory, opGloryStart, opMove}
var abilityOps = []string{opRegen, opTrapBonus, opKillGlory, opGloryStart, opDefense, opMove}

// activationOps are the effects a ready card's activation may have.
var activationOps = []string{opHeal, opGlory, opWard, opTeleport}

// Stats and attack forms.
const (
	melee = "melee"
	magic = "magic"
	speed = "speed"
)

var forms = []string{melee, magic, speed}

// testStats are the scores a peril test may be based on: "Le Insidie possono basarsi
// su qualsiasi punteggio: Mischia, Magia, Velocità, persino Vita o il Livello attuale".
var testStats = []string{melee, magic, speed, "life", "level"}

// Stat is one attack form of a monster: its value and whether it is a standard attack
// (else only a counter-attack).
type Stat struct {
	V   int  `json:"v"`
	Std bool `json:"std"`
}

// Hero is a hero card.
type Hero struct {
	ID            string           `json:"id"`
	Name          Names            `json:"name"`
	Levels        []map[string]int `json:"levels"`
	Standard      []string         `json:"standard"`
	Life          int              `json:"life"`
	FavorLimit    int              `json:"favor_limit"`
	TreasureLimit int              `json:"treasure_limit"`
	Ability       Effect           `json:"ability"`
	// Activated abilities are used by the ability command, at any time, once between
	// two start phases of the hero, for AbilityCost Glory; the others always work.
	Activated   bool  `json:"activated,omitempty"`
	AbilityCost int   `json:"ability_cost,omitempty"`
	AbilityText Names `json:"ability_text"`
}

// Door is one side of a map card.
type Door struct {
	// Kind is open, locked, trapped or wall.
	Kind string `json:"kind"`
	// V is the peril value of a locked or trapped door.
	V int `json:"v,omitempty"`
}

// Door kinds.
const (
	doorOpen    = "open"
	doorLocked  = "locked"
	doorTrapped = "trapped"
	doorWall    = "wall"
)

// Obstacle is what stands in the middle of a map card.
type Obstacle struct {
	// Kind is pit, spikes, risk, sewer, terrain or portal.
	Kind    string `json:"kind"`
	Stat    string `json:"stat,omitempty"`
	V       int    `json:"v,omitempty"`
	Mod     int    `json:"mod,omitempty"`
	Pair    string `json:"pair,omitempty"`
	Terrain string `json:"terrain,omitempty"`
}

// MapCard is a map card; Doors are north, east, south, west before rotation.
type MapCard struct {
	ID       string    `json:"id"`
	Type     string    `json:"type"`
	Name     Names     `json:"name"`
	Doors    []Door    `json:"doors"`
	Glory    int       `json:"glory"`
	Peril    int       `json:"peril"`
	Tower    bool      `json:"tower,omitempty"`
	Obstacle *Obstacle `json:"obstacle,omitempty"`
	OnEnter  []Effect  `json:"on_enter,omitempty"`
	// Monster lives on the card: it attacks a hero who enters the space in its turn
	// (the player to the left plays it), once a turn; Reward is what the hero who
	// slays it gains instead of Glory for its wounds. Slain, it is gone for good.
	Monster *Monster `json:"monster,omitempty"`
	Reward  []Effect `json:"reward,omitempty"`
	// Text is the card's text (a map card with a monster or an effect on entering has one).
	Text Names `json:"text,omitempty"`
}

// Monster is a monster, on an Encounter card or a kill quest.
type Monster struct {
	Name  Names               `json:"name"`
	Life  int                 `json:"life"`
	Melee Stat                `json:"melee"`
	Magic Stat                `json:"magic"`
	Speed Stat                `json:"speed"`
	Hit   map[string][]Effect `json:"hit,omitempty"`
}

func (m Monster) stat(form string) Stat {
	switch form {
	case melee:
		return m.Melee
	case magic:
		return m.Magic
	}
	return m.Speed
}

// Test is a peril: a die plus Stat must reach V.
type Test struct {
	Stat string `json:"stat"`
	V    int    `json:"v"`
}

// Chance is what a chance quest ("Caso") asks: a die reaching V; each roll costs 1
// Movement; each Boost Glory paid before a roll adds 1 to that roll (no boost when 0).
type Chance struct {
	V     int `json:"v"`
	Boost int `json:"boost,omitempty"`
}

// Quest is a quest card. Its kind is its criterion of completion in the rulebook's
// words: kill (Elimina), fetch (Insidia, a peril test), visit (Sacrificio, a price
// paid), escort (Scorta) or chance (Caso).
type Quest struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // kill, fetch, visit, escort or chance
	Name Names  `json:"name"`
	Text Names  `json:"text"`
	// At is the map card where the quest is done (escort: where the component is taken).
	At string `json:"at"`
	// To is where an escort delivers.
	To      string   `json:"to,omitempty"`
	Monster *Monster `json:"monster,omitempty"`
	Test    *Test    `json:"test,omitempty"`
	Chance  *Chance  `json:"chance,omitempty"`
	// Search ("Ricerca") is a peril test to pass before the criterion, once in each
	// turn the quest is attempted.
	Search *Test    `json:"search,omitempty"`
	Fail   []Effect `json:"fail,omitempty"`
	Cost   []Effect `json:"cost,omitempty"`
	Reward []Effect `json:"reward"`
	// While are effects on the holder's hero while the quest is in play (on every
	// hero for the global quest): bonus, malus or defense.
	While []Effect `json:"while,omitempty"`
	// Artifact are the permanent effects the completed quest gives its hero.
	Artifact []Effect `json:"artifact,omitempty"`
}

// Activation is the effect of a ready Favor or Treasure that its hero activates
// ("attivare l'effetto di una carta pronta") with the use command, at any moment, in
// or out of turn, by paying its cost: Glory, or Movement (out of the hero's turn, its
// saved Movement).
type Activation struct {
	Glory int `json:"glory,omitempty"`
	Move  int `json:"move,omitempty"`
	// Once: once per turn (any player's turn), renewed in every start phase.
	Once bool `json:"once,omitempty"`
	// Charges, when not 0, is how many times the card can be used; spent, it is
	// discarded.
	Charges int      `json:"charges,omitempty"`
	Effects []Effect `json:"effects"`
}

// Adventure is an Adventure card.
type Adventure struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // monster, trap, bane, favor, treasure
	Name Names  `json:"name"`
	Text Names  `json:"text"`
	// Cost is paid in the target's Peril (monster, trap, bane) or own Glory.
	Cost int `json:"cost"`
	// Use (favors) is hero, response or always; a Bane's is always or none.
	Use       string   `json:"use,omitempty"`
	Permanent bool     `json:"permanent,omitempty"`
	Upkeep    int      `json:"upkeep,omitempty"`
	Category  string   `json:"category,omitempty"`
	Effects   []Effect `json:"effects,omitempty"`
	Test      *Test    `json:"test,omitempty"`
	Success   []Effect `json:"success,omitempty"`
	Fail      []Effect `json:"fail,omitempty"`
	// All marks a Bane that strikes no specific hero: every hero but the Dungeon
	// Lord's; any opponent's Peril pays for it.
	All bool `json:"all,omitempty"`
	// Activate is the activated effect of a permanent Favor or Treasure once ready.
	Activate *Activation `json:"activate,omitempty"`
	// Carry is the number of Treasures more a permanent Treasure carrying item
	// ("Oggetto per il Trasporto dei Tesori") lets its hero have ready; it counts 1
	// against the limit itself.
	Carry int `json:"carry,omitempty"`
	// Attach marks an integration ("Integrazione"): a Favor or Treasure played on one
	// of its hero's ready Treasures of this category, whose Effects last while that
	// Treasure is ready; it counts against no limit and is discarded with it.
	Attach string `json:"attach,omitempty"`
	Monster
}

// Adventure kinds.
const (
	kMonster  = "monster"
	kTrap     = "trap"
	kBane     = "bane"
	kFavor    = "favor"
	kTreasure = "treasure"
)

// Favor uses.
const (
	useHero     = "hero"
	useResponse = "response"
	useAlways   = "always"
)

// CardSet is the whole card set of data/cards.json.
type CardSet struct {
	Provenance string      `json:"provenance"`
	Heroes     []Hero      `json:"heroes"`
	Maps       []MapCard   `json:"maps"`
	Quests     []Quest     `json:"quests"`
	Adventures []Adventure `json:"adventures"`

	hero  map[string]*Hero
	mapc  map[string]*MapCard
	quest map[string]*Quest
	adv   map[string]*Adventure
}

// cards is the embedded card set, loaded once and never modified.
var cards = mustLoad(cardsJSON)

func mustLoad(b []byte) *CardSet {
	cs, err := loadCards(b)
	if err != nil {
		panic("dungeoneer: embedded data/cards.json: " + err.Error())
	}
	return cs
}

// loadCards parses and validates a card set.
func loadCards(b []byte) (*CardSet, error) {
	var cs CardSet
	if err := json.Unmarshal(b, &cs); err != nil {
		return nil, fmt.Errorf("parse cards: %w", err)
	}
	if err := cs.validate(); err != nil {
		return nil, err
	}
	return &cs, nil
}

func checkEffects(where string, effs []Effect, ops []string) error {
	for _, e := range effs {
		if !slices.Contains(ops, e.Op) {
			return fmt.Errorf("%s: unknown effect %q", where, e.Op)
		}
		if e.N < 1 || e.N > 3 {
			return fmt.Errorf("%s: effect %s: n %d out of 1..3", where, e.Op, e.N)
		}
		if (e.Op == opBonus || e.Op == opMalus) && !slices.Contains(forms, e.Stat) {
			return fmt.Errorf("%s: effect %s needs a stat (melee, magic, speed)", where, e.Op)
		}
	}
	return nil
}

func checkNames(where string, n Names) error {
	if n.En == "" || n.It == "" {
		return fmt.Errorf("%s: a name or text lacks English or Italian", where)
	}
	return nil
}

func checkTest(where string, t *Test) error {
	if t == nil {
		return fmt.Errorf("%s: no test", where)
	}
	if !slices.Contains(testStats, t.Stat) || t.V < 2 || t.V > 12 {
		return fmt.Errorf("%s: bad test %s %d", where, t.Stat, t.V)
	}
	return nil
}

func checkMonster(where string, m *Monster) error {
	if m == nil {
		return fmt.Errorf("%s: no monster", where)
	}
	if m.Life < 1 || m.Life > 4 {
		return fmt.Errorf("%s: life %d out of 1..4", where, m.Life)
	}
	std := false
	for _, f := range forms {
		s := m.stat(f)
		if s.V < 0 || s.V > 6 {
			return fmt.Errorf("%s: %s %d out of 0..6", where, f, s.V)
		}
		std = std || s.Std
	}
	if !std {
		return fmt.Errorf("%s: no standard attack", where)
	}
	for f, effs := range m.Hit {
		if !slices.Contains(forms, f) {
			return fmt.Errorf("%s: hit effect for unknown form %q", where, f)
		}
		if err := checkEffects(where, effs, cardOps); err != nil {
			return err
		}
	}
	return checkNames(where, m.Name)
}

// validate checks the composition of the box and every card; it also builds the
// indexes by id.
func (cs *CardSet) validate() error {
	if cs.Provenance != "original" {
		return fmt.Errorf("provenance %q, want original", cs.Provenance)
	}
	if len(cs.Heroes) != 6 || len(cs.Maps) != 20 || len(cs.Quests) != 14 || len(cs.Adventures) != 62 {
		return fmt.Errorf("composition %d heroes, %d maps, %d quests, %d adventures; want 6, 20, 14, 62",
			len(cs.Heroes), len(cs.Maps), len(cs.Quests), len(cs.Adventures))
	}
	seen := map[string]bool{}
	unique := func(id string) error {
		if id == "" || seen[id] {
			return fmt.Errorf("card id %q empty or repeated", id)
		}
		seen[id] = true
		return nil
	}
	cs.hero, cs.mapc, cs.quest, cs.adv = map[string]*Hero{}, map[string]*MapCard{}, map[string]*Quest{}, map[string]*Adventure{}
	for i := range cs.Heroes {
		h := &cs.Heroes[i]
		if err := unique(h.ID); err != nil {
			return err
		}
		if err := checkNames(h.ID, h.Name); err != nil {
			return err
		}
		if err := checkNames(h.ID, h.AbilityText); err != nil {
			return err
		}
		if len(h.Levels) != maxLevel || h.Life != 6 || h.FavorLimit < 1 || h.TreasureLimit < 1 || len(h.Standard) == 0 {
			return fmt.Errorf("%s: want %d levels, life 6, limits and a standard attack", h.ID, maxLevel)
		}
		for _, lv := range h.Levels {
			for _, f := range forms {
				if v, ok := lv[f]; !ok || v < 0 || v > 6 {
					return fmt.Errorf("%s: level lacks %s or it is out of 0..6", h.ID, f)
				}
			}
		}
		for _, f := range h.Standard {
			if !slices.Contains(forms, f) {
				return fmt.Errorf("%s: unknown standard attack %q", h.ID, f)
			}
		}
		ops := abilityOps
		if h.Activated {
			ops = instantOps
		}
		if err := checkEffects(h.ID, []Effect{h.Ability}, ops); err != nil {
			return err
		}
		cs.hero[h.ID] = h
	}
	entrances, passages := 0, 0
	for i := range cs.Maps {
		m := &cs.Maps[i]
		if err := unique(m.ID); err != nil {
			return err
		}
		if err := checkNames(m.ID, m.Name); err != nil {
			return err
		}
		if len(m.Doors) != 4 {
			return fmt.Errorf("%s: %d doors, want 4", m.ID, len(m.Doors))
		}
		walls := 0
		for _, d := range m.Doors {
			switch d.Kind {
			case doorOpen, doorWall:
				if d.V != 0 {
					return fmt.Errorf("%s: %s door with a value", m.ID, d.Kind)
				}
			case doorLocked, doorTrapped:
				if d.V < 2 || d.V > 7 {
					return fmt.Errorf("%s: %s door value %d out of 2..7", m.ID, d.Kind, d.V)
				}
			default:
				return fmt.Errorf("%s: unknown door %q", m.ID, d.Kind)
			}
			if d.Kind == doorWall {
				walls++
			}
		}
		if walls > 3 {
			return fmt.Errorf("%s: four walls", m.ID)
		}
		switch m.Type {
		case "entrance":
			entrances++
			if !m.Tower || walls > 0 {
				return fmt.Errorf("%s: the entrance has the tower and four doors", m.ID)
			}
		case "passage":
			passages++
			if walls > 2 {
				return fmt.Errorf("%s: a passage has at least two doors", m.ID)
			}
		case "room":
		default:
			return fmt.Errorf("%s: unknown type %q", m.ID, m.Type)
		}
		if m.Glory < 0 || m.Glory > 3 || m.Peril < 0 || m.Peril > 3 {
			return fmt.Errorf("%s: glory and peril are 0..3", m.ID)
		}
		if o := m.Obstacle; o != nil {
			switch o.Kind {
			case "pit", "spikes":
				if err := checkTest(m.ID, &Test{Stat: o.Stat, V: o.V}); err != nil {
					return err
				}
			case "risk":
				if o.Mod < 1 || o.Mod > 3 {
					return fmt.Errorf("%s: risk modifier %d out of 1..3", m.ID, o.Mod)
				}
			case "sewer":
				if o.Pair == "" {
					return fmt.Errorf("%s: sewer without a pair letter", m.ID)
				}
			case "terrain":
				if o.Terrain == "" {
					return fmt.Errorf("%s: terrain without a name", m.ID)
				}
			case "portal":
			default:
				return fmt.Errorf("%s: unknown obstacle %q", m.ID, o.Kind)
			}
		}
		if err := checkEffects(m.ID, m.OnEnter, cardOps); err != nil {
			return err
		}
		if len(m.OnEnter) > 0 {
			if err := checkNames(m.ID, m.Text); err != nil {
				return fmt.Errorf("a card with an effect on entering says it: %w", err)
			}
		}
		if m.Monster != nil {
			if err := checkMonster(m.ID, m.Monster); err != nil {
				return err
			}
			if err := checkNames(m.ID, m.Text); err != nil {
				return err
			}
			if len(m.Reward) == 0 || m.Type == "entrance" {
				return fmt.Errorf("%s: a map monster has a reward and lives off the entrance", m.ID)
			}
		} else if len(m.Reward) > 0 {
			return fmt.Errorf("%s: a reward without a monster", m.ID)
		}
		if err := checkEffects(m.ID, m.Reward, cardOps); err != nil {
			return err
		}
		cs.mapc[m.ID] = m
	}
	if entrances != 1 || passages < 4 {
		return fmt.Errorf("%d entrances and %d passages; want 1 and at least 4", entrances, passages)
	}
	if cs.Maps[0].Type != "entrance" {
		return fmt.Errorf("the first map card must be the entrance")
	}
	for _, m := range cs.Maps {
		if o := m.Obstacle; o != nil && o.Kind == "sewer" {
			n := 0
			for _, m2 := range cs.Maps {
				if o2 := m2.Obstacle; o2 != nil && o2.Kind == "sewer" && o2.Pair == o.Pair {
					n++
				}
			}
			if n != 2 {
				return fmt.Errorf("%s: sewer %s has %d ends, want 2", m.ID, o.Pair, n)
			}
		}
	}
	for i := range cs.Quests {
		q := &cs.Quests[i]
		if err := unique(q.ID); err != nil {
			return err
		}
		if err := checkNames(q.ID, q.Name); err != nil {
			return err
		}
		if err := checkNames(q.ID, q.Text); err != nil {
			return err
		}
		if cs.mapc[q.At] == nil {
			return fmt.Errorf("%s: unknown map card %q", q.ID, q.At)
		}
		var err error
		switch q.Kind {
		case "kill":
			err = checkMonster(q.ID, q.Monster)
		case "fetch":
			err = checkTest(q.ID, q.Test)
			if err == nil {
				err = checkEffects(q.ID, q.Fail, cardOps)
			}
		case "visit":
			if len(q.Cost) == 0 {
				err = fmt.Errorf("%s: a visit quest has a cost", q.ID)
			} else {
				err = checkEffects(q.ID, q.Cost, cardOps)
			}
		case "escort":
			if cs.mapc[q.To] == nil || q.To == q.At {
				err = fmt.Errorf("%s: escort needs another map card to deliver to", q.ID)
			}
		case "chance":
			if c := q.Chance; c == nil || c.V < 2 || c.V > 6 || c.Boost < 0 || c.Boost > 3 {
				err = fmt.Errorf("%s: a chance quest needs a die value 2..6 and a boost 0..3", q.ID)
			} else {
				err = checkEffects(q.ID, q.Fail, cardOps)
			}
		default:
			err = fmt.Errorf("%s: unknown quest kind %q", q.ID, q.Kind)
		}
		if err != nil {
			return err
		}
		if q.Search != nil {
			if err := checkTest(q.ID+" search", q.Search); err != nil {
				return err
			}
		}
		if err := checkEffects(q.ID, q.Reward, cardOps); err != nil {
			return err
		}
		if err := checkEffects(q.ID, append(slices.Clone(q.While), q.Artifact...), lastingOps); err != nil {
			return err
		}
		cs.quest[q.ID] = q
	}
	for i := range cs.Adventures {
		a := &cs.Adventures[i]
		if err := unique(a.ID); err != nil {
			return err
		}
		if err := checkNames(a.ID, a.Name); err != nil {
			return err
		}
		if err := checkNames(a.ID, a.Text); err != nil {
			return err
		}
		if a.Cost < 0 || a.Cost > 5 {
			return fmt.Errorf("%s: cost %d out of 0..5", a.ID, a.Cost)
		}
		var err error
		switch a.Kind {
		case kMonster:
			a.Monster.Name = a.Name
			err = checkMonster(a.ID, &a.Monster)
		case kTrap:
			err = checkTest(a.ID, a.Test)
			if err == nil {
				err = checkEffects(a.ID, append(slices.Clone(a.Success), a.Fail...), cardOps)
			}
		case kBane, kTreasure:
			err = checkEffects(a.ID, a.Effects, cardOps)
			if err == nil && a.Use != "" && (a.Kind != kBane || a.Use != useAlways) {
				err = fmt.Errorf("%s: only a Bane may have a use, always", a.ID)
			}
			if err == nil && len(a.Effects) == 0 && a.Activate == nil && a.Carry == 0 {
				err = fmt.Errorf("%s: no effect", a.ID)
			}
			if err == nil && a.Kind == kTreasure && a.Category == "" {
				err = fmt.Errorf("%s: a treasure has a category", a.ID)
			}
		case kFavor:
			if !slices.Contains([]string{useHero, useResponse, useAlways}, a.Use) {
				err = fmt.Errorf("%s: favor use %q", a.ID, a.Use)
			} else if len(a.Effects) == 0 && a.Activate == nil {
				err = fmt.Errorf("%s: no effect", a.ID)
			} else {
				err = checkEffects(a.ID, a.Effects, cardOps)
			}
			if err == nil && a.Use == useAlways && (a.Permanent || checkEffects(a.ID, a.Effects, instantOps) != nil) {
				err = fmt.Errorf("%s: an always Favor is instant, with heal, glory or move", a.ID)
			}
		default:
			err = fmt.Errorf("%s: unknown kind %q", a.ID, a.Kind)
		}
		if err == nil {
			err = checkReady(a)
		}
		if err != nil {
			return err
		}
		cs.adv[a.ID] = a
	}
	for _, a := range cs.Adventures {
		if a.Attach != "" && !slices.ContainsFunc(cs.Adventures, func(t Adventure) bool { return t.Kind == kTreasure && t.Permanent && t.Category == a.Attach }) {
			return fmt.Errorf("%s: no permanent Treasure of category %q to integrate", a.ID, a.Attach)
		}
	}
	return nil
}

// checkReady checks what a card does once ready: a permanent card's effects last
// (lastingOps); only a permanent Favor or Treasure has an activation, with a cost, a
// limit (once per turn or charges) and activation effects; only a permanent Treasure
// carries others.
func checkReady(a *Adventure) error {
	if a.Permanent {
		if err := checkEffects(a.ID, a.Effects, lastingOps); err != nil {
			return fmt.Errorf("a permanent card's effects last: %w", err)
		}
	}
	ready := a.Permanent && (a.Kind == kFavor && a.Use == useHero || a.Kind == kTreasure)
	if act := a.Activate; act != nil {
		switch {
		case !ready:
			return fmt.Errorf("%s: only a permanent Favor or Treasure has an activation", a.ID)
		case act.Glory < 0 || act.Move < 0 || act.Glory+act.Move == 0 || act.Glory > 3 || act.Move > 1:
			return fmt.Errorf("%s: an activation costs 1..3 Glory or 1 Movement", a.ID)
		case !act.Once && act.Charges == 0:
			return fmt.Errorf("%s: an activation is once per turn or has charges", a.ID)
		case act.Charges < 0 || act.Charges > 5 || len(act.Effects) == 0:
			return fmt.Errorf("%s: an activation has 0..5 charges and an effect", a.ID)
		}
		if err := checkEffects(a.ID, act.Effects, activationOps); err != nil {
			return err
		}
	}
	if a.Carry != 0 && (a.Kind != kTreasure || !a.Permanent || a.Carry < 1 || a.Carry > 3) {
		return fmt.Errorf("%s: only a permanent Treasure carries 1..3 others", a.ID)
	}
	if a.Attach != "" {
		if a.Permanent || a.Activate != nil || a.Carry != 0 || (a.Kind != kTreasure && (a.Kind != kFavor || a.Use != useHero)) {
			return fmt.Errorf("%s: an integration is a Favor or Treasure played in the hero phase, nothing else", a.ID)
		}
		if err := checkEffects(a.ID, a.Effects, lastingOps); err != nil {
			return fmt.Errorf("an integration's effects last: %w", err)
		}
	}
	return nil
}
