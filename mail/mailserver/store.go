package mailserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
)

// The schema owned by this package. Every table is prefixed with mbox_ so
// that it can live in the same SQLite file as the game store.
//
// Write transactions in this file always start with a write statement, so
// that SQLite takes the write lock (and waits for it with busy_timeout) before
// anything is read: a deferred transaction that reads first and writes later
// can fail with SQLITE_BUSY when another connection wrote in between.
const schema = `
CREATE TABLE IF NOT EXISTS mbox_meta (
	name  TEXT PRIMARY KEY,
	value INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS mbox_accounts (
	id      INTEGER PRIMARY KEY,
	address TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS mbox_mailboxes (
	id           INTEGER PRIMARY KEY,
	account_id   INTEGER NOT NULL REFERENCES mbox_accounts(id),
	name         TEXT NOT NULL,
	uid_validity INTEGER NOT NULL,
	uid_next     INTEGER NOT NULL DEFAULT 1,
	subscribed   INTEGER NOT NULL DEFAULT 1,
	UNIQUE (account_id, name)
);
CREATE TABLE IF NOT EXISTS mbox_messages (
	id            INTEGER PRIMARY KEY,
	mailbox_id    INTEGER NOT NULL REFERENCES mbox_mailboxes(id),
	uid           INTEGER NOT NULL,
	internal_date TEXT NOT NULL,
	flags         TEXT NOT NULL DEFAULT '',
	size          INTEGER NOT NULL,
	raw           BLOB NOT NULL,
	UNIQUE (mailbox_id, uid)
);
`

// dateLayout is how internal dates are stored: second precision (all IMAP
// can express) with the original zone offset.
const dateLayout = time.RFC3339

// store is the SQLite persistence of the mailboxes. It holds no state of its
// own besides the handle; the in-memory index in backend.go is loaded from it
// and written through to it.
type store struct {
	db      *sql.DB
	writeTx func(ctx context.Context, f func(*sql.Tx) error) error // nil: plain transactions
}

func (st *store) migrate(ctx context.Context) error {
	if _, err := st.db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create mailbox tables: %w", err)
	}
	return nil
}

// inTx runs f in a write transaction and commits it, or rolls it back when f
// fails.
func (st *store) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	if st.writeTx != nil {
		return st.writeTx(ctx, f)
	}
	tx, err := st.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// nextUIDValidity allocates a UIDVALIDITY value that was never handed out
// before in this database: the current Unix time, or one more than the last
// value when the clock has not moved on (or went back).
func nextUIDValidity(ctx context.Context, tx *sql.Tx) (uint32, error) {
	now := time.Now().Unix() & 0xffffffff
	if now == 0 {
		now = 1
	}
	var v int64
	err := tx.QueryRowContext(ctx, `
		INSERT INTO mbox_meta (name, value) VALUES ('uidvalidity', ?)
		ON CONFLICT (name) DO UPDATE SET value = max(excluded.value, value + 1)
		RETURNING value`, now).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("allocate uidvalidity: %w", err)
	}
	return uint32(v), nil
}

// dbMailbox is a mailbox row.
type dbMailbox struct {
	id          int64
	name        string
	uidValidity uint32
	uidNext     imap.UID
	subscribed  bool
}

// dbMessage is a message row without its raw bytes.
type dbMessage struct {
	uid   imap.UID
	date  time.Time
	flags []imap.Flag
	size  int64
}

// loadAccount reads an account and all its mailboxes and message metadata.
// found is false when the account does not exist yet.
func (st *store) loadAccount(ctx context.Context, addr string) (id int64, boxes []dbMailbox, msgs map[int64][]dbMessage, found bool, err error) {
	err = st.db.QueryRowContext(ctx, `SELECT id FROM mbox_accounts WHERE address = ?`, addr).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil, false, nil
	} else if err != nil {
		return 0, nil, nil, false, fmt.Errorf("load account %s: %w", addr, err)
	}

	rows, err := st.db.QueryContext(ctx, `
		SELECT id, name, uid_validity, uid_next, subscribed
		FROM mbox_mailboxes WHERE account_id = ? ORDER BY name`, id)
	if err != nil {
		return 0, nil, nil, false, fmt.Errorf("load mailboxes of %s: %w", addr, err)
	}
	for rows.Next() {
		var b dbMailbox
		var uidValidity, uidNext int64
		if err := rows.Scan(&b.id, &b.name, &uidValidity, &uidNext, &b.subscribed); err != nil {
			rows.Close()
			return 0, nil, nil, false, fmt.Errorf("load mailboxes of %s: %w", addr, err)
		}
		b.uidValidity, b.uidNext = uint32(uidValidity), imap.UID(uidNext)
		boxes = append(boxes, b)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, nil, false, fmt.Errorf("load mailboxes of %s: %w", addr, err)
	}
	rows.Close()

	msgs = make(map[int64][]dbMessage)
	rows, err = st.db.QueryContext(ctx, `
		SELECT m.mailbox_id, m.uid, m.internal_date, m.flags, m.size
		FROM mbox_messages m JOIN mbox_mailboxes b ON b.id = m.mailbox_id
		WHERE b.account_id = ? ORDER BY m.mailbox_id, m.uid`, id)
	if err != nil {
		return 0, nil, nil, false, fmt.Errorf("load messages of %s: %w", addr, err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			boxID int64
			uid   int64
			date  string
			flags string
			m     dbMessage
		)
		if err := rows.Scan(&boxID, &uid, &date, &flags, &m.size); err != nil {
			return 0, nil, nil, false, fmt.Errorf("load messages of %s: %w", addr, err)
		}
		m.uid = imap.UID(uid)
		if m.date, err = time.Parse(dateLayout, date); err != nil {
			return 0, nil, nil, false, fmt.Errorf("load messages of %s: uid %d: %w", addr, uid, err)
		}
		m.flags = decodeFlags(flags)
		msgs[boxID] = append(msgs[boxID], m)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, nil, false, fmt.Errorf("load messages of %s: %w", addr, err)
	}
	return id, boxes, msgs, true, nil
}

// createAccount inserts an account with its INBOX.
func (st *store) createAccount(ctx context.Context, addr string) (id int64, inbox dbMailbox, err error) {
	err = st.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx,
			`INSERT INTO mbox_accounts (address) VALUES (?) RETURNING id`, addr).Scan(&id); err != nil {
			return fmt.Errorf("insert account: %w", err)
		}
		var err error
		inbox, err = insertMailbox(ctx, tx, id, inboxName)
		return err
	})
	if err != nil {
		return 0, dbMailbox{}, fmt.Errorf("create account %s: %w", addr, err)
	}
	return id, inbox, nil
}

func insertMailbox(ctx context.Context, tx *sql.Tx, accountID int64, name string) (dbMailbox, error) {
	uidValidity, err := nextUIDValidity(ctx, tx)
	if err != nil {
		return dbMailbox{}, err
	}
	b := dbMailbox{name: name, uidValidity: uidValidity, uidNext: 1, subscribed: true}
	err = tx.QueryRowContext(ctx, `
		INSERT INTO mbox_mailboxes (account_id, name, uid_validity, uid_next, subscribed)
		VALUES (?, ?, ?, 1, 1) RETURNING id`, accountID, name, int64(uidValidity)).Scan(&b.id)
	if err != nil {
		return dbMailbox{}, fmt.Errorf("insert mailbox %q: %w", name, err)
	}
	return b, nil
}

// createMailboxes inserts mailboxes (a new one and its missing parents).
func (st *store) createMailboxes(ctx context.Context, accountID int64, names []string) ([]dbMailbox, error) {
	var boxes []dbMailbox
	err := st.inTx(ctx, func(tx *sql.Tx) error {
		for _, name := range names {
			b, err := insertMailbox(ctx, tx, accountID, name)
			if err != nil {
				return err
			}
			boxes = append(boxes, b)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("create mailbox: %w", err)
	}
	return boxes, nil
}

// deleteMailbox removes a mailbox and its messages.
func (st *store) deleteMailbox(ctx context.Context, boxID int64) error {
	err := st.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM mbox_messages WHERE mailbox_id = ?`, boxID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM mbox_mailboxes WHERE id = ?`, boxID)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete mailbox: %w", err)
	}
	return nil
}

// renameMailboxes renames mailboxes by id.
func (st *store) renameMailboxes(ctx context.Context, names map[int64]string) error {
	err := st.inTx(ctx, func(tx *sql.Tx) error {
		// Two passes through temporary names, so that swapping names within
		// the hierarchy cannot hit the UNIQUE constraint.
		for id := range names {
			if _, err := tx.ExecContext(ctx,
				`UPDATE mbox_mailboxes SET name = ? WHERE id = ?`, fmt.Sprintf("\x00rename-%d", id), id); err != nil {
				return err
			}
		}
		for id, name := range names {
			if _, err := tx.ExecContext(ctx, `UPDATE mbox_mailboxes SET name = ? WHERE id = ?`, name, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("rename mailbox: %w", err)
	}
	return nil
}

func (st *store) setSubscribed(ctx context.Context, boxID int64, subscribed bool) error {
	if _, err := st.db.ExecContext(ctx,
		`UPDATE mbox_mailboxes SET subscribed = ? WHERE id = ?`, subscribed, boxID); err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	return nil
}

// newMessage is a message to insert: head followed by raw (head may be nil, and
// several messages may share raw; the two are joined one row at a time).
type newMessage struct {
	boxID     int64
	uid       imap.UID
	date      time.Time
	flags     []imap.Flag
	head, raw []byte
}

func (m newMessage) size() int64 { return int64(len(m.head) + len(m.raw)) }

// blob is the stored bytes.
func (m newMessage) blob() []byte {
	if len(m.head) == 0 {
		return m.raw
	}
	b := make([]byte, 0, len(m.head)+len(m.raw))
	return append(append(b, m.head...), m.raw...)
}

// insertMessages stores messages and advances the UIDNEXT of their mailboxes
// (uidNext maps mailbox ids to their new UIDNEXT), all in one transaction.
func (st *store) insertMessages(ctx context.Context, msgs []newMessage, uidNext map[int64]imap.UID) error {
	err := st.inTx(ctx, func(tx *sql.Tx) error {
		for boxID, next := range uidNext {
			if _, err := tx.ExecContext(ctx,
				`UPDATE mbox_mailboxes SET uid_next = ? WHERE id = ?`, int64(next), boxID); err != nil {
				return err
			}
		}
		for _, m := range msgs {
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO mbox_messages (mailbox_id, uid, internal_date, flags, size, raw)
				VALUES (?, ?, ?, ?, ?, ?)`,
				m.boxID, int64(m.uid), m.date.Format(dateLayout), encodeFlags(m.flags), m.size(), m.blob()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store message: %w", err)
	}
	return nil
}

// uidPair maps a message in one mailbox to a new UID in another one.
type uidPair struct {
	src, dst imap.UID
}

// copyMessages copies (or, when move is set, moves) messages between two
// mailboxes of one account, giving them the destination UIDs in pairs, and
// sets the destination's UIDNEXT.
func (st *store) copyMessages(ctx context.Context, srcID, dstID int64, pairs []uidPair, dstUIDNext imap.UID, move bool) error {
	err := st.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`UPDATE mbox_mailboxes SET uid_next = ? WHERE id = ?`, int64(dstUIDNext), dstID); err != nil {
			return err
		}
		q := `INSERT INTO mbox_messages (mailbox_id, uid, internal_date, flags, size, raw)
			SELECT ?, ?, internal_date, flags, size, raw FROM mbox_messages WHERE mailbox_id = ? AND uid = ?`
		if move {
			q = `UPDATE mbox_messages SET mailbox_id = ?, uid = ? WHERE mailbox_id = ? AND uid = ?`
		}
		stmt, err := tx.PrepareContext(ctx, q)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, p := range pairs {
			if _, err := stmt.ExecContext(ctx, dstID, int64(p.dst), srcID, int64(p.src)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("copy messages: %w", err)
	}
	return nil
}

// flagUpdate is the new flag set of one message.
type flagUpdate struct {
	uid   imap.UID
	flags []imap.Flag
}

func (st *store) setFlags(ctx context.Context, boxID int64, updates []flagUpdate) error {
	if len(updates) == 0 {
		return nil
	}
	err := st.inTx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `UPDATE mbox_messages SET flags = ? WHERE mailbox_id = ? AND uid = ?`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, u := range updates {
			if _, err := stmt.ExecContext(ctx, encodeFlags(u.flags), boxID, int64(u.uid)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store flags: %w", err)
	}
	return nil
}

func (st *store) deleteMessages(ctx context.Context, boxID int64, uids []imap.UID) error {
	err := st.inTx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `DELETE FROM mbox_messages WHERE mailbox_id = ? AND uid = ?`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, uid := range uids {
			if _, err := stmt.ExecContext(ctx, boxID, int64(uid)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("expunge: %w", err)
	}
	return nil
}

// raw reads the bytes of one message. It returns errExpunged when the message
// is gone.
func (st *store) raw(ctx context.Context, boxID int64, uid imap.UID) ([]byte, error) {
	var b []byte
	err := st.db.QueryRowContext(ctx,
		`SELECT raw FROM mbox_messages WHERE mailbox_id = ? AND uid = ?`, boxID, int64(uid)).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errExpunged
	} else if err != nil {
		return nil, fmt.Errorf("read message %d: %w", uid, err)
	}
	return b, nil
}

func encodeFlags(flags []imap.Flag) string {
	s := make([]string, len(flags))
	for i, f := range flags {
		s[i] = string(f)
	}
	return strings.Join(s, " ")
}

func decodeFlags(s string) []imap.Flag {
	var flags []imap.Flag
	for _, f := range strings.Fields(s) {
		flags = append(flags, imap.Flag(f))
	}
	return flags
}
