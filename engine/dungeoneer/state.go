package dungeoneer

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

const (
	maxLevel  = 4
	maxLife   = 6
	handSize  = 5
	packSize  = 3
	questsWin = 3
)

// Phases of a turn (the start phase is carried out at once).
const (
	phLord    = "lord"    // Dungeon Lord: declare Encounters and Banes
	phRespond = "respond" // the targets may respond
	phBuild   = "build"   // place the drawn map card
	phHero    = "hero"    // move, explore, quest, play Favors and Treasures
	phPlace   = "place"   // place the map card drawn by exploring
	phDiscard = "discard" // discard exactly one
	phCounter = "counter" // the hero a monster attacked may challenge it
	phSpoils  = "spoils"  // the Dungeon Lord gives Peril, keeps or discards monsters
	phGuard   = "guard"   // the player to the left chooses how a quest or map monster attacks
	phLayout  = "layout"  // Map in View: the map cards are placed before the first turn
	phOver    = "over"
)

// PackMonster is a monster in a player's pack with the wounds it carries.
type PackMonster struct {
	ID     string `json:"id"`
	Wounds int    `json:"wounds"`
}

// HeroState is one seat: the hero, its scores, position and cards.
type HeroState struct {
	Name      string        `json:"name"`
	Hero      string        `json:"hero"`
	Level     int           `json:"level"`
	Life      int           `json:"life"`
	Glory     int           `json:"glory"`
	Peril     int           `json:"peril"`
	X         int           `json:"x"`
	Y         int           `json:"y"`
	Prone     bool          `json:"prone,omitempty"`
	Out       bool          `json:"out,omitempty"`
	Hand      []string      `json:"hand"`
	Favors    []string      `json:"favors"`
	Treasures []string      `json:"treasures"`
	Banes     []string      `json:"banes"`
	Pack      []PackMonster `json:"pack"`
	Quests    []string      `json:"quests"`
	Done      []string      `json:"done"`
	Carrying  string        `json:"carrying,omitempty"`
	Saved     int           `json:"saved"`
	Ward      int           `json:"ward,omitempty"`
	// Struck: the hero has made its one standard attack of this turn.
	Struck bool `json:"struck,omitempty"`
	// AbilityUsed: an activated ability was used since the hero's start phase.
	AbilityUsed bool `json:"ability_used,omitempty"`
	// Charges are the charges left on ready cards that have charges, by card.
	Charges map[string]int `json:"charges,omitempty"`
	// Threshold are the two sides of the door the hero stands on, having spent its
	// last Movement to open it: open both ways, for everybody, until the end of the
	// hero's next turn or until it moves; ThresholdDue: that next turn has begun.
	Threshold    []string `json:"threshold,omitempty"`
	ThresholdDue bool     `json:"threshold_due,omitempty"`
	// Attached are the integrations played on the hero's ready Treasures: each
	// integration card with the Treasure it modifies.
	Attached map[string]string `json:"attached,omitempty"`
	// Maps are the map cards the player holds in the Map in View placement round
	// (hidden from the others); Passed are those it passed to the player on its left
	// because its quests need them (seen by both).
	Maps   []string `json:"maps,omitempty"`
	Passed []string `json:"passed,omitempty"`
}

// Pending is an Encounter or Bane declared in the Dungeon Lord phase, in the space
// (X, Y) where its target stood: an Encounter strikes there only.
type Pending struct {
	Card   string `json:"card"`
	Target int    `json:"target"`
	// By is the seat of the player who played it.
	By        int    `json:"by"`
	X         int    `json:"x"`
	Y         int    `json:"y"`
	Form      string `json:"form,omitempty"`
	FromPack  bool   `json:"from_pack,omitempty"`
	Wounds    int    `json:"wounds,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"`
}

// Fought is an Encounter monster that has made its attack in this Dungeon Lord phase:
// it stays in the space where it was played until the phase ends, and a hero there
// may challenge it («Una carta Incontro rimane nello spazio in cui è stata giocata per
// tutta la durata della Fase del Signore del Dungeon […]; ciò significa che un Eroe può
// iniziare una Sfida contro di essa dopo che questa ha effettuato il suo attacco»).
type Fought struct {
	Card string `json:"card"`
	X    int    `json:"x"`
	Y    int    `json:"y"`
}

// Rules versions. A correction that changes what recorded commands produce gets a
// version: games record theirs in the setup ("rules") and replay under it.
const (
	// rulesOriginal is the rules of the games recorded before versions (no "rules").
	rulesOriginal = 0
	// rulesText follows the rulebook's text where the engine had made calls it
	// contradicts (issue 21): a hero with saved Movement challenges a hero or monster
	// in its space and stands up out of turn, when it likes, and is not asked right
	// after a monster's attack (no counter step); a Bane may be played between the
	// declaration of the Encounters and their resolution.
	rulesText = 1
	// currentRules is the version new games get.
	currentRules = rulesText
)

// state is the complete game state; every field is exported for JSON (Hash, clone).
type state struct {
	// Rules is the rules version of the setup (rulesOriginal …); never modified.
	Rules int `json:"rules,omitempty"`
	// InView is the option map=view (Mappa in vista): the whole map is placed before
	// the first turn, and no turn has a build phase.
	InView  bool        `json:"map_view,omitempty"`
	Seats   []HeroState `json:"seats"`
	Deck    []string    `json:"deck"`
	Discard []string    `json:"discard"`
	MapDeck []string    `json:"map_deck"`
	Grid    []Placed    `json:"grid"`
	QDeck   []string    `json:"quest_deck"`
	Global  string      `json:"global"`
	// QuestWounds are the wounds on the monsters of quest and map cards, by card.
	QuestWounds map[string]int `json:"quest_wounds"`
	// Slain are the map cards whose monster is slain (for good).
	Slain []string `json:"slain,omitempty"`
	// Items are the escort components put down on the map away from their start.
	Items []Item `json:"items,omitempty"`

	Current int    `json:"current"`
	Round   int    `json:"round"`
	Phase   string `json:"phase"`
	// The turn's bookkeeping.
	Movement   int      `json:"movement"`
	Moved      bool     `json:"moved"`
	Visited    []string `json:"visited"`
	Opened     []string `json:"opened"`
	QuestDone  bool     `json:"quest_done"`
	QuestTries int      `json:"quest_tries"`
	// LordStep is where the Dungeon Lord phase is: "" before the Encounters, "declare"
	// while they are declared, "after" once they are resolved (Banes only).
	LordStep string `json:"lord_step,omitempty"`
	// Fight is the monster that has just attacked, waiting for its target's challenge
	// (the counter step of rulesOriginal).
	Fight *Pending `json:"fight,omitempty"`
	// Fought are the Encounter monsters that attacked in this Dungeon Lord phase, in
	// the spaces where they stay until it ends (rulesText).
	Fought []Fought `json:"fought,omitempty"`
	// Held are the Encounters declared before a Bane the Dungeon Lord plays among
	// them: they wait while it resolves (rulesText).
	Held []Pending `json:"held,omitempty"`
	// PerilOwed is the Peril the Dungeon Lord still gives for the monsters' wounds.
	PerilOwed int `json:"peril_owed,omitempty"`
	// Unhurt are the unhurt monsters the Dungeon Lord keeps in hand or pack.
	Unhurt []string `json:"unhurt,omitempty"`
	// QuestAttacked lists the quest and map cards whose monster attacked this turn.
	QuestAttacked []string `json:"quest_attacked"`
	// Guard is the quest or map monster whose attack the player to the left chooses.
	Guard *Guard `json:"guard,omitempty"`
	// UsedOnce are the ready cards activated this turn that work once per turn.
	UsedOnce []string `json:"used_once,omitempty"`
	// Found are the search quests whose search succeeded this turn.
	Found []string `json:"found,omitempty"`
	// Interrupted is the phase an always Bane interrupted, resumed once it resolves.
	Interrupted string `json:"interrupted,omitempty"`
	// Discarded: the discard phase's one card is discarded; Treasures over the limit
	// are left to discard.
	Discarded  bool      `json:"discarded,omitempty"`
	Drawn      string    `json:"drawn,omitempty"`
	Pending    []Pending `json:"pending"`
	Responders []int     `json:"responders"`
	Win        []int     `json:"winners"`
	// Log is what the last command did, for the players' mail.
	Log []engine.Text `json:"log"`
}

func (s *state) clone() *state {
	c := *s
	c.Seats = slices.Clone(s.Seats)
	for i := range c.Seats {
		h := &c.Seats[i]
		h.Hand, h.Favors, h.Treasures, h.Banes = slices.Clone(h.Hand), slices.Clone(h.Favors), slices.Clone(h.Treasures), slices.Clone(h.Banes)
		h.Pack, h.Quests, h.Done = slices.Clone(h.Pack), slices.Clone(h.Quests), slices.Clone(h.Done)
		h.Charges = maps.Clone(h.Charges)
		h.Threshold, h.Attached = slices.Clone(h.Threshold), maps.Clone(h.Attached)
		h.Maps, h.Passed = slices.Clone(h.Maps), slices.Clone(h.Passed)
	}
	c.Deck, c.Discard, c.MapDeck, c.Grid, c.QDeck = slices.Clone(s.Deck), slices.Clone(s.Discard), slices.Clone(s.MapDeck), slices.Clone(s.Grid), slices.Clone(s.QDeck)
	c.QuestWounds = maps.Clone(s.QuestWounds)
	if c.QuestWounds == nil {
		c.QuestWounds = map[string]int{}
	}
	c.Visited, c.Opened, c.QuestAttacked = slices.Clone(s.Visited), slices.Clone(s.Opened), slices.Clone(s.QuestAttacked)
	c.Pending, c.Responders, c.Win = slices.Clone(s.Pending), slices.Clone(s.Responders), slices.Clone(s.Win)
	c.Unhurt, c.Fought, c.Held = slices.Clone(s.Unhurt), slices.Clone(s.Fought), slices.Clone(s.Held)
	c.Slain, c.Items, c.UsedOnce, c.Found = slices.Clone(s.Slain), slices.Clone(s.Items), slices.Clone(s.UsedOnce), slices.Clone(s.Found)
	if s.Fight != nil {
		f := *s.Fight
		c.Fight = &f
	}
	if s.Guard != nil {
		g := *s.Guard
		c.Guard = &g
	}
	c.Log = nil
	return &c
}

func (s *state) logf(key string, args ...any) { s.Log = append(s.Log, engine.Textf(key, args...)) }

// Game is the Dungeoneer engine.
type Game struct{}

var _ engine.Game = Game{}

// Name implements engine.Game.
func (Game) Name() string { return "dungeoneer" }

// PlayerRange implements engine.OptionChecker.
func (Game) PlayerRange() (min, max int) { return 2, 4 }

// optionHelp says what Dungeoneer's one option accepts, in the option=value form of a
// mail (a syntax, the same in every language).
const optionHelp = "map=explore|view"

// The values of the map option.
const (
	mapExplore = "explore" // the default: the map grows in the build phase and by exploring
	mapView    = "view"    // Mappa in vista: the whole map is laid out before the first turn
)

// CheckOptions implements engine.OptionChecker: the one option is map, explore (the
// default) or view (the rulebook's advanced rule "Mappa in vista", layout.go).
func (Game) CheckOptions(options map[string]json.RawMessage) error {
	for _, k := range slices.Sorted(maps.Keys(options)) {
		if k != "map" {
			return engine.Illegal("%s has no option %q (its options: %s)", "dungeoneer", k, optionHelp)
		}
	}
	_, err := mapInView(options)
	return err
}

// mapInView reads the map option: whether the map is in view (map=view).
func mapInView(options map[string]json.RawMessage) (bool, error) {
	raw, ok := options["map"]
	if !ok {
		return false, nil
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		v = string(raw)
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case mapExplore:
		return false, nil
	case mapView:
		return true, nil
	}
	return false, engine.Illegal("%s=%s: use %s", "map", v, optionHelp)
}

var _ engine.Sampler = Game{}

// SampleOptions implements engine.Sampler: the map in view besides the default.
func (Game) SampleOptions() []map[string]json.RawMessage {
	return []map[string]json.RawMessage{{"map": json.RawMessage(`"view"`)}}
}

// token is how commands name a player: lower case, spaces as underscores.
func token(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), " ", "_")
}

// targetOf is how Legal names seat in commands: its token when a command can carry it
// (lower-case letters, digits, '_', '-', '.'), else @n — a name with '#' (cut by
// engine.Normalize as a comment), '@' or other characters is still reachable.
func (s *state) targetOf(seat int) string {
	t := token(s.Seats[seat].Name)
	safe := t != ""
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			safe = false
		}
	}
	if !safe || engine.Normalize(t) != t {
		return fmt.Sprintf("@%d", seat+1)
	}
	return t
}

var dieFaces = []int{1, 2, 3, 4, 5, 6}

// Fixed is the archive's "setup" object as Dungeoneer reads it: the seed, and the
// rules version the game is played under (see currentRules). Other fields are
// ignored.
type Fixed struct {
	Seed  int64 `json:"seed"`
	Rules int   `json:"rules,omitempty"`
}

var _ engine.SetupStamper = Game{}

// SetupStamp implements engine.SetupStamper: new games record the current rules
// version, so that archives without it replay under the rules they were played by.
func (Game) SetupStamp() map[string]json.RawMessage {
	return map[string]json.RawMessage{"rules": json.RawMessage(fmt.Sprint(currentRules))}
}

// rulesOf reads the rules version of a setup.
func rulesOf(setup engine.Setup) (int, error) {
	var f Fixed
	if len(setup.Fixed) > 0 {
		if err := json.Unmarshal(setup.Fixed, &f); err != nil {
			return 0, fmt.Errorf("dungeoneer: setup: %w", err)
		}
	}
	if f.Rules < rulesOriginal || f.Rules > currentRules {
		return 0, fmt.Errorf("dungeoneer: setup rules %d: this engine knows rules versions %d to %d", f.Rules, rulesOriginal, currentRules)
	}
	return f.Rules, nil
}

// New implements engine.Game: initiative roll, heroes, quests, the Entrance with four
// passages, hands of five. With the map in view (map=view) there is no initiative
// roll and no passage beside the Entrance: the map cards are dealt instead, and the
// placement round begins (layout.go).
func (Game) New(setup engine.Setup, rng *engine.Rand) (engine.State, error) {
	if err := (Game{}).CheckOptions(setup.Options); err != nil {
		return nil, err
	}
	inView, _ := mapInView(setup.Options) // checked above
	rules, err := rulesOf(setup)
	if err != nil {
		return nil, err
	}
	n := len(setup.Players)
	if n < 2 || n > 4 {
		return nil, fmt.Errorf("dungeoneer is for 2 to 4 players, not %d", n)
	}
	seen := map[string]bool{}
	for _, p := range setup.Players {
		t := token(p.Name)
		if t == "" || seen[t] {
			return nil, fmt.Errorf("player name %q is empty or repeated", p.Name)
		}
		seen[t] = true
	}
	// Initiative: everybody rolls, ties among the highest roll again. With the map in
	// view the Entrance decides it, once the map cards are dealt.
	contenders := make([]int, n)
	for i := range contenders {
		contenders[i] = i
	}
	for len(contenders) > 1 && !inView {
		best, top := 0, []int(nil)
		for _, c := range contenders {
			v, err := rng.Pick("initiative", dieFaces)
			if err != nil {
				return nil, err
			}
			switch {
			case v > best:
				best, top = v, []int{c}
			case v == best:
				top = append(top, c)
			}
		}
		contenders = top
	}
	first := contenders[0]
	var ids []string
	for _, h := range cards.Heroes {
		ids = append(ids, h.ID)
	}
	heroes, err := rng.Shuffle("heroes", ids)
	if err != nil {
		return nil, err
	}
	ids = ids[:0]
	for _, q := range cards.Quests {
		ids = append(ids, q.ID)
	}
	quests, err := rng.Shuffle("quests", ids)
	if err != nil {
		return nil, err
	}
	ids = nil
	for i, m := range cards.Maps {
		if i > 0 || inView { // the Entrance is dealt only when the map is in view
			ids = append(ids, m.ID)
		}
	}
	mapOrder, err := rng.Shuffle("maps", ids)
	if err != nil {
		return nil, err
	}
	ids = nil
	for _, a := range cards.Adventures {
		ids = append(ids, a.ID)
	}
	deck, err := rng.Shuffle("deck", ids)
	if err != nil {
		return nil, err
	}
	s := &state{QuestWounds: map[string]int{}, Round: 1, InView: inView, Rules: rules}
	// Seats in turn order starting with the initiative winner.
	for i := range n {
		p := setup.Players[(first+i)%n]
		h := HeroState{Name: p.Name, Hero: heroes[i], Level: 1, Life: maxLife, Glory: 1, Peril: 1,
			Quests: slices.Clone(quests[2*i : 2*i+2]), Hand: slices.Clone(deck[handSize*i : handSize*(i+1)])}
		s.Seats = append(s.Seats, h)
	}
	s.Global = quests[2*n]
	s.QDeck = slices.Clone(quests[2*n+1:])
	s.Deck = slices.Clone(deck[handSize*n:])
	if inView {
		s.dealMap(mapOrder)
		return s, nil
	}
	s.Grid = []Placed{{ID: cards.Maps[0].ID}}
	side := 0
	for _, id := range mapOrder {
		if side == 4 || cards.mapc[id].Type != "passage" {
			s.MapDeck = append(s.MapDeck, id)
			continue
		}
		p := Placed{ID: id, X: dx[side], Y: dy[side]}
		for p.door((side+2)%4).Kind == doorWall {
			p.Rot += 90
		}
		s.Grid = append(s.Grid, p)
		side++
	}
	if side != 4 {
		return nil, fmt.Errorf("the card set has fewer than four passages")
	}
	s.startTurn(0)
	return s, nil
}

func (s *state) n() int { return len(s.Seats) }

// seat returns the seat of player (by name, case-insensitive), or -1.
func (s *state) seat(player string) int {
	for i, h := range s.Seats {
		if strings.EqualFold(h.Name, player) || token(h.Name) == token(player) {
			return i
		}
	}
	return -1
}

// ToAct implements engine.State.
func (s *state) ToAct() []string {
	if s.Phase == phOver {
		return nil
	}
	if s.Phase == phRespond || s.Phase == phCounter {
		var out []string
		for _, r := range s.Responders {
			out = append(out, s.Seats[r].Name)
		}
		return out
	}
	if s.Phase == phGuard {
		return []string{s.Seats[s.left(s.guardHero())].Name}
	}
	return []string{s.Seats[s.Current].Name}
}

// Turn implements engine.State: the round.
func (s *state) Turn() int { return s.Round }

// Finished implements engine.State.
func (s *state) Finished() bool { return s.Phase == phOver }

// Winners implements engine.State.
func (s *state) Winners() []string {
	var out []string
	for _, w := range s.Win {
		out = append(out, s.Seats[w].Name)
	}
	return out
}

// Hash implements engine.State.
func (s *state) Hash() string {
	c := *s
	c.Log = nil
	return engine.HashJSON(&c)
}

func (s *state) hero(seat int) *Hero { return cards.hero[s.Seats[seat].Hero] }

// alive lists the seats still in the game.
func (s *state) alive() []int {
	var out []int
	for i, h := range s.Seats {
		if !h.Out {
			out = append(out, i)
		}
	}
	return out
}

// cell is the grid index of the card seat stands on.
func (s *state) cell(seat int) int {
	return cellAt(s.Grid, s.Seats[seat].X, s.Seats[seat].Y)
}

func (s *state) cellCard(seat int) *MapCard { return cards.mapc[s.Grid[s.cell(seat)].ID] }

// lasting lists the lasting effects on seat's hero: permanent Favors, Treasures and
// Banes, integrations, its quests in play, the global quest and its artifacts.
func (s *state) lasting(seat int) []Effect {
	h := &s.Seats[seat]
	var out []Effect
	for _, id := range slices.Concat(h.Favors, h.Treasures, h.Banes, slices.Sorted(maps.Keys(h.Attached))) {
		out = append(out, cards.adv[id].Effects...)
	}
	for _, id := range h.Quests {
		out = append(out, cards.quest[id].While...)
	}
	if q := cards.quest[s.Global]; q != nil {
		out = append(out, q.While...)
	}
	for _, id := range h.Done {
		out = append(out, cards.quest[id].Artifact...)
	}
	return out
}

// stat is seat's score in form: the hero's level and its lasting effects.
func (s *state) stat(seat int, form string) int {
	v := s.hero(seat).Levels[s.Seats[seat].Level-1][form]
	for _, e := range s.lasting(seat) {
		switch {
		case e.Op == opBonus && e.Stat == form:
			v += e.N
		case e.Op == opMalus && e.Stat == form:
			v -= e.N
		}
	}
	return max(v, 0)
}

// passive returns the size of passive effect op on seat's hero: its hero's ability
// (when it is not an activated one) and its lasting effects (permanent cards, quests
// in play, artifacts).
func (s *state) passive(seat int, op string) int {
	v := 0
	if h := s.hero(seat); h.Ability.Op == op && !h.Activated {
		v = h.Ability.N
	}
	for _, e := range s.lasting(seat) {
		if e.Op == op {
			v += e.N
		}
	}
	return v
}

// defense is the bonus of seat to defense rolls in combat.
func (s *state) defense(seat int) int {
	return s.passive(seat, opDefense) + s.Seats[seat].Ward
}

func cellKey(x, y int) string { return fmt.Sprintf("%d,%d", x, y) }
