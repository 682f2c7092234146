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

// Game statuses.
const (
	GameOpen     = "open"     // created, waiting for players
	GameRunning  = "running"  // moves are accepted
	GamePaused   = "paused"   // moves are refused until the host resumes
	GameFinished = "finished" // over; the log is closed
)

// Player roles.
const (
	RolePlayer   = "player"
	RoleObserver = "observer"
)

// Game is one game's row: what event 0 (the setup) needs to rebuild the game, plus
// bookkeeping.
type Game struct {
	ID   string // short id, see NewGameID
	Kind string // engine name ("smallworld" …)
	// Options, Setup and SetupOutcomes are the archive's "options", "setup" (with the
	// seed) and "setup_outcomes"; stored and returned byte for byte. Empty is NULL.
	Options, Setup, SetupOutcomes json.RawMessage
	Status                        string // GameOpen … GameFinished; "" means GameOpen
	Host                          string // the host's address
	List                          string // mailing-list address, "" when none
	ThreadID                      string // Message-ID at the root of the game's thread
	CreatedAt, UpdatedAt          time.Time
	// Settings are the service's settings of the game (deadline, reminders, list …)
	// as JSON; empty is NULL (the defaults).
	Settings json.RawMessage
}

// Player is one seat of a game. Players are listed by seat, in turn order; observers
// take seats after the players.
type Player struct {
	GameID string // filled in by CreateGame when empty
	Seat   int
	Name   string
	Email  string // stored lowercased
	Role   string // RolePlayer or RoleObserver; "" means RolePlayer
	Active bool
	// Epoch counts the times the seat was handed to another address; reply tokens
	// carry it, so an old address's token stops working.
	Epoch int
	// Unreachable, when not "", says why mail to Email bounced.
	Unreachable string
}

// Event is one entry of a game's log after the setup (event 0, which lives in the
// games row). Seq starts at 1.
type Event struct {
	GameID   string // filled in by Commit when empty
	Seq      int
	Kind     string
	Player   string
	Command  string
	Outcomes json.RawMessage // stored and returned byte for byte; empty is NULL
	Hash     string
	At       time.Time // the zero time is stored as NULL and read back as zero
	// MessageID is the Message-ID of the mail the command came from.
	MessageID string
}

// Commit is one atomic step of a game: events appended, mails queued, the inbox row
// that caused it settled, and the game's status changed. See Store.Commit.
type Commit struct {
	GameID string
	// ExpectSeq is the game's last event sequence number the events were validated
	// against (0 before the first event). The events get ExpectSeq+1, +2 …
	ExpectSeq int
	Events    []Event
	Outbox    []OutMail
	// InboxID, when not 0, is the inbox row whose status becomes InboxStatus
	// (default InboxApplied) with InboxError, linked to GameID.
	InboxID                 int64
	InboxStatus, InboxError string
	// Inbox, when not nil (and InboxID is 0), is a received mail not stored
	// yet: it is stored in the same transaction with InboxStatus, InboxError
	// and GameID, as processed now, and its new id is set in Inbox.ID. A mail
	// with the same dedupe key already stored gives ErrDuplicate and nothing is
	// written. One transaction instead of two per mail: the raw mail is still
	// never lost, since nothing else is committed without it.
	Inbox *InboxMsg
	// InboxGameID, when GameID is "", links the settled inbox row to a game
	// without writing to the game (a quarantined mail of that game).
	InboxGameID string
	// GameStatus, when not "", is the game's new status.
	GameStatus string
	// Players are seat rows written in the same transaction (inserted, or replacing
	// the row of the same seat). A name taken by another seat gives ErrDuplicate.
	Players []Player
	// RemoveSeats are seats deleted in the same transaction (a player leaving a
	// game before it starts, an observer leaving).
	RemoveSeats []int
	// Timers are deadline timers marked as fired. A timer that already fired gives
	// an error wrapping ErrDuplicate and nothing is written: timers fire once.
	Timers []Timer
	// SetupOutcomes and Settings, when not empty, replace the game's columns.
	SetupOutcomes, Settings json.RawMessage
	// Limits, when not nil, are checked at Now for each mail of Outbox with a
	// class (see OutMail.Class): a mail over a limit is not queued, and why is
	// added to *Held (when not nil) and to the InboxError of the commit that
	// settles the mail (this one, or a later one of the same Batch). Nothing
	// errs: the rest of the commit is written.
	Limits *Limits
	Now    time.Time
	Held   *[]string
	// Noticed are readers told that mail to them was held back (ClassHold): their
	// held mails up to Now are marked as told (see HoldsToNotice).
	Noticed []string
	// Snapshots are snapshots of the game's states stored with the events, in the
	// order of their Seq (their GameID is filled in; no Seq may be after the last
	// event); the game keeps its KeepSnapshots newest.
	Snapshots []Snapshot
	// Writer, when not "", is the address of the mail settled: it wrote to us (see
	// ClassContact).
	Writer string
	// Confirmations are pending actions stored; Confirmed are the codes of
	// confirmations used up (deleted). Neither needs a game id.
	Confirmations []Confirmation
	Confirmed     []string
	// Consents are written (replacing the row of the same game and address).
	Consents []Consent
}

func validGameStatus(s string) error {
	switch s {
	case GameOpen, GameRunning, GamePaused, GameFinished:
		return nil
	}
	return fmt.Errorf("invalid game status %q", s)
}

// CreateGame writes a new game, its players and the mails announcing it, in one
// transaction. An existing id, or two players with the same seat or name, give
// ErrDuplicate.
func (s *Store) CreateGame(ctx context.Context, g Game, players []Player, outbox []OutMail) error {
	if g.ID == "" || g.Kind == "" {
		return fmt.Errorf("create game: id and kind are required")
	}
	if g.Status == "" {
		g.Status = GameOpen
	}
	if err := validGameStatus(g.Status); err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	if g.CreatedAt.IsZero() {
		g.CreatedAt = now()
	}
	if g.UpdatedAt.IsZero() {
		g.UpdatedAt = g.CreatedAt
	}
	for i := range players {
		p := &players[i]
		if p.GameID == "" {
			p.GameID = g.ID
		}
		if p.GameID != g.ID {
			return fmt.Errorf("create game %s: player %q belongs to game %q", g.ID, p.Name, p.GameID)
		}
		if p.Name == "" || p.Email == "" {
			return fmt.Errorf("create game %s: player at seat %d needs a name and an email", g.ID, p.Seat)
		}
		if p.Role == "" {
			p.Role = RolePlayer
		}
		if p.Role != RolePlayer && p.Role != RoleObserver {
			return fmt.Errorf("create game %s: player %q: invalid role %q", g.ID, p.Name, p.Role)
		}
	}
	mails, err := prepareMails(outbox)
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := insertGame(ctx, tx, g); err != nil {
			return err
		}
		for _, p := range players {
			_, err := tx.ExecContext(ctx, `INSERT INTO players (game_id, seat, name, email, role, active, epoch, unreachable)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p.GameID, p.Seat, p.Name, strings.ToLower(strings.TrimSpace(p.Email)), p.Role, p.Active, p.Epoch, p.Unreachable)
			if err != nil {
				if isUnique(err) {
					return fmt.Errorf("player %q at seat %d: seat or name taken: %w", p.Name, p.Seat, ErrDuplicate)
				}
				return fmt.Errorf("insert player %q: %w", p.Name, err)
			}
		}
		return insertMails(ctx, tx, mails)
	})
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	if len(mails) > 0 {
		s.wake()
	}
	return nil
}

const gameColumns = `id, kind, options, setup, setup_outcomes, status, host, list, thread_id, created_at, updated_at, settings`

// scanGame reads one games row selected with gameColumns.
func scanGame(sc interface{ Scan(...any) error }) (Game, error) {
	var (
		g                              Game
		options, setup, outcomes, list sql.NullString
		created, updated, settings     sql.NullString
	)
	if err := sc.Scan(&g.ID, &g.Kind, &options, &setup, &outcomes, &g.Status, &g.Host, &list, &g.ThreadID, &created, &updated, &settings); err != nil {
		return Game{}, err
	}
	g.Settings = rawJSON(settings)
	g.Options, g.Setup, g.SetupOutcomes = rawJSON(options), rawJSON(setup), rawJSON(outcomes)
	g.List = list.String
	var err error
	if g.CreatedAt, err = parseTime(created); err != nil {
		return Game{}, err
	}
	if g.UpdatedAt, err = parseTime(updated); err != nil {
		return Game{}, err
	}
	return g, nil
}

// Game returns the game with the given id and its players ordered by seat.
func (s *Store) Game(ctx context.Context, id string) (Game, []Player, error) {
	var (
		g       Game
		players []Player
	)
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		g, err = scanGame(tx.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT game_id, seat, name, email, role, active, epoch, unreachable FROM players WHERE game_id = ? ORDER BY seat`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p Player
			if err := rows.Scan(&p.GameID, &p.Seat, &p.Name, &p.Email, &p.Role, &p.Active, &p.Epoch, &p.Unreachable); err != nil {
				return err
			}
			players = append(players, p)
		}
		return rows.Err()
	})
	if err != nil {
		return Game{}, nil, fmt.Errorf("game %s: %w", id, err)
	}
	return g, players, nil
}

// Games returns every game, newest first.
func (s *Store) Games(ctx context.Context) ([]Game, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+gameColumns+` FROM games ORDER BY created_at DESC, rowid DESC`)
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	defer rows.Close()
	var games []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, fmt.Errorf("list games: %w", err)
		}
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	return games, nil
}

// SetGameStatus changes a game's status outside a Commit (a host pausing or
// resuming a game).
func (s *Store) SetGameStatus(ctx context.Context, id, status string) error {
	if err := validGameStatus(status); err != nil {
		return fmt.Errorf("set game %s status: %w", id, err)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		return setGameStatus(ctx, tx, id, status)
	})
	if err != nil {
		return fmt.Errorf("set game %s status: %w", id, err)
	}
	return nil
}

func setGameStatus(ctx context.Context, tx *sql.Tx, id, status string) error {
	res, err := tx.ExecContext(ctx, `UPDATE games SET status = ?, updated_at = ? WHERE id = ?`, status, fmtTime(now()), id)
	if err != nil {
		return err
	}
	return mustAffect(res)
}

// mustAffect turns "no row changed" into ErrNotFound.
func mustAffect(res sql.Result) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// gameExists reports ErrNotFound when the game does not exist.
func gameExists(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id string) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// Events returns a game's event log ordered by seq.
func (s *Store) Events(ctx context.Context, gameID string) ([]Event, error) {
	return s.EventsAfter(ctx, gameID, 0)
}

// EventsAfter returns the events of a game after event seq, ordered by seq: the
// events a copy of the log that ends at seq lacks.
func (s *Store) EventsAfter(ctx context.Context, gameID string, seq int) ([]Event, error) {
	var events []Event
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT game_id, seq, kind, player, command, outcomes, hash, at, message_id
	FROM events WHERE game_id = ? AND seq > ? ORDER BY seq`, gameID, seq)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				e            Event
				outcomes, at sql.NullString
			)
			if err := rows.Scan(&e.GameID, &e.Seq, &e.Kind, &e.Player, &e.Command, &outcomes, &e.Hash, &at, &e.MessageID); err != nil {
				return err
			}
			e.Outcomes = rawJSON(outcomes)
			if e.At, err = parseTime(at); err != nil {
				return err
			}
			events = append(events, e)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(events) == 0 {
			return gameExists(ctx, tx, gameID)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("events of %s: %w", gameID, err)
	}
	return events, nil
}

// LastSeq returns the sequence number of a game's last event, 0 when it has none.
func (s *Store) LastSeq(ctx context.Context, gameID string) (int, error) {
	var seq int
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := gameExists(ctx, tx, gameID); err != nil {
			return err
		}
		return lastSeq(ctx, tx, gameID, &seq)
	})
	if err != nil {
		return 0, fmt.Errorf("last seq of %s: %w", gameID, err)
	}
	return seq, nil
}

func lastSeq(ctx context.Context, tx *sql.Tx, gameID string, seq *int) error {
	return tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?`, gameID).Scan(seq)
}

// Commit appends c.Events to the game's log, queues c.Outbox, settles the inbox row
// c.InboxID and sets the game status c.GameStatus, all in one transaction, then wakes
// Notify. The events' Seq must be c.ExpectSeq+1, +2 … (a 0 Seq is filled in). When
// the game's last seq is not c.ExpectSeq, Commit returns an error wrapping
// ErrStaleSeq and writes nothing; a missing game or inbox row gives ErrNotFound.
//
// A Commit without events is allowed: it settles an inbox row (a refused command)
// and queues the refusal, still checking ExpectSeq. A Commit with an empty GameID
// concerns no game (an ignored mail, a refusal to a stranger): it may only settle an
// inbox row and queue mail, and checks no sequence number.
func (s *Store) Commit(ctx context.Context, c Commit) error {
	p, err := prepareCommit(c)
	if err != nil {
		return err
	}
	at := now()
	var newID int64
	err = s.write(ctx, func(tx *sql.Tx) error {
		var held []string
		resetHeld([]preparedCommit{p})
		return p.apply(ctx, tx, at, &newID, &held)
	})
	if err != nil {
		return p.wrap(err)
	}
	if c.Inbox != nil && c.InboxID == 0 {
		c.Inbox.ID = newID
	}
	s.wake()
	return nil
}

// SeatsOf returns every seat (players and observers) held by address in any game.
func (s *Store) SeatsOf(ctx context.Context, address string) ([]Player, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT game_id, seat, name, email, role, active, epoch, unreachable
	FROM players WHERE email = ? ORDER BY game_id, seat`, strings.ToLower(strings.TrimSpace(address)))
	if err != nil {
		return nil, fmt.Errorf("seats of %s: %w", address, err)
	}
	defer rows.Close()
	var out []Player
	for rows.Next() {
		var p Player
		if err := rows.Scan(&p.GameID, &p.Seat, &p.Name, &p.Email, &p.Role, &p.Active, &p.Epoch, &p.Unreachable); err != nil {
			return nil, fmt.Errorf("seats of %s: %w", address, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
