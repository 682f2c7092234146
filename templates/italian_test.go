package templates

import (
	"html"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/internal/langcheck"
)

// italianFrame are state mails and refusals of a game without a section of its own
// (the generic view), in Italian: every part of the frame that any game's mail has —
// what was applied and refused, what happened (an undo among it), the deadline, the
// legal commands, waiting, the end with scores and the archive, observers.
var italianFrame = []struct {
	name, kind string
	data       any
}{
	{"state-it", "state", State{
		Game: playGame, Player: "ann", ToAct: []string{"ann"}, YourTurn: true, Lang: "it",
		Applied: []Line{{N: 1, Text: "aggiungi 3"}}, Error: &LineError{Line: Line{N: 2, Text: "aggiungi 99"}, Reason: "99 non è tra 1 e 9"},
		Moves: []Move{{Seq: 3, Player: "ben", Command: "aggiungi 2"}, {Seq: 4, Kind: "undo", Command: "ben ha annullato aggiungi 2"}},
		Legal: []string{"aggiungi <1-9>"}, Deadline: "mar 24 nov, 21:00",
		View:    map[string]any{"turn": 2.0, "players": []any{map[string]any{"name": "ann", "score": 3.0}, map[string]any{"name": "ben", "score": 1.0}}},
		ReplyTo: "turnmail+ta-k3p2.0.xxxx@example.org",
	}},
	{"state-it-cut", "state", State{
		Game: playGame, Player: "ben", ToAct: []string{"ann"}, Lang: "it", Applied: []Line{{N: 7, Text: "aggiungi 1"}}, AppliedCut: 6,
		Moves: []Move{{Seq: 9, Player: "ann", Command: "aggiungi 1"}}, MovesCut: 20, Legal: []string{"di <testo>"},
		View: map[string]any{"turn": 3.0, "players": []any{map[string]any{"name": "ben", "score": 4.0}}},
	}},
	{"state-it-observer", "state", State{
		Game: playGame, Observer: true, ToAct: []string{"ann"}, Lang: "it", Opening: true,
		View: map[string]any{"turn": 1.0, "players": []any{map[string]any{"name": "ann", "score": 0.0}}},
	}},
	{"state-it-finished", "state", State{
		Game: playGame, Player: "ann", Finished: true, Winners: []string{"ann"}, Lang: "it",
		Scores:  []Score{{Player: "ann", Total: 12, Parts: []string{"regioni: 10", "bonus: 2"}}, {Player: "ben", Total: 9}},
		Archive: &Attachment{Name: "ta-k3p2.json"},
		View:    map[string]any{"turn": 9.0, "players": []any{map[string]any{"name": "ann", "score": 12.0}}},
	}},
	{"state-it-redacted", "state", State{
		Game: playGame, Player: "ben", Finished: true, Winners: []string{"ann", "ben"}, Lang: "it", Archive: &Attachment{Name: "ta-k3p2.json", Redacted: true},
		View: map[string]any{"turn": 9.0, "players": []any{map[string]any{"name": "ben", "score": 12.0}}},
	}},
	{"refusal-it", "refusal", Refusal{
		Game: playGame, Player: "ann", Lang: "it", Applied: []Line{{N: 1, Text: "aggiungi 3"}},
		Error: &LineError{Line: Line{N: 2, Text: "aggiungi 99"}, Reason: "99 non è tra 1 e 9"},
		Legal: []string{"aggiungi <1-9>"}, ReplyTo: "turnmail+ta-k3p2.0.xxxx@example.org",
		View: map[string]any{"turn": 2.0, "players": []any{map[string]any{"name": "ann", "score": 3.0}}},
	}},
	{"refusal-it-waiting", "refusal", Refusal{
		Game: playGame, Player: "ben", Lang: "it", Reason: "La partita è in pausa.", ToAct: []string{"ann"},
	}},
}

// TestRender_italianFrame renders the frame of the state mails and refusals in
// Italian: no English word in the subject, the text or the HTML (whose page says
// lang="it"); the first samples are golden.
func TestRender_italianFrame(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range italianFrame {
		t.Run(s.name, func(t *testing.T) {
			text, htmlPart, err := set.Render(s.kind, s.data)
			if err != nil {
				t.Fatal(err)
			}
			subject, err := set.Subject(s.kind, s.data)
			if err != nil {
				t.Fatal(err)
			}
			for part, body := range map[string]string{"subject": subject, "text": text, "html": htmlTextOf(htmlPart)} {
				if left := langcheck.English(body, nil); len(left) > 0 {
					t.Errorf("English in the %s: %q\n%s", part, left, body)
				}
			}
			if !strings.Contains(htmlPart, `<html lang="it">`) {
				t.Errorf("the HTML part is not marked Italian:\n%s", htmlPart[:200])
			}
			if err := checkHTML(htmlPart); err != nil {
				t.Errorf("HTML part: %v", err)
			}
			if s.name == "state-it" || s.name == "refusal-it" || s.name == "state-it-finished" {
				golden(t, filepath.Join("testdata", s.name+".golden"), "Subject: "+subject+"\n\n"+text)
				golden(t, filepath.Join("testdata", s.name+".html.golden"), htmlPart)
			}
		})
	}
}

// htmlMarkup matches the markup of an HTML part.
var htmlMarkup = regexp.MustCompile(`(?s)<style>.*?</style>|<[^>]*>`)

// htmlTextOf returns the words of an HTML part: its text without markup, entities
// decoded.
func htmlTextOf(h string) string { return html.UnescapeString(htmlMarkup.ReplaceAllString(h, "\n")) }
