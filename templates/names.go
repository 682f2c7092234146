package templates

// displayNames maps the keys a game's view uses for terrains, region symbols and
// pieces ("laras_ghost", "blackmountain") to the names printed on the game's
// components, which the mails show. The one place these names live: templates call
// them through the "name" function and Pieces. Common nouns stay lower case, as the
// base game's terrains and pieces are shown ("forest", "fortress").
var displayNames = map[string]string{
	// Small World pieces.
	"troll_lair": "troll's lair",
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

// DisplayName returns the printed name of a view key (a terrain, symbol or piece),
// or the key itself when it has none.
func DisplayName(key string) string { return printed(displayNames, key) }

// DisplayNames returns the printed names of a JSON-decoded list of view keys.
func DisplayNames(v any) []string {
	keys := Strs(v)
	for i, k := range keys {
		keys[i] = DisplayName(k)
	}
	return keys
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
