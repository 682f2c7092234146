package dungeoneer

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

var registry = engine.Registry{"dungeoneer": Game{}}

var names = []string{"Alice", "Bob", "Carol", "Dave"}

// inView are the options of the map in view (map=view).
var inView = map[string]json.RawMessage{"map": json.RawMessage(`"view"`)}

// newArchive starts an archive of n players with seed and options (nil: none), under
// the rules version rules.
func newArchive(t testing.TB, n int, seed int64, options map[string]json.RawMessage, rules int) (*engine.Archive, engine.State) {
	t.Helper()
	a := &engine.Archive{Format: engine.ArchiveFormat, Game: "dungeoneer", Options: options,
		Setup: json.RawMessage(fmt.Sprintf(`{"seed":%d,"rules":%d}`, seed, rules))}
	for i := range n {
		a.Players = append(a.Players, engine.Player{Name: names[i]})
	}
	setup, err := a.SetupOf()
	if err != nil {
		t.Fatal(err)
	}
	st, out, err := engine.Start(Game{}, setup, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.SetupOutcomes = out
	return a, st
}

// randomCommand makes up a command, legal or not, to probe Legal/Apply agreement.
func randomCommand(r *rand.Rand, s *state) string {
	card := func() string {
		switch r.IntN(3) {
		case 0:
			return fmt.Sprintf("a%02d", r.IntN(65))
		case 1:
			return fmt.Sprintf("m%02d", r.IntN(22))
		}
		return fmt.Sprintf("q%02d", r.IntN(16))
	}
	who := func() string {
		if r.IntN(3) == 0 {
			return []string{"@1", "@2", "@3", "@4", "@0", "@05", "@"}[r.IntN(7)]
		}
		return strings.ToLower(names[r.IntN(5)%4])
	}
	form := func() string { return []string{"melee", "magic", "speed", "fire"}[r.IntN(4)] }
	switch r.IntN(20) {
	case 0:
		return fmt.Sprintf("play %s on %s %s", card(), who(), form())
	case 1:
		return fmt.Sprintf("play %s on %s", card(), who())
	case 2:
		return "play " + card()
	case 3:
		return fmt.Sprintf("build %s at %d,%d rot %d", card(), r.IntN(7)-3, r.IntN(7)-3, 90*r.IntN(5))
	case 4:
		return "move " + []string{"n", "e", "s", "w", "up"}[r.IntN(5)]
	case 5:
		return "quest " + card() + " " + form()
	case 6:
		return "quest " + card()
	case 7:
		return "discard " + card()
	case 8:
		return fmt.Sprintf("challenge %s %s", who(), form())
	case 9:
		return fmt.Sprintf("play %s %s", card(), card())
	case 10:
		return fmt.Sprintf("peril %s %d", who(), r.IntN(5)-1)
	case 11:
		return fmt.Sprintf("keep %s %s", card(), []string{"hand", "pack", "table"}[r.IntN(3)])
	case 12:
		return fmt.Sprintf("steal %s %s", who(), form())
	case 13:
		return "drop " + card()
	case 14:
		return []string{"ability", "ability now", "challenge " + form()}[r.IntN(3)]
	case 15:
		return []string{"use ", "take ", "put ", "attack "}[r.IntN(4)] + []string{card(), form(), ""}[r.IntN(3)]
	case 16:
		return fmt.Sprintf("challenge %s %s", card(), form())
	case 17:
		return fmt.Sprintf("quest %s %d", card(), r.IntN(7)-1)
	}
	return []string{"done", "pass", "explore", "stand", "sewer", "portal", "", "done now", "build", "hello"}[r.IntN(10)]
}

// canonical writes the @n seat names of cmd the way Legal does (Apply accepts both).
func canonical(s *state, cmd string) string {
	f := strings.Fields(cmd)
	for i, w := range f {
		if t := s.findTarget(w); t >= 0 && strings.HasPrefix(w, "@") {
			f[i] = s.targetOf(t)
		}
	}
	return strings.Join(f, " ")
}

// picker chooses a command among the legal ones.
type picker func(r *rand.Rand, s *state, seat int, legal []string) string

func randomPick(r *rand.Rand, _ *state, _ int, legal []string) string {
	return legal[r.IntN(len(legal))]
}

// play plays one game to its end with pick, probing Legal/Apply agreement with probes
// random commands a step, and returns the archive and final state.
func play(t testing.TB, n int, seed int64, probes int, pick picker) (*engine.Archive, *state) {
	t.Helper()
	return playWith(t, n, seed, nil, probes, pick)
}

// playWith is play with the game's options (nil: none).
func playWith(t testing.TB, n int, seed int64, options map[string]json.RawMessage, probes int, pick picker) (*engine.Archive, *state) {
	t.Helper()
	return playRules(t, n, seed, options, currentRules, probes, pick)
}

// playRules is playWith under the rules version rules. When it does not probe, the
// bots act out of turn as they choose (botOutOfTurn) before the player to act.
func playRules(t testing.TB, n int, seed int64, options map[string]json.RawMessage, rules, probes int, pick picker) (*engine.Archive, *state) {
	t.Helper()
	a, st := newArchive(t, n, seed, options, rules)
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	for step := 0; !st.Finished(); step++ {
		where := fmt.Sprintf("seed %d step %d", seed, step)
		if step > 20000 {
			t.Fatalf("%s: no end in sight", where)
		}
		s := st.(*state)
		toAct := st.ToAct()
		if len(toAct) == 0 {
			t.Fatalf("%s: nobody to act", where)
		}
		p := toAct[r.IntN(len(toAct))]
		// Now and then, when probing, a player out of turn acts instead: a command of
		// any moment (always cards, abilities, ready cards, special actions), picked at
		// random; without probes, a bot that chooses to act out of turn does.
		outOfTurn, botCmd := false, ""
		if probes > 0 && r.IntN(6) == 0 {
			if o := names[r.IntN(n)]; !slices.Contains(toAct, o) && len(expanded(st.Legal(o))) > 0 {
				p, outOfTurn = o, true
			}
		}
		for _, o := range names[:n] {
			if probes > 0 {
				break
			}
			if slices.Contains(toAct, o) {
				continue
			}
			if c := botOutOfTurn(s, s.seat(o), expanded(st.Legal(o))); c != "" {
				p, outOfTurn, botCmd = o, true, c
				break
			}
		}
		legal := expanded(st.Legal(p))
		if len(legal) == 0 {
			t.Fatalf("%s: %s must act but has no legal command (phase %s)", where, p, s.Phase)
		}
		if !slices.Equal(legal, s.concrete(p)) {
			t.Fatalf("%s: %s's Legal %q stands for %q, not the commands %q", where, p, st.Legal(p), legal, s.concrete(p))
		}
		for _, other := range names[:n] {
			// Out of turn only the special actions of any moment: always Favors, ability.
			o := s.seat(other)
			if !slices.Contains(toAct, other) && slices.ContainsFunc(expanded(st.Legal(other)), func(c string) bool { return !slices.Contains(s.anytime(o), c) }) {
				t.Fatalf("%s: %s is not to act but has legal commands %q", where, other, expanded(st.Legal(other)))
			}
		}
		seq := len(a.Events) + 1
		for range probes {
			cmd := randomCommand(r, s)
			_, err := st.Apply(p, cmd, engine.NewRand(seed, seq, nil))
			listed := slices.Contains(legal, canonical(s, engine.Normalize(cmd)))
			switch {
			case listed && err != nil:
				t.Fatalf("%s: %q is listed but Apply says %v", where, cmd, err)
			case !listed && err == nil:
				t.Fatalf("%s: %q is not listed (%q) but Apply accepts it", where, cmd, legal)
			case err != nil && !errors.Is(err, engine.ErrIllegal):
				t.Fatalf("%s: %q: %v is not a rule error", where, cmd, err)
			}
		}
		if probes > 0 {
			for _, c := range legal {
				if _, err := st.Apply(p, c, engine.NewRand(seed, seq, nil)); err != nil {
					t.Fatalf("%s: listed %q fails: %v", where, c, err)
				}
			}
		}
		var cmd string
		switch {
		case botCmd != "":
			cmd = botCmd
		case outOfTurn:
			cmd = legal[r.IntN(len(legal))]
		default:
			cmd = pick(r, s, s.seat(p), legal)
		}
		next, outcomes, err := engine.Step(st, seed, seq, p, cmd, nil)
		if err != nil {
			t.Fatalf("%s: %s %q: %v", where, p, cmd, err)
		}
		checkInvariants(t, next.(*state), where)
		a.Events = append(a.Events, engine.Event{Player: p, Command: cmd, Outcomes: outcomes, Hash: next.Hash()})
		st = next
	}
	if len(st.Winners()) == 0 {
		t.Fatalf("seed %d: finished without winners", seed)
	}
	return a, st.(*state)
}

// checkInvariants checks that no card is lost or doubled and scores stay in range.
func checkInvariants(t testing.TB, s *state, where string) {
	t.Helper()
	all := slices.Concat(s.Deck, s.Discard)
	for _, p := range s.Pending {
		all = append(all, p.Card)
	}
	all = append(all, s.Unhurt...)
	for _, p := range s.Held {
		all = append(all, p.Card)
	}
	if s.Fight != nil {
		all = append(all, s.Fight.Card)
	}
	for _, h := range s.Seats {
		all = slices.Concat(all, h.Hand, h.Favors, h.Treasures, h.Banes, slices.Collect(maps.Keys(h.Attached)))
		for x, host := range h.Attached {
			if !slices.Contains(h.Treasures, host) {
				t.Fatalf("%s: %s's %s modifies %s, which is not ready", where, h.Name, x, host)
			}
		}
		for _, m := range h.Pack {
			all = append(all, m.ID)
		}
		if h.Life < 0 || h.Life > maxLife || h.Glory < 0 || h.Peril < 0 || h.Level < 1 || h.Level > maxLevel {
			t.Fatalf("%s: %s out of range: %+v", where, h.Name, h)
		}
		if len(h.Pack) > packSize && s.Phase != phSpoils {
			t.Fatalf("%s: %s has %d monsters in the pack", where, h.Name, len(h.Pack))
		}
		if !h.Out && cellAt(s.Grid, h.X, h.Y) < 0 {
			t.Fatalf("%s: %s stands off the map", where, h.Name)
		}
	}
	slices.Sort(all)
	if len(all) != len(cards.Adventures) || len(slices.Compact(all)) != len(cards.Adventures) {
		t.Fatalf("%s: %d adventure cards in play, want %d each once", where, len(all), len(cards.Adventures))
	}
	// Every quest is in one place: the deck, the global, a hero's quests or done, or
	// lying unowned with its component on the map.
	quests := slices.Clone(s.QDeck)
	if s.Global != "" {
		quests = append(quests, s.Global)
	}
	for _, h := range s.Seats {
		quests = slices.Concat(quests, h.Quests, h.Done)
		if h.Carrying != "" && (!slices.Contains(h.Quests, h.Carrying) || s.itemOf(h.Carrying) >= 0) {
			t.Fatalf("%s: %s carries %s, not a quest of its own or lying on the map", where, h.Name, h.Carrying)
		}
	}
	for _, it := range s.Items {
		if !slices.ContainsFunc(s.Seats, func(h HeroState) bool { return slices.Contains(h.Quests, it.Quest) }) {
			quests = append(quests, it.Quest)
		}
		if cellAt(s.Grid, it.X, it.Y) < 0 {
			t.Fatalf("%s: the component of %s lies off the map", where, it.Quest)
		}
	}
	slices.Sort(quests)
	if len(quests) != len(cards.Quests) || len(slices.Compact(quests)) != len(cards.Quests) {
		t.Fatalf("%s: quests %v, want each of %d once", where, quests, len(cards.Quests))
	}
	held := 0
	for _, h := range s.Seats {
		held += len(h.Maps)
	}
	if len(s.Grid)+len(s.MapDeck)+min(len(s.Drawn), 1)+held != len(cards.Maps) {
		t.Fatalf("%s: map cards lost", where)
	}
	if held > 0 && s.Phase != phLayout || s.InView && (s.Phase == phBuild || s.Phase == phPlace) {
		t.Fatalf("%s: map cards held in the %s phase", where, s.Phase)
	}
}

// replay checks that the archive replays to the same final state.
func replay(t testing.TB, a *engine.Archive) {
	t.Helper()
	b, err := a.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := engine.ReadArchive(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	final, err := engine.Replay(registry, back, -1)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if final.Hash() != a.Events[len(a.Events)-1].Hash || !final.Finished() {
		t.Fatal("replay ends in a different state")
	}
}

// TestSelfPlay plays random legal games of 2 to 4 players, probing Legal/Apply
// agreement both ways — out of turn too: a player who is not to act now and then
// sends one of the commands listed for it (commands of any moment, special actions) —
// and replays each (TURNMAIL_SOAK=1 for many more; -short, as make race runs it,
// for a third). Its four sets of games run in parallel.
func TestSelfPlay(t *testing.T) {
	t.Parallel()
	games, probes := 9, 3
	switch {
	case os.Getenv("TURNMAIL_SOAK") == "1":
		games, probes = 300, 8
	case testing.Short():
		games = 3
	}
	t.Run("bots", func(t *testing.T) {
		t.Parallel()
		for g := range games {
			a, _ := play(t, 2+g%3, int64(100+g), probes, botPick)
			replay(t, a)
		}
	})
	t.Run("random", func(t *testing.T) {
		t.Parallel()
		for g := range games / 3 {
			a, _ := play(t, 2+g%3, int64(500+g), probes, randomPick)
			replay(t, a)
		}
	})
	// The rules of the games recorded before rulesText (the counter step) still play.
	t.Run("rulesOriginal", func(t *testing.T) {
		t.Parallel()
		for g := range games / 3 {
			a, _ := playRules(t, 2+g%3, int64(600+g), nil, rulesOriginal, probes, botPick)
			replay(t, a)
		}
	})
	// The map in view (map=view): the placement round, then turns without a build phase.
	t.Run("view", func(t *testing.T) {
		t.Parallel()
		for g := range games {
			pick := botPick
			if g%3 == 2 {
				pick = randomPick
			}
			a, _ := playWith(t, 2+g%3, int64(700+g), inView, probes, pick)
			replay(t, a)
		}
	})
}
