package smallworld

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestMapCorrections: the 5-player board's data had a border between 14 (mountains)
// and 20 (the hill with the tower) that the printed board does not have; new games
// (rules 2) play without it, games recorded under older rules keep it, and
// Necromancer Island, played on that board by six, follows the same versions.
func TestMapCorrections(t *testing.T) {
	tests := []struct {
		name    string
		game    func(t *testing.T, fixed string) *state
		fixed   string
		borders bool
	}{
		{"smallworld rules 0", func(t *testing.T, f string) *state { return newGame(t, 5, nil, f) }, `{}`, true},
		{"smallworld rules 1", func(t *testing.T, f string) *state { return newGame(t, 5, nil, f) }, `{"rules": 1}`, true},
		{"smallworld rules 2", func(t *testing.T, f string) *state { return newGame(t, 5, nil, f) }, `{"rules": 2}`, false},
		{"necromancer island rules 1", func(t *testing.T, f string) *state { return newNecro(t, 6, nil, f) }, `{"rules": 1}`, true},
		{"necromancer island rules 2", func(t *testing.T, f string) *state { return newNecro(t, 6, nil, f) }, `{"rules": 2}`, false},
		{"new game", func(t *testing.T, _ string) *state {
			fixed := map[string]json.RawMessage{}
			engine.StampSetup(Game{}, fixed)
			raw, err := json.Marshal(fixed)
			if err != nil {
				t.Fatal(err)
			}
			return newGame(t, 5, nil, string(raw))
		}, `{}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.game(t, tt.fixed)
			if s.b.name != "smallworld-5p" {
				t.Fatalf("board %s, want smallworld-5p", s.b.name)
			}
			v := s.View("").(*View)
			var adj14, adj20 []int
			for _, r := range v.Regions {
				switch r.ID {
				case 14:
					adj14 = r.Adjacent
				case 20:
					adj20 = r.Adjacent
				}
			}
			if got := slices.Contains(adj14, 20); got != tt.borders {
				t.Errorf("region 14 borders 20: %v, want %v (14 borders %v)", got, tt.borders, adj14)
			}
			if got := slices.Contains(adj20, 14); got != tt.borders {
				t.Errorf("region 20 borders 14: %v, want %v (20 borders %v)", got, tt.borders, adj20)
			}
			// Every other border is the same under every version.
			if !slices.Contains(adj14, 13) || !slices.Contains(adj20, 13) || !slices.Contains(adj14, 21) || !slices.Contains(adj20, 21) {
				t.Errorf("13 and the lake 21 must border both 14 and 20: 14 borders %v, 20 borders %v", adj14, adj20)
			}
		})
	}
}

// TestMapCorrections_refused: a correction must name a rules version the engine knows,
// one version per correction.
func TestMapCorrections_refused(t *testing.T) {
	base := `{"map": "c", "turns": 5, "regions": [{"id": 1, "terrain": "hill", "edge": true}, {"id": 2, "terrain": "forest", "edge": true}, {"id": 3, "terrain": "swamp", "edge": true}], "adjacent": [[1, 2]], "corrections": [%s]}`
	for _, c := range []string{
		`{"rules": 0, "adjacent": [[2, 3]]}`,
		`{"rules": 99, "adjacent": [[2, 3]]}`,
		`{"rules": 2, "adjacent": [[2, 3]]}, {"rules": 2, "adjacent": [[1, 3]]}`,
		`{"rules": 2, "adjacent": [[1, 2]]}`, // the border is there already
		`{"rules": 2, "adjacent": [[2, 9]]}`, // an unknown region
	} {
		if _, err := parseBoard([]byte(fmt.Sprintf(base, c))); err == nil {
			t.Errorf("correction %s accepted", c)
		}
	}
	b, err := parseBoard([]byte(fmt.Sprintf(base, `{"rules": 2, "adjacent": [[2, 3]]}`)))
	if err != nil {
		t.Fatal(err)
	}
	if b.adjSet[1][2] || !b.forRules(1).adjSet[1][2] || b.forRules(2) != b {
		t.Errorf("rules 2 board borders 2-3: %v; rules 1 board: %v", b.adjSet[1][2], b.forRules(1).adjSet[1][2])
	}
}
