package empire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// randomOptions switches variants on and off; every fourth game plays the base game.
func randomOptions(r *rand.Rand, g int) map[string]json.RawMessage {
	opts := map[string]json.RawMessage{}
	if g%4 == 0 {
		return opts
	}
	on := func(key string, p int) {
		if r.IntN(100) < p {
			opts[key] = json.RawMessage("true")
		}
	}
	on("exploration", 50)
	on("swamp", 30)
	on("fortresses", 50)
	on("encounters", 50)
	on("leaders", 60)
	on("die_tiebreak", 30)
	on("long", 10)
	if r.IntN(3) == 0 {
		opts["layout"] = json.RawMessage(`"ring"`)
	}
	return opts
}

// randomCommand makes up a command, legal or not, for the probes of Legal/Apply agreement.
func randomCommand(r *rand.Rand, s *state, player string) string {
	nr := len(s.Armies)
	reg := func() int {
		if r.IntN(5) == 0 {
			return r.IntN(nr + 2)
		}
		seat := s.seat(player)
		var own []int
		for i := range s.Armies {
			if s.Armies[i][seat] > 0 {
				own = append(own, i+1)
			}
		}
		if len(own) > 0 && r.IntN(2) == 0 {
			return own[r.IntN(len(own))]
		}
		return 1 + r.IntN(nr)
	}
	names := append(append([]string{}, s.cfg.names...), neutralName, "nobody")
	name := func() string { return names[r.IntN(len(names))] }
	switch r.IntN(12) {
	case 0:
		return fmt.Sprintf("settle %d", reg())
	case 1:
		return fmt.Sprintf("neutral %d", reg())
	case 2:
		return fmt.Sprintf("bid %d", r.IntN(15))
	case 3:
		return "first " + name()
	case 4:
		return fmt.Sprintf("take %d", r.IntN(8))
	case 5:
		return fmt.Sprintf("place %d=%d", reg(), r.IntN(7))
	case 6:
		return fmt.Sprintf("place %d=%d %d=%d", reg(), 1+r.IntN(3), reg(), 1+r.IntN(3))
	case 7:
		if r.IntN(2) == 0 {
			return fmt.Sprintf("move %d>%d", reg(), reg())
		}
		return fmt.Sprintf("move %d>%d %d", reg(), reg(), r.IntN(4))
	case 8:
		return fmt.Sprintf("city %d", reg())
	case 9:
		return fmt.Sprintf("destroy %s %d", name(), reg())
	case 10:
		return []string{"skip", "pass", "skip now"}[r.IntN(3)]
	}
	return []string{"", "take", "place", "move 1", "city x", "hello world", "bid -1", "first"}[r.IntN(8)]
}

func checkInvariants(t testing.TB, s *state, where string) {
	t.Helper()
	for seat := range s.n() {
		if a := s.onBoard(seat) + s.Lost[seat]; a > maxArmies {
			t.Fatalf("%s: %s has %d armies on the board or destroyed by the sorceress", where, s.name(seat), a)
		}
		if c := s.citiesBuilt(seat); c > maxCities {
			t.Fatalf("%s: %s has %d cities", where, s.name(seat), c)
		}
		if s.Coins[seat] < 0 {
			t.Fatalf("%s: %s has %d coins", where, s.name(seat), s.Coins[seat])
		}
	}
	for r := range s.Armies {
		for _, a := range s.Armies[r] {
			if a < 0 {
				t.Fatalf("%s: negative armies in region %d", where, r+1)
			}
		}
	}
}

// playRandom plays one game with random legal commands, probing Legal/Apply agreement,
// and returns its archive.
func playRandom(t testing.TB, g int, probes int) *engine.Archive {
	t.Helper()
	seed := int64(1000 + g)
	r := rand.New(rand.NewPCG(uint64(seed), 99))
	n := 2 + g%3
	a := &engine.Archive{Format: engine.ArchiveFormat, Game: "empire", Options: randomOptions(r, g),
		Setup: json.RawMessage(fmt.Sprintf(`{"seed":%d}`, seed))}
	for i := range n {
		a.Players = append(a.Players, engine.Player{Name: []string{"Alice", "Bob", "Carol", "Dave"}[i], BirthYear: 1980 + r.IntN(3)})
	}
	setup, err := a.SetupOf()
	if err != nil {
		t.Fatal(err)
	}
	st, out, err := engine.Start(Game{}, setup, nil)
	if err != nil {
		t.Fatalf("game %d: %v", g, err)
	}
	a.SetupOutcomes = out
	for step := 0; !st.Finished(); step++ {
		where := fmt.Sprintf("game %d (%s) step %d", g, string(mustJSON(a.Options)), step)
		if step > 4000 {
			t.Fatalf("%s: no end in sight", where)
		}
		s := st.(*state)
		toAct := st.ToAct()
		if len(toAct) == 0 {
			t.Fatalf("%s: nobody to act in an unfinished game", where)
		}
		p := toAct[r.IntN(len(toAct))]
		legal := st.Legal(p)
		if len(legal) == 0 {
			t.Fatalf("%s: %s must act but has no legal command", where, p)
		}
		notes := engine.NotesOf(st, p)
		checkNotes(t, where, legal, notes)
		for _, other := range s.cfg.names {
			if len(st.Legal(other)) > 0 && !strings.EqualFold(other, p) && !containsFold(toAct, other) {
				t.Fatalf("%s: %s is not to act but has legal commands", where, other)
			}
		}
		seq := len(a.Events) + 1
		for range probes {
			cmd := randomCommand(r, s, p)
			_, err := st.Apply(p, engine.Normalize(cmd), engine.NewRand(seed, seq, nil))
			switch covered := covers(legal, notes, cmd); {
			case covered && err != nil:
				t.Fatalf("%s: %q is listed (%q) but Apply says %v", where, cmd, legal, err)
			case !covered && err == nil:
				t.Fatalf("%s: %q is not listed (%q) but Apply accepts it", where, cmd, legal)
			case err != nil && !errors.Is(err, engine.ErrIllegal):
				t.Fatalf("%s: %q: error %v is not a rule error", where, cmd, err)
			}
		}
		var concrete []string
		for _, e := range legal {
			if !engine.IsPattern(e) && instantiate(e, r) != engine.Normalize(e) {
				t.Fatalf("%s: %q is not a pattern but has placeholders", where, e)
			}
			if engine.IsPattern(e) && !generic(e) && !rangeRe.MatchString(e) && !choiceRe.MatchString(e) {
				t.Fatalf("%s: pattern %q has neither placeholders nor ranges", where, e)
			}
			if c := instantiate(e, r); c != "" {
				if c != "skip" || len(legal) <= 2 || r.IntN(8) == 0 {
					concrete = append(concrete, c)
				}
			}
		}
		if len(concrete) == 0 {
			concrete = []string{"skip"}
		}
		for range min(probes, 2) {
			c := concrete[r.IntN(len(concrete))]
			if _, err := st.Apply(p, c, engine.NewRand(seed, seq, nil)); err != nil {
				t.Fatalf("%s: listed %q fails: %v", where, c, err)
			}
		}
		cmd := concrete[r.IntN(len(concrete))]
		next, outcomes, err := engine.Step(st, seed, seq, p, cmd, nil)
		if err != nil {
			t.Fatalf("%s: %s %q (from %q): %v", where, p, cmd, legal, err)
		}
		checkInvariants(t, next.(*state), where)
		a.Events = append(a.Events, engine.Event{Player: p, Command: engine.Normalize(cmd), Outcomes: outcomes, Hash: next.Hash()})
		st = next
	}
	if len(st.Winners()) == 0 {
		t.Fatalf("game %d: finished without winners", g)
	}
	return a
}

func containsFold(list []string, x string) bool {
	for _, y := range list {
		if strings.EqualFold(x, y) {
			return true
		}
	}
	return false
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestSelfPlay plays random legal games (short; TURNMAIL_SOAK=1 for many more) and
// replays each from its recorded events.
func TestSelfPlay(t *testing.T) {
	t.Parallel()
	games, probes := 12, 4
	if os.Getenv("TURNMAIL_SOAK") == "1" {
		games, probes = 400, 8
	}
	for g := range games {
		a := playRandom(t, g, probes)
		want := a.Events[len(a.Events)-1].Hash
		// Replay through the archive format, outcomes dictated as recorded.
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
			t.Fatalf("game %d: replay: %v", g, err)
		}
		if final.Hash() != want || !final.Finished() {
			t.Fatalf("game %d: replay ends in a different state", g)
		}
	}
}
