package engine

import (
	"errors"
	"fmt"
)

// Fold replays a game's log from a state it reached: Events is the whole log
// (Events[i] is event i+1), Base the state after event BaseSeq (the setup's when
// BaseSeq is 0), such as a snapshot or a state kept in memory. The events up to
// BaseSeq are read only for the moves an undo after the base takes back.
type Fold struct {
	Seed    int64
	Events  []Event
	Base    State
	BaseSeq int
	// StateAt returns the state after event seq, for seq < BaseSeq: where an undo
	// after the base goes back to when it takes back a move made before it. Without
	// it such an undo is an error.
	StateAt func(seq int) (State, error)
	// Journal keeps the journal (Journaler) in every state the fold gives; without
	// it only the last event's state keeps it.
	Journal bool
	// Visit, when set, is called with the state after each event replayed, in order.
	// Unless Keep is set the visitor must not keep it: its memory is reused for a
	// later state (Reuser).
	Visit func(seq int, s State) error
	Keep  bool
}

// Run replays the events after BaseSeq up to event upTo (the last when upTo < 0 or
// past the end) and returns the state after it, which keeps the journal of its
// command and of the commands applied to it later. Each move is validated by Apply and
// its recorded hash verified; the first failing event stops the fold with a
// *ReplayError.
func (f *Fold) Run(upTo int) (State, error) {
	if upTo < 0 || upTo > len(f.Events) {
		upTo = len(f.Events)
	}
	if f.BaseSeq < 0 || f.BaseSeq > upTo {
		return nil, fmt.Errorf("fold: base after event %d, asked for event %d", f.BaseSeq, upTo)
	}
	targets, err := undoTargets(f.Events[:upTo])
	if err != nil {
		return nil, err
	}
	// The states an undo after the base goes back to are kept as they are made.
	keep := map[int]State{}
	for seq, t := range targets {
		if seq > f.BaseSeq && t > f.BaseSeq {
			keep[t] = nil
		}
	}
	lastMove := 0
	for i := upTo - 1; i >= f.BaseSeq; i-- {
		if f.Events[i].Kind == KindMove {
			lastMove = i + 1
			break
		}
	}
	journal := f.Journal
	cur := WithJournal(f.Base, journal)
	var spare State // a state this fold made that nothing refers to any more
	own := false    // cur is such a state, once superseded
	rng := new(Rand)
	for seq := f.BaseSeq + 1; seq <= upTo; seq++ {
		e := f.Events[seq-1]
		switch e.Kind {
		case KindAdmin:
		case KindUndo:
			t := targets[seq]
			var back State
			switch {
			case t == f.BaseSeq:
				back = f.Base
			case t > f.BaseSeq:
				back = keep[t]
			case f.StateAt != nil:
				if back, err = f.StateAt(t); err != nil {
					return nil, &ReplayError{Index: seq, Player: e.Player, Command: e.Command, Err: fmt.Errorf("the state it goes back to: %w", err)}
				}
			default:
				return nil, &ReplayError{Index: seq, Player: e.Player, Command: e.Command, Err: errors.New("takes back a move before the replay's start")}
			}
			if own {
				spare = cur
			}
			cur, own = WithJournal(back, journal), false
		default:
			if want := f.Journal || seq == lastMove; want != journal {
				cur, own, journal = WithJournal(cur, want), false, want
			}
			rng.reset(f.Seed, seq, e.Outcomes)
			next, err := stepWith(rng, spare, cur, e.Player, e.Command)
			spare = nil
			if err != nil {
				return nil, &ReplayError{Index: seq, Player: e.Player, Command: e.Command, Err: err}
			}
			if e.Hash != "" && e.Hash != next.Hash() {
				return nil, &ReplayError{Index: seq, Player: e.Player, Command: e.Command, Err: ErrHashMismatch}
			}
			if own {
				spare = cur
			}
			cur, own = next, !f.Keep || f.Visit == nil
			if _, ok := keep[seq]; ok {
				keep[seq], own = next, false
			}
		}
		if f.Visit != nil {
			if err := f.Visit(seq, cur); err != nil {
				return nil, err
			}
		}
	}
	if !journal {
		cur = WithJournal(cur, true) // the commands applied to it later keep theirs
	}
	return cur, nil
}

// undoTargets returns, for each undo event among events (by sequence number), the
// event after which the state it goes back to stands (0: the setup's).
func undoTargets(events []Event) (map[int]int, error) {
	targets := map[int]int{}
	standing := []int{0}
	for i, e := range events {
		switch e.Kind {
		case KindMove:
			standing = append(standing, i+1)
		case KindUndo:
			if len(standing) < 2 {
				return nil, &ReplayError{Index: i + 1, Player: e.Player, Command: e.Command, Err: errors.New("nothing to undo")}
			}
			standing = standing[:len(standing)-1]
			targets[i+1] = standing[len(standing)-1]
		}
	}
	return targets, nil
}
