package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Mail classes: why a queued mail is sent, which decides the limits it meets (see
// Limits). Every mail the service queues while processing a mail has one.
const (
	// ClassAnswer is a mail to the writer of the mail being processed.
	ClassAnswer = "answer"
	// ClassNotification is a mail to a participant of a game caused by someone
	// else's action (another player's move, a deadline): only the loop guard
	// NotificationsPerHour stops it, so a player gets their state.
	ClassNotification = "notification"
	// ClassContact is a mail to a third party named by the writer (an invitation, a
	// confirmation request): capped per recipient, and, when the recipient never
	// wrote to us, per writer and globally.
	ClassContact = "contact"
	// ClassChat is a player's message relayed to other players of their game (say):
	// capped per writer (ChatsPerHour), whose Cause it names.
	ClassChat = "chat"
)

// Limits are the caps on queued mail, checked in the transaction that queues it
// (so concurrent processes and restarts cannot exceed them) against the mail log
// (table mail_log). A zero field means no cap. Times are the Commit's Now.
type Limits struct {
	// AnswersPerHour and AnswersPerDay cap the answers to one address.
	AnswersPerHour, AnswersPerDay int
	// IdleAnswersPerHour is the loop guard: answers to one address whose mail
	// changed nothing, counted over the last hour since the last answer to a mail
	// that changed something. An auto-responder never changes anything.
	IdleAnswersPerHour int
	// IdleAnswersPerDay caps the answers that changed nothing to one address in a
	// day: a forged From cannot make us mail a victim more often.
	IdleAnswersPerDay int
	// NotificationsPerHour is the loop guard of notifications to one address.
	NotificationsPerHour int
	// ContactsPerAddressPerDay caps the contact mails to one address in a day.
	ContactsPerAddressPerDay int
	// FirstContactsPerWriterPerDay caps, per writer (a host), the contact mails to
	// addresses that never wrote to us, in a day.
	FirstContactsPerWriterPerDay int
	// FirstContactsPerDay caps all contact mails to addresses that never wrote to
	// us, in a day.
	FirstContactsPerDay int
	// ChatsPerHour caps the chat mails one writer causes in an hour: one per
	// recipient of each message relayed.
	ChatsPerHour int
}

// DefaultLimits are caps a friendly group never meets.
var DefaultLimits = Limits{
	AnswersPerHour:               30,
	AnswersPerDay:                200,
	IdleAnswersPerHour:           5,
	IdleAnswersPerDay:            20,
	NotificationsPerHour:         120,
	ContactsPerAddressPerDay:     3,
	FirstContactsPerWriterPerDay: 20,
	FirstContactsPerDay:          100,
	ChatsPerHour:                 60,
}

// mailLogKeep is how long the mail log keeps a row: longer than any window.
const mailLogKeep = 48 * time.Hour

// limitMail checks queued mail m against lim at now inside tx, and logs it when it
// may go. It returns why it may not ("" when it may). A mail without a class, or a
// commit without limits, is logged and not checked.
func limitMail(ctx context.Context, tx *sql.Tx, lim *Limits, now time.Time, m preparedMail) (string, error) {
	if len(m.To) != 1 || m.Class == "" {
		return "", nil
	}
	rcpt := strings.ToLower(strings.TrimSpace(m.To[0]))
	first := false
	if m.Class == ClassContact {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM writers WHERE addr = ?`, rcpt).Scan(&n); err != nil {
			return "", fmt.Errorf("mail limits: %w", err)
		}
		first = n == 0
	}
	if lim != nil {
		why, err := overLimit(ctx, tx, lim, now, m, rcpt, first)
		if err != nil || why != "" {
			return why, err
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO mail_log (at, rcpt, class, idle, first, cause) VALUES (?, ?, ?, ?, ?, ?)`,
		now.UnixMilli(), rcpt, m.Class, m.Idle, first, strings.ToLower(m.Cause))
	if err != nil {
		return "", fmt.Errorf("mail log: %w", err)
	}
	return "", nil
}

// overLimit says which of lim's caps mail m to rcpt would exceed ("" when none).
func overLimit(ctx context.Context, tx *sql.Tx, lim *Limits, now time.Time, m preparedMail, rcpt string, first bool) (string, error) {
	hour, day := now.Add(-time.Hour).UnixMilli(), now.Add(-24*time.Hour).UnixMilli()
	type check struct {
		max   int
		why   string
		query string
		args  []any
	}
	var checks []check
	switch m.Class {
	case ClassAnswer:
		checks = append(checks,
			check{lim.AnswersPerHour, "answers per hour", `SELECT count(*) FROM mail_log WHERE rcpt = ? AND class = 'answer' AND at > ?`, []any{rcpt, hour}},
			check{lim.AnswersPerDay, "answers per day", `SELECT count(*) FROM mail_log WHERE rcpt = ? AND class = 'answer' AND at > ?`, []any{rcpt, day}})
		if m.Idle {
			checks = append(checks,
				check{lim.IdleAnswersPerHour, "answers per hour to mails that changed nothing (loop guard)", `SELECT count(*) FROM mail_log
	WHERE rcpt = ?1 AND class = 'answer' AND idle AND at > max(?2,
		coalesce((SELECT max(at) FROM mail_log WHERE rcpt = ?1 AND class = 'answer' AND NOT idle), 0))`, []any{rcpt, hour}},
				check{lim.IdleAnswersPerDay, "answers per day to mails that changed nothing", `SELECT count(*) FROM mail_log WHERE rcpt = ? AND class = 'answer' AND idle AND at > ?`, []any{rcpt, day}})
		}
	case ClassNotification:
		checks = append(checks, check{lim.NotificationsPerHour, "notifications per hour (loop guard)", `SELECT count(*) FROM mail_log WHERE rcpt = ? AND class = 'notification' AND at > ?`, []any{rcpt, hour}})
	case ClassContact:
		checks = append(checks, check{lim.ContactsPerAddressPerDay, "mails per day to an address that did not ask for them", `SELECT count(*) FROM mail_log WHERE rcpt = ? AND class = 'contact' AND at > ?`, []any{rcpt, day}})
		if first {
			checks = append(checks,
				check{lim.FirstContactsPerWriterPerDay, "first-contact mails per day caused by " + m.Cause, `SELECT count(*) FROM mail_log WHERE cause = ? AND first AND at > ?`, []any{strings.ToLower(m.Cause), day}},
				check{lim.FirstContactsPerDay, "first-contact mails per day (all hosts)", `SELECT count(*) FROM mail_log WHERE first AND at > ?`, []any{day}})
		}
	case ClassChat:
		checks = append(checks, check{lim.ChatsPerHour, "chat mails per hour caused by " + m.Cause, chatsQuery, []any{strings.ToLower(m.Cause), hour}})
	default:
		return "", fmt.Errorf("mail limits: unknown class %q", m.Class)
	}
	for _, c := range checks {
		if c.max <= 0 {
			continue
		}
		var n int
		if err := tx.QueryRowContext(ctx, c.query, c.args...).Scan(&n); err != nil {
			return "", fmt.Errorf("mail limits: %w", err)
		}
		if n >= c.max {
			return fmt.Sprintf("%s to %s not sent: limit of %d %s reached", m.Kind, rcpt, c.max, c.why), nil
		}
	}
	return "", nil
}

// noteWriter records that addr wrote to us (the mail log's "never wrote" test), and
// drops mail log rows older than any window.
func noteWriter(ctx context.Context, tx *sql.Tx, addr string, now time.Time) error {
	addr = strings.ToLower(strings.TrimSpace(addr))
	if addr != "" {
		_, err := tx.ExecContext(ctx, `INSERT INTO writers (addr, last_at) VALUES (?, ?)
	ON CONFLICT (addr) DO UPDATE SET last_at = max(last_at, excluded.last_at)`, addr, now.UnixMilli())
		if err != nil {
			return fmt.Errorf("note writer: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM mail_log WHERE at < ?`, now.Add(-mailLogKeep).UnixMilli()); err != nil {
		return fmt.Errorf("prune mail log: %w", err)
	}
	return nil
}

// chatsQuery counts the chat mails a writer caused since a time (see ChatsPerHour).
const chatsQuery = `SELECT count(*) FROM mail_log WHERE class = 'chat' AND cause = ? AND at > ?`

// ChatsSince counts the chat mails writer caused since a time, as the ChatsPerHour
// limit counts them: the service checks it to refuse a message in words before it
// queues one that the limit would hold back.
func (s *Store) ChatsSince(ctx context.Context, writer string, since time.Time) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, chatsQuery, strings.ToLower(writer), since.UnixMilli()).Scan(&n); err != nil {
		return 0, fmt.Errorf("count chats: %w", err)
	}
	return n, nil
}
