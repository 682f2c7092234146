package templates

// dungeonGame is the game of the Dungeoneer sample.
var dungeonGame = Game{ID: "du-4m8x", Kind: "dungeoneer", Title: GameTitle("dungeoneer"), Players: []string{"ann", "ben", "cy"}}

func init() {
	// A real Dungeoneer view (3 players, self-play seed 5, ben's hero phase, seen by ann): the whole
	// map of 20 cards (two bands of columns), her hand with the card texts, the
	// heroes' quests, cards in play and packs.
	v := loadView("dungeoneer.view.json")
	samples = append(samples, struct {
		name, kind string
		data       any
	}{"state-dungeoneer", "state", State{
		Game: dungeonGame, Player: "ann", ToAct: Strs(v["to_act"]), YourTurn: Str(v["current"]) == "ann",
		Moves: []Move{{Seq: 183, Player: "ben", Command: "move e"}},
		Legal: legalOf(v), View: v, ReplyTo: "turnmail+du-4m8x.0.xxxx@example.org",
	}})
	htmlGolden["state-dungeoneer"] = true
}
