package empire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// TestCheckOptions: the options a game opened by mail may have, in the form the lobby
// encodes them (numbers and booleans as such, everything else a string), checked
// before the players are known.
func TestCheckOptions(t *testing.T) {
	tests := []struct {
		name    string
		opts    string
		players int
		wantErr string // "" for none; else every |-separated part must be in the error
	}{
		{"no option", `{}`, 0, ""},
		{"booleans and a layout", `{"long":true,"leaders":true,"layout":"ring"}`, 3, ""},
		{"encounters as words", `{"encounters":"dragon,bandits"}`, 0, ""},
		{"faces as words", `{"faces":"1a,2b,3a,4b"}`, 4, ""},
		{"unknown option", `{"map":"x"}`, 0, `empire has no option "map"|layout|encounters`},
		{"not a boolean", `{"long":"yes"}`, 0, "long=yes: use long=true|false"},
		{"unknown layout", `{"layout":"star"}`, 0, "layout=star: use layout=t|ring"},
		{"unknown encounter", `{"encounters":"dragon,kraken"}`, 0, "encounters=dragon,kraken: use encounters=true|dragon,portals,bandits"},
		{"unknown face", `{"faces":"1a,9z"}`, 0, `faces=1a,9z: unknown face "9z" (faces: 1a, 1b`},
		{"faces that cannot be laid out", `{"faces":"1a,1b"}`, 0, "both faces of board 1"},
		{"an archive-only option", `{"disputed":"3"}`, 0, "disputed=3: use disputed={…}"},
		{"five seats", `{}`, 5, "empire is for 2 to 4 players, not 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tt.opts), &opts); err != nil {
				t.Fatal(err)
			}
			err := engine.CheckOptions(Game{}, opts, tt.players)
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

// TestOptions_wordsEqualLists: "1a,2b" in a mail sets up the same game as the list
// ["1a","2b"] in an archive.
func TestOptions_wordsEqualLists(t *testing.T) {
	start := func(opts string) string {
		t.Helper()
		var o map[string]json.RawMessage
		if err := json.Unmarshal([]byte(opts), &o); err != nil {
			t.Fatal(err)
		}
		s, _, err := engine.Start(Game{}, engine.Setup{Game: "empire", Options: o, Seed: 7,
			Players: []engine.Player{{Name: "ann"}, {Name: "ben"}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s.Hash()
	}
	words := start(`{"faces":"1a, 2b,3a","encounters":"dragon,portals"}`)
	lists := start(`{"faces":["1a","2b","3a"],"encounters":["dragon","portals"]}`)
	if words != lists {
		t.Fatalf("state hash %s from words, %s from lists", words, lists)
	}
}
