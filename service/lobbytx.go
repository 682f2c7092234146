package service

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// lobbyTx gathers what one mail to the service address does — games opened, seats
// taken, events appended, mails queued — so that all of it, the answer and the
// settling of the inbox row are committed in one transaction (store.CommitBatch): a
// crash midway leaves the mail pending, and processing it again does it once.
//
// Each command of the mail sees what the commands before it did: the games it
// touched are kept here as rows with those effects applied, and loaded from them.
type lobbyTx struct {
	s     *Service
	batch store.Batch
	games map[string]*gameRows
	// answers are notices to the sender from the command being run, answered with it.
	answers []templates.Notice
	// asked counts the confirmations the transaction asks of each address.
	asked map[string]int
	// self are the commands of the mail that wait for its sender's confirmation,
	// by game, in the order of the mail (see Service.pend).
	self      map[string]*store.Confirmation
	selfOrder []string
	// dry is where the commands held for a confirmation are tried (see
	// Service.pendCommand): a copy of the transaction that also gets its changes,
	// so that each command is tried after the ones before it, held or not.
	dry *lobbyTx
	// lang is the language of the answer: the sender's once known (the mail's
	// commands in Italian words, lang=it), else the service's default.
	lang i18n.Lang
}

// gameRows are a game's rows as they will be once the transaction is committed.
type gameRows struct {
	game    store.Game
	players []store.Player
	events  []store.Event
	consent map[string]string
}

func (s *Service) newLobbyTx() *lobbyTx {
	return &lobbyTx{s: s, games: map[string]*gameRows{}, asked: map[string]int{}, self: map[string]*store.Confirmation{}, lang: s.opts.Language}
}

// t renders a service sentence (an English fmt format) in the answer's language.
func (t *lobbyTx) t(format string, args ...any) string {
	return t.s.tr.Sprintf(t.lang, format, args...)
}

// tryTx returns the transaction to try a held command on (t.dry, made on first use).
func (t *lobbyTx) tryTx() *lobbyTx {
	if t.dry == nil {
		t.dry = t.scratch()
	}
	return t.dry
}

// scratch returns a copy of the transaction: what is done there is thrown away.
// It answers in the same language (a refusal found there is the answer).
func (t *lobbyTx) scratch() *lobbyTx {
	c := t.s.newLobbyTx()
	c.lang = t.lang
	for id, r := range t.games {
		c.games[id] = &gameRows{game: r.game, players: slices.Clone(r.players), events: slices.Clone(r.events), consent: maps.Clone(r.consent)}
	}
	return c
}

// rows returns a game's rows: those of the transaction, or the stored ones. It
// returns an error wrapping store.ErrNotFound for an unknown game.
func (t *lobbyTx) rows(ctx context.Context, id string) (*gameRows, error) {
	if r, ok := t.games[id]; ok {
		return r, nil
	}
	g, players, err := t.s.store.Game(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load game %s: %w", id, err)
	}
	events, err := t.s.store.Events(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load game %s: %w", id, err)
	}
	consent, err := t.s.store.Consents(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load game %s: %w", id, err)
	}
	r := &gameRows{game: g, players: players, events: events, consent: consent}
	t.games[id] = r
	return r, nil
}

// load returns a game as it is after the transaction's changes so far. The Loaded
// is the caller's to change; the transaction's rows stay as they are.
func (t *lobbyTx) load(ctx context.Context, id string) (*Loaded, error) {
	r, err := t.rows(ctx, id)
	if err != nil {
		return nil, err
	}
	l, err := t.s.replay(ctx, r.game, slices.Clone(r.players), slices.Clone(r.events))
	if err != nil {
		return nil, err
	}
	if l.Readers, err = t.s.store.Readers(ctx, id); err != nil {
		return nil, fmt.Errorf("load game %s: %w", id, err)
	}
	l.Consent = maps.Clone(r.consent)
	return l, nil
}

// seats returns a game's row and seats as they are in the transaction, without
// reading its events when the transaction has not touched it.
func (t *lobbyTx) seats(ctx context.Context, id string) (store.Game, []store.Player, error) {
	if r, ok := t.games[id]; ok {
		return r.game, r.players, nil
	}
	g, players, err := t.s.store.Game(ctx, id)
	if err != nil {
		return g, nil, fmt.Errorf("load game %s: %w", id, err)
	}
	return g, players, nil
}

// exists reports whether a game id is taken, in the store or by the transaction.
func (t *lobbyTx) exists(ctx context.Context, id string) (bool, error) {
	if _, ok := t.games[id]; ok {
		return true, nil
	}
	_, err := t.rows(ctx, id)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return false, err
}

// create adds a new game with its first seats.
func (t *lobbyTx) create(g store.Game, players []store.Player) {
	for i := range players {
		players[i].GameID = g.ID
	}
	t.batch.Games = append(t.batch.Games, store.NewGame{Game: g, Players: players})
	t.games[g.ID] = &gameRows{game: g, players: slices.Clone(players), consent: map[string]string{}}
	if t.dry != nil {
		t.dry.create(g, slices.Clone(players))
	}
}

// commit adds a change to a game loaded through the transaction (or, with no game
// id, mail about no game) and applies it to the transaction's rows.
func (t *lobbyTx) commit(c store.Commit) {
	if t.dry != nil {
		t.dry.commit(c)
	}
	t.batch.Commits = append(t.batch.Commits, c)
	if r, ok := t.games[c.GameID]; ok {
		r.apply(c)
	}
	for _, k := range c.Consents {
		if r, ok := t.games[k.GameID]; ok {
			r.consent[strings.ToLower(k.Address)] = k.State
		}
	}
	for _, k := range c.Confirmations {
		t.asked[strings.ToLower(k.Address)]++
	}
}

// apply changes the rows as committing c changes the stored game.
func (r *gameRows) apply(c store.Commit) {
	for _, seat := range c.RemoveSeats {
		r.players = slices.DeleteFunc(r.players, func(p store.Player) bool { return p.Seat == seat })
	}
	for _, p := range c.Players {
		p.GameID, p.Email = r.game.ID, strings.ToLower(strings.TrimSpace(p.Email))
		if p.Role == "" {
			p.Role = store.RolePlayer
		}
		i := slices.IndexFunc(r.players, func(q store.Player) bool { return q.Seat == p.Seat })
		if i >= 0 {
			r.players[i] = p
		} else {
			r.players = append(r.players, p)
		}
	}
	slices.SortFunc(r.players, func(a, b store.Player) int { return a.Seat - b.Seat })
	for i, e := range c.Events {
		e.GameID, e.Seq = r.game.ID, c.ExpectSeq+1+i
		r.events = append(r.events, e)
	}
	if c.GameStatus != "" {
		r.game.Status = c.GameStatus
	}
	if len(c.Settings) > 0 {
		r.game.Settings = c.Settings
	}
	if len(c.SetupOutcomes) > 0 {
		r.game.SetupOutcomes = c.SetupOutcomes
	}
}
