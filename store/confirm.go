package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Consent states of an address in a game (table consents).
const (
	// ConsentAsked: a confirmation request went to the address; nothing more goes
	// there for this game until it answers (and nothing, if it never does).
	ConsentAsked = "asked"
	// ConsentYes: the address confirmed from its own mailbox.
	ConsentYes = "yes"
	// ConsentNo: the address declined; it gets no more mail about the game.
	ConsentNo = "no"
)

// Confirmation is an action waiting for a reply to its one-time address.
type Confirmation struct {
	// Code is the one-time code of the confirmation token.
	Code string
	// Address must send the reply (unless AnyFrom); Actor is whom the commands act
	// for (the address itself, or the host who asked for something that needs
	// Address's consent).
	Address, Actor string
	GameID         string
	// Grant is what the confirmation proves beyond the actor's identity (see the
	// service's grants: "host", "invite", "approve").
	Grant string
	// AnyFrom: a reply from any address confirms (a mailing list's members).
	AnyFrom bool
	// Commands are the command lines run when it is confirmed.
	Commands  []string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Consent is the state of an address in a game (ConsentAsked, ConsentYes,
// ConsentNo).
type Consent struct {
	GameID, Address, State string
}

// applyConsent writes a commit's confirmations and consents.
func applyConsent(ctx context.Context, tx *sql.Tx, c Commit, at time.Time) error {
	for _, code := range c.Confirmed {
		if _, err := tx.ExecContext(ctx, `DELETE FROM confirmations WHERE code = ?`, code); err != nil {
			return fmt.Errorf("use confirmation: %w", err)
		}
	}
	if len(c.Confirmations) > 0 {
		// Expired requests are dropped as new ones come.
		if _, err := tx.ExecContext(ctx, `DELETE FROM confirmations WHERE expires_at < ?`, fmtTime(at)); err != nil {
			return fmt.Errorf("drop expired confirmations: %w", err)
		}
	}
	for _, k := range c.Confirmations {
		cmds, err := json.Marshal(k.Commands)
		if err != nil {
			return fmt.Errorf("store confirmation: %w", err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO confirmations
	(code, address, actor, game_id, grant, any_from, commands, created_at, expires_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, k.Code, lower(k.Address), lower(k.Actor), k.GameID, k.Grant, k.AnyFrom,
			string(cmds), fmtTime(k.CreatedAt), fmtTime(k.ExpiresAt))
		if err != nil {
			if isUnique(err) {
				return fmt.Errorf("store confirmation: %w", ErrDuplicate)
			}
			return fmt.Errorf("store confirmation: %w", err)
		}
	}
	for _, k := range c.Consents {
		_, err := tx.ExecContext(ctx, `INSERT INTO consents (game_id, address, state, at) VALUES (?, ?, ?, ?)
	ON CONFLICT (game_id, address) DO UPDATE SET state = excluded.state, at = excluded.at`,
			k.GameID, lower(k.Address), k.State, fmtTime(at))
		if err != nil {
			return fmt.Errorf("store consent: %w", err)
		}
	}
	return nil
}

func lower(addr string) string { return strings.ToLower(strings.TrimSpace(addr)) }

// ConfirmationOf returns the confirmation with a code that has not expired at
// now, or an error wrapping ErrNotFound.
func (s *Store) ConfirmationOf(ctx context.Context, code string, now time.Time) (Confirmation, error) {
	var k Confirmation
	var cmds string
	var created, expires sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT code, address, actor, game_id, grant, any_from, commands, created_at, expires_at
	FROM confirmations WHERE code = ? AND expires_at >= ?`, code, fmtTime(now)).Scan(
		&k.Code, &k.Address, &k.Actor, &k.GameID, &k.Grant, &k.AnyFrom, &cmds, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return k, fmt.Errorf("confirmation: %w", ErrNotFound)
	}
	if err != nil {
		return k, fmt.Errorf("confirmation: %w", err)
	}
	if err := json.Unmarshal([]byte(cmds), &k.Commands); err != nil {
		return k, fmt.Errorf("confirmation %s: %w", code, err)
	}
	k.CreatedAt, _ = parseTime(created)
	k.ExpiresAt, _ = parseTime(expires)
	return k, nil
}

// PendingConfirmations counts the confirmations waiting for a reply from an
// address at now.
func (s *Store) PendingConfirmations(ctx context.Context, address string, now time.Time) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM confirmations WHERE address = ? AND expires_at >= ?`,
		lower(address), fmtTime(now)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count confirmations: %w", err)
	}
	return n, nil
}

// Consents returns a game's consent states by address.
func (s *Store) Consents(ctx context.Context, gameID string) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT address, state FROM consents WHERE game_id = ?`, gameID)
	if err != nil {
		return nil, fmt.Errorf("consents of %s: %w", gameID, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var a, st string
		if err := rows.Scan(&a, &st); err != nil {
			return nil, fmt.Errorf("consents of %s: %w", gameID, err)
		}
		out[a] = st
	}
	return out, rows.Err()
}
