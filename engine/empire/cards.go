package empire

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

//go:embed data/cards.json
var cardsJSON []byte

// Ability kinds, as in data/cards.json.
const (
	abFlying      = "flying"
	abExtraMove   = "extra-move"
	abExtraArmy   = "extra-army"
	abElixir      = "elixir"
	abElixirCoins = "elixir-and-coins"
	abImmune      = "immune"
	abPerWord     = "vp-per-card-word"
	abPerFlying   = "vp-per-flying"
	abSet         = "vp-for-set"
	abPer3Coins   = "vp-per-3-coins"
)

// Action kinds, as in data/cards.json; they are also the command verbs.
const (
	acPlace   = "place"
	acMove    = "move"
	acCity    = "city"
	acDestroy = "destroy"
)

type ability struct {
	Kind   string `json:"kind"`
	Word   string `json:"word,omitempty"`
	Elixir int    `json:"elixir,omitempty"`
	Coins  int    `json:"coins,omitempty"`
	Count  int    `json:"count,omitempty"`
	VP     int    `json:"vp,omitempty"`
}

type action struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

type card struct {
	// ID is derived from the name: lower case with dashes, numbered when two cards
	// share a name ("castle-1", "castle-2").
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	MinPlayers int      `json:"min_players"`
	Ability    ability  `json:"ability"`
	Actions    []action `json:"actions"`
	Combine    string   `json:"combine,omitempty"`
	Disputed   string   `json:"disputed,omitempty"`
}

// word is the card's first word (Ancient, Arcane, Cursed, Dire, Forest, Mountain,
// Night, Noble …), the adjective abilities count.
func (c card) word() string {
	w, _, _ := strings.Cut(c.Name, " ")
	return w
}

type cardSet struct {
	Costs         []int          `json:"card_costs_by_position"`
	CardsToEnd    map[string]int `json:"cards_to_end"`
	StartingCoins map[string]int `json:"starting_coins"`
	Cards         []card         `json:"cards"`
	Leaders       []struct {
		Name string `json:"name"`
		It   string `json:"it"`
	} `json:"leaders"`
}

// Leader ids.
const (
	leaderFairyQueen   = "fairy-queen"
	leaderBanditKing   = "bandit-king"
	leaderRedSorceress = "red-sorceress"
	leaderWhiteKnight  = "white-knight"
)

// leaderNames maps leader ids to their English names.
var leaderNames = map[string]string{
	leaderFairyQueen:   "Fairy Queen",
	leaderBanditKing:   "Bandit King",
	leaderRedSorceress: "Red Sorceress",
	leaderWhiteKnight:  "White Knight",
}

func slug(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), " ", "-")
}

// loadCards decodes and validates a card set.
func loadCards(data []byte) (*cardSet, error) {
	var cs cardSet
	if err := json.Unmarshal(data, &cs); err != nil {
		return nil, fmt.Errorf("cards: %w", err)
	}
	if len(cs.Costs) != 6 {
		return nil, fmt.Errorf("cards: %d row costs, want 6", len(cs.Costs))
	}
	for _, n := range []string{"2", "3", "4"} {
		if cs.CardsToEnd[n] <= 0 || cs.StartingCoins[n] <= 0 {
			return nil, fmt.Errorf("cards: no cards_to_end or starting_coins for %s players", n)
		}
	}
	names := map[string]int{}
	for _, c := range cs.Cards {
		names[c.Name]++
	}
	seen := map[string]int{}
	for i := range cs.Cards {
		c := &cs.Cards[i]
		c.ID = slug(c.Name)
		if names[c.Name] > 1 {
			seen[c.Name]++
			c.ID += "-" + strconv.Itoa(seen[c.Name])
		}
		if err := checkCard(*c); err != nil {
			return nil, fmt.Errorf("cards: %s: %w", c.Name, err)
		}
	}
	for _, l := range cs.Leaders {
		if _, ok := leaderNames[slug(l.Name)]; !ok {
			return nil, fmt.Errorf("cards: unknown leader %q", l.Name)
		}
	}
	return &cs, nil
}

func checkCard(c card) error {
	switch c.Ability.Kind {
	case abFlying, abExtraMove, abExtraArmy, abImmune, abPerFlying, abPer3Coins:
	case abElixir, abElixirCoins:
		if c.Ability.Elixir <= 0 {
			return fmt.Errorf("elixir ability without elixirs")
		}
	case abPerWord, abSet:
		if c.Ability.Word == "" {
			return fmt.Errorf("%s ability without word", c.Ability.Kind)
		}
	default:
		return fmt.Errorf("unknown ability %q", c.Ability.Kind)
	}
	if c.MinPlayers < 2 || c.MinPlayers > 4 {
		return fmt.Errorf("min_players %d", c.MinPlayers)
	}
	if len(c.Actions) < 1 || len(c.Actions) > 2 {
		return fmt.Errorf("%d actions", len(c.Actions))
	}
	if len(c.Actions) == 2 && c.Combine != "and" && c.Combine != "or" {
		return fmt.Errorf("two actions combined by %q", c.Combine)
	}
	for _, a := range c.Actions {
		switch a.Kind {
		case acPlace, acMove, acCity, acDestroy:
		default:
			return fmt.Errorf("unknown action %q", a.Kind)
		}
		if a.Count <= 0 {
			return fmt.Errorf("action %s count %d", a.Kind, a.Count)
		}
	}
	return nil
}

// describe renders a card's ability and action for the view, for example
// "Flying; place 3 and destroy 1".
func (c card) describe() (abilityText, actionText string) {
	a := c.Ability
	switch a.Kind {
	case abFlying:
		abilityText = "flying"
	case abExtraMove:
		abilityText = "+1 move"
	case abExtraArmy:
		abilityText = "+1 army"
	case abElixir:
		abilityText = fmt.Sprintf("%d elixir", a.Elixir)
	case abElixirCoins:
		abilityText = fmt.Sprintf("%d elixir, +%d coins now", a.Elixir, a.Coins)
	case abImmune:
		abilityText = "immune to attack"
	case abPerWord:
		abilityText = fmt.Sprintf("+1 VP per %s card", a.Word)
	case abPerFlying:
		abilityText = "+1 VP per flying card"
	case abSet:
		abilityText = fmt.Sprintf("+%d VP for %d %s cards", a.VP, a.Count, a.Word)
	case abPer3Coins:
		abilityText = "+1 VP per 3 coins"
	}
	parts := make([]string, len(c.Actions))
	for i, ac := range c.Actions {
		parts[i] = fmt.Sprintf("%s %d", ac.Kind, ac.Count)
	}
	actionText = strings.Join(parts, " "+c.Combine+" ")
	return abilityText, actionText
}

// texts returns the card's ability and action as player-visible texts, for the notes
// on "take" commands, the accounts and the mails' row of cards: for example "flying"
// and "place 3 and destroy 1". The word of a word ability is a term with the noun
// ("Forest card", "Noble cards"), which languages inflect together.
func (c card) texts() (abilityText, actionText engine.Text) {
	a := c.Ability
	switch a.Kind {
	case abFlying:
		abilityText = text("flying")
	case abExtraMove:
		abilityText = text("+1 move")
	case abExtraArmy:
		abilityText = text("+1 army")
	case abElixir:
		abilityText = text("%d elixir", a.Elixir)
	case abElixirCoins:
		abilityText = text("%d elixir, +%d coins now", a.Elixir, a.Coins)
	case abImmune:
		abilityText = text("immune to attack")
	case abPerWord:
		abilityText = text("+1 VP per %s", wordCard(a.Word))
	case abPerFlying:
		abilityText = text("+1 VP per flying card")
	case abSet:
		abilityText = text("+%d VP for %d %s", a.VP, a.Count, wordCards(a.Word))
	case abPer3Coins:
		abilityText = text("+1 VP per 3 coins")
	default:
		abilityText = text("no ability")
	}
	return abilityText, c.actionText(func(a action) int { return a.Count })
}

// actionText is the card's action with the amount count gives each part: the printed
// one, or what a player gets with their bonuses ("place 4 or move 5").
func (c card) actionText(count func(action) int) engine.Text {
	var out engine.Text
	for i, ac := range c.Actions {
		part := partText(ac.Kind, count(ac))
		switch {
		case i == 0:
			out = part
		case c.Combine == "or":
			out = text("%s or %s", out, part)
		default:
			out = text("%s and %s", out, part)
		}
	}
	return out
}

// wordCard is the term of one card of a word ("Ancient card"); wordCards of several
// ("Ancient cards").
func wordCard(word string) engine.Term  { return engine.Term(word + " card") }
func wordCards(word string) engine.Term { return engine.Term(word + " cards") }

// Glossary implements engine.Glossary: each card once (two castles are one entry),
// with what it gives, for example "flying; action: place 3 and destroy 1".
func (Game) Glossary() []engine.Entry {
	d, err := embedded()
	if err != nil {
		return nil
	}
	var out []engine.Entry
	seen := map[string]bool{}
	for _, c := range d.cards.Cards {
		if seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		ability, action := c.texts()
		out = append(out, engine.Entry{Name: engine.Term(c.Name), Kind: "card", Text: text("%s; action: %s", ability, action)})
	}
	return out
}
