package web

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/web/page"
)

// gameCache keeps the games last shown replayed, each with the replays of its
// readers, until the game's version changes (an event appended …). It holds at most
// maxGames games and maxStates states in all, dropping the games shown least
// recently first. A game is replayed once however many ask for it at once.
type gameCache struct {
	maxGames, maxStates int

	mu      sync.Mutex
	entries map[string]*gameEntry
	clock   uint64 // counts look-ups: the order of use
	states  int    // the states the entries hold
}

// gameEntry is one game of the cache. Its mutex is held while it is replayed.
type gameEntry struct {
	used   uint64 // guarded by the cache's mutex
	states int    // guarded by the cache's mutex

	mu      sync.Mutex
	version string
	rec     *page.Record
	replays map[readerKey]*page.Replay
}

// readerKey is one reader of a game.
type readerKey struct {
	viewer string
	lang   i18n.Lang
	zone   string
}

func newGameCache(maxGames, maxStates int) *gameCache {
	return &gameCache{maxGames: maxGames, maxStates: maxStates, entries: map[string]*gameEntry{}}
}

// replay returns game id's replay for rd at version: the one kept, or a new one from
// src when the game's version changed or it was not kept.
func (c *gameCache) replay(ctx context.Context, src Source, w *page.Writer, id, version, viewer, name string) (*page.Replay, error) {
	c.mu.Lock()
	e := c.entries[id]
	if e == nil {
		e = &gameEntry{}
		c.entries[id] = e
	}
	c.clock++
	e.used = c.clock
	c.mu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	if e.rec == nil || e.version != version {
		rec, err := src.PageRecord(ctx, id, e.rec)
		if err != nil {
			return nil, err
		}
		e.rec, e.version, e.replays = rec, version, map[readerKey]*page.Replay{}
		c.resize(id, e, len(rec.States))
	}
	rd := e.rec.ReaderOf(viewer, name)
	k := readerKey{rd.Viewer, rd.Lang, zoneName(rd.Zone)}
	if r := e.replays[k]; r != nil {
		return r, nil
	}
	r, err := page.Build(e.rec, rd, w.Bundle())
	if err != nil {
		return nil, fmt.Errorf("web: game %s: %w", id, err)
	}
	e.replays[k] = r
	return r, nil
}

// resize records that e (game id) now holds states, and drops the games used least
// recently while the cache holds too many.
func (c *gameCache) resize(id string, e *gameEntry, states int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[id] != e {
		return // dropped meanwhile: its caller still has it
	}
	c.states += states - e.states
	e.states = states
	for len(c.entries) > c.maxGames || c.states > c.maxStates && len(c.entries) > 1 {
		oldest, at := "", uint64(0)
		for k, x := range c.entries {
			if k != id && (oldest == "" || x.used < at) {
				oldest, at = k, x.used
			}
		}
		if oldest == "" {
			return
		}
		c.states -= c.entries[oldest].states
		delete(c.entries, oldest)
	}
}

// pageKey names one written page: a step (n; -1 for the latest) of a game's version
// for one viewer, whose seat is named name (its language and time zone are the
// version's).
type pageKey struct {
	game, version, viewer, name string
	n                           int
}

// etag is the page's entity tag: it changes with everything the page is written from.
func (k pageKey) etag() string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%q %q %q %q %d", k.game, k.version, k.viewer, k.name, k.n))
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// pageCache keeps the pages last written, at most maxBytes of them, dropping the
// least recently used first.
type pageCache struct {
	maxBytes int

	mu    sync.Mutex
	order *list.List // of *pageItem, the most recent first
	items map[pageKey]*list.Element
	bytes int
}

type pageItem struct {
	key  pageKey
	page *written
}

func newPageCache(maxBytes int) *pageCache {
	return &pageCache{maxBytes: maxBytes, order: list.New(), items: map[pageKey]*list.Element{}}
}

func (c *pageCache) get(k pageKey) (*written, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*pageItem).page, true
}

func (c *pageCache) put(k pageKey, p *written) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok || p.size() > c.maxBytes {
		return
	}
	c.items[k] = c.order.PushFront(&pageItem{k, p})
	c.bytes += p.size()
	for c.bytes > c.maxBytes {
		el := c.order.Back()
		it := el.Value.(*pageItem)
		c.order.Remove(el)
		delete(c.items, it.key)
		c.bytes -= it.page.size()
	}
}
