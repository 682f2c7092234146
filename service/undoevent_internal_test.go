package service

import (
	"reflect"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
)

// TestUndoEvents_oldAndNew: the English sentences undo events recorded before their
// payload (old games' logs) read as they always did, and an undo recorded now with
// a payload reads the same words; each form is read into the payload it means.
func TestUndoEvents_oldAndNew(t *testing.T) {
	t.Parallel()
	tr := mustBundle(t)
	// said tells undo event cmd in lang as a page does, the move taken back (the
	// page's sentence of it) in lang's command words.
	said := func(lang i18n.Lang, cmd string) string {
		what := tr.Sprintf(lang, "the last move")
		if u, ok := readUndo(cmd); ok {
			what = u.Move.Player + ": " + tr.Command("smallworld", lang, u.Move.Command)
		}
		return (&Service{tr: tr}).tell(lang, engine.Observer, engine.Event{Kind: engine.KindUndo, Command: cmd}, what)
	}
	tests := []struct {
		name   string
		old    string      // as recorded before the payload
		now    undoPayload // as recorded now (the move's Seq is not in old texts)
		en, it string      // as the pages tell it (tell), for either
	}{
		{"agreed", "agreed by bob, carol, taking back alice: conquer 5",
			undoPayload{How: undoAgreed, By: []string{"bob", "carol"}, Move: undoneMove{Player: "alice", Command: "conquer 5"}},
			"taken back, as bob, carol agreed: alice: conquer 5", "annullata con il consenso di bob, carol: alice: conquista 5"},
		{"agreed after a resignation", "agreed by bob (carol resigned), taking back alice: conquer 5",
			undoPayload{How: undoAgreed, By: []string{"bob"}, Resigned: "carol", Move: undoneMove{Player: "alice", Command: "conquer 5"}},
			"taken back, as bob agreed (carol resigned): alice: conquer 5", "annullata con il consenso di bob (carol ha abbandonato la partita): alice: conquista 5"},
		{"forced", "forced by the host, taking back bob: conquer 3",
			undoPayload{How: undoForced, Move: undoneMove{Player: "bob", Command: "conquer 3"}},
			"taken back by the host: bob: conquer 3", "annullata dall'organizzatore: bob: conquista 3"},
		{"alone", "taken back by ann (no other player), ann: conquer 2",
			undoPayload{How: undoAlone, By: []string{"ann"}, Move: undoneMove{Player: "ann", Command: "conquer 2"}},
			"taken back by ann (no other player): ann: conquer 2", "annullata da ann (non ci sono altri giocatori): ann: conquista 2"},
		{"a skipped turn", "taking back carol: decline (a resigned player's skipped turn) with bob: conquer 4",
			undoPayload{How: undoSkipped, Move: undoneMove{Player: "carol", Command: "decline"}, With: &undoneMove{Player: "bob", Command: "conquer 4"}},
			"taken back, a resigned player's skipped turn: carol: decline", "annullato il turno saltato di chi ha abbandonato: carol: declino"},
	}
	for _, tc := range tests {
		got, ok := readUndo(tc.old)
		if !ok || !reflect.DeepEqual(got, tc.now) {
			t.Errorf("%s: the old sentence reads as %+v (%v), want %+v", tc.name, got, ok, tc.now)
		}
		recorded := tc.now
		recorded.Move.Seq = 7
		back, ok := readUndo(recorded.encode())
		if !ok || !reflect.DeepEqual(back, recorded) {
			t.Errorf("%s: the payload reads back as %+v (%v), want %+v", tc.name, back, ok, recorded)
		}
		for _, cmd := range []string{tc.old, recorded.encode()} {
			for lang, want := range map[i18n.Lang]string{i18n.English: tc.en, i18n.Italian: tc.it} {
				if got := said(lang, cmd); got != want {
					t.Errorf("%s %s: %q says %q, want %q", tc.name, lang, cmd, got, want)
				}
			}
		}
	}
	// What neither form reads still says that a move was taken back.
	for _, cmd := range []string{"", "{", `{"undo":""}`, "took it back", `{"undo":"agreed","by":"bob"}`} {
		if _, ok := readUndo(cmd); ok {
			t.Errorf("%q reads as an undo", cmd)
		}
		if got := said(i18n.Italian, cmd); got != "annullata: l'ultima mossa" {
			t.Errorf("%q says %q", cmd, got)
		}
	}
}
