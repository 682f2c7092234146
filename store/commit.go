package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// NewGame is a game created inside a Batch: its row and its first seats.
type NewGame struct {
	Game    Game
	Players []Player
}

// Batch is several writes that succeed or fail together: a mail to the service
// address may open a game, join another and invite someone to a third, and its
// answer and the settling of its inbox row belong to the same transaction.
type Batch struct {
	// Games are created first, as CreateGame creates them (without mail: queue it in
	// a Commit). An existing id gives ErrDuplicate.
	Games []NewGame
	// Commits are applied in order after the games, each checked as Commit checks it
	// (a later Commit of the same game sees the events of an earlier one, so its
	// ExpectSeq counts them).
	Commits []Commit
}

// CommitBatch writes b in one transaction and wakes Notify: everything or, on any
// error (a stale sequence number, a duplicate, a failing statement), nothing. Errors
// wrap the sentinel errors as Commit's do.
//
// Commit is a batch of one commit; both use preparedCommit.
func (s *Store) CommitBatch(ctx context.Context, b Batch) error {
	games := make([]Game, len(b.Games))
	var seats []preparedCommit
	for i, ng := range b.Games {
		g, err := prepareGame(ng.Game)
		if err != nil {
			return fmt.Errorf("commit batch: %w", err)
		}
		games[i] = g
		p, err := prepareCommit(Commit{GameID: g.ID, Players: ng.Players})
		if err != nil {
			return fmt.Errorf("commit batch: %w", err)
		}
		seats = append(seats, p)
	}
	commits := make([]preparedCommit, 0, len(b.Commits))
	for _, c := range b.Commits {
		p, err := prepareCommit(c)
		if err != nil {
			return fmt.Errorf("commit batch: %w", err)
		}
		commits = append(commits, p)
	}
	at := now()
	newIDs := make([]int64, len(commits))
	err := s.write(ctx, func(tx *sql.Tx) error {
		var none int64
		var held []string
		resetHeld(commits)
		for i, g := range games {
			if err := insertGame(ctx, tx, g); err != nil {
				return err
			}
			if err := seats[i].apply(ctx, tx, at, &none, &held); err != nil {
				return err
			}
		}
		for i, p := range commits {
			if err := p.apply(ctx, tx, at, &newIDs[i], &held); err != nil {
				return p.wrap(err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("commit batch: %w", err)
	}
	for i, c := range b.Commits {
		if c.Inbox != nil && c.InboxID == 0 {
			c.Inbox.ID = newIDs[i] // as Commit does: the caller learns the stored mail's id
		}
	}
	s.wake()
	return nil
}

// prepareGame checks a new game's row and fills in its defaults.
func prepareGame(g Game) (Game, error) {
	if g.ID == "" || g.Kind == "" {
		return g, errors.New("create game: id and kind are required")
	}
	if g.Status == "" {
		g.Status = GameOpen
	}
	if err := validGameStatus(g.Status); err != nil {
		return g, fmt.Errorf("create game %s: %w", g.ID, err)
	}
	if g.CreatedAt.IsZero() {
		g.CreatedAt = now()
	}
	if g.UpdatedAt.IsZero() {
		g.UpdatedAt = g.CreatedAt
	}
	return g, nil
}

// insertGame writes a prepared games row inside tx.
func insertGame(ctx context.Context, tx *sql.Tx, g Game) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO games
	(id, kind, options, setup, setup_outcomes, status, host, list, thread_id, created_at, updated_at, settings)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Kind, nullJSON(g.Options), nullJSON(g.Setup), nullJSON(g.SetupOutcomes),
		g.Status, g.Host, nullString(g.List), g.ThreadID, fmtTime(g.CreatedAt), fmtTime(g.UpdatedAt), nullJSON(g.Settings))
	if err != nil {
		if isUnique(err) {
			return fmt.Errorf("game %s exists: %w", g.ID, ErrDuplicate)
		}
		return fmt.Errorf("insert game %s: %w", g.ID, err)
	}
	return nil
}

// preparedCommit is a Commit checked outside the transaction: its events numbered,
// its mails and statuses validated.
type preparedCommit struct {
	c           Commit
	events      []Event
	mails       []preparedMail
	inboxStatus string
	// newInbox is c.Inbox ready to insert (DedupeKey "" when c.Inbox is nil or
	// c.InboxID is set).
	newInbox InboxMsg
}

// prepareCommit checks c as Commit does.
func prepareCommit(c Commit) (preparedCommit, error) {
	p := preparedCommit{c: c, events: make([]Event, len(c.Events))}
	if c.GameID == "" && (len(c.Events) > 0 || c.GameStatus != "" || c.ExpectSeq != 0 || len(c.Players) > 0 || len(c.RemoveSeats) > 0 || len(c.Timers) > 0 || len(c.Settings) > 0 || len(c.SetupOutcomes) > 0) {
		return p, errors.New("commit: events, game status and expected seq need a game id")
	}
	for i, e := range c.Events {
		want := c.ExpectSeq + 1 + i
		if e.Seq == 0 {
			e.Seq = want
		}
		if e.Seq != want {
			return p, fmt.Errorf("commit %s: event %d has seq %d, want %d", c.GameID, i, e.Seq, want)
		}
		if e.GameID == "" {
			e.GameID = c.GameID
		}
		if e.GameID != c.GameID {
			return p, fmt.Errorf("commit %s: event %d belongs to game %q", c.GameID, e.Seq, e.GameID)
		}
		p.events[i] = e
	}
	if c.GameStatus != "" {
		if err := validGameStatus(c.GameStatus); err != nil {
			return p, fmt.Errorf("commit %s: %w", c.GameID, err)
		}
	}
	if c.InboxID != 0 || c.Inbox != nil {
		p.inboxStatus = c.InboxStatus
		if p.inboxStatus == "" {
			p.inboxStatus = InboxApplied
		}
		if err := validInboxStatus(p.inboxStatus); err != nil {
			return p, fmt.Errorf("commit %s: %w", c.GameID, err)
		}
	}
	if c.Inbox != nil && c.InboxID == 0 {
		p.newInbox = *c.Inbox
		p.newInbox.ID, p.newInbox.Status, p.newInbox.Error, p.newInbox.GameID = 0, p.inboxStatus, c.InboxError, p.inboxGame()
		if err := prepareInbox(&p.newInbox); err != nil {
			return p, fmt.Errorf("commit %s: %w", c.GameID, err)
		}
	}
	mails, err := prepareMails(c.Outbox)
	if err != nil {
		return p, fmt.Errorf("commit %s: %w", c.GameID, err)
	}
	p.mails = mails
	return p, nil
}

// apply writes a prepared Commit inside tx, as Commit does; a mail stored with it
// (c.Inbox) gets its id in *newID. held collects why mails were not queued (see
// Commit.Limits) until a commit settles an inbox row: that row's error says so.
func (p preparedCommit) apply(ctx context.Context, tx *sql.Tx, at time.Time, newID *int64, held *[]string) error {
	c := p.c
	if c.GameID != "" {
		if err := p.applyGame(ctx, tx, at); err != nil {
			return err
		}
	}
	mails, err := p.limit(ctx, tx, at, held)
	if err != nil {
		return err
	}
	if err := insertMails(ctx, tx, mails); err != nil {
		return err
	}
	if err := markNoticed(ctx, tx, c.Noticed, p.now(at)); err != nil {
		return err
	}
	inboxError := c.InboxError
	if (c.InboxID != 0 || p.newInbox.DedupeKey != "") && len(*held) > 0 {
		inboxError = strings.TrimPrefix(inboxError+"; "+strings.Join(*held, "; "), "; ")
		*held = nil
	}
	if c.Writer != "" {
		if err := noteWriter(ctx, tx, c.Writer, p.now(at)); err != nil {
			return err
		}
	}
	if err := applyConsent(ctx, tx, c, at); err != nil {
		return err
	}
	switch {
	case c.InboxID != 0:
		if err := setInboxStatus(ctx, tx, c.InboxID, p.inboxStatus, inboxError, p.inboxGame(), at); err != nil {
			return fmt.Errorf("settle inbox %d: %w", c.InboxID, err)
		}
	case p.newInbox.DedupeKey != "":
		m := p.newInbox
		m.Error = inboxError
		if m.Status != InboxPending {
			m.ProcessedAt = &at
		}
		id, err := insertInbox(ctx, tx, m)
		if err != nil {
			return fmt.Errorf("store inbox: %w", err)
		}
		*newID = id
	}
	return nil
}

// now is the time the commit's mails are counted at: c.Now, or at.
func (p preparedCommit) now(at time.Time) time.Time {
	if p.c.Now.IsZero() {
		return at
	}
	return p.c.Now
}

// limit returns the commit's mails that its Limits let through, logging them (see
// limitMail); why the others are not sent is added to held and c.Held.
func (p preparedCommit) limit(ctx context.Context, tx *sql.Tx, at time.Time, held *[]string) ([]preparedMail, error) {
	var kept []preparedMail
	var whys []string
	for _, m := range p.mails {
		why, err := limitMail(ctx, tx, p.c.Limits, p.now(at), m)
		if err != nil {
			return nil, err
		}
		if why != "" {
			whys = append(whys, why)
			continue
		}
		kept = append(kept, m)
	}
	*held = append(*held, whys...)
	if p.c.Held != nil {
		*p.c.Held = append(*p.c.Held, whys...) // emptied by resetHeld
	}
	return kept, nil
}

// resetHeld empties the Held lists of commits when a transaction (re)starts.
func resetHeld(commits []preparedCommit) {
	for _, p := range commits {
		if p.c.Held != nil {
			*p.c.Held = nil
		}
	}
}

// inboxGame is the game the settled inbox row is linked to.
func (p preparedCommit) inboxGame() string {
	if p.c.GameID != "" {
		return p.c.GameID
	}
	return p.c.InboxGameID
}

// wrap names the commit in an error of apply.
func (p preparedCommit) wrap(err error) error {
	if p.c.GameID == "" {
		return fmt.Errorf("commit: %w", err)
	}
	return fmt.Errorf("commit %s: %w", p.c.GameID, err)
}

// applyGame writes the game part of a prepared Commit: the sequence check, the
// events, the seats, timers and columns, and the game's status.
func (p preparedCommit) applyGame(ctx context.Context, tx *sql.Tx, at time.Time) error {
	c := p.c
	if err := gameExists(ctx, tx, c.GameID); err != nil {
		return err
	}
	var last int
	if err := lastSeq(ctx, tx, c.GameID, &last); err != nil {
		return fmt.Errorf("read last seq: %w", err)
	}
	if last != c.ExpectSeq {
		return fmt.Errorf("expected last seq %d, game has %d: %w", c.ExpectSeq, last, ErrStaleSeq)
	}
	for _, e := range p.events {
		_, err := tx.ExecContext(ctx, `INSERT INTO events
	(game_id, seq, kind, player, command, outcomes, hash, at, message_id)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.GameID, e.Seq, e.Kind, e.Player, e.Command,
			nullJSON(e.Outcomes), e.Hash, nullTime(e.At), e.MessageID)
		if err != nil {
			if isUnique(err) {
				return fmt.Errorf("append event %d: %w", e.Seq, ErrStaleSeq)
			}
			return fmt.Errorf("append event %d: %w", e.Seq, err)
		}
	}
	if err := commitExtras(ctx, tx, c, at); err != nil {
		return err
	}
	for _, sn := range c.Snapshots {
		if err := writeSnapshot(ctx, tx, c.GameID, c.ExpectSeq+len(p.events), sn); err != nil {
			return err
		}
	}
	res, err := tx.ExecContext(ctx, `UPDATE games SET status = coalesce(?, status), updated_at = ? WHERE id = ?`,
		nullString(c.GameStatus), fmtTime(at), c.GameID)
	if err != nil {
		return fmt.Errorf("update game: %w", err)
	}
	return mustAffect(res)
}
