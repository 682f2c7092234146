// Package backup checks a copy of a turnmail database, as `turnmail backup --check`
// does: it opens the copy read-only, runs SQLite's integrity check and replays
// every game through its engine, comparing the state after each event with the
// hash the event recorded. Taking the copy is store.Store.Backup.
package backup

import (
	"context"
	"fmt"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
)

// Report is what Check found.
type Report struct {
	// Games is how many games were replayed (open games without events have
	// nothing to replay); Events how many events' recorded hashes equal the
	// replayed state's.
	Games, Events int
	// Problems are the differences found, one a line: a failed integrity check,
	// a game that does not replay, an event whose hash differs or is missing.
	Problems []string
}

// OK reports whether the copy is whole.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// Check checks the copy of a database at path with the engines of reg. The error
// is for a copy that cannot be read at all; every difference is in the report.
func Check(ctx context.Context, path string, reg engine.Registry) (Report, error) {
	var r Report
	st, err := store.OpenCopy(ctx, path)
	if err != nil {
		return r, err
	}
	defer st.Close()
	bad, err := st.IntegrityCheck(ctx)
	if err != nil {
		return r, err
	}
	for _, b := range bad {
		r.Problems = append(r.Problems, "integrity check: "+b)
	}
	games, err := st.Games(ctx)
	if err != nil {
		return r, fmt.Errorf("check %s: %w", path, err)
	}
	for _, g := range games {
		if err := checkGame(ctx, st, g.ID, reg, &r); err != nil {
			return r, fmt.Errorf("check %s: %w", path, err)
		}
	}
	return r, nil
}

// checkGame replays one game into r.
func checkGame(ctx context.Context, st *store.Store, id string, reg engine.Registry, r *Report) error {
	g, players, err := st.Game(ctx, id)
	if err != nil {
		return err
	}
	events, err := st.Events(ctx, id)
	if err != nil {
		return err
	}
	if g.Status == store.GameOpen && len(events) == 0 {
		return nil // not started: no state yet
	}
	l := service.Loaded{Game: g, Players: players, Events: events}
	states, err := engine.ReplayAll(reg, l.Archive(), -1)
	if err != nil {
		r.Problems = append(r.Problems, fmt.Sprintf("game %s (%s): %v", id, g.Kind, err))
		return nil
	}
	r.Games++
	for i, e := range events {
		switch got := states[i+1].Hash(); {
		case e.Hash == "":
			r.Problems = append(r.Problems, fmt.Sprintf("game %s event %d (%s: %q): no recorded hash", id, e.Seq, e.Player, e.Command))
		case got != e.Hash:
			r.Problems = append(r.Problems, fmt.Sprintf("game %s event %d (%s: %q): the replayed state's hash %s differs from the recorded %s", id, e.Seq, e.Player, e.Command, got, e.Hash))
		default:
			r.Events++
		}
	}
	return nil
}
