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
	// ClassPlay is a mail an accepted move (or a deadline's) causes: the answer to
	// its writer and the state mails to the other players, above all the one asking
	// the next player to move. No cap holds it back: an authenticated player's move
	// is neither a loop nor a forgery, and a game must never wait for a player who
	// was not told it is their move.
	ClassPlay = "play"
	// ClassHold is the notice telling a reader that mail to them was held back and
	// when it resumes: not capped, sent once per hold (see Store.HoldsToNotice).
	ClassHold = "hold"
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
// may go. It returns why it may not ("" when it may), and records the mail held back
// (table held) with when its reader's mail resumes. A mail without a class, or a
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
		why, until, err := overLimit(ctx, tx, lim, now, m, rcpt, first)
		if err != nil {
			return "", err
		}
		if why != "" {
			// A stranger whose contact mail is held back is not mailed about it either
			// (that is what the cap prevents): the host sees it in their games.
			_, err := tx.ExecContext(ctx, `INSERT INTO held (at, rcpt, game_id, kind, class, why, until, noticed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				now.UnixMilli(), rcpt, m.GameID, m.Kind, m.Class, why, until.UnixMilli(), m.Class == ClassContact)
			if err != nil {
				return "", fmt.Errorf("record held mail: %w", err)
			}
			return why, nil
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO mail_log (at, rcpt, class, idle, first, cause) VALUES (?, ?, ?, ?, ?, ?)`,
		now.UnixMilli(), rcpt, m.Class, m.Idle, first, strings.ToLower(m.Cause))
	if err != nil {
		return "", fmt.Errorf("mail log: %w", err)
	}
	return "", nil
}

// limitCheck is one cap: at most max mails in window of the mail_log rows matching
// where (with args).
type limitCheck struct {
	max    int
	why    string
	where  string
	args   []any
	window time.Duration
}

// overLimit says which of lim's caps mail m to rcpt would exceed ("" when none), and
// when mail held back by it may go again: when the oldest of the mails it counts
// leaves its window.
func overLimit(ctx context.Context, tx *sql.Tx, lim *Limits, now time.Time, m preparedMail, rcpt string, first bool) (string, time.Time, error) {
	hour, day := now.Add(-time.Hour).UnixMilli(), now.Add(-24*time.Hour).UnixMilli()
	var checks []limitCheck
	switch m.Class {
	case ClassPlay, ClassHold:
		return "", time.Time{}, nil
	case ClassAnswer:
		checks = append(checks,
			limitCheck{lim.AnswersPerHour, "answers per hour", `rcpt = ? AND class = 'answer' AND at > ?`, []any{rcpt, hour}, time.Hour},
			limitCheck{lim.AnswersPerDay, "answers per day", `rcpt = ? AND class = 'answer' AND at > ?`, []any{rcpt, day}, 24 * time.Hour})
		if m.Idle {
			// The loop guard counts from the last answer to a mail that changed
			// something: a plain answer, or the answer to an accepted move.
			checks = append(checks,
				limitCheck{lim.IdleAnswersPerHour, "answers per hour to mails that changed nothing (loop guard)", `rcpt = ?1 AND class = 'answer' AND idle AND at > max(?2,
		coalesce((SELECT max(at) FROM mail_log WHERE rcpt = ?1 AND (class = 'answer' AND NOT idle OR class = 'play' AND cause = ?1)), 0))`, []any{rcpt, hour}, time.Hour},
				limitCheck{lim.IdleAnswersPerDay, "answers per day to mails that changed nothing", `rcpt = ? AND class = 'answer' AND idle AND at > ?`, []any{rcpt, day}, 24 * time.Hour})
		}
	case ClassNotification:
		checks = append(checks, limitCheck{lim.NotificationsPerHour, "notifications per hour (loop guard)", `rcpt = ? AND class = 'notification' AND at > ?`, []any{rcpt, hour}, time.Hour})
	case ClassContact:
		checks = append(checks, limitCheck{lim.ContactsPerAddressPerDay, "mails per day to an address that did not ask for them", `rcpt = ? AND class = 'contact' AND at > ?`, []any{rcpt, day}, 24 * time.Hour})
		if first {
			checks = append(checks,
				limitCheck{lim.FirstContactsPerWriterPerDay, "first-contact mails per day caused by " + m.Cause, `cause = ? AND first AND at > ?`, []any{strings.ToLower(m.Cause), day}, 24 * time.Hour},
				limitCheck{lim.FirstContactsPerDay, "first-contact mails per day (all hosts)", `first AND at > ?`, []any{day}, 24 * time.Hour})
		}
	case ClassChat:
		checks = append(checks, limitCheck{lim.ChatsPerHour, "chat mails per hour caused by " + m.Cause, chatsWhere, []any{strings.ToLower(m.Cause), hour}, time.Hour})
	default:
		return "", time.Time{}, fmt.Errorf("mail limits: unknown class %q", m.Class)
	}
	for _, c := range checks {
		if c.max <= 0 {
			continue
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM mail_log WHERE `+c.where, c.args...).Scan(&n); err != nil {
			return "", time.Time{}, fmt.Errorf("mail limits: %w", err)
		}
		if n < c.max {
			continue
		}
		var oldest int64
		err := tx.QueryRowContext(ctx, `SELECT at FROM mail_log WHERE `+c.where+` ORDER BY at DESC LIMIT 1 OFFSET `+fmt.Sprint(c.max-1), c.args...).Scan(&oldest)
		if err != nil {
			return "", time.Time{}, fmt.Errorf("mail limits: %w", err)
		}
		return fmt.Sprintf("%s to %s not sent: limit of %d %s reached", m.Kind, rcpt, c.max, c.why), time.UnixMilli(oldest).Add(c.window), nil
	}
	return "", time.Time{}, nil
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
	if _, err := tx.ExecContext(ctx, `DELETE FROM held WHERE at < ? AND until < ?`, now.Add(-mailLogKeep).UnixMilli(), now.UnixMilli()); err != nil {
		return fmt.Errorf("prune held mail: %w", err)
	}
	return nil
}

// chatsWhere selects the chat mails a writer caused since a time (see ChatsPerHour).
const chatsWhere = `class = 'chat' AND cause = ? AND at > ?`

// chatsQuery counts them.
const chatsQuery = `SELECT count(*) FROM mail_log WHERE ` + chatsWhere

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
