package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	netmail "net/mail"
	"strings"
	"time"
)

// Outbox statuses.
const (
	OutboxPending = "pending" // waiting for its next attempt
	OutboxSent    = "sent"    // accepted by the SMTP server
	OutboxFailed  = "failed"  // given up on
)

// OutMail is a mail waiting to be sent, or sent.
type OutMail struct {
	ID     int64
	GameID string // "" for mail about no game
	Kind   string // what it is ("state", "refusal" …), for the host's view
	From   string // envelope sender
	To     []string
	Raw    []byte // the complete message, headers and body
	// MessageID is the Message-ID of Raw without brackets, read from Raw by the
	// store when the mail is queued ("" when it has none).
	MessageID string
	Status    string // set by the store: OutboxPending when queued
	// Attempts counts the failed delivery attempts (MarkRetry and MarkFailed).
	Attempts    int
	NextAttempt time.Time // zero means now
	LastError   string
	CreatedAt   time.Time // zero means now
	SentAt      *time.Time
	// Class says why the mail is sent (ClassAnswer, ClassNotification,
	// ClassContact; "" for none), Cause whose mail caused it and Idle whether it
	// answers a mail that changed nothing: a Commit with Limits checks them (see
	// Limits). They are not stored with the mail.
	Class, Cause string
	Idle         bool
	// Thread marks a mail of a game's thread (not a lobby mail about the game before
	// it started): queuing it records it as its reader's (see Reader). Seen is the
	// last event a state mail accounts for (0 for other mail).
	Thread bool
	Seen   int
}

// Reader is what the store remembers of the mail of one game to one address:
// queuing a Thread mail with a GameID, one recipient and a Message-ID records it.
type Reader struct {
	// Root is the Message-ID (without brackets) of the first mail of the game the
	// address was sent: the root of its thread. Last is that of the latest.
	Root, Last string
	// Seen is the last event a state mail to the address accounted for.
	Seen int
}

// Readers returns the readers of a game by lower-case address.
func (s *Store) Readers(ctx context.Context, gameID string) (map[string]Reader, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT addr, root_id, last_id, seen_seq FROM readers WHERE game_id = ?`, gameID)
	if err != nil {
		return nil, fmt.Errorf("readers of %s: %w", gameID, err)
	}
	defer rows.Close()
	out := map[string]Reader{}
	for rows.Next() {
		var addr string
		var r Reader
		if err := rows.Scan(&addr, &r.Root, &r.Last, &r.Seen); err != nil {
			return nil, fmt.Errorf("readers of %s: %w", gameID, err)
		}
		out[addr] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("readers of %s: %w", gameID, err)
	}
	return out, nil
}

// noteReaders records queued game mails in the readers table: the first mail to
// an address is its root, every mail its last, a state mail's Seen its seen_seq.
func noteReaders(ctx context.Context, tx *sql.Tx, mails []preparedMail) error {
	for _, m := range mails {
		if !m.Thread || m.GameID == "" || m.MessageID == "" || len(m.To) != 1 {
			continue
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO readers (game_id, addr, root_id, last_id, seen_seq)
	VALUES (?, ?, ?, ?, ?)
	ON CONFLICT (game_id, addr) DO UPDATE SET last_id = excluded.last_id, seen_seq = max(seen_seq, excluded.seen_seq)`,
			m.GameID, strings.ToLower(m.To[0]), m.MessageID, m.MessageID, m.Seen)
		if err != nil {
			return fmt.Errorf("note reader of %s: %w", m.GameID, err)
		}
	}
	return nil
}

type preparedMail struct {
	OutMail
	rcpt string
}

// prepareMails validates mails and fills in their defaults.
func prepareMails(mails []OutMail) ([]preparedMail, error) {
	out := make([]preparedMail, 0, len(mails))
	t := now()
	for i, m := range mails {
		if m.From == "" || len(m.To) == 0 || len(m.Raw) == 0 {
			return nil, fmt.Errorf("outbox mail %d: from, recipients and raw message are required", i)
		}
		rcpt, err := json.Marshal(m.To)
		if err != nil {
			return nil, fmt.Errorf("outbox mail %d: %w", i, err)
		}
		m.Status = OutboxPending
		m.MessageID = HeaderMessageID(m.Raw)
		if m.CreatedAt.IsZero() {
			m.CreatedAt = t
		}
		if m.NextAttempt.IsZero() {
			m.NextAttempt = m.CreatedAt
		}
		out = append(out, preparedMail{OutMail: m, rcpt: string(rcpt)})
	}
	return out, nil
}

// insertMails queues prepared mails inside tx.
func insertMails(ctx context.Context, tx *sql.Tx, mails []preparedMail) error {
	if len(mails) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO outbox
	(game_id, kind, from_addr, rcpt, raw, status, attempts, next_attempt, last_error, created_at, message_id)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("enqueue mail: %w", err)
	}
	defer stmt.Close()
	for _, m := range mails {
		_, err := stmt.ExecContext(ctx, nullString(m.GameID), m.Kind, m.From, m.rcpt, m.Raw, m.Status,
			m.Attempts, fmtTime(m.NextAttempt), m.LastError, fmtTime(m.CreatedAt), m.MessageID)
		if err != nil {
			return fmt.Errorf("enqueue mail to %v: %w", m.To, err)
		}
	}
	return noteReaders(ctx, tx, mails)
}

// Enqueue queues mails in one transaction and wakes Notify.
func (s *Store) Enqueue(ctx context.Context, mails ...OutMail) error {
	prepared, err := prepareMails(mails)
	if err != nil {
		return fmt.Errorf("enqueue: %w", err)
	}
	if len(prepared) == 0 {
		return nil
	}
	err = s.write(ctx, func(tx *sql.Tx) error { return insertMails(ctx, tx, prepared) })
	if err != nil {
		return fmt.Errorf("enqueue: %w", err)
	}
	s.wake()
	return nil
}

const outboxColumns = `id, game_id, kind, from_addr, rcpt, raw, status, attempts, next_attempt, last_error, created_at, sent_at, message_id`

func scanOutMail(sc interface{ Scan(...any) error }) (OutMail, error) {
	var (
		m                     OutMail
		gameID                sql.NullString
		rcpt                  string
		next, created, sentAt sql.NullString
	)
	if err := sc.Scan(&m.ID, &gameID, &m.Kind, &m.From, &rcpt, &m.Raw, &m.Status, &m.Attempts,
		&next, &m.LastError, &created, &sentAt, &m.MessageID); err != nil {
		return OutMail{}, err
	}
	m.GameID = gameID.String
	if err := json.Unmarshal([]byte(rcpt), &m.To); err != nil {
		return OutMail{}, fmt.Errorf("outbox %d recipients: %w", m.ID, err)
	}
	var err error
	if m.NextAttempt, err = parseTime(next); err != nil {
		return OutMail{}, err
	}
	if m.CreatedAt, err = parseTime(created); err != nil {
		return OutMail{}, err
	}
	if m.SentAt, err = parseTimePtr(sentAt); err != nil {
		return OutMail{}, err
	}
	return m, nil
}

func (s *Store) queryOutbox(ctx context.Context, query string, args ...any) ([]OutMail, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var mails []OutMail
	for rows.Next() {
		m, err := scanOutMail(rows)
		if err != nil {
			return nil, err
		}
		mails = append(mails, m)
	}
	return mails, rows.Err()
}

// DueOutbox returns up to limit pending mails whose next attempt is at or before
// now, earliest first (limit <= 0 means all).
func (s *Store) DueOutbox(ctx context.Context, now time.Time, limit int) ([]OutMail, error) {
	if limit <= 0 {
		limit = -1
	}
	mails, err := s.queryOutbox(ctx, `SELECT `+outboxColumns+` FROM outbox
	WHERE status = 'pending' AND next_attempt <= ? ORDER BY next_attempt, id LIMIT ?`, fmtTime(now), limit)
	if err != nil {
		return nil, fmt.Errorf("due outbox: %w", err)
	}
	return mails, nil
}

// OutboxByMessageID returns the mails queued with Message-ID id (without
// brackets), in the order they were queued; none for "".
func (s *Store) OutboxByMessageID(ctx context.Context, id string) ([]OutMail, error) {
	if id == "" {
		return nil, nil
	}
	mails, err := s.queryOutbox(ctx, `SELECT `+outboxColumns+` FROM outbox
	WHERE message_id = ? AND message_id != '' ORDER BY id`, id)
	if err != nil {
		return nil, fmt.Errorf("outbox by message id: %w", err)
	}
	return mails, nil
}

// OutboxMail returns the outbox mail with the given id; ErrNotFound when there is none.
func (s *Store) OutboxMail(ctx context.Context, id int64) (OutMail, error) {
	mails, err := s.queryOutbox(ctx, `SELECT `+outboxColumns+` FROM outbox WHERE id = ?`, id)
	if err != nil {
		return OutMail{}, fmt.Errorf("outbox mail %d: %w", id, err)
	}
	if len(mails) == 0 {
		return OutMail{}, fmt.Errorf("outbox mail %d: %w", id, ErrNotFound)
	}
	return mails[0], nil
}

// HeaderMessageID reads the Message-ID of a raw mail without interpreting its body,
// without brackets; "" when there is none.
func HeaderMessageID(raw []byte) string {
	m, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	return strings.Trim(strings.TrimSpace(m.Header.Get("Message-Id")), "<>")
}

// NextOutboxAttempt returns the earliest next attempt of any pending mail; ok is
// false when nothing is pending.
func (s *Store) NextOutboxAttempt(ctx context.Context) (next time.Time, ok bool, err error) {
	var v sql.NullString
	if err := s.db.QueryRowContext(ctx, `SELECT min(next_attempt) FROM outbox WHERE status = 'pending'`).Scan(&v); err != nil {
		return time.Time{}, false, fmt.Errorf("next outbox attempt: %w", err)
	}
	if !v.Valid {
		return time.Time{}, false, nil
	}
	next, err = parseTime(v)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next outbox attempt: %w", err)
	}
	return next, true, nil
}

// Outbox returns the mails of one game ("" = all games), optionally only those with
// the given status ("" = all), in the order they were queued.
func (s *Store) Outbox(ctx context.Context, gameID string, status string) ([]OutMail, error) {
	mails, err := s.queryOutbox(ctx, `SELECT `+outboxColumns+` FROM outbox
	WHERE (?1 = '' OR game_id = ?1) AND (?2 = '' OR status = ?2) ORDER BY id`, gameID, status)
	if err != nil {
		return nil, fmt.Errorf("outbox of %q: %w", gameID, err)
	}
	return mails, nil
}

// OutboxCounts counts the mails of one game ("" = all games) by status, without
// loading them: what the host view and the metrics need.
func (s *Store) OutboxCounts(ctx context.Context, gameID string) (map[string]int, error) {
	counts := map[string]int{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT status, count(*) FROM outbox WHERE (?1 = '' OR game_id = ?1) GROUP BY status`, gameID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var status string
			var n int
			if err := rows.Scan(&status, &n); err != nil {
				return err
			}
			counts[status] = n
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("count outbox of %q: %w", gameID, err)
	}
	return counts, nil
}

// MarkSent records that a pending mail was delivered at at.
func (s *Store) MarkSent(ctx context.Context, id int64, at time.Time) error {
	return s.MarkSentAll(ctx, []SentMark{{ID: id, At: at}})
}

// SentMark is a mail delivered at At.
type SentMark struct {
	ID int64
	At time.Time
}

// MarkSentAll records that pending mails were delivered, in one transaction:
// all of them, or — when one is missing (ErrNotFound) or no longer pending —
// none.
func (s *Store) MarkSentAll(ctx context.Context, marks []SentMark) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, m := range marks {
			err := settleMailTx(ctx, tx, m.ID, `UPDATE outbox SET status = 'sent', sent_at = ? WHERE id = ? AND status = 'pending'`, fmtTime(m.At), m.ID)
			if err != nil {
				return fmt.Errorf("mail %d: %w", m.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("mark outbox sent: %w", err)
	}
	return nil
}

// MarkRetry records a failed attempt on a pending mail and schedules the next one.
func (s *Store) MarkRetry(ctx context.Context, id int64, next time.Time, errText string) error {
	err := s.settleMail(ctx, id, `UPDATE outbox SET attempts = attempts + 1, next_attempt = ?, last_error = ?
	WHERE id = ? AND status = 'pending'`, fmtTime(next), errText, id)
	if err != nil {
		return fmt.Errorf("mark outbox %d for retry: %w", id, err)
	}
	return nil
}

// MarkFailed records a last failed attempt on a pending mail and gives up on it.
func (s *Store) MarkFailed(ctx context.Context, id int64, errText string) error {
	err := s.settleMail(ctx, id, `UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?
	WHERE id = ? AND status = 'pending'`, errText, id)
	if err != nil {
		return fmt.Errorf("mark outbox %d failed: %w", id, err)
	}
	return nil
}

// settleMail runs an update on one pending outbox row. A missing row is ErrNotFound;
// a row that is no longer pending is an error too.
func (s *Store) settleMail(ctx context.Context, id int64, query string, args ...any) error {
	return s.write(ctx, func(tx *sql.Tx) error { return settleMailTx(ctx, tx, id, query, args...) })
}

// settleMailTx runs query, which updates pending mail id, and says why when it
// changed nothing: ErrNotFound, or the mail is no longer pending.
func settleMailTx(ctx context.Context, tx *sql.Tx, id int64, query string, args ...any) error {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return err
	}
	if err := mustAffect(res); !errors.Is(err, ErrNotFound) {
		return err
	}
	var status string
	err = tx.QueryRowContext(ctx, `SELECT status FROM outbox WHERE id = ?`, id).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("mail is %s, not pending", status)
}

// OldestPendingOutbox returns when the oldest mail still waiting to be sent was
// queued (ok is false when none waits).
func (s *Store) OldestPendingOutbox(ctx context.Context) (at time.Time, ok bool, err error) {
	var oldest sql.NullString
	if err := s.db.QueryRowContext(ctx, `SELECT min(created_at) FROM outbox WHERE status = 'pending'`).Scan(&oldest); err != nil {
		return time.Time{}, false, fmt.Errorf("oldest pending outbox: %w", err)
	}
	at, err = parseTime(oldest)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("oldest pending outbox: %w", err)
	}
	return at, oldest.Valid, nil
}
