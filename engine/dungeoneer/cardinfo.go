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
	// Category is a Treasure's category (a hero has one ready of each).
	Category string
	// At is a quest's map card (an escort's start); To is where an escort delivers.
	At, To string
	// Monster is the monster of a monster card, a kill quest or a map card, else nil.
	Monster *MonsterInfo
	// Glory and Peril are what a map card gives a hero who enters it; Doors are its
	// doors north, east, south and west before any rotation, as the view writes them
	// ("open", "wall", "locked 3", "trapped 4"); nil for other cards.
	Glory, Peril int
	Doors        []string
}

// MonsterInfo is what a player weighs a monster by: its life and its score in each
// form of attack.
type MonsterInfo struct {
	// Name is a kill quest's monster (empty on a monster card: the card's name).
	Name Names
	Life int
	// Stats are melee, magic and speed, in this order.
	Stats []StatInfo
}

// StatInfo is a monster's score in one form: Std when it can start a standard attack
// in that form, else it only counter-attacks (defends) with it.
type StatInfo struct {
	Form string
	V    int
	Std  bool
}

// monsterInfo describes m; nil for nil.
func monsterInfo(m *Monster) *MonsterInfo {
	if m == nil {
		return nil
	}
	out := &MonsterInfo{Name: m.Name, Life: m.Life}
	for _, f := range forms {
		st := m.stat(f)
		out.Stats = append(out.Stats, StatInfo{Form: f, V: st.V, Std: st.Std})
	}
	return out
}

// Card returns the card called id (any card of the set); ok is false for an unknown id.
func Card(id string) (info CardInfo, ok bool) {
	if a := cards.adv[id]; a != nil {
		info := CardInfo{ID: id, Kind: a.Kind, Name: a.Name, Text: a.Text, Cost: a.Cost, Use: a.Use, Permanent: a.Permanent}
		if a.Kind == kTreasure {
			info.Category = a.Category
		}
		if a.Kind == kMonster {
			info.Monster = monsterInfo(&a.Monster)
		}
		return info, true
	}
	if q := cards.quest[id]; q != nil {
		return CardInfo{ID: id, Kind: q.Kind, Name: q.Name, Text: q.Text, At: q.At, To: q.To, Monster: monsterInfo(q.Monster)}, true
	}
	if m := cards.mapc[id]; m != nil {
		info := CardInfo{ID: id, Kind: m.Type, Name: m.Name, Text: m.Text, Monster: monsterInfo(m.Monster), Glory: m.Glory, Peril: m.Peril}
		for _, d := range m.Doors {
			info.Doors = append(info.Doors, doorText(d))
		}
		return info, true
	}
	if h := cards.hero[id]; h != nil {
		return CardInfo{ID: id, Kind: "hero", Name: h.Name, Text: h.AbilityText}, true
	}
	return CardInfo{}, false
}
