package dungeoneer

import (
	"slices"
	"strconv"
	"strings"

	"github.com/turnmail/turnmail/engine"
)

// The words the engine gives the mails besides its errors and accounts: the names of
// phases, kinds of card, uses, categories and the marks of the drawn map. Each is an
// engine.Text in English, translated by the game's catalogue (i18n/catalog/it/
// dungeoneer.json), so that the engine's errors and the templates use one word for
// one thing.

// text is an English text of the engine, translated by the game's catalogue.
func text(format string, args ...any) engine.Text { return engine.Textf(format, args...) }

// PhaseText names a phase of the view ("hero" → "hero phase"); "over" says that the
// game is over. An unknown phase is named as it is.
func PhaseText(phase string) engine.Text {
	switch phase {
	case phLord:
		return text("lord phase")
	case phRespond:
		return text("respond phase")
	case phCounter:
		return text("counter phase")
	case phSpoils:
		return text("spoils phase")
	case phGuard:
		return text("guard phase")
	case phBuild:
		return text("build phase")
	case phHero:
		return text("hero phase")
	case phPlace:
		return text("place phase")
	case phLayout:
		return text("Map in View phase")
	case phDiscard:
		return text("discard phase")
	case phOver:
		return text("the game is over")
	}
	return engine.Text{Key: phase}
}

// KindText names a kind of card (CardInfo.Kind) in the rulebook's words. An unknown
// kind is named as it is.
func KindText(kind string) engine.Text {
	switch kind {
	case "hero":
		return text("hero")
	case "entrance":
		return text("entrance")
	case "passage":
		return text("passage")
	case "room":
		return text("room")
	case "kill":
		return text("kill")
	case "fetch":
		return text("fetch")
	case "visit":
		return text("visit")
	case "escort":
		return text("escort")
	case "chance":
		return text("chance")
	case kMonster:
		return text("monster")
	case kTrap:
		return text("trap")
	case kBane:
		return text("bane")
	case kFavor:
		return text("favor")
	case kTreasure:
		return text("treasure")
	}
	return engine.Text{Key: kind}
}

// UseText says when a Favor or Bane is played (CardInfo.Use): in the hero phase, as a
// response, or always (at any moment).
func UseText(use string) engine.Text {
	switch use {
	case useHero:
		return text("hero phase")
	case useResponse:
		return text("response")
	case useAlways:
		return text("always")
	}
	return engine.Text{Key: use}
}

// CategoryText names the category of a Treasure (CardInfo.Category), which an
// integration modifies and of which a hero has at most one ready.
func CategoryText(category string) engine.Text {
	switch category {
	case "weapon":
		return text("weapon")
	case "shield":
		return text("shield")
	case "boots":
		return text("boots")
	case "wand":
		return text("wand")
	case "potion":
		return text("potion")
	case "pack":
		return text("backpack") // not "pack": that is the Dungeon Lord's monsters

	case "coins":
		return text("coins")
	}
	return engine.Text{Key: category}
}

// FormText names a form of attack: melee, magic or speed (as the accounts do).
func FormText(form string) engine.Text { return formWord(form) }

// formArg is a form of attack a player wrote, as an argument of an error: a form by
// its name, any other word as it was written (a command word of the reader's
// language, never a text of the catalogues that happens to share its spelling).
func formArg(form string) any {
	if slices.Contains(forms, form) {
		return formWord(form)
	}
	return engine.Command(form)
}

// orList joins texts or words as "a, b or c" in the reader's words; one item is
// itself, none is "".
func orList(items []any) any {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	head := items[0]
	for _, it := range items[1 : len(items)-1] {
		head = text("%s, %s", head, it)
	}
	return text("%s or %s", head, items[len(items)-1])
}

// formList is orList of forms of attack.
func formList(forms []string) any {
	items := make([]any, len(forms))
	for i, f := range forms {
		items[i] = formWord(f)
	}
	return orList(items)
}

// CellTexts are the words in the middle of a map cell, in order: the tower of the
// Entrance or the card's obstacle ("pit 3", "risk +1"), then "monster" where a map
// monster lives. A card the set does not know shows the view's obstacle as it is.
func CellTexts(c MapCell) []engine.Text {
	var out []engine.Text
	switch m := cards.mapc[c.ID]; {
	case c.Type == "entrance":
		out = append(out, text("tower"))
	case m != nil && m.Obstacle != nil:
		out = append(out, obstacleWords(m.Obstacle))
	case c.Obstacle != "":
		out = append(out, engine.Text{Key: c.Obstacle})
	}
	if c.Monster {
		out = append(out, text("monster"))
	}
	return out
}

// obstacleWords is the text of an obstacle: its kind and its value, pair or terrain.
func obstacleWords(o *Obstacle) engine.Text {
	switch o.Kind {
	case "pit":
		return text("pit %d", o.V)
	case "spikes":
		return text("spikes %d", o.V)
	case "risk":
		return text("risk +%d", o.Mod)
	case "sewer":
		return text("sewer %s", o.Pair)
	case "terrain":
		return text("terrain %s", terrainWord(o.Terrain))
	case "portal":
		return text("portal")
	}
	return engine.Text{Key: obstacleText(o)}
}

// terrainWord names a terrain of the set.
func terrainWord(t string) engine.Text {
	if t == "cave" {
		return text("cave")
	}
	return engine.Text{Key: t}
}

// DoorText names a door of the view as a map card's description lists it: open,
// wall, or its mark (DoorMark: L3, T4).
func DoorText(door string) engine.Text {
	switch door {
	case doorOpen:
		return text("open")
	case doorWall:
		return text("wall")
	}
	if m, ok := DoorMark(door); ok {
		return m
	}
	return engine.Text{Key: door}
}

// DoorMark is the two-character mark of a locked or trapped door of the view
// ("locked 3" → L3, "trapped 4" → T4) in the reader's words; ok is false for an open
// door and a wall, which have no mark.
func DoorMark(door string) (mark engine.Text, ok bool) {
	kind, v, _ := strings.Cut(door, " ")
	n, err := strconv.Atoi(v)
	if err != nil {
		return engine.Text{}, false
	}
	switch kind {
	case doorLocked:
		return text("L%d", n), true
	case doorTrapped:
		return text("T%d", n), true
	}
	return engine.Text{}, false
}
