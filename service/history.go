package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/store"
)

// history gives the states of a game after its earlier events, for what reads them:
// the account of what each move did ("since your last mail"), the board a reader saw
// last, the state an undo goes back to. It replays as few events as it can: from the
// nearest state it holds (the last, the ones the service kept, the ones it replayed
// for this mail), else from the newest snapshot before, else from the setup. Its
// states keep their journal (engine.Journaler). A history belongs to one mail's
// processing (one goroutine).
type history struct {
	s      *Service
	ctx    context.Context
	gameID string
	seed   int64
	// events is the whole log as the engine reads it (events[i] is event i+1).
	events []engine.Event
	// initial is the setup's state; format the game's snapshot format.
	initial engine.State
	format  string
	// known are the states it holds, by the event they follow (0: the setup).
	known map[int]engine.State
}

// at returns the state after event seq (0: the setup's).
func (h *history) at(seq int) (engine.State, error) {
	if st, ok := h.known[seq]; ok {
		return st, nil
	}
	if seq < 0 || seq > len(h.events) {
		return nil, fmt.Errorf("game %s: no event %d", h.gameID, seq)
	}
	base, from := h.initial, 0
	for k, st := range h.known {
		if k <= seq && k > from {
			base, from = st, k
		}
	}
	if k, st, ok := h.snapshot(seq, from); ok {
		base, from = st, k
	}
	f := engine.Fold{Seed: h.seed, Events: h.events, Base: base, BaseSeq: from, StateAt: h.at, Journal: true, Keep: true,
		Visit: func(k int, st engine.State) error {
			h.known[k] = st
			return nil
		}}
	h.s.replays.Add(1)
	h.s.replayed.Add(int64(seq - from))
	st, err := f.Run(seq)
	if err != nil {
		return nil, fmt.Errorf("game %s: replay to event %d: %w", h.gameID, seq, err)
	}
	return st, nil
}

// snapshot returns the newest usable snapshot at or before event seq and after event
// after: its event and its state (ok false when there is none, or it does not
// restore).
func (h *history) snapshot(seq, after int) (int, engine.State, bool) {
	sn, err := h.s.store.LatestSnapshot(h.ctx, h.gameID, h.format, seq)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			h.s.log.Warn("snapshot not readable", "game", h.gameID, "err", err)
		}
		return 0, nil, false
	}
	if sn.Seq <= after {
		return 0, nil, false
	}
	st, err := engine.Restore(h.initial, sn.State, h.events[sn.Seq-1].Hash)
	if err != nil {
		h.s.log.Warn("snapshot ignored", "game", h.gameID, "seq", sn.Seq, "err", err)
		return 0, nil, false
	}
	return sn.Seq, st, true
}

// with returns a copy that holds states beside its own (a run's, after the events it
// appends to events).
func (h *history) with(events []engine.Event, states map[int]engine.State) *history {
	c := *h
	c.events = events
	c.known = make(map[int]engine.State, len(h.known)+len(states))
	for k, st := range h.known {
		c.known[k] = st
	}
	for k, st := range states {
		c.known[k] = st
	}
	return &c
}
