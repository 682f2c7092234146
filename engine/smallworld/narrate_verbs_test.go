package smallworld

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/narratecheck"
)

// genericLines are the lines tellChanges keeps for a region change nothing else told:
// a command that needs one is not told in its own words.
var genericLines = []string{"region %d now holds %s", "region %d is now empty"}

// verbGame is the game in which a verb can be played: its race, power, place or
// relic at hand (the combo at the top of the offer; found is revealed by the first
// monster region conquered).
type verbGame struct {
	game          engine.Game
	race, power   string
	found         string
	explainsOnly  bool // the verb only explains (hole): never legal
	declineFirst  bool // the verb needs the race in decline (Reborn)
	playersNeeded int
}

// verbGames gives each verb of the family the game that plays it; the core verbs
// play in every game.
var verbGames = map[string]verbGame{
	"pick": {}, "conquer": {}, "abandon": {}, "redeploy": {}, "decline": {}, "done": {},
	"berserk": {power: "Berserk"}, "camp": {power: "Bivouacking"}, "fortress": {power: "Fortified"},
	"hero": {power: "Heroic"}, "ally": {power: "Diplomat"}, "dragon": {power: "Dragon Master"},
	"enchant": {race: "Sorcerers"}, "hole": {race: "Halflings", explainsOnly: true},
	"ancient": {game: ugTest, race: "Cultists"}, "volcano": {game: ugTest, race: "Flames"},
	"swap": {game: ugTest, race: "Shadow Mimes"}, "wisp": {game: ugTest, race: "Will-o'-Wisps"},
	"armour": {game: ugTest, power: "Shield"}, "reborn": {game: ugTest, power: "Reborn", declineFirst: true},
	"vampire": {game: ugTest, power: "Vampire"}, "queen": {game: ugTest, power: "Royal"},
	"bag":   {game: ugTest, power: "Magic", found: "Sword of the Killer Rabbit"},
	"ghost": {game: ugTest, found: "Crypt of the Tomb-raider"}, "altar": {game: ugTest, found: "Altar of Souls", declineFirst: true},
	"balrog": {game: ugTest, found: "Wickedest Pentacle"}, "scepter": {game: ugTest, found: "Scepter of Avarice"},
	"ring": {game: ugTest, found: "Froggy's Ring"}, "sword": {game: ugTest, found: "Sword of the Killer Rabbit"},
	"socks": {game: ugTest, found: "Stinky Troll's Socks"}, "doormat": {game: ugTest, found: "Flying Doormat"},
	"orb":  {game: ugTest, found: "Shiny Orb"},
	"keep": {game: Necromancer{}, playersNeeded: 3}, "buy": {game: Necromancer{}, playersNeeded: 3},
}

// TestEveryVerbNarrates plays, for every command word of the Small World family,
// games in which its race, power, place or relic is at hand, choosing the verb
// whenever Legal lists it: the verb must be played, and every command of those games
// must be told to every reader in sentences, in English and Italian, none by the
// generic line of a region change (narratecheck).
func TestEveryVerbNarrates(t *testing.T) {
	t.Parallel()
	tr, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range reg.verbs {
		verb := v.name
		vg, ok := verbGames[verb]
		if !ok {
			t.Errorf("verb %q has no game in verbGames: add one", verb)
			continue
		}
		t.Run(verb, func(t *testing.T) {
			played := 0
			for seed := int64(1); seed <= 12 && played == 0; seed++ {
				played += playVerb(t, tr, verb, vg, seed)
			}
			switch {
			case vg.explainsOnly != v.explains:
				t.Errorf("%s: explains %v, verbGames says %v", verb, v.explains, vg.explainsOnly)
			case vg.explainsOnly && played > 0:
				t.Errorf("%s only explains, but Legal listed it", verb)
			case !vg.explainsOnly && played == 0:
				t.Errorf("%s was never played in 12 games", verb)
			}
		})
	}
}

// playVerb plays one game for verb and returns how often the verb was played.
func playVerb(t *testing.T, tr *i18n.Bundle, verb string, vg verbGame, seed int64) int {
	t.Helper()
	g := vg.game
	if g == nil {
		g = Game{}
	}
	players := max(2, vg.playersNeeded)
	fixed := map[string]any{"seed": seed}
	if vg.race != "" {
		fixed["races"] = []string{vg.race}
	}
	if vg.power != "" {
		fixed["powers"] = []string{vg.power}
	}
	raw, _ := json.Marshal(fixed)
	names := []string{"alice", "bob", "carol"}[:players]
	setup := engine.Setup{Game: g.Name(), Seed: seed, Fixed: raw}
	for _, n := range names {
		setup.Players = append(setup.Players, engine.Player{Name: n})
	}
	st, _, err := engine.Start(g, setup, nil)
	if err != nil {
		t.Fatal(err)
	}
	readers := narratecheck.Readers(names)
	r := rand.New(rand.NewPCG(uint64(seed), 11))
	played := 0
	for step := 0; !st.Finished() && step < 3000; step++ {
		s := st.(*state)
		toAct := s.ToAct()
		who := toAct[r.IntN(len(toAct))]
		legal := s.Legal(who)
		notes := s.Notes(who)
		cmd := chooseFor(s, who, verb, vg, legal, notes, r)
		var next engine.State
		if vg.found != "" {
			next, _, err = engine.Step(st, seed, step+1, who, cmd, engine.Outcomes{"reveal": json.RawMessage(`["` + vg.found + `"]`)})
		}
		if vg.found == "" || err != nil {
			next, _, err = engine.Step(st, seed, step+1, who, cmd, nil)
		}
		if err != nil {
			t.Fatalf("step %d: %s %q (legal %q): %v", step, who, cmd, legal, err)
		}
		if err := narratecheck.Check(tr, "smallworld", st, next, who, cmd, readers, genericLines...); err != nil {
			t.Errorf("step %d: %v", step, err)
		}
		if strings.HasPrefix(cmd, verb+" ") || cmd == verb {
			played++
		}
		st = next
	}
	return played
}

// chooseFor chooses player who's command in a game for verb: the verb when Legal
// lists it (a pattern made concrete), the combo at the top of the offer, a decline
// when the verb needs the race in decline; else as the self-play does.
func chooseFor(s *state, who, verb string, vg verbGame, legal []string, notes map[string]engine.Text, r *rand.Rand) string {
	p := s.playerIndex(who)
	for _, c := range legal {
		if c != verb && !strings.HasPrefix(c, verb+" ") {
			continue
		}
		switch {
		case c == redeployPattern:
			return randomRedeploy(s, p, r)
		case c == campPattern:
			return randomCamps(s, p, r)
		case engine.IsPattern(c):
			if pairs := pairsOf(c, notes[c]); len(pairs) > 0 {
				return pairs[r.IntN(len(pairs))]
			}
			continue
		}
		if r.IntN(3) > 0 {
			return c
		}
	}
	if slices.Contains(legal, "pick 1") {
		return "pick 1"
	}
	if vg.declineFirst && slices.Contains(legal, "decline") && s.TurnNo >= 2 {
		return "decline"
	}
	return chooseCommand(s, who, legal, notes, r)
}

// TestNarrate_redeployment: a redeployment, the tokens placed for a player who ends
// the turn with tokens in hand, and the start of the next turn are told region by
// region, with the tokens taken back into hand.
func TestNarrate_redeployment(t *testing.T) {
	const stacks = `{"races":["Elves","Ratmen","Humans"],"powers":["Hill","Flying","Commando"]}`
	s := apply(t, newGame(t, 2, nil, stacks), "alice: pick 1", "alice: conquer 5", "alice: conquer 4")
	tests := []struct {
		move string
		want []string
	}{
		{"alice: redeploy 5=6 4=4", []string{"alice redeployed: +1 in region 4 (4 now), +4 in region 5 (6 now)"}},
		{"alice: done", []string{"alice ended the turn", "alice's tokens in hand were placed automatically: +2 in region 4 (5 now), +3 in region 5 (5 now)", "bob begins turn 1"}},
	}
	for _, tc := range tests {
		who, cmd, _ := strings.Cut(tc.move, ": ")
		after := apply(t, s, tc.move)
		var got []string
		for _, h := range engine.Narrate(s, who, cmd, after, "bob") {
			got = append(got, english(t, h.Text))
		}
		for _, w := range tc.want {
			if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, w) }) {
				t.Errorf("%s: no %q in %q", tc.move, w, got)
			}
		}
	}
	after := apply(t, s, "alice: done", "bob: pick 1", "bob: done")
	hs := engine.Narrate(apply(t, s, "alice: done", "bob: pick 1"), "bob", "done", after, "alice")
	var got []string
	for _, h := range hs {
		got = append(got, english(t, h.Text)+" / "+render(t, i18n.Italian, h.Text))
	}
	want := fmt.Sprintf("alice begins turn 2: %d tokens back in hand from the regions (one stays in each)", 8)
	if !slices.ContainsFunc(got, func(g string) bool {
		return strings.Contains(g, want) && strings.Contains(g, "alice inizia il turno 2: riprende in mano 8 segnalini")
	}) {
		t.Errorf("no %q in %q", want, got)
	}
}
