package smallworld

import (
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/archivetest"
)

// run replays testdata/scenarios/NAME.json and returns the state after every event
// (index 0 is the setup).
func run(t *testing.T, name string) []*state {
	t.Helper()
	a := archivetest.Read(t, filepath.Join("testdata", "scenarios", name+".json"))
	all, err := engine.ReplayAll(registry, a, -1)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := make([]*state, len(all))
	for i, s := range all {
		out[i] = s.(*state)
	}
	return out
}

// view is the complete view of s.
func view(s *state) *View { return s.View("").(*View) }

func regionView(t *testing.T, s *state, id int) RegionView {
	t.Helper()
	for _, r := range view(s).Regions {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no region %d", id)
	return RegionView{}
}

// held asserts region id's owner ("" for empty), race and tokens.
func held(t *testing.T, s *state, id int, owner, race string, tokens int) {
	t.Helper()
	r := regionView(t, s, id)
	got := ""
	if r.Owner != nil {
		got = *r.Owner
	}
	if got != owner || r.Race != race || r.Tokens != tokens {
		t.Errorf("region %d: owner %q race %q tokens %d; want %q %q %d", id, got, r.Race, r.Tokens, owner, race, tokens)
	}
}

func playerView(t *testing.T, s *state, name string) PlayerView {
	t.Helper()
	for _, p := range view(s).Players {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no player %s", name)
	return PlayerView{}
}

func coins(t *testing.T, s *state, name string, want int) {
	t.Helper()
	if p := playerView(t, s, name); p.Score == nil || *p.Score != want {
		t.Errorf("%s has %v coins, want %d", name, deref(p.Score), want)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func hand(t *testing.T, s *state, name string, want int) {
	t.Helper()
	if p := playerView(t, s, name); p.Hand != want {
		t.Errorf("%s has %d tokens in hand, want %d", name, p.Hand, want)
	}
}

func toAct(t *testing.T, s *state, want ...string) {
	t.Helper()
	if got := s.ToAct(); !slices.Equal(got, want) {
		t.Errorf("to act %q, want %q", got, want)
	}
}

// rejects asserts that cmd is refused with a RuleError mentioning each of contains.
func rejects(t *testing.T, s *state, player, cmd string, contains ...string) {
	t.Helper()
	_, err := s.Apply(player, engine.Normalize(cmd), engine.NewRand(1, 999, nil))
	var re *engine.RuleError
	if !errors.As(err, &re) || !errors.Is(err, engine.ErrIllegal) {
		t.Errorf("%s %q: got %v, want a rule error", player, cmd, err)
		return
	}
	for _, c := range contains {
		if !strings.Contains(err.Error(), c) {
			t.Errorf("%s %q: error %q does not mention %q", player, cmd, err, c)
		}
	}
	if slices.Contains(s.Legal(player), engine.Normalize(cmd)) {
		t.Errorf("%s %q is refused but listed in Legal", player, cmd)
	}
}

// legalHas asserts that Legal lists each of cmds for player. A command written
// "entry # note" must also have that note (Notes), as an English mail shows it.
func legalHas(t *testing.T, s *state, player string, cmds ...string) {
	t.Helper()
	l := s.Legal(player)
	notes := s.Notes(player)
	for _, c := range cmds {
		entry, note, noted := strings.Cut(c, " # ")
		if !slices.Contains(l, entry) {
			t.Errorf("Legal(%s) = %q lacks %q", player, l, entry)
			continue
		}
		if got := english(t, notes[entry]); noted && got != note {
			t.Errorf("the note on %q is %q, want %q", entry, got, note)
		}
	}
}

func legalLacks(t *testing.T, s *state, player string, cmds ...string) {
	t.Helper()
	l := s.Legal(player)
	for _, c := range cmds {
		if slices.Contains(l, c) {
			t.Errorf("Legal(%s) = %q has %q", player, l, c)
		}
	}
}

func pieces(t *testing.T, s *state, id int, want Pieces) {
	t.Helper()
	if got := regionView(t, s, id).Pieces; !maps.Equal(got, want) {
		t.Errorf("region %d pieces %+v, want %+v", id, got, want)
	}
}

// TestScenarios replays every archive of testdata/scenarios and asserts on the
// states it goes through. Comments give the rulebook paragraph each case covers.
func TestScenarios(t *testing.T) {
	for name, check := range scenarios {
		t.Run(name, func(t *testing.T) { check(t, run(t, name)) })
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "scenarios", "*.json"))
	for _, f := range files {
		if _, ok := scenarios[strings.TrimSuffix(filepath.Base(f), ".json")]; !ok {
			t.Errorf("%s has no assertions", f)
		}
	}
}
