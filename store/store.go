// Package store persists turnmail's state in one SQLite file: games and their event
// logs, the raw inbox, the outbox, IMAP cursors and a small key/value table.
//
// It is the durable half of the loop described in DESIGN.md: a raw mail is stored in
// the inbox in the same transaction as what it caused — a game's accepted commands
// appended to its event log, the notifications they cause, the mail's status (see
// [Store.Commit], [Commit.Inbox] and [Store.CommitBatch]); until that commits, the mail
// is still on the IMAP server, whose cursor moves only afterwards. A sender drains the
// outbox and is woken through [Store.Notify]. Writes that arrive while another commits
// are committed together (group commit, see write.go).
//
// The driver is modernc.org/sqlite (pure Go, driver name "sqlite"). Every connection
// runs in WAL mode with a busy timeout, foreign keys on and synchronous=FULL, and
// every write transaction starts with BEGIN IMMEDIATE, so two writers never deadlock
// on a lock upgrade. Inside one process, writes are also serialised by the Store
// itself, so contention never falls back on SQLite's sleeping busy handler; other
// packages of the process writing to [Store.DB] join in through [Store.WriteTx]. The
// busy timeout covers other processes (the CLI while the daemon runs).
//
// Times are stored as fixed-width RFC 3339 text in UTC with nanoseconds
// ("2006-01-02T15:04:05.000000000Z"), which sorts correctly, compares correctly in
// SQL and stays readable in the sqlite3 shell. JSON columns are TEXT and are returned
// byte for byte as they were given.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// DefaultBusyTimeout is how long a connection waits for another writer's lock
// before a statement fails with SQLITE_BUSY.
const DefaultBusyTimeout = 10 * time.Second

// Sentinel errors. Errors returned by the Store wrap them; test with errors.Is.
var (
	// ErrNotFound means the game, inbox row, outbox row or meta key does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrStaleSeq means a Commit expected a different last event sequence number
	// than the game has: another command was committed first. Nothing was written;
	// reload the events and re-validate.
	ErrStaleSeq = errors.New("store: stale event sequence")
	// ErrDuplicate means a row with the same key already exists (a game id, a
	// player's seat or name within a game).
	ErrDuplicate = errors.New("store: duplicate")
)

// Store is a turnmail database. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string

	// wlock serialises write transactions inside this process (capacity 1);
	// its holder commits the writes queued in waiting (see write).
	wlock   chan struct{}
	wmu     sync.Mutex
	waiting []*writeReq

	mu     sync.Mutex
	notify chan struct{}
}

// Open opens (creating if needed) the database at path, configures it and brings
// its schema up to date. The context bounds the migrations only.
//
// path is a file name; a new database file is created with mode 0600, and so
// are its -wal and -shm files (see ExposedFiles). The special names ":memory:" and "" give a private in-memory
// database: SQLite gives every connection its own in-memory database, so the pool is
// then pinned to a single connection that is never recycled. In that mode a caller
// that holds an open *sql.Rows (or an open transaction) from [Store.DB] while
// calling a Store method deadlocks; tests should prefer a file in t.TempDir().
func Open(ctx context.Context, path string) (*Store, error) {
	memory := path == "" || path == ":memory:"
	if !memory {
		if err := createPrivate(path); err != nil {
			return nil, err
		}
	}
	db, err := sql.Open("sqlite", dsn(path, memory))
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if memory {
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	} else {
		// Readers run concurrently in WAL mode; writers queue on wlock. A handful
		// of idle connections avoids re-running the per-connection pragmas.
		db.SetMaxIdleConns(4)
	}
	s := &Store{
		db:     db,
		path:   path,
		wlock:  make(chan struct{}, 1),
		notify: make(chan struct{}),
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// dsn builds the modernc.org/sqlite data source name for path.
func dsn(path string, memory bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", DefaultBusyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if !memory {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	if memory {
		return ":memory:?" + q.Encode()
	}
	return "file:" + uriPath(path) + "?" + q.Encode()
}

// uriPath escapes a file name for a file: URI: "?" and "#" would end it early; "%"
// would be read as an escape.
func uriPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// Close closes the database. Pending operations in other goroutines fail.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close database: %w", err)
	}
	return nil
}

// Path returns the file name the Store was opened with.
func (s *Store) Path() string { return s.path }

// DB returns the underlying pool, for packages that keep their own tables in the
// same file (the embedded mail server). Their write transactions start with BEGIN
// IMMEDIATE too (the DSN sets _txlock=immediate); read-only transactions
// (sql.TxOptions{ReadOnly: true}) start deferred. Tables whose names this package
// uses are off limits.
func (s *Store) DB() *sql.DB { return s.db }

// Notify returns a channel that is closed at the next change a sender should look
// at: outbox rows added (by CreateGame, Commit or Enqueue) or any Commit. Call it
// again after the channel fires to wait for the following change. It is safe for
// concurrent use.
func (s *Store) Notify() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notify
}

// wake closes the current notify channel and replaces it.
func (s *Store) wake() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.notify)
	s.notify = make(chan struct{})
}

// WriteTx runs fn in a write transaction (BEGIN IMMEDIATE), taking turns with
// the Store's own writes; it commits when fn returns nil and rolls back
// otherwise. Other packages that write to [Store.DB] from the same process
// (the embedded mail server) use it so that they never wait in SQLite's
// sleeping busy handler.
func (s *Store) WriteTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return s.write(ctx, fn)
}

// read runs fn in a deferred, read-only transaction: one consistent snapshot.
func (s *Store) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer tx.Rollback()
	return fn(tx)
}

// isUnique reports whether err is a UNIQUE or PRIMARY KEY constraint violation.
func isUnique(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return true
	case sqlite3.SQLITE_CONSTRAINT:
		return strings.Contains(se.Error(), "UNIQUE constraint failed")
	}
	return false
}

// IsTransient reports whether err may go away when the same work is tried again
// later: the database was busy or locked, the disk was full or failed to answer, or
// the context ended. Every other error (a constraint, a bug) repeats on a retry.
func IsTransient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff { // the primary result code
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL,
		sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_PROTOCOL:
		return true
	}
	return false
}

// ProbeWrite writes one row in a transaction, to tell whether the database can be
// written (the health endpoint asks).
func (s *Store) ProbeWrite(ctx context.Context, now time.Time) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('health_probe', ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, fmtTime(now))
		return err
	})
	if err != nil {
		return fmt.Errorf("probe write: %w", err)
	}
	return nil
}

// timeFormat is the stored form of every time: UTC, fixed width, so that text order
// is time order.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

// fmtTime formats t for storage.
func fmtTime(t time.Time) string { return t.UTC().Format(timeFormat) }

// nullTime formats t for storage, NULL for the zero time.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return fmtTime(t)
}

// parseTime reads a stored time; NULL or empty is the zero time.
func parseTime(s sql.NullString) (time.Time, error) {
	if !s.Valid || s.String == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s.String)
	if err != nil {
		return time.Time{}, fmt.Errorf("parse stored time %q: %w", s.String, err)
	}
	return t.UTC(), nil
}

// parseTimePtr reads a nullable stored time.
func parseTimePtr(s sql.NullString) (*time.Time, error) {
	if !s.Valid || s.String == "" {
		return nil, nil
	}
	t, err := parseTime(s)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullJSON stores an empty json.RawMessage as NULL.
func nullJSON(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// rawJSON returns a stored JSON column; NULL is nil.
func rawJSON(s sql.NullString) []byte {
	if !s.Valid {
		return nil
	}
	return []byte(s.String)
}

// now is the Store's clock, in UTC.
func now() time.Time { return time.Now().UTC() }
