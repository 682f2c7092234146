package dungeoneer

// CardInfo is what a mail shows of a card: its names and text in both languages.
type CardInfo struct {
	ID string
	// Kind is hero, entrance, passage, room, kill, fetch, visit, escort, monster,
	// trap, bane, favor or treasure.
	Kind string
	Name Names
	Text Names
	// Cost is an Adventure card's cost (Peril of the target or own Glory).
	Cost int
	// Use is a Favor's use: hero, response or always.
	Use string
	// Permanent marks Banes, Favors and Treasures that stay in play.
	Permanent bool
	// At is a quest's map card (an escort's start); To is where an escort delivers.
	At, To string
}

// Card returns the card called id (any card of the set); ok is false for an unknown id.
func Card(id string) (info CardInfo, ok bool) {
	if a := cards.adv[id]; a != nil {
		return CardInfo{ID: id, Kind: a.Kind, Name: a.Name, Text: a.Text, Cost: a.Cost, Use: a.Use, Permanent: a.Permanent}, true
	}
	if q := cards.quest[id]; q != nil {
		return CardInfo{ID: id, Kind: q.Kind, Name: q.Name, Text: q.Text, At: q.At, To: q.To}, true
	}
	if m := cards.mapc[id]; m != nil {
		return CardInfo{ID: id, Kind: m.Type, Name: m.Name}, true
	}
	if h := cards.hero[id]; h != nil {
		return CardInfo{ID: id, Kind: "hero", Name: h.Name, Text: h.AbilityText}, true
	}
	return CardInfo{}, false
}
