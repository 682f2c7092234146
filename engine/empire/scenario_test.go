package empire

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
)

// scenario is a file of testdata/scenarios: an archive document (its options.boards
// may be the string "mini" for testdata/boards-mini.json) plus expectations on the
// views after given events, and optionally the error the replay must stop with.
type scenario struct {
	Expect []expectation `json:"expect"`
	// Rejects are commands that must be illegal after a number of events.
	Rejects []rejection `json:"rejects"`
}

// rejection is a command that Apply must refuse with a rule error containing Contains.
type rejection struct {
	At       int    `json:"at"`
	Player   string `json:"player"`
	Command  string `json:"command"`
	Contains string `json:"contains"`
}

type expectation struct {
	// At is the number of events applied (default: all, or all but the failing one).
	At *int `json:"at"`
	// Viewer is the view's viewer: "" complete, "*observer*", or a player.
	Viewer string `json:"viewer"`
	// Path is a dotted path into the view JSON: "players.0.coins", "regions.4.armies.alice";
	// "notes.ENTRY" is the note on the Legal entry ENTRY (engine.Noter), as English
	// mails show it.
	Path string `json:"path"`
	// Equals is the expected JSON value; Absent expects the path not to exist (or null).
	Equals   json.RawMessage `json:"equals"`
	Absent   bool            `json:"absent"`
	Contains string          `json:"contains"`
}

// loadScenario reads a scenario file, returning its archive and expectations.
func loadScenario(t *testing.T, path string) (*engine.Archive, scenario) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var sc scenario
	for _, k := range []string{"expect", "rejects"} {
		if v, ok := doc[k]; ok {
			part, _ := json.Marshal(map[string]json.RawMessage{k: v})
			if err := json.Unmarshal(part, &sc); err != nil {
				t.Fatalf("%s: %s: %v", path, k, err)
			}
			delete(doc, k)
		}
	}
	delete(doc, "_note")
	if o, ok := doc["options"]; ok {
		var opts map[string]json.RawMessage
		if err := json.Unmarshal(o, &opts); err != nil {
			t.Fatal(err)
		}
		if string(opts["boards"]) == `"mini"` {
			mini, err := os.ReadFile("testdata/boards-mini.json")
			if err != nil {
				t.Fatal(err)
			}
			opts["boards"] = mini
		}
		doc["options"], _ = json.Marshal(opts)
	}
	b, _ := json.Marshal(doc)
	a, err := engine.ReadArchive(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return a, sc
}

// lookup follows a dotted path through decoded JSON.
func lookup(v any, path string) (any, bool) {
	if path == "" {
		return v, true
	}
	for _, key := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[key]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// notesOf returns the notes on the Legal entries of view (the viewer's, or for the
// complete view and observers the current player's) in English, by entry.
func notesOf(t *testing.T, s engine.State, viewer string, view map[string]any) map[string]any {
	t.Helper()
	player := viewer
	if cur, ok := view["current"].(string); ok && s.(*state).seat(viewer) < 0 {
		player = cur
	}
	out := map[string]any{}
	for e, n := range engine.NotesOf(s, player) {
		out[e] = english(t, n)
	}
	return out
}

// TestScenarios replays every archive of testdata/scenarios and checks its views.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			a, sc := loadScenario(t, file)
			states, err := engine.ReplayAll(registry, a, -1)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			seed, _ := a.Seed()
			for _, r := range sc.Rejects {
				_, err := states[r.At].Apply(r.Player, engine.Normalize(r.Command), engine.NewRand(seed, r.At+1, nil))
				if !errors.Is(err, engine.ErrIllegal) || !strings.Contains(err.Error(), r.Contains) {
					t.Errorf("after %d events, %s %q: error %v, want a rule error containing %q", r.At, r.Player, r.Command, err, r.Contains)
				}
				if err == nil {
					continue
				}
				if covers(states[r.At].Legal(r.Player), engine.NotesOf(states[r.At], r.Player), r.Command) {
					t.Errorf("after %d events, %s %q is rejected but listed as legal", r.At, r.Player, r.Command)
				}
			}
			for _, e := range sc.Expect {
				at := len(states) - 1
				if e.At != nil {
					at = *e.At
				}
				view := viewOf(t, states[at], e.Viewer)
				view["notes"] = notesOf(t, states[at], e.Viewer, view)
				got, ok := lookup(view, e.Path)
				switch {
				case e.Absent:
					if ok && got != nil {
						t.Errorf("after %d events, view(%q).%s = %v, want absent", at, e.Viewer, e.Path, got)
					}
				case e.Contains != "":
					var buf bytes.Buffer
					enc := json.NewEncoder(&buf)
					enc.SetEscapeHTML(false)
					_ = enc.Encode(got)
					if b := buf.String(); !strings.Contains(b, e.Contains) {
						t.Errorf("after %d events, view(%q).%s = %s, want it to contain %q", at, e.Viewer, e.Path, b, e.Contains)
					}
				default:
					var want any
					if err := json.Unmarshal(e.Equals, &want); err != nil {
						t.Fatalf("expectation %s: %v", e.Path, err)
					}
					if !ok || !reflect.DeepEqual(got, want) {
						b, _ := json.Marshal(got)
						t.Errorf("after %d events, view(%q).%s = %s, want %s", at, e.Viewer, e.Path, b, e.Equals)
					}
				}
			}
		})
	}
}
