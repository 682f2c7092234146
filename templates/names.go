package templates

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
)

// printedNames maps the keys a map game's view uses for terrains and pieces
// ("laras_ghost", "blackmountain") to their English names as printed on the game's
// components, which the mails show. A key missing here is its own English name
// ("forest", "fortress"). The English name is also the term under which
// i18n/catalog/it/terms.json gives the Italian name: the one place of each name in
// each language. Common nouns stay lower case, as the base game's terrains and pieces
// are shown.
var printedNames = map[string]string{
	// Small World pieces.
	"troll_lair":  "troll's lair",
	"encampments": "encampment",
	"hole":        "hole-in-the-ground",
	// Small World Underground terrains.
	"mudpool":       "mud pool",
	"mushroom":      "mushroom forest",
	"crystal":       "crystal grove",
	"blackmountain": "black mountain",
	// Small World Underground pieces.
	"great_ancient":   "Great Ancient",
	"black_queen":     "Black Queen",
	"laras_ghost":     "Lara's Ghost",
	"balrog":          "Balrog",
	"mushroom_armour": "mushroom armour",
	"bag_of_wonders":  "Bag of Wonders",
	// Small World Underground places.
	"altar_of_souls":           "Altar of Souls",
	"crypt_of_the_tomb_raider": "Crypt of the Tomb-raider",
	"diamond_fields":           "Diamond Fields",
	"great_brass_pipe":         "Great Brass Pipe",
	"fountain_of_youth":        "Fountain of Youth",
	"keep_on_the_motherland":   "Keep on the Motherland",
	"mine_of_the_lost_dwarf":   "Mine of the Lost Dwarf",
	"stonehedge":               "Stonehedge",
	"wickedest_pentacle":       "Wickedest Pentacle",
	// Small World Underground relics.
	"flying_doormat":             "Flying Doormat",
	"froggys_ring":               "Froggy's Ring",
	"stinky_trolls_socks":        "Stinky Troll's Socks",
	"scepter_of_avarice":         "Scepter of Avarice",
	"shiny_orb":                  "Shiny Orb",
	"sword_of_the_killer_rabbit": "Sword of the Killer Rabbit",
}

// symbolTerm is the term of a region symbol's name: its key and " symbol" ("mine
// symbol"), since a symbol and a terrain may share a key and an English name but not
// an Italian one (the base game's mine symbol is a "miniera", Underground's mine
// terrain a "giacimento").
func symbolTerm(key string) string { return key + " symbol" }

// DisplayName returns the printed name of a view key (a terrain or a piece) in lang:
// the English name as printed, or its name in lang from the terms catalogue.
func DisplayName(tr *i18n.Bundle, lang, key string) string {
	return tr.Term(i18n.Lang(lang), printed(printedNames, key))
}

// SymbolNames returns the printed names of a JSON-decoded list of region symbols in
// lang ("mine", "lost-tribe" in English).
func SymbolNames(tr *i18n.Bundle, lang string, v any) []string {
	keys := Strs(v)
	for i, k := range keys {
		if n := tr.Term(i18n.Lang(lang), symbolTerm(k)); n != symbolTerm(k) {
			keys[i] = n
		}
	}
	return keys
}

// Owner names a region's holder in lang: a player by their name, and the view's
// "lost-tribe" and "monsters" by the terms Lost Tribe and Monsters (kept as they are
// in English, where the mails have always shown them so).
func Owner(tr *i18n.Bundle, lang string, v any) string {
	o := Str(v)
	if lang == string(i18n.English) || lang == "" {
		return o
	}
	switch o {
	case "lost-tribe":
		return tr.Term(i18n.Lang(lang), "Lost Tribe")
	case "monsters":
		return tr.Term(i18n.Lang(lang), "Monsters")
	}
	return o
}

// Combo names a race and power combo in lang ("Flying Ratmen"), or the race alone
// when power is empty: the engine's text for a combo (the smallworld catalogue's
// "%[1]s %[2]s"), so that mails and accounts name it alike.
func Combo(tr *i18n.Bundle, lang string, race, power any) string {
	r, p := Str(race), Str(power)
	if p == "" || p == "-" {
		return tr.Term(i18n.Lang(lang), r)
	}
	return tr.Sprintf(i18n.Lang(lang), "%[1]s %[2]s", engine.Term(p), engine.Term(r))
}

// TerrainWidth returns the width of the terrain column of a region table: the
// longest printed terrain name of the JSON-decoded regions in lang, and at least
// least.
func TerrainWidth(tr *i18n.Bundle, lang string, regions any, least int) int {
	w := least
	list, _ := regions.([]any)
	for _, r := range list {
		if m, ok := r.(map[string]any); ok {
			w = max(w, utf8.RuneCountInString(DisplayName(tr, lang, Str(m["terrain"]))))
		}
	}
	return w
}

// Pieces renders a region's pieces in lang, given as a list of view keys or as an
// object of key → count/flag, by their printed names (DisplayName), as "fortress,
// encampment×2".
func Pieces(tr *i18n.Bundle, lang string, v any) string {
	name := func(k string) string { return DisplayName(tr, lang, k) }
	var parts []string
	switch x := v.(type) {
	case []any:
		for _, p := range x {
			parts = append(parts, name(Str(p)))
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			switch n := x[k].(type) {
			case bool:
				if n {
					parts = append(parts, name(k))
				}
			case float64:
				if n == 1 {
					parts = append(parts, name(k))
				} else if n > 1 {
					parts = append(parts, fmt.Sprintf("%s×%d", name(k), int(n)))
				}
			case nil:
			default:
				parts = append(parts, name(k)+" "+Str(n))
			}
		}
	case nil:
	default:
		parts = append(parts, Str(x))
	}
	return strings.Join(parts, ", ")
}

// UndergroundBoard reports whether a Small World view's regions (a JSON-decoded list)
// are of an Underground board: some region is a river or a chasm. The Underground
// game may be played on a surface board, whose mails do not explain them.
func UndergroundBoard(regions any) bool {
	list, _ := regions.([]any)
	for _, r := range list {
		if m, ok := r.(map[string]any); ok && (m["terrain"] == "river" || m["terrain"] == "chasm") {
			return true
		}
	}
	return false
}

// Num returns a JSON-decoded number as an int (0 for anything else), for the texts
// whose plural form it selects.
func Num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

// Terms returns the names in lang of a JSON-decoded list of game terms (powers,
// races).
func Terms(tr *i18n.Bundle, lang string, v any) []string {
	out := Strs(v)
	for i, t := range out {
		out[i] = tr.Term(i18n.Lang(lang), t)
	}
	return out
}

// mapKeyPieceKeys are the Underground pieces the map key lists, the volcano first.
var mapKeyPieceKeys = []string{"volcano", "great_ancient", "balrog", "black_queen", "laras_ghost", "mushroom_armour"}

// MapKeyPieces lists the printed names in lang of the pieces the Underground map key
// explains; the volcano only when the board has chasms for it (volcano).
func MapKeyPieces(tr *i18n.Bundle, lang string, volcano bool) string {
	keys := mapKeyPieceKeys
	if !volcano {
		keys = keys[1:]
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = DisplayName(tr, lang, k)
	}
	return strings.Join(names, ", ")
}
