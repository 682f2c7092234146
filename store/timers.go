package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Timer identifies one deadline timer of a seat: a reminder or the expiry of the
// deadline that began with event StartSeq (0: the start of the game). It fires once.
type Timer struct {
	Seat     int
	StartSeq int
	// Kind is "expire" or "remind-<duration>" (the service's names).
	Kind    string
	FiredAt time.Time // zero means now
}

// commitExtras writes the parts of a Commit beyond events, mail and status, inside
// its transaction.
func commitExtras(ctx context.Context, tx *sql.Tx, c Commit, at time.Time) error {
	for _, seat := range c.RemoveSeats {
		if _, err := tx.ExecContext(ctx, `DELETE FROM players WHERE game_id = ? AND seat = ?`, c.GameID, seat); err != nil {
			return fmt.Errorf("remove seat %d: %w", seat, err)
		}
	}
	for _, p := range c.Players {
		if p.Role == "" {
			p.Role = RolePlayer
		}
		if p.Role != RolePlayer && p.Role != RoleObserver {
			return fmt.Errorf("player %q: invalid role %q", p.Name, p.Role)
		}
		if p.Name == "" || p.Email == "" {
			return fmt.Errorf("seat %d needs a name and an email", p.Seat)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO players (game_id, seat, name, email, role, active, epoch, unreachable)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (game_id, seat) DO UPDATE SET name = excluded.name, email = excluded.email, role = excluded.role,
		active = excluded.active, epoch = excluded.epoch, unreachable = excluded.unreachable`,
			c.GameID, p.Seat, p.Name, strings.ToLower(strings.TrimSpace(p.Email)), p.Role, p.Active, p.Epoch, p.Unreachable)
		if err != nil {
			if isUnique(err) {
				return fmt.Errorf("player %q at seat %d: name taken: %w", p.Name, p.Seat, ErrDuplicate)
			}
			return fmt.Errorf("write player %q: %w", p.Name, err)
		}
	}
	for _, t := range c.Timers {
		fired := t.FiredAt
		if fired.IsZero() {
			fired = at
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO timers (game_id, seat, start_seq, kind, fired_at) VALUES (?, ?, ?, ?, ?)`,
			c.GameID, t.Seat, t.StartSeq, t.Kind, fmtTime(fired))
		if err != nil {
			if isUnique(err) {
				return fmt.Errorf("timer %s seat %d from event %d fired before: %w", t.Kind, t.Seat, t.StartSeq, ErrDuplicate)
			}
			return fmt.Errorf("mark timer: %w", err)
		}
	}
	if len(c.SetupOutcomes) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE games SET setup_outcomes = ? WHERE id = ?`, string(c.SetupOutcomes), c.GameID); err != nil {
			return fmt.Errorf("set setup outcomes: %w", err)
		}
	}
	if len(c.Settings) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE games SET settings = ? WHERE id = ?`, string(c.Settings), c.GameID); err != nil {
			return fmt.Errorf("set settings: %w", err)
		}
	}
	return nil
}

// Timers returns the timers of a game that fired, in the order they fired.
func (s *Store) Timers(ctx context.Context, gameID string) ([]Timer, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seat, start_seq, kind, fired_at FROM timers WHERE game_id = ? ORDER BY fired_at, rowid`, gameID)
	if err != nil {
		return nil, fmt.Errorf("timers of %s: %w", gameID, err)
	}
	defer rows.Close()
	var out []Timer
	for rows.Next() {
		var t Timer
		var fired sql.NullString
		if err := rows.Scan(&t.Seat, &t.StartSeq, &t.Kind, &fired); err != nil {
			return nil, fmt.Errorf("timers of %s: %w", gameID, err)
		}
		if t.FiredAt, err = parseTime(fired); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// dueNever is the stored due_at of a running game with no reminder or expiry
// pending: it sorts after every time. The empty string (the column's default,
// and what the triggers of migration 4 write) sorts before every time: not
// known, look now.
const dueNever = "never"

// DueGame is a running game a scheduler tick must look at (see DueGames and
// SetDue).
type DueGame struct {
	ID string
	// Gen identifies the stored due time the game was found by.
	Gen int64
	// At is, for SetDue, when the game's next timer can fire; the zero time when
	// none is pending. DueGames leaves it zero.
	At time.Time
}

// DueGames returns the running games whose next deadline timer (a reminder or an
// expiry) is due at now, or is not known since their last event, status or
// settings change; with the zero time, every running game. It reads one range of
// an index: its cost follows the number of games returned, not of games stored.
func (s *Store) DueGames(ctx context.Context, now time.Time) ([]DueGame, error) {
	q := `SELECT id, due_gen FROM games WHERE status = 'running' AND due_at <= ? ORDER BY due_at, id`
	args := []any{fmtTime(now)}
	if now.IsZero() {
		q, args = `SELECT id, due_gen FROM games WHERE status = 'running' ORDER BY id`, nil
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("due games: %w", err)
	}
	defer rows.Close()
	var out []DueGame
	for rows.Next() {
		var g DueGame
		if err := rows.Scan(&g.ID, &g.Gen); err != nil {
			return nil, fmt.Errorf("due games: %w", err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("due games: %w", err)
	}
	return out, nil
}

// SetDue records, in one transaction, when the next deadline timer of each game
// can fire (At), as computed from what was read after DueGames returned the game.
// A game that changed since (another event, a status or settings change) is left
// as it is, so that a stale time never hides a timer: it stays due and the next
// tick computes it again. SetDue returns how many times it stored.
func (s *Store) SetDue(ctx context.Context, games []DueGame) (int, error) {
	if len(games) == 0 {
		return 0, nil
	}
	stored := 0
	err := s.write(ctx, func(tx *sql.Tx) error {
		stored = 0
		for _, g := range games {
			at := dueNever
			if !g.At.IsZero() {
				at = fmtTime(g.At)
			}
			res, err := tx.ExecContext(ctx, `UPDATE games SET due_at = ? WHERE id = ? AND due_gen = ? AND status = 'running'`, at, g.ID, g.Gen)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			stored += int(n)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("set due times: %w", err)
	}
	return stored, nil
}
