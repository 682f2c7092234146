package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Held is a mail the limits held back (see Limits): to whom, of which game and kind,
// why, and when mail to its reader resumes.
type Held struct {
	ID                      int64
	At, Until               time.Time
	Rcpt, GameID, Kind, Why string
	Class                   string
	Noticed                 bool
}

const heldColumns = `id, at, until, rcpt, game_id, kind, why, class, noticed`

func scanHeld(rows *sql.Rows) ([]Held, error) {
	defer rows.Close()
	var out []Held
	for rows.Next() {
		var h Held
		var at, until int64
		if err := rows.Scan(&h.ID, &at, &until, &h.Rcpt, &h.GameID, &h.Kind, &h.Why, &h.Class, &h.Noticed); err != nil {
			return nil, err
		}
		h.At, h.Until = time.UnixMilli(at).UTC(), time.UnixMilli(until).UTC()
		out = append(out, h)
	}
	return out, rows.Err()
}

// HeldMail returns the mails of a game that the limits held back since a time,
// newest first (what the host sees in turnmail games).
func (s *Store) HeldMail(ctx context.Context, gameID string, since time.Time) ([]Held, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+heldColumns+` FROM held WHERE game_id = ? AND at >= ? ORDER BY at DESC, id DESC`, gameID, since.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("held mail of %s: %w", gameID, err)
	}
	out, err := scanHeld(rows)
	if err != nil {
		return nil, fmt.Errorf("held mail of %s: %w", gameID, err)
	}
	return out, nil
}

// HoldNotice is what a reader is owed a notice about: their held mails not told yet
// (oldest first). Told is true when a notice already sent covers them (it named a
// time when mail resumes no earlier than theirs, and that time is not past): then
// marking them told is all there is to do.
type HoldNotice struct {
	Rcpt string
	Held []Held
	Told bool
}

// HoldsToNotice returns, reader by reader, the held mails whose reader was not told
// yet, up to now.
func (s *Store) HoldsToNotice(ctx context.Context, now time.Time) ([]HoldNotice, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+heldColumns+` FROM held WHERE NOT noticed AND at <= ? ORDER BY rcpt, at, id`, now.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("held mail to tell: %w", err)
	}
	held, err := scanHeld(rows)
	if err != nil {
		return nil, fmt.Errorf("held mail to tell: %w", err)
	}
	var out []HoldNotice
	for _, h := range held {
		if len(out) == 0 || out[len(out)-1].Rcpt != h.Rcpt {
			out = append(out, HoldNotice{Rcpt: h.Rcpt})
		}
		n := &out[len(out)-1]
		n.Held = append(n.Held, h)
	}
	for i := range out {
		n := &out[i]
		latest := n.Held[0].Until
		for _, h := range n.Held {
			if h.Until.After(latest) {
				latest = h.Until
			}
		}
		var told int
		err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM held WHERE rcpt = ? AND noticed AND class != 'contact' AND until >= ? AND until > ?`,
			n.Rcpt, latest.UnixMilli(), now.UnixMilli()).Scan(&told)
		if err != nil {
			return nil, fmt.Errorf("held mail to tell: %w", err)
		}
		n.Told = told > 0
	}
	return out, nil
}

// markNoticed marks the held mails of readers up to now as told, inside tx.
func markNoticed(ctx context.Context, tx *sql.Tx, rcpts []string, now time.Time) error {
	for _, r := range rcpts {
		_, err := tx.ExecContext(ctx, `UPDATE held SET noticed = 1 WHERE rcpt = ? AND NOT noticed AND at <= ?`,
			strings.ToLower(strings.TrimSpace(r)), now.UnixMilli())
		if err != nil {
			return fmt.Errorf("mark held mail told: %w", err)
		}
	}
	return nil
}
