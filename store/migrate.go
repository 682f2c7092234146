package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations is the schema, in order. Migration i (0-based) brings the schema to
// version i+1. Never edit or reorder an entry once released: append a new one.
//
// Design notes for what comes next (issue #5):
//   - observers are players rows with role 'observer' (seats after the players');
//   - deadlines go in their own table (game_id, seat, due_at, kind) or as columns on
//     games, added by a new migration; status values are checked in Go, not by CHECK
//     constraints, so a new status never needs a table rebuild.
var migrations = []string{
	// 1: the initial schema.
	`
CREATE TABLE games (
	id             TEXT PRIMARY KEY,
	kind           TEXT NOT NULL,
	options        TEXT CHECK (options IS NULL OR json_valid(options)),
	setup          TEXT CHECK (setup IS NULL OR json_valid(setup)),
	setup_outcomes TEXT CHECK (setup_outcomes IS NULL OR json_valid(setup_outcomes)),
	status         TEXT NOT NULL DEFAULT 'open',
	host           TEXT NOT NULL DEFAULT '',
	list           TEXT,
	thread_id      TEXT NOT NULL DEFAULT '',
	created_at     TEXT NOT NULL,
	updated_at     TEXT NOT NULL
);
CREATE INDEX games_created ON games (created_at);

CREATE TABLE players (
	game_id TEXT NOT NULL REFERENCES games (id),
	seat    INTEGER NOT NULL,
	name    TEXT NOT NULL,
	email   TEXT NOT NULL,
	role    TEXT NOT NULL DEFAULT 'player',
	active  INTEGER NOT NULL DEFAULT 1,
	PRIMARY KEY (game_id, seat),
	UNIQUE (game_id, name COLLATE NOCASE)
);
CREATE INDEX players_email ON players (email);

CREATE TABLE events (
	game_id    TEXT NOT NULL REFERENCES games (id),
	seq        INTEGER NOT NULL CHECK (seq >= 1),
	kind       TEXT NOT NULL DEFAULT '',
	player     TEXT NOT NULL DEFAULT '',
	command    TEXT NOT NULL DEFAULT '',
	outcomes   TEXT CHECK (outcomes IS NULL OR json_valid(outcomes)),
	hash       TEXT NOT NULL DEFAULT '',
	at         TEXT,
	message_id TEXT NOT NULL DEFAULT '',
	UNIQUE (game_id, seq)
);
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

CREATE TABLE inbox (
	id           INTEGER PRIMARY KEY,
	dedupe_key   TEXT NOT NULL UNIQUE,
	message_id   TEXT NOT NULL DEFAULT '',
	mailbox      TEXT NOT NULL DEFAULT '',
	uid_validity INTEGER NOT NULL DEFAULT 0,
	uid          INTEGER NOT NULL DEFAULT 0,
	raw          BLOB NOT NULL,
	received_at  TEXT NOT NULL,
	status       TEXT NOT NULL DEFAULT 'pending',
	error        TEXT NOT NULL DEFAULT '',
	game_id      TEXT,
	processed_at TEXT
);
CREATE INDEX inbox_pending ON inbox (id) WHERE status = 'pending';
CREATE INDEX inbox_game ON inbox (game_id, id);

CREATE TABLE outbox (
	id           INTEGER PRIMARY KEY,
	game_id      TEXT REFERENCES games (id),
	kind         TEXT NOT NULL DEFAULT '',
	from_addr    TEXT NOT NULL,
	rcpt         TEXT NOT NULL CHECK (json_valid(rcpt)),
	raw          BLOB NOT NULL,
	status       TEXT NOT NULL DEFAULT 'pending',
	attempts     INTEGER NOT NULL DEFAULT 0,
	next_attempt TEXT NOT NULL,
	last_error   TEXT NOT NULL DEFAULT '',
	created_at   TEXT NOT NULL,
	sent_at      TEXT
);
CREATE INDEX outbox_due ON outbox (next_attempt, id) WHERE status = 'pending';
CREATE INDEX outbox_game ON outbox (game_id, id);

CREATE TABLE cursors (
	mailbox      TEXT PRIMARY KEY,
	uid_validity INTEGER NOT NULL,
	last_uid     INTEGER NOT NULL,
	updated_at   TEXT NOT NULL
);

CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
`,
	// 2: running games over days (issue #5): the service's per-game settings, seat
	// epochs (a replaced seat gets new reply tokens), bounced addresses, and the
	// deadline timers that fired (each fires once, across restarts).
	`
ALTER TABLE games ADD COLUMN settings TEXT CHECK (settings IS NULL OR json_valid(settings));
ALTER TABLE players ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN unreachable TEXT NOT NULL DEFAULT '';
CREATE TABLE timers (
	game_id   TEXT NOT NULL REFERENCES games (id),
	seat      INTEGER NOT NULL,
	start_seq INTEGER NOT NULL,
	kind      TEXT NOT NULL,
	fired_at  TEXT NOT NULL,
	PRIMARY KEY (game_id, seat, start_seq, kind)
);
`,
	// 3: the host view and /metrics count the outbox by status (and game) from
	// this index instead of reading every mail.
	`
CREATE INDEX outbox_status ON outbox (status, game_id);
`,
	// 4: the deadline scheduler's index (issue #5). due_at is when the next
	// reminder or expiry of a running game can fire: '' when not known (a new game,
	// or invalidated), 'never' when none is pending, else a stored time. The
	// triggers invalidate it, in the writing transaction, whenever what it is
	// computed from changes (an event, the status, the settings); due_gen counts
	// the invalidations so that a value computed from an older read is not stored
	// (Store.SetDue).
	`
ALTER TABLE games ADD COLUMN due_at TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN due_gen INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_due ON games (due_at) WHERE status = 'running';
CREATE TRIGGER games_due_event AFTER INSERT ON events
BEGIN
	UPDATE games SET due_at = '', due_gen = due_gen + 1 WHERE id = NEW.game_id;
END;
CREATE TRIGGER games_due_change AFTER UPDATE OF status, settings ON games
WHEN NEW.status IS NOT OLD.status OR NEW.settings IS NOT OLD.settings
BEGIN
	UPDATE games SET due_at = '', due_gen = due_gen + 1 WHERE id = NEW.id;
END;
`,
	// 5: failure isolation (issue #9). size is the mail's size on the IMAP server;
	// truncated is 1 when raw holds only the header of a mail too large to fetch
	// whole. Quarantined mail has status 'failed'.
	`
ALTER TABLE inbox ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE inbox ADD COLUMN truncated INTEGER NOT NULL DEFAULT 0;
CREATE INDEX inbox_failed ON inbox (id) WHERE status = 'failed';
`,
	// 6: bounces are believed only for mail we sent (issue #10): the outbox records
	// each mail's Message-ID (without brackets; '' for mail queued before this
	// version), so that a delivery report naming one is matched to its recipient
	// and game.
	`
ALTER TABLE outbox ADD COLUMN message_id TEXT NOT NULL DEFAULT '';
CREATE INDEX outbox_message_id ON outbox (message_id) WHERE message_id != '';
`,
	// 7: persistent mail limits (issue #10). mail_log has a row per queued mail
	// that has a class (answer, notification, contact; see store.Limits): at is
	// Unix milliseconds, idle marks an answer to a mail that changed nothing, first
	// a contact to an address that never wrote to us, cause the writer whose mail
	// caused it. writers are the addresses that wrote to us.
	`
CREATE TABLE mail_log (
	id    INTEGER PRIMARY KEY,
	at    INTEGER NOT NULL,
	rcpt  TEXT NOT NULL,
	class TEXT NOT NULL,
	idle  INTEGER NOT NULL DEFAULT 0,
	first INTEGER NOT NULL DEFAULT 0,
	cause TEXT NOT NULL DEFAULT ''
);
CREATE INDEX mail_log_rcpt ON mail_log (rcpt, class, at);
CREATE INDEX mail_log_at ON mail_log (at);
CREATE INDEX mail_log_first ON mail_log (cause, at) WHERE first;
CREATE TABLE writers (
	addr    TEXT PRIMARY KEY,
	last_at INTEGER NOT NULL
);
`,
	// 8: consent before acting or mailing in someone's name (issue #10).
	// confirmations are pending actions waiting for a reply to a one-time address
	// (code); consents record, per game and address, whether a confirmation request
	// was sent ('asked'), answered yes ('yes') or declined ('no').
	`
CREATE TABLE confirmations (
	code       TEXT PRIMARY KEY,
	address    TEXT NOT NULL,
	actor      TEXT NOT NULL,
	game_id    TEXT NOT NULL DEFAULT '',
	grant      TEXT NOT NULL DEFAULT '',
	any_from   INTEGER NOT NULL DEFAULT 0,
	commands   TEXT NOT NULL CHECK (json_valid(commands)),
	created_at TEXT NOT NULL,
	expires_at TEXT NOT NULL
);
CREATE INDEX confirmations_address ON confirmations (address, expires_at);
CREATE TABLE consents (
	game_id TEXT NOT NULL,
	address TEXT NOT NULL,
	state   TEXT NOT NULL,
	at      TEXT NOT NULL,
	PRIMARY KEY (game_id, address)
);
`,
	// 9: one thread per game and reader (issue #13): the Message-ID of the first
	// mail of a game an address received (the root its later mails refer to), of
	// the last one (the parent of the next), and the last event a state mail
	// accounted for (the next one tells what happened since).
	`
CREATE TABLE readers (
	game_id  TEXT NOT NULL,
	addr     TEXT NOT NULL,
	root_id  TEXT NOT NULL,
	last_id  TEXT NOT NULL,
	seen_seq INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (game_id, addr)
);
-- The games already running: each reader's thread goes on from their first state
-- mail (the opening mail) and their last mail, and the account from the last event.
INSERT OR IGNORE INTO readers (game_id, addr, root_id, last_id, seen_seq)
SELECT o.game_id, lower(json_extract(o.rcpt, '$[0]')),
	(SELECT f.message_id FROM outbox f WHERE f.game_id = o.game_id AND f.rcpt = o.rcpt
		AND f.kind = 'state' AND f.message_id != '' ORDER BY f.id LIMIT 1),
	(SELECT l.message_id FROM outbox l WHERE l.game_id = o.game_id AND l.rcpt = o.rcpt
		AND l.message_id != '' ORDER BY l.id DESC LIMIT 1),
	(SELECT coalesce(max(e.seq), 0) FROM events e WHERE e.game_id = o.game_id)
FROM outbox o
WHERE o.game_id IS NOT NULL AND o.kind = 'state' AND o.message_id != '' AND json_array_length(o.rcpt) = 1
GROUP BY o.game_id, o.rcpt;
`,
	// 10 (issue #24): snapshots of game states, an optimisation only: the state
	// after event seq as the engine of format encodes it, checked against hash (the
	// event's) when restored; extra is what the service derives from the log up to
	// there. Only the newest few of a game are kept.
	// held records each mail the limits held back (at and until in Unix
	// milliseconds, as in mail_log): its reader is told once, and the host sees it.
	`
CREATE TABLE snapshots (
	game_id TEXT NOT NULL,
	seq     INTEGER NOT NULL,
	format  TEXT NOT NULL,
	hash    TEXT NOT NULL,
	state   BLOB NOT NULL,
	extra   TEXT CHECK (extra IS NULL OR json_valid(extra)),
	PRIMARY KEY (game_id, seq, format)
);
CREATE TABLE held (
	id      INTEGER PRIMARY KEY,
	at      INTEGER NOT NULL,
	rcpt    TEXT NOT NULL,
	game_id TEXT NOT NULL DEFAULT '',
	kind    TEXT NOT NULL DEFAULT '',
	class   TEXT NOT NULL,
	why     TEXT NOT NULL,
	until   INTEGER NOT NULL,
	noticed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX held_rcpt ON held (rcpt, noticed, until);
CREATE INDEX held_owed ON held (noticed, rcpt, at);
CREATE INDEX held_game ON held (game_id, at);
`,
}

// migrate applies the migrations the database has not seen yet, each in its own
// transaction together with its schema_version row.
func (s *Store) migrate(ctx context.Context) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
	version    INTEGER PRIMARY KEY,
	applied_at TEXT NOT NULL
)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("migrate: create schema_version: %w", err)
	}
	have, err := s.Version(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if have > len(migrations) {
		return fmt.Errorf("migrate: database schema version %d is newer than this program's %d", have, len(migrations))
	}
	for i, m := range migrations[have:] {
		version := have + i + 1
		err := s.write(ctx, func(tx *sql.Tx) error {
			// Checked inside the (immediate) transaction: another process opening
			// the same file at the same time applies each migration only once.
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_version WHERE version = ?`, version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, applied_at) VALUES (?, ?)`, version, fmtTime(now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate to version %d: %w", version, err)
		}
	}
	return nil
}

// Version returns the highest schema version applied to the database.
func (s *Store) Version(ctx context.Context) (int, error) {
	var v int
	if err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	return v, nil
}
