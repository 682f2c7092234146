package smallworld

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestCheckOptions: the options a game opened by mail may have, checked before the
// players are known (engine.CheckOptions with this game's OptionChecker).
func TestCheckOptions(t *testing.T) {
	tests := []struct {
		name    string
		opts    map[string]json.RawMessage
		players int
		wantErr string // "" for none; else every part must be in the error
	}{
		{"no option", nil, 0, ""},
		{"a printed board", map[string]json.RawMessage{"map": json.RawMessage(`"smallworld-4p"`)}, 4, ""},
		{"five seats", nil, 5, ""},
		{"unknown option", map[string]json.RawMessage{"variant": json.RawMessage(`"underground"`)}, 0, `no option "variant"|map=smallworld-2p|smallworld-5p`},
		{"unknown board", map[string]json.RawMessage{"map": json.RawMessage(`"atlantis"`)}, 0, "map=atlantis: use map=smallworld-2p|smallworld-3p"},
		{"a bad inline map", map[string]json.RawMessage{"map": json.RawMessage(`{"regions":7}`)}, 0, "inline map"},
		{"a number for the board", map[string]json.RawMessage{"map": json.RawMessage(`3`)}, 0, "map=3: use map=smallworld-2p"},
		{"six seats", nil, 6, "smallworld is for 2 to 5 players, not 6"},
		{"one seat", nil, 1, "not 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := engine.CheckOptions(Game{}, tt.opts, tt.players)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tt.wantErr)
			}
			for _, part := range strings.Split(tt.wantErr, "|") {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q does not contain %q", err, part)
				}
			}
		})
	}
}
