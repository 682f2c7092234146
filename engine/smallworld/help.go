package smallworld

import "github.com/turnmail/turnmail/engine"

// Help is what a verb of the game does, as a mail explains the verbs of the
// abilities a reader may send ("swap N: your Shadow Mimes take the power of combo N
// …"): the verb's pattern, in command words, and its text (a key of the smallworld
// catalogue). The core verbs (pick, conquer, redeploy …) have none: every mail's
// notes and the rules explain them.
type Help struct {
	Verb    string
	Pattern engine.Command
	Text    engine.Text
}

// helps are the verbs' helps, in the order a mail lists them.
var helps = []Help{
	{"swap", "swap N", text("your %s take the power of combo N (only before conquering)", engine.Term("Shadow Mimes"))},
	{"volcano", "volcano R", text("the %s to chasm R; the %s enter next to it", engine.Term("Volcano"), engine.Term("Flames"))},
	{"ancient", "ancient R", text("the %s to your region R (conquering next to it costs 1 token less)", engine.Term("Great Ancient"))},
	{"wisp", "wisp R", text("conquer R rolling the die first: the cost less the roll")},
	{"vampire", "vampire R", text("a lone opponent's token in R goes to the box; a Vampire takes its place")},
	{"reborn", "reborn R", text("a region of your %s race in decline gets a token of your active race instead (one or two regions: %s)", engine.Term("Reborn"), engine.Command("reborn R R"))},
	{"bag", "bag <relic>", text("the %s copies that relic for this turn", engine.Term("Bag of Wonders"))},
	{"armour", "armour R", text("one %s to your region R (+1 defence)", engine.Term("Mushroom Armour"))},
	{"queen", "queen R", text("the %s to your region R (nobody may attack it); ends your conquests", engine.Term("Black Queen"))},
	{"sword", "sword R", text("conquer R with 2 tokens fewer (at least 1); the %s goes there", engine.Term("Sword of the Killer Rabbit"))},
	{"socks", "socks R", text("conquer R as if it were empty; its tokens are not lost")},
	{"doormat", "doormat R", text("conquer R even though it is not next to your regions")},
	{"orb", "orb R", text("as %s: a lone opponent's token in R is replaced by one of yours", engine.Command("vampire"))},
	{"balrog", "balrog R", text("the %s takes R (its defender loses 2 tokens); R is nobody's", engine.Term("Balrog"))},
	{"ghost", "ghost R", text("%s to region R (nobody may attack it); ends your conquests", engine.Term("Lara's Ghost"))},
	{"scepter", "scepter R", text("the %s to your region R (its coins are doubled); ends your conquests", engine.Term("Scepter of Avarice"))},
	{"ring", "ring R", text("%s to your region R (1 coin from every player next to it at the end of your turn); ends your conquests", engine.Term("Froggy's Ring"))},
	{"altar", "altar R", text("remove a token of your race in decline from R for 3 coins")},
}

// Helps returns the helps of the verbs among verbs (canonical, lower case), in the
// order a mail lists them.
func Helps(verbs []string) []Help {
	var out []Help
	for _, h := range helps {
		for _, v := range verbs {
			if v == h.Verb {
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// printedNames are the English names, as printed on the game's components, of the
// keys a view uses for terrains and pieces that are not their own name
// ("laras_ghost", "blackmountain"). The places and relics of Underground are named
// by foundPieces. The English name is also the term under which the catalogues give
// its name in other languages. Common nouns stay lower case, as the base game's
// terrains and pieces are shown.
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
}

// PrintedName returns the English name as printed of a key of the view — a terrain
// or a piece ("troll_lair" is "troll's lair", "shiny_orb" the "Shiny Orb") — or the
// key itself when it is its own name ("forest", "fortress").
func PrintedName(key string) string {
	if n, ok := printedNames[key]; ok {
		return n
	}
	for _, f := range foundPieces {
		if f.kind.name == key {
			return f.name
		}
	}
	return key
}
