package page

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/scene/draw"
	"github.com/turnmail/turnmail/scene/svg"
	"github.com/turnmail/turnmail/templates"
)

// Replay is a Record as one reader reads it: the steps of the game, each a move or an
// undo (administrative events change no state and are no steps: they are told with
// the step before them), the start first, each told in sentences. Build it once per
// reader and version of the record; it is safe for concurrent use.
type Replay struct {
	rec   *Record
	rd    Reader
	w     words
	steps []Step
	// byN maps an event's number to its step's index.
	byN map[int]int
	// lists are the lists of moves written (see Writer.moveList), by kind of links.
	mu    sync.Mutex
	lists map[string]string
}

// Step is one step of a game as a reader sees it.
type Step struct {
	// N is the number of the event (1 for the first after the setup); 0 is the start.
	N int
	// Index is the step's place in the replay (0 for the start).
	Index int
	// Turn is the game turn the step was made in.
	Turn int
	// Actor is the player who sent it ("" for the start and an undo).
	Actor string
	// Said is what the step did in one sentence, as the list of moves says it: the
	// first sentence of the game's account of a move, the service's sentence of an
	// undo. Only a game that does not narrate says what was sent (a sealed bid
	// masked), in the reader's command words.
	Said string
	// Undo is true for an undo.
	Undo bool
	// state is the index of the state after the step in Record.States.
	state int
	// told is what the step did (Said first), then the events after it that are no
	// steps.
	told []Happening
}

// Build returns the replay of rec for rd. It fails on a record whose states do not
// follow its events.
func Build(rec *Record, rd Reader, tr *i18n.Bundle) (*Replay, error) {
	if len(rec.States) != len(rec.Events)+1 {
		return nil, fmt.Errorf("page: %d states for %d events", len(rec.States), len(rec.Events))
	}
	rd.Lang = rd.Lang.Or(i18n.English)
	r := &Replay{rec: rec, rd: rd, w: words{tr: tr, lang: rd.Lang, kind: rec.Kind}, byN: map[int]int{0: 0}}
	r.steps = append(r.steps, Step{Turn: rec.States[0].Turn(), Said: r.w.say("The game begins")})
	var standing []int // the steps of the moves an undo may take back, the last last
	for i, e := range rec.Events {
		st := Step{N: i + 1, Index: len(r.steps), Turn: rec.States[i].Turn(), Actor: e.Player, state: i + 1}
		switch e.Kind {
		case engine.KindMove:
			st.told = r.narrate(i)
			standing = append(standing, st.Index)
		case engine.KindUndo:
			what := r.w.say("the last move")
			if k := len(standing) - 1; k >= 0 {
				what, standing = r.steps[standing[k]].Said, standing[:k]
			}
			st.Undo, st.Actor = true, ""
			st.told = []Happening{{Text: r.tell(e, what)}}
			if st.told[0].Text == "" {
				st.told[0].Text = r.w.say("Undo: %s", what)
			}
		default:
			if text := r.tell(e, ""); text != "" {
				prev := &r.steps[len(r.steps)-1]
				prev.told = append(prev.told, Happening{Text: text, Aside: true})
			}
			continue
		}
		st.Said = st.told[0].Text
		r.byN[st.N] = st.Index
		r.steps = append(r.steps, st)
	}
	return r, nil
}

// narrate tells move i of the log as the game narrates it to the reader, or, for a
// game that does not narrate, what was sent.
func (r *Replay) narrate(i int) []Happening {
	e := r.rec.Events[i]
	hs := engine.Narrate(r.rec.States[i], e.Player, e.Command, r.rec.States[i+1], r.rd.Viewer)
	out := make([]Happening, 0, len(hs))
	for _, h := range hs {
		x := Happening{Text: r.w.text(h.Text), You: r.rd.Viewer != "" && slices.Contains(h.Hit, r.rd.Viewer)}
		for _, d := range h.Details {
			x.Details = append(x.Details, r.w.text(d))
		}
		out = append(out, x)
	}
	if len(out) == 0 {
		cmd := engine.MaskCommand(r.rec.Last(), e.Player, e.Command, r.rd.Viewer)
		out = append(out, Happening{Text: r.w.say("%s sent: %s", e.Player, r.w.tr.Command(r.rec.Kind, r.rd.Lang, cmd))})
	}
	return out
}

// tell says an event that is not a move in the reader's language (see Record.Tell).
func (r *Replay) tell(e engine.Event, takenBack string) string {
	if r.rec.Tell == nil {
		return ""
	}
	return r.rec.Tell(r.rd.Lang, r.rd.Viewer, e, takenBack)
}

// Steps returns the steps, the start first.
func (r *Replay) Steps() []Step { return r.steps }

// Find returns the index of the step of event n (0: the start), and whether there is
// one: an administrative event, or a number beyond the log, has none.
func (r *Replay) Find(n int) (int, bool) {
	i, ok := r.byN[n]
	return i, ok
}

// Lang is the language the replay is written in.
func (r *Replay) Lang() i18n.Lang { return r.rd.Lang }

// Happening is one thing a step did, in the reader's words.
type Happening struct {
	Text    string
	Details []string
	// You is true when it hit the reader.
	You bool
	// Aside is true for an event after the step that is not one (a message, a
	// pause, a resignation).
	Aside bool
}

// PlayerRow is one player as the table of a step shows them.
type PlayerRow struct {
	Name string
	// Marker is the class of the player's colour and shape as the board draws them
	// (see markerCSS).
	Marker string
	// Colour names the colour and shape in words ("blue circles").
	Colour string
	// Score is the player's score as the reader may see it ("?" when hidden).
	Score string
	// Note says what else matters of them (the race they play, their coins).
	Note string
	// ToAct is true when they must act after the step; You when they are the reader.
	ToAct, You bool
}

// HandCard is a card of the reader's hand.
type HandCard struct {
	Name, Text string
}

// Score is a player's final score with its breakdown.
type Score struct {
	Player string
	Total  int
	Parts  []string
}

// StepView is everything the page of one step shows.
type StepView struct {
	Step
	// Of counts the steps after the start.
	Of int
	// Happened is what the step did, in sentences (Said first), then the events
	// after it that are no steps (Aside).
	Happened []Happening
	// Then says whose move it was after the step, or that the game was over.
	Then string
	// Board is the picture of the board after the step (an SVG document), "" for a
	// game without one; BoardAlt says what it shows.
	Board    template.HTML
	BoardAlt string
	// Drawn is true when the game has a picture of the step; LeftOut when a replay
	// file leaves it out to stay small.
	Drawn, LeftOut bool
	// ScoreHead names the players' score ("Coins", "Glory" …).
	ScoreHead string
	Players   []PlayerRow
	// Hand are the reader's own cards, where the game has a hand (Dungeoneer).
	Hand []HandCard
	// Scores are the final scores with their breakdown (the last step of a finished
	// game).
	Scores []Score
	// First, Prev, Next and Last are the indexes of the steps to go to, -1 for none.
	First, Prev, Next, Last int
}

// View returns the page of step i: the board after it as the reader sees it, what it
// did and whose move it was then. i must be a step's index (see Find).
func (r *Replay) View(i int) (*StepView, error) {
	if i < 0 || i >= len(r.steps) {
		return nil, fmt.Errorf("page: no step %d", i)
	}
	st := r.steps[i]
	state := r.rec.States[st.state]
	v := &StepView{Step: st, Of: len(r.steps) - 1, First: -1, Prev: -1, Next: -1, Last: -1}
	if i > 0 {
		v.First, v.Prev = 0, i-1
	}
	if i < len(r.steps)-1 {
		v.Next, v.Last = i+1, len(r.steps)-1
	}
	v.Happened = st.told
	last := i == len(r.steps)-1
	v.Then = r.then(state, last)
	view, err := viewMap(state.View(r.rd.Viewer))
	if err != nil {
		return nil, err
	}
	var changed []string
	if i > 0 {
		before, err := viewMap(r.rec.States[r.steps[i-1].state].View(r.rd.Viewer))
		if err != nil {
			return nil, err
		}
		changed = ChangedRegions(before, view)
	}
	if err := r.board(v, state, changed); err != nil {
		return nil, err
	}
	v.ScoreHead, v.Players = r.players(view, state)
	v.Hand = r.hand(view)
	if over, _ := r.rec.finished(); last && over {
		v.Scores = r.scores(r.rec.Last())
	}
	return v, nil
}

// then says whose move it is after a step, or how the game ended after the last.
func (r *Replay) then(state engine.State, last bool) string {
	if over, winners := r.rec.finished(); last && over {
		return r.w.gameOver(winners)
	}
	var toAct []string
	for _, p := range state.ToAct() {
		if !r.rec.Resigned[p] {
			toAct = append(toAct, p)
		}
	}
	switch {
	case len(toAct) == 0:
		return ""
	case len(toAct) == 1 && r.rd.you(toAct[0]):
		return r.w.say("Next to move: you")
	}
	return r.w.say("Next to move: %s", r.w.names(toAct, r.rd))
}

// Now says where the game stands now: who must move and by when, that it is paused,
// or how it ended.
func (r *Replay) Now() string {
	if over, winners := r.rec.finished(); over {
		return r.w.gameOver(winners)
	}
	if r.rec.Paused {
		return r.w.say("The game is paused by its host.")
	}
	var parts []string
	yours := ""
	for _, p := range r.rec.Last().ToAct() {
		if r.rec.Resigned[p] {
			continue
		}
		due, ok := r.rec.Deadlines[p]
		when := ""
		if ok {
			when = templates.WhenIn(r.w.tr, string(r.rd.Lang), due, r.rd.Zone)
		}
		switch {
		case r.rd.you(p) && when != "":
			yours = r.w.say("Your move, by %s", when)
		case r.rd.you(p):
			yours = r.w.say("Your move")
		case when != "":
			parts = append(parts, r.w.say("%s (by %s)", p, when))
		default:
			parts = append(parts, p)
		}
	}
	switch {
	case yours != "" && len(parts) > 0:
		return yours + ". " + r.w.say("Also to move now: %s", strings.Join(parts, ", "))
	case yours != "":
		return yours
	case len(parts) > 0:
		return r.w.say("To move now: %s", strings.Join(parts, ", "))
	}
	return ""
}

// board draws the board of a step.
func (r *Replay) board(v *StepView, state engine.State, changed []string) error {
	var base draw.Words = draw.English{}
	if r.rec.PictureWords != nil {
		base = r.rec.PictureWords(r.rd.Lang)
	}
	sc, err := draw.Scene(draw.Input{View: state.View(r.rd.Viewer), Changed: changed, Words: pictureWords{base, r.w}})
	if errors.Is(err, draw.ErrNoPicture) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("page: step %d: %w", v.N, err)
	}
	doc, err := svg.Marshal(sc)
	if err != nil {
		return fmt.Errorf("page: step %d: %w", v.N, err)
	}
	v.Board, v.BoardAlt, v.Drawn = template.HTML(doc), sc.Alt, true // svg escapes every text it writes
	return nil
}

// scores are the final scores of a finished game with their breakdown (nil when the
// game does not explain them).
func (r *Replay) scores(state engine.State) []Score {
	sc, ok := state.(engine.Scorer)
	if !ok {
		return nil
	}
	var out []Score
	for _, s := range sc.Scores() {
		x := Score{Player: s.Player, Total: s.Total}
		for _, p := range s.Parts {
			x.Parts = append(x.Parts, r.w.text(p))
		}
		out = append(out, x)
	}
	return out
}

// viewMap decodes an engine view into the map the pages read.
func viewMap(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("page: encode view: %w", err)
	}
	var m map[string]any
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&m); err != nil {
		return nil, fmt.Errorf("page: decode view: %w", err)
	}
	return m, nil
}

// ChangedRegions returns the ids of the regions of view (the "regions" list of a map
// game's view, each with an "id") that are not the same in old, in view's order.
func ChangedRegions(old, view map[string]any) []string {
	before := map[string]any{}
	regions, _ := old["regions"].([]any)
	for _, r := range regions {
		if m, ok := r.(map[string]any); ok {
			before[templates.Str(m["id"])] = m
		}
	}
	var out []string
	regions, _ = view["regions"].([]any)
	for _, r := range regions {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		id := templates.Str(m["id"])
		if b, ok := before[id]; !ok || !reflect.DeepEqual(b, m) {
			out = append(out, id)
		}
	}
	return out
}
