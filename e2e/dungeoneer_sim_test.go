package e2e

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/dungeoneer"
	"github.com/turnmail/turnmail/templates"
)

// TestDungeonBot_finishes plays seeded two-player Dungeoneer games with the mail
// bots' strategy, each bot reading only the state mail the service would send it
// (rendered by the templates, without the mail round trips), and fails when a game
// does not end within maxDungeonCommands commands: the bound that keeps
// TestBotsByMail/dungeoneer within the normal test time (random commands took 100
// to 1100).
func TestDungeonBot_finishes(t *testing.T) {
	const maxDungeonCommands = 400
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	// played counts the bots' commands by phase and verb ("lord play", "guard attack").
	played := map[string]int{}
	for seed := int64(1); seed <= 12; seed++ {
		st, _, err := engine.Start(dungeoneer.Game{}, engine.Setup{Game: "dungeoneer", Players: []engine.Player{{Name: "ann"}, {Name: "ben"}}, Seed: seed}, nil)
		if err != nil {
			t.Fatal(err)
		}
		bots := map[string]*bot{}
		for _, n := range []string{"ann", "ben"} {
			bots[n] = &bot{name: n, rng: rand.New(rand.NewPCG(uint64(seed), 1)), filled: map[string]int{}}
		}
		n := 0
		for ; !st.Finished() && n < maxDungeonCommands; n++ {
			who := st.ToAct()[0]
			var view map[string]any
			b, err := json.Marshal(st.View(who))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &view); err != nil {
				t.Fatal(err)
			}
			// The commands of any moment are listed apart, as the service does.
			anyTime := engine.AnyTime(st, who)
			legal := slices.DeleteFunc(st.Legal(who), func(c string) bool { return slices.Contains(anyTime, c) })
			text, _, err := set.Render("state", templates.State{Game: templates.Game{ID: "du-x", Kind: "dungeoneer"}, Player: who,
				ToAct: st.ToAct(), YourTurn: true, View: view, Legal: legal, AnyTime: anyTime, ReplyTo: "turnmail+du-x@example.org"})
			if err != nil {
				t.Fatal(err)
			}
			cmd, err := bots[who].choose(text, text)
			if err != nil {
				t.Fatal(err)
			}
			played[view["phase"].(string)+" "+strings.Fields(cmd)[0]]++
			if st, _, err = engine.Step(st, seed, n+1, who, cmd, nil); err != nil {
				t.Fatalf("seed %d: %s sent %q: %v\n%s", seed, who, cmd, err, text)
			}
		}
		if !st.Finished() {
			t.Errorf("seed %d: not over after %d commands (round %d)", seed, n, st.Turn())
		}
		t.Logf("seed %d: %d commands, %d rounds", seed, n, st.Turn())
	}
	t.Logf("commands by phase and verb: %v", played)
	// The Dungeon Lord plays by mail: Encounters and Banes, the spoils, the monsters of
	// quest and map cards; the heroes answer.
	for _, want := range []string{"lord play", "spoils peril", "guard attack", "respond play", "counter challenge"} {
		if played[want] == 0 {
			t.Errorf("no %q in 12 games: %v", want, played)
		}
	}
}
