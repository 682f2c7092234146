package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	netmail "net/mail"
	"slices"
	"strings"
	"time"
)

// Inbox statuses.
const (
	InboxPending  = "pending"  // stored, not yet interpreted
	InboxApplied  = "applied"  // its commands were committed
	InboxRejected = "rejected" // refused (bad command, unauthenticated …), answered or not
	InboxIgnored  = "ignored"  // not for us: auto-replies, bounces, our own mail
	// InboxFailed: processing failed in a way retrying cannot fix (a render error, an
	// engine panic, a header that cannot be built): the mail is quarantined. Fix
	// the bug, then Store.RequeueInbox (turnmail retry) processes it again.
	InboxFailed = "failed"
)

// InboxMsg is a received mail, stored raw before anything interprets it.
type InboxMsg struct {
	ID int64
	// DedupeKey identifies the message across rescans and repeated deliveries
	// (see [DedupeKey]). AddInbox computes it when empty.
	DedupeKey   string
	MessageID   string
	Mailbox     string
	UIDValidity uint32
	UID         uint32
	Raw         []byte
	ReceivedAt  time.Time // zero means now
	Status      string    // "" means InboxPending
	Error       string
	GameID      string
	ProcessedAt *time.Time
	// Size is the mail's size on the server (0: the length of Raw).
	Size int64
	// Truncated is set when Raw holds only the header of a mail too large to be
	// fetched whole: it is read only to tell its writer.
	Truncated bool
}

func validInboxStatus(s string) error {
	switch s {
	case InboxPending, InboxApplied, InboxRejected, InboxIgnored, InboxFailed:
		return nil
	}
	return fmt.Errorf("invalid inbox status %q", s)
}

// DedupeKey returns the key a message with this Message-ID and these raw bytes is
// deduplicated by: "<id>" when messageID (with or without its angle brackets) is not
// blank; else "content:" and the hex SHA-256 of what the sender wrote — the From,
// Date, Subject, To and Cc fields and the body — so that the same mail delivered
// twice, with other trace fields (Received, Delivered-To, Return-Path …) added by
// the servers on its way, has one key. A mail whose header cannot be read is keyed
// by its raw bytes, as mails without Message-ID were before content keys:
// "sha256:" and the hex SHA-256 of raw. Rows stored with such a key keep it; the
// lookups ([Store.InboxOf], AddInbox) find them under both keys.
func DedupeKey(messageID string, raw []byte) string {
	id := strings.TrimSpace(messageID)
	id = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">"))
	if id != "" {
		return "<" + id + ">"
	}
	content, ok := sentContent(raw)
	if !ok {
		return rawDedupeKey(raw)
	}
	sum := sha256.Sum256(content)
	return contentPrefix + hex.EncodeToString(sum[:])
}

const contentPrefix = "content:"

// rawDedupeKey is the key of a mail without Message-ID by its raw bytes.
func rawDedupeKey(raw []byte) string {
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// dedupeKeys are the keys a copy of m may be stored under: its DedupeKey, and for
// a content key the raw key it had before content keys.
func dedupeKeys(m InboxMsg) []string {
	if strings.HasPrefix(m.DedupeKey, contentPrefix) {
		return []string{m.DedupeKey, rawDedupeKey(m.Raw)}
	}
	return []string{m.DedupeKey}
}

// sentFields are the header fields the sender wrote that identify a mail without
// Message-ID.
var sentFields = []string{"From", "Date", "Subject", "To", "Cc"}

// sentContent is what the sender wrote of raw: the sentFields (unfolded, trimmed)
// and the body (line ends as "\n", trailing blank lines removed). ok is false when
// the header cannot be read.
func sentContent(raw []byte) (content []byte, ok bool) {
	head, body := raw, []byte(nil)
	for _, sep := range []string{"\r\n\r\n", "\n\n"} {
		if i := bytes.Index(raw, []byte(sep)); i >= 0 {
			head, body = raw[:i], raw[i+len(sep):]
			break
		}
	}
	m, err := netmail.ReadMessage(bytes.NewReader(append(slices.Clip(head), "\r\n\r\n"...)))
	if err != nil {
		return nil, false
	}
	var b bytes.Buffer
	for _, k := range sentFields {
		b.WriteString(k)
		for _, v := range m.Header[k] {
			b.WriteString("\x00" + strings.TrimSpace(v))
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.Write(bytes.TrimRight(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")), "\n"))
	return b.Bytes(), true
}

// AddInbox stores a received message. When a message with the same DedupeKey is
// already stored it writes nothing and returns that message's id with
// duplicate=true.
func (s *Store) AddInbox(ctx context.Context, m InboxMsg) (id int64, duplicate bool, err error) {
	if err := prepareInbox(&m); err != nil {
		return 0, false, fmt.Errorf("add inbox: %w", err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		keys := dedupeKeys(m)
		err := tx.QueryRowContext(ctx, `SELECT id FROM inbox WHERE dedupe_key IN (?, ?) ORDER BY id LIMIT 1`, keys[0], keys[len(keys)-1]).Scan(&id)
		if err == nil {
			duplicate = true
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		id, err = insertInbox(ctx, tx, m)
		return err
	})
	if err != nil {
		return 0, false, fmt.Errorf("add inbox %s: %w", m.DedupeKey, err)
	}
	return id, duplicate, nil
}

// prepareInbox fills in a new inbox row's defaults and checks its status.
func prepareInbox(m *InboxMsg) error {
	if m.DedupeKey == "" {
		m.DedupeKey = DedupeKey(m.MessageID, m.Raw)
	}
	if m.Raw == nil {
		m.Raw = []byte{}
	}
	if m.Size == 0 {
		m.Size = int64(len(m.Raw))
	}
	if m.Status == "" {
		m.Status = InboxPending
	}
	if m.ReceivedAt.IsZero() {
		m.ReceivedAt = now()
	}
	return validInboxStatus(m.Status)
}

// insertInbox inserts m; a stored mail with the same dedupe key gives
// ErrDuplicate.
func insertInbox(ctx context.Context, tx *sql.Tx, m InboxMsg) (id int64, err error) {
	var processed any
	if m.ProcessedAt != nil {
		processed = fmtTime(*m.ProcessedAt)
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO inbox
	(dedupe_key, message_id, mailbox, uid_validity, uid, raw, received_at, status, error, game_id, processed_at, size, truncated)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		m.DedupeKey, m.MessageID, m.Mailbox, int64(m.UIDValidity), int64(m.UID), m.Raw,
		fmtTime(m.ReceivedAt), m.Status, m.Error, nullString(m.GameID), processed, m.Size, m.Truncated).Scan(&id)
	if isUnique(err) {
		return 0, fmt.Errorf("inbox %s: %w", m.DedupeKey, ErrDuplicate)
	}
	return id, err
}

// InboxByKey returns the stored mail with dedupe key key (see [DedupeKey]), or
// ErrNotFound.
func (s *Store) InboxByKey(ctx context.Context, key string) (InboxMsg, error) {
	m, err := scanInbox(s.db.QueryRowContext(ctx, `SELECT `+inboxColumns+` FROM inbox WHERE dedupe_key = ?`, key))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return InboxMsg{}, fmt.Errorf("inbox %s: %w", key, err)
	}
	return m, nil
}

// InboxOf returns the stored copy of mail m, found by its DedupeKey (which must be
// set) or, for a content key, by the raw key a copy stored before content keys
// has; ErrNotFound when there is none.
func (s *Store) InboxOf(ctx context.Context, m InboxMsg) (InboxMsg, error) {
	keys := dedupeKeys(m)
	stored, err := scanInbox(s.db.QueryRowContext(ctx, `SELECT `+inboxColumns+` FROM inbox
	WHERE dedupe_key IN (?, ?) ORDER BY id LIMIT 1`, keys[0], keys[len(keys)-1]))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return InboxMsg{}, fmt.Errorf("inbox %s: %w", m.DedupeKey, err)
	}
	return stored, nil
}

const inboxColumns = `id, dedupe_key, message_id, mailbox, uid_validity, uid, raw, received_at, status, error, game_id, processed_at, size, truncated`

func scanInbox(sc interface{ Scan(...any) error }) (InboxMsg, error) {
	var (
		m                   InboxMsg
		uidValidity, uid    int64
		received, processed sql.NullString
		gameID              sql.NullString
	)
	if err := sc.Scan(&m.ID, &m.DedupeKey, &m.MessageID, &m.Mailbox, &uidValidity, &uid, &m.Raw,
		&received, &m.Status, &m.Error, &gameID, &processed, &m.Size, &m.Truncated); err != nil {
		return InboxMsg{}, err
	}
	m.UIDValidity, m.UID = uint32(uidValidity), uint32(uid)
	m.GameID = gameID.String
	var err error
	if m.ReceivedAt, err = parseTime(received); err != nil {
		return InboxMsg{}, err
	}
	if m.ProcessedAt, err = parseTimePtr(processed); err != nil {
		return InboxMsg{}, err
	}
	return m, nil
}

// Inbox returns one stored message.
func (s *Store) Inbox(ctx context.Context, id int64) (InboxMsg, error) {
	m, err := scanInbox(s.db.QueryRowContext(ctx, `SELECT `+inboxColumns+` FROM inbox WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return InboxMsg{}, fmt.Errorf("inbox %d: %w", id, err)
	}
	return m, nil
}

// PendingInbox returns up to limit messages still pending, oldest first (limit <= 0
// means all).
func (s *Store) PendingInbox(ctx context.Context, limit int) ([]InboxMsg, error) {
	if limit <= 0 {
		limit = -1
	}
	msgs, err := s.queryInbox(ctx, `SELECT `+inboxColumns+` FROM inbox WHERE status = 'pending' ORDER BY id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("pending inbox: %w", err)
	}
	return msgs, nil
}

// queryInbox runs a query of inbox rows (inboxColumns).
func (s *Store) queryInbox(ctx context.Context, query string, args ...any) ([]InboxMsg, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var msgs []InboxMsg
	for rows.Next() {
		m, err := scanInbox(rows)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, rows.Err()
}

// SetInboxStatus settles (or, with InboxPending, re-queues) a message outside a
// Commit. gameID, when not "", links it to a game. processed_at is set to now, or
// cleared when the status is InboxPending.
func (s *Store) SetInboxStatus(ctx context.Context, id int64, status, errText, gameID string) error {
	if err := validInboxStatus(status); err != nil {
		return fmt.Errorf("set inbox %d status: %w", id, err)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		return setInboxStatus(ctx, tx, id, status, errText, gameID, now())
	})
	if err != nil {
		return fmt.Errorf("set inbox %d status: %w", id, err)
	}
	return nil
}

func setInboxStatus(ctx context.Context, tx *sql.Tx, id int64, status, errText, gameID string, at time.Time) error {
	var processed any = fmtTime(at)
	if status == InboxPending {
		processed = nil
	}
	res, err := tx.ExecContext(ctx, `UPDATE inbox SET status = ?, error = ?, game_id = coalesce(?, game_id), processed_at = ?
	WHERE id = ?`, status, errText, nullString(gameID), processed, id)
	if err != nil {
		return err
	}
	return mustAffect(res)
}

// FailedInbox returns the quarantined mails (status InboxFailed), oldest first,
// without their raw bytes.
func (s *Store) FailedInbox(ctx context.Context) ([]InboxMsg, error) {
	msgs, err := s.queryInbox(ctx, `SELECT id, dedupe_key, message_id, mailbox, uid_validity, uid, x'', received_at,
	status, error, game_id, processed_at, size, truncated FROM inbox WHERE status = 'failed' ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("failed inbox: %w", err)
	}
	return msgs, nil
}

// RequeueInbox sets quarantined mail id pending again, to be processed anew. A mail
// that is not quarantined gives an error wrapping ErrNotFound.
func (s *Store) RequeueInbox(ctx context.Context, id int64) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE inbox SET status = 'pending', processed_at = NULL
		WHERE id = ? AND status = 'failed'`, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("no quarantined mail %d: %w", id, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("requeue inbox %d: %w", id, err)
	}
	return nil
}

// InboxHealth is what the health endpoint reports of the inbox.
type InboxHealth struct {
	// Failed counts the quarantined mails.
	Failed int
	// Pending counts the mails stored but not processed yet.
	Pending int
	// OldestPending is when the oldest pending mail was received (zero: none).
	OldestPending time.Time
}

// InboxHealth counts quarantined and pending mails.
func (s *Store) InboxHealth(ctx context.Context) (InboxHealth, error) {
	var (
		h      InboxHealth
		oldest sql.NullString
	)
	err := s.db.QueryRowContext(ctx, `SELECT
	(SELECT count(*) FROM inbox WHERE status = 'failed'),
	(SELECT count(*) FROM inbox WHERE status = 'pending'),
	(SELECT min(received_at) FROM inbox WHERE status = 'pending')`).Scan(&h.Failed, &h.Pending, &oldest)
	if err != nil {
		return InboxHealth{}, fmt.Errorf("inbox health: %w", err)
	}
	if h.OldestPending, err = parseTime(oldest); err != nil {
		return InboxHealth{}, fmt.Errorf("inbox health: %w", err)
	}
	return h, nil
}

// RecentInbox returns the last n mails settled for game gameID (applied or
// rejected), newest first.
func (s *Store) RecentInbox(ctx context.Context, gameID string, n int) ([]InboxMsg, error) {
	msgs, err := s.queryInbox(ctx, `SELECT `+inboxColumns+` FROM inbox WHERE game_id = ? AND status IN ('applied', 'rejected') ORDER BY id DESC LIMIT ?`, gameID, n)
	if err != nil {
		return nil, fmt.Errorf("recent inbox of %s: %w", gameID, err)
	}
	return msgs, nil
}
