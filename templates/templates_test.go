package templates

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// samples are one data value per mail kind, with the variants worth seeing.
var samples = []struct {
	name, kind string
	data       any
}{
	{"state-opening", "state", State{
		Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World"}, Player: "alice", Opening: true,
		ToAct: []string{"alice"}, YourTurn: true, Legal: []string{"pick 1", "pick 2 (1 coin)"},
		View: map[string]any{"turn": 1.0, "players": []any{
			map[string]any{"name": "alice", "score": 5.0, "hand": 0.0},
			map[string]any{"name": "bob", "score": nil, "hand": 0.0}},
			"offer": []any{map[string]any{"race": "Ratmen", "power": "Flying", "coins": 0.0}},
			"regions": []any{
				map[string]any{"id": 1.0, "terrain": "sea", "owner": nil},
				map[string]any{"id": 2.0, "terrain": "hill", "owner": "lost-tribe", "tokens": 1.0, "pieces": []any{"mountain"}},
			}},
		ReplyTo: "turnmail+sw-ab12.0.xxxx@example.org",
	}},
	{"state-after-move", "state", State{
		Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World"}, Player: "alice",
		Moves:   []Move{{Seq: 1, Player: "alice", Command: "pick 1"}, {Seq: 2, Player: "alice", Command: "conquer 4"}},
		Applied: []Line{{N: 1, Text: "pick 1"}, {N: 2, Text: "conquer 4"}},
		Error:   &LineError{Line: Line{N: 3, Text: "conquer 99"}, Reason: "there is no region 99"},
		ToAct:   []string{"alice"}, YourTurn: true, Legal: []string{"conquer 5", "redeploy <region>=<tokens> …", "done"},
		View:    map[string]any{"turn": 1.0, "players": []any{map[string]any{"name": "alice", "score": 5.0, "hand": 3.0, "active": map[string]any{"race": "Ratmen", "power": "Flying"}}}, "regions": []any{map[string]any{"id": 4.0, "terrain": "farmland", "owner": "alice", "race": "Ratmen", "tokens": 2.0, "pieces": map[string]any{"encampment": 2.0, "fortress": true}}}},
		ReplyTo: "turnmail+sw-ab12.0.xxxx@example.org",
	}},
	{"state-waiting", "state", State{
		Game: Game{ID: "ta-1", Kind: "tally", Title: "tally"}, Player: "bob", ToAct: []string{"alice"},
		View: map[string]any{"turn": 3.0, "players": []any{map[string]any{"name": "alice", "score": 7.0}}},
	}},
	{"state-finished", "state", State{
		Game: Game{ID: "ta-1", Kind: "tally", Title: "tally"}, Player: "bob", Finished: true, Winners: []string{"alice", "bob"},
		View: map[string]any{"turn": 9.0, "players": []any{map[string]any{"name": "alice", "score": 7.0}, map[string]any{"name": "bob", "score": 7.0}}},
	}},
	{"refusal-line", "refusal", Refusal{
		Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World"}, Player: "alice",
		Error: &LineError{Line: Line{N: 1, Text: "conquer 99"}, Reason: "there is no region 99; possible: conquer 4, conquer 7"},
		Legal: []string{"conquer 4", "conquer 7"}, ReplyTo: "turnmail+sw-ab12.0.xxxx@example.org",
	}},
	{"refusal-not-your-turn", "refusal", Refusal{
		Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World"}, Player: "bob",
		Reason: "The game is paused by its host.", ToAct: []string{"alice"},
	}},
	{"howto", "howto", HowTo{Player: "alice", Service: "turnmail@example.org", Games: []HowToGame{
		{Game: Game{ID: "sw-ab12", Kind: "smallworld", Title: "Small World"}, ReplyTo: "turnmail+sw-ab12.0.xxxx@example.org"}}}},
}

func TestRender_golden(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			text, htmlPart, err := set.Render(s.kind, s.data)
			if err != nil {
				t.Fatal(err)
			}
			subject, err := set.Subject(s.kind, s.data)
			if err != nil {
				t.Fatal(err)
			}
			got := "Subject: " + subject + "\n\n" + text
			path := filepath.Join("testdata", s.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./templates -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("plain text differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
			}
			if err := checkHTML(htmlPart); err != nil {
				t.Errorf("HTML part: %v\n%s", err, htmlPart)
			}
		})
	}
}

// voidElements never have an end tag.
var voidElements = map[string]bool{"br": true, "hr": true, "meta": true, "img": true, "input": true, "link": true}

// checkHTML checks that the document has a doctype, a title, and that every element is
// closed in order.
func checkHTML(doc string) error {
	if !strings.HasPrefix(doc, "<!DOCTYPE html>") {
		return errorf("no <!DOCTYPE html>")
	}
	z := html.NewTokenizer(bytes.NewReader([]byte(doc)))
	var stack []string
	title := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				return z.Err()
			}
			if len(stack) != 0 {
				return errorf("unclosed elements %v", stack)
			}
			if !title {
				return errorf("no <title>")
			}
			return nil
		case html.StartTagToken:
			name, _ := z.TagName()
			if string(name) == "title" {
				title = true
			}
			if !voidElements[string(name)] {
				stack = append(stack, string(name))
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				return errorf("</%s> does not close %v", name, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
