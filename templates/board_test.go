package templates

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// regionIDs returns the ids of a board's region rows, in order, with "*" after a
// marked one.
func regionIDs(board map[string]any) []string {
	var out []string
	rows, _ := board["regions"].([]any)
	for _, r := range rows {
		m, ok := r.(map[string]any)
		if !ok {
			out = append(out, "?")
			continue
		}
		id := Str(m["id"])
		if m["changed"] == true {
			id += "*"
		}
		out = append(out, id)
	}
	return out
}

// TestBoard: the region table lists the reader's regions first, keeping the view's
// order otherwise, marks the changed ones, counts the reader's regions and leaves the
// engine's view as it was; an observer's table is in the view's order; a view without
// regions or with entries that are not regions gives a board, not a panic.
func TestBoard(t *testing.T) {
	region := func(id float64, owner any) map[string]any {
		return map[string]any{"id": id, "owner": owner}
	}
	view := func() map[string]any {
		return map[string]any{"turn": 3.0, "regions": []any{
			region(1, nil), region(2, "bob"), region(3, "alice"), region(4, "lost-tribe"), region(5, "alice"),
		}}
	}
	tests := []struct {
		name    string
		view    map[string]any
		reader  string
		changed []string
		want    []string
		own     int
		marked  bool
	}{
		{"alice's first, marked", view(), "alice", []string{"2", "5"}, []string{"3", "5*", "1", "2*", "4"}, 2, true},
		{"bob's first, nothing changed", view(), "bob", nil, []string{"2", "1", "3", "4", "5"}, 1, false},
		{"observer: the view's order", view(), "", []string{"1"}, []string{"1*", "2", "3", "4", "5"}, 0, true},
		{"a reader without regions", view(), "cy", []string{"99"}, []string{"1", "2", "3", "4", "5"}, 0, false},
		{"no regions", map[string]any{"turn": 1.0}, "alice", []string{"1"}, nil, 0, false},
		{"regions not a list", map[string]any{"regions": "x"}, "alice", nil, nil, 0, false},
		{"entries not regions", map[string]any{"regions": []any{"x", region(1, "alice"), nil}}, "alice", []string{"1"}, []string{"1*", "?", "?"}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			was := fmt.Sprint(tt.view)
			b := Board(tt.view, tt.reader, tt.changed, "it")
			if got := regionIDs(b); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("regions %v, want %v", got, tt.want)
			}
			if b["own"] != tt.own || b["marked"] != tt.marked || b["Lang"] != "it" {
				t.Errorf("own %v marked %v Lang %v, want %d %v it", b["own"], b["marked"], b["Lang"], tt.own, tt.marked)
			}
			if b["turn"] != tt.view["turn"] {
				t.Errorf("turn %v, want the view's %v", b["turn"], tt.view["turn"])
			}
			if now := fmt.Sprint(tt.view); now != was {
				t.Errorf("the view was modified: %s, was %s", now, was)
			}
		})
	}
}

// sampleData returns the data of the sample named name.
func sampleData(t *testing.T, name string) any {
	t.Helper()
	for _, s := range samples {
		if s.name == name {
			return s.data
		}
	}
	t.Fatalf("no sample %s", name)
	return nil
}

// TestRender_refusalBoard: a refusal shows the state section of a state mail with
// the same view — for Small World, Empire and a game without its own section — in
// text and HTML, so that the player can retry without the previous mail; without a
// view it has none.
func TestRender_refusalBoard(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	sw := sampleData(t, "refusal-line").(Refusal)
	empire := sampleData(t, "state-empire-play").(State)
	tally := sampleData(t, "state-waiting").(State)
	tests := []struct {
		name     string
		game     Game
		view     map[string]any
		changed  []string
		wantHTML string
	}{
		{"smallworld", sw.Game, sw.View, sw.Changed, "<td><b>4</b> * hill</td>"},
		{"empire", empire.Game, empire.View, nil, "<table"},
		{"tally", tally.Game, tally.View, nil, "<td>alice</td><td>7</td>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Refusal{Game: tt.game, Player: "alice", Error: sw.Error, View: tt.view, Changed: tt.changed, Lang: "en"}
			text, html, err := set.Render("refusal", r)
			if err != nil {
				t.Fatal(err)
			}
			state, stateHTML, err := set.Render("state", State{Game: tt.game, Player: "alice", View: tt.view, Changed: tt.changed, Lang: "en", ToAct: []string{"bob"}})
			if err != nil {
				t.Fatal(err)
			}
			body := stateSection(t, state)
			if !strings.Contains(text, body) {
				t.Errorf("the refusal's text lacks the state section:\n%s\n--- state section:\n%s", text, body)
			}
			if !strings.Contains(html, tt.wantHTML) || !strings.Contains(stateHTML, tt.wantHTML) {
				t.Errorf("the refusal's or the state's HTML lacks %q:\n%s", tt.wantHTML, html)
			}
			r.View = nil
			text, _, err = set.Render("refusal", r)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(text, strings.TrimSpace(body)) {
				t.Errorf("a refusal without a view shows a state section:\n%s", text)
			}
		})
	}
}

// stateSection returns the state section of a state mail's text (see state-body):
// what stands between its first paragraph and "Waiting for".
func stateSection(t *testing.T, text string) string {
	t.Helper()
	_, rest, ok := strings.Cut(text, "\n\n")
	body, _, ok2 := strings.Cut(rest, "Waiting for")
	if !ok || !ok2 || strings.TrimSpace(body) == "" {
		t.Fatalf("no state section in:\n%s", text)
	}
	return strings.TrimSpace(body)
}

// regionLine is a line of a Small World region table: a mark and the region's id.
var regionLine = regexp.MustCompile(`^ ([ *]) ?(\d+) +[a-z]`)

// TestRender_regionsOwnFirstMarked: in a Small World state mail the reader's own
// regions come first, regions changed since their last mail are marked with "*" in
// text and HTML, and a line says what the mark means, in the reader's language.
func TestRender_regionsOwnFirstMarked(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	base := sampleData(t, "state-after-move").(State) // regions 2 (empty), 3 (bob), 4 (alice)
	tests := []struct {
		name, lang, player string
		changed            []string
		want               []string // region ids in order, "*" before a marked one
		legend, header     string
	}{
		{"alice, en", "en", "alice", []string{"3", "4"}, []string{"*4", "2", "*3"}, "* changed since your last mail", "Regions (yours first):"},
		{"alice, it", "it", "alice", []string{"3"}, []string{"4", "2", "*3"}, "* cambiata dalla tua ultima mail", "Regioni (prima le tue):"},
		{"bob, nothing changed", "en", "bob", nil, []string{"3", "2", "4"}, "", "Regions (yours first):"},
		{"cy without regions", "en", "cy", []string{"2"}, []string{"*2", "3", "4"}, "* changed since your last mail", "Regions:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := base
			d.Player, d.Lang, d.Changed = tt.player, tt.lang, tt.changed
			text, html, err := set.Render("state", d)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range strings.Split(text, "\n") {
				if m := regionLine.FindStringSubmatch(l); m != nil {
					got = append(got, strings.TrimSpace(m[1])+m[2])
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("region rows %v, want %v:\n%s", got, tt.want, text)
			}
			if !strings.Contains(text, "\n"+tt.header+"\n") {
				t.Errorf("no header %q:\n%s", tt.header, text)
			}
			for _, part := range []string{text, html} {
				if tt.legend != "" && !strings.Contains(part, tt.legend) {
					t.Errorf("no legend %q:\n%s", tt.legend, part)
				}
				if tt.legend == "" && strings.Contains(part, "changed since") {
					t.Errorf("a legend without a marked region:\n%s", part)
				}
			}
			for _, id := range tt.changed {
				if !strings.Contains(html, "<b>"+id+"</b> *") {
					t.Errorf("region %s is not marked in the HTML:\n%s", id, html)
				}
			}
		})
	}
}
