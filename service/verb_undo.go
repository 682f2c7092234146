package service

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// The service verb undo (see verbs.go).
func init() {
	registerVerbs(&serviceVerb{name: "undo", who: host, lobbyHelp: "(host) take back the last move", gameHelp: "ask to take back the last move; the others answer accept",
		game: (*run).cmdUndo, lobby: hostInGame("undo")})
}

// undoneOf is the recorded move e as an undo's payload names it.
func undoneOf(e store.Event) undoneMove {
	return undoneMove{Seq: e.Seq, Player: e.Player, Command: e.Command}
}

// undo takes back the move t (see undoTarget): one undo event for each turn skipped
// for a resigned player above it, then one for the move; it replays to learn the
// state they leave.
func (r *run) undo(why undoPayload, t undoTarget) error {
	first := len(r.c.Events)
	with := undoneOf(t.move)
	for _, e := range t.skipped {
		r.add(store.Event{Kind: engine.KindUndo, Command: undoPayload{How: undoSkipped, Move: undoneOf(e), With: &with}.encode()})
	}
	why.Move = with
	r.add(store.Event{Kind: engine.KindUndo, Player: "", Command: why.encode()})
	// The undo events go back to the states they name, which the game's history
	// gives (this run's own states are in view's).
	h := r.view().hist
	if h == nil {
		return errors.New("replay the undo: the game has no history")
	}
	for i := range h.events[r.l.LastSeq()+first:] {
		h.events[r.l.LastSeq()+first+i].Hash = "" // recorded by add as the state before: not to be checked
	}
	f := engine.Fold{Seed: r.l.Seed, Events: h.events, Base: r.state, BaseSeq: r.l.LastSeq() + first, StateAt: h.at, Journal: true, Keep: true,
		Visit: func(seq int, st engine.State) error {
			// Like every event, an undo records the state after it (add stored the one before).
			i := seq - r.l.LastSeq() - 1
			r.c.Events[i].Hash, r.after[i] = st.Hash(), st
			return nil
		}}
	st, err := f.Run(-1)
	if err != nil {
		return fmt.Errorf("replay the undo: %w", err)
	}
	r.state, r.moved = st, true
	return nil
}

// undoWhat names the move an undo would take back now, for a reader of lang ("" when
// none), as the public account tells it.
func (r *run) undoWhat(lang i18n.Lang) string {
	last, ok := lastStanding(append(append([]store.Event{}, r.l.Events...), r.c.Events...))
	if !ok {
		return ""
	}
	return r.moveIn(lang, engine.Observer, last.move)
}

// moveIn tells a recorded move to viewer in lang (see Service.moveWords).
func (r *run) moveIn(lang i18n.Lang, viewer string, e store.Event) string {
	return r.s.moveWords(r.view(), e, viewer, lang)
}

// undoIfAgreed applies the pending undo u when player's resignation left no one
// to wait for (every other active player had accepted), unless it ended the game.
func (r *run) undoIfAgreed(u *UndoRequest, player string) string {
	if done, _ := r.over(); done {
		return ""
	}
	waiting, agreed := r.undoConsent(u)
	if len(waiting) > 0 {
		return ""
	}
	last, ok := lastStanding(append(append([]store.Event{}, r.l.Events...), r.c.Events...))
	if !ok {
		return ""
	}
	if err := r.undo(undoPayload{How: undoAgreed, By: agreed, Resigned: player}, last); err != nil {
		return r.t("The undo failed: %v", err)
	}
	return ""
}

// undoConsent splits the active players other than the asker of u into those
// still to accept and those who accepted (sorted).
func (r *run) undoConsent(u *UndoRequest) (waiting, agreed []string) {
	for _, p := range r.l.active() {
		switch {
		case p.Name == u.By:
		case u.Accepted[p.Name]:
			agreed = append(agreed, p.Name)
		default:
			waiting = append(waiting, p.Name)
		}
	}
	sort.Strings(agreed)
	return waiting, agreed
}

// undoTarget is the move an undo takes back, with the turns skipped for resigned
// players that stand above it (latest first): autoSkip would play those again at
// once, so an undo that took back only them would change nothing.
type undoTarget struct {
	move    store.Event
	skipped []store.Event
}

// lastStanding returns the move an undo would take back.
func lastStanding(events []store.Event) (undoTarget, bool) {
	var stack []store.Event
	resigned := map[string]int{} // player → the seq of their resignation
	for _, e := range events {
		switch e.Kind {
		case engine.KindMove:
			stack = append(stack, e)
		case engine.KindUndo:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case engine.KindAdmin:
			if _, ok := resigned[e.Player]; !ok && adminAct(e) == adminResign {
				resigned[e.Player] = e.Seq
			}
		}
	}
	var t undoTarget
	for i := len(stack) - 1; i >= 0; i-- {
		e := stack[i]
		if at, ok := resigned[e.Player]; ok && at < e.Seq {
			t.skipped = append(t.skipped, e)
			continue
		}
		t.move = e
		return t, true
	}
	return undoTarget{}, false
}

// cmdUndo carries out undo in a reply to a game mail.
func (r *run) cmdUndo(a actor, args []string) string {
	last, ok := lastStanding(append(append([]store.Event{}, r.l.Events...), r.c.Events...))
	if !ok {
		return r.t("There is no move to take back.")
	}
	if r.status == store.GameFinished {
		return r.t("The game is over.")
	}
	if len(args) == 1 && args[0] == "force" {
		if !r.isHost(a) {
			return r.notHost(r.t("force an undo"))
		}
		if err := r.undo(undoPayload{How: undoForced}, last); err != nil {
			return r.t("The undo failed: %v", err)
		}
		return ""
	}
	why := ""
	if len(args) != 0 {
		// The reason, as the player wrote it (the line less its verb).
		words := strings.Fields(cleanChat(r.line))
		if len(words) > 1 {
			why = strings.Join(words[1:], " ")
		}
		if len(why) > maxSayBytes {
			return r.t("Your reason is longer than %d characters; nothing was asked. Send a shorter one.", maxSayBytes)
		}
	}
	if a.Seat == nil {
		return r.t("As the host, write undo force (without a seat you cannot ask the players).")
	}
	if r.l.Facts.Resigned[a.Name] {
		return r.t(resignedReason)
	}
	if u := r.l.Facts.Undo; u != nil {
		return r.t("%s has asked for an undo already; the others answer with accept.", u.By)
	}
	var others []string
	for _, p := range r.l.active() {
		if p.Name != a.Name {
			others = append(others, p.Name)
		}
	}
	if len(others) == 0 {
		if err := r.undo(undoPayload{How: undoAlone, By: []string{a.Name}}, last); err != nil {
			return r.t("The undo failed: %v", err)
		}
		return ""
	}
	r.admin(a.Name, adminPayload{Act: adminUndoRequest, Why: why})
	for _, p := range r.l.active() {
		what := r.moveIn(r.langTo(p.Email), engine.Observer, last.move) // the public account: what every reader may know
		if p.Name == a.Name {
			r.notify(p.Email, templates.Notice{Kind: "undo-asked", To: p.Name, Text: what, ToAct: others})
			continue
		}
		r.notify(p.Email, templates.Notice{Kind: "undo-request", To: p.Name, Player: a.Name, Text: what, Why: why})
	}
	return ""
}
