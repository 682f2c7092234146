package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Snapshot is a game's state after event Seq as an engine encodes it: an optimisation
// that spares replaying the events before it, never the truth (engine.Restore checks
// it against Hash, the hash recorded with event Seq).
type Snapshot struct {
	GameID string
	Seq    int
	// Format names the engine and the encoding (engine.SnapshotFormat): a program
	// reads only the snapshots of its own format.
	Format string
	Hash   string
	State  []byte
	// Extra is what the service derives from the log up to Seq, as JSON (nil: none).
	Extra json.RawMessage
}

// KeepSnapshots is how many snapshots of a game are kept: the newest, and the ones
// before it for a replay that must begin earlier (a reader's account of a long turn).
const KeepSnapshots = 3

// writeSnapshot stores sn of game id, whose last event is last, inside tx, and drops
// the game's snapshots older than the KeepSnapshots newest.
func writeSnapshot(ctx context.Context, tx *sql.Tx, id string, last int, sn Snapshot) error {
	if sn.GameID == "" {
		sn.GameID = id
	}
	switch {
	case sn.GameID != id:
		return fmt.Errorf("snapshot of game %s in a commit of %s", sn.GameID, id)
	case sn.Seq < 1 || sn.Seq > last:
		return fmt.Errorf("snapshot after event %d; the game's last is %d", sn.Seq, last)
	case sn.Format == "" || len(sn.State) == 0:
		return errors.New("snapshot without a format or a state")
	}
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO snapshots (game_id, seq, format, hash, state, extra) VALUES (?, ?, ?, ?, ?, ?)`,
		id, sn.Seq, sn.Format, sn.Hash, sn.State, nullJSON(sn.Extra))
	if err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM snapshots WHERE game_id = ?1 AND seq < coalesce(
	(SELECT seq FROM snapshots WHERE game_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2), 0)`, id, KeepSnapshots-1)
	if err != nil {
		return fmt.Errorf("prune snapshots: %w", err)
	}
	return nil
}

// LatestSnapshot returns the newest snapshot of a game in format taken at or before
// event upTo; ErrNotFound when there is none.
func (s *Store) LatestSnapshot(ctx context.Context, gameID, format string, upTo int) (Snapshot, error) {
	sn := Snapshot{GameID: gameID, Format: format}
	var extra sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT seq, hash, state, extra FROM snapshots
	WHERE game_id = ? AND format = ? AND seq <= ? ORDER BY seq DESC LIMIT 1`, gameID, format, upTo).Scan(&sn.Seq, &sn.Hash, &sn.State, &extra)
	if errors.Is(err, sql.ErrNoRows) {
		return Snapshot{}, ErrNotFound
	}
	if err != nil {
		return Snapshot{}, fmt.Errorf("snapshot of %s: %w", gameID, err)
	}
	sn.Extra = rawJSON(extra)
	return sn, nil
}
