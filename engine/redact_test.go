package engine

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// coin is a game that hides nothing (and cannot start: these tests never play it).
type coin struct{}

func (coin) Name() string                    { return "coin" }
func (coin) New(Setup, *Rand) (State, error) { return nil, errors.New("coin is not played") }

// hider hides the draw "deck" and the setup fields "seed" and "order".
type hider struct{ coin }

func (hider) HiddenOutcome(name, viewer string) bool { return name == "deck" }
func (hider) HiddenSetup(field, viewer string) bool  { return field == "seed" || field == "order" }

func TestDrawName(t *testing.T) {
	for key, want := range map[string]string{"deck": "deck", "deck.2": "deck", "deck.12": "deck", "a.b": "a.b", "x.": "x.", "": ""} {
		if got := drawName(key); got != want {
			t.Errorf("drawName(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestRedact(t *testing.T) {
	a := &Archive{Format: ArchiveFormat, Game: "coin", Players: []Player{{Name: "ann"}},
		Setup:         json.RawMessage(`{"seed":7,"order":["x"],"rules":1}`),
		SetupOutcomes: Outcomes{"deck": json.RawMessage(`["a","b"]`), "die": json.RawMessage(`3`)},
		Events: []Event{{Player: "ann", Command: "draw", Outcomes: Outcomes{"deck.2": json.RawMessage(`["b"]`), "die": json.RawMessage(`4`)}},
			{Player: "ann", Command: "x", Outcomes: Outcomes{"deck": json.RawMessage(`[]`)}}}}
	for _, viewer := range []string{"ann", Observer} {
		r := Redact(hider{}, a, viewer)
		b, _ := json.Marshal(r)
		for _, leak := range []string{`"seed"`, `"order"`, `"deck`, `["a","b"]`} {
			if strings.Contains(string(b), leak) {
				t.Errorf("%s: redacted archive contains %s: %s", viewer, leak, b)
			}
		}
		if string(r.Setup) != `{"rules":1}` || string(r.SetupOutcomes["die"]) != "3" || string(r.Events[0].Outcomes["die"]) != "4" || r.Events[1].Outcomes != nil {
			t.Errorf("%s: kept the wrong parts: %s", viewer, b)
		}
		if want := []string{"outcome.deck", "setup.order", "setup.seed"}; !slices.Equal(r.Redacted, want) {
			t.Errorf("%s: Redacted = %v, want %v", viewer, r.Redacted, want)
		}
		if _, err := ReplayAll(Registry{"coin": hider{}}, r, -1); !errors.Is(err, ErrRedacted) {
			t.Errorf("%s: replaying the redacted copy: %v, want ErrRedacted", viewer, err)
		}
	}
	if len(a.SetupOutcomes) != 2 || len(a.Events[0].Outcomes) != 2 || len(a.Redacted) != 0 {
		t.Errorf("Redact changed the original: %+v", a)
	}
	if Redact(hider{}, a, "") != a || Redact(coin{}, a, "ann") != a {
		t.Error("the host, and every viewer of a game that hides nothing, get the archive unchanged")
	}
	bad := *a
	bad.Setup = json.RawMessage(`[1]`)
	if r := Redact(hider{}, &bad, "ann"); r.Setup != nil || !slices.Contains(r.Redacted, "setup") {
		t.Errorf("a setup that is not an object is left out whole: %s %v", r.Setup, r.Redacted)
	}
}
