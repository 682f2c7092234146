package service

import (
	"bytes"
	"container/list"
	"encoding/json"
	"sync"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/store"
)

// kept is what the service keeps of a running game between mails, so that the next
// mail replays only the events committed since: its log, the state after its last
// event and the states after the few before it, and what the service derives from
// the log. It is keyed by the last event (sequence number and hash): a copy whose
// last event is not the stored one's is never used. A kept value is never modified
// once made (advance makes another), so a Loaded may go on reading the one it has.
type kept struct {
	setup  keptSetup
	events []store.Event
	evs    []engine.Event // events as the engine reads them
	// state is the state after the last event; initial the setup's; format the
	// game's snapshot format.
	state   engine.State
	initial engine.State
	format  string
	// recent are the states after the last events, with their journals (at most
	// keptRecent, the last one included).
	recent map[int]engine.State
	// facts are the facts after the last event (read only: Loaded gets a copy).
	facts Facts
	// settings are the settings of the game's settings column settingsRaw with the
	// changes of the log.
	settingsRaw json.RawMessage
	settings    Settings
	// snapSeq is the event of the newest snapshot known to be stored (0: none).
	snapSeq int
}

// keptSetup is what a kept game was built from beside its log: a game stored again
// under the same id (an import, a test) with another setup is not the same game.
type keptSetup struct {
	kind          string
	setup, setupO string
	started       string
}

// keptRecent is how many of the last states a kept game holds: enough for the
// account of a turn's moves to a player who waited for it.
const keptRecent = 24

// seq is the kept game's last event (0 when none).
func (k *kept) seq() int { return len(k.events) }

// matches reports whether events begin with the kept log: the kept game is the
// stored one, and the events after it are the ones it lacks.
func (k *kept) matches(setup keptSetup, events []store.Event) bool {
	if k.setup != setup || len(events) < len(k.events) {
		return false
	}
	if len(k.events) == 0 {
		return true
	}
	return sameEvent(k.events[len(k.events)-1], events[len(k.events)-1])
}

// sameEvent reports whether two rows are the same event.
func sameEvent(a, b store.Event) bool {
	return a.Seq == b.Seq && a.Hash == b.Hash && a.Kind == b.Kind && a.Player == b.Player && a.Command == b.Command &&
		a.At.Equal(b.At) && a.MessageID == b.MessageID && bytes.Equal(a.Outcomes, b.Outcomes)
}

// keptGames is a bounded set of kept games, the least recently used dropped first.
type keptGames struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *keptEntry, most recent first
	byID  map[string]*list.Element
}

type keptEntry struct {
	id string
	k  *kept
}

func newKeptGames(max int) *keptGames {
	return &keptGames{max: max, order: list.New(), byID: map[string]*list.Element{}}
}

// get returns the kept game id (nil when none).
func (c *keptGames) get(id string) *kept {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*keptEntry).k
}

// put keeps k as game id, dropping the least recently used game beyond the bound.
func (c *keptGames) put(id string, k *kept) {
	if c.max <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byID[id]; ok {
		e.Value.(*keptEntry).k = k
		c.order.MoveToFront(e)
		return
	}
	c.byID[id] = c.order.PushFront(&keptEntry{id: id, k: k})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*keptEntry).id)
	}
}

// drop forgets game id.
func (c *keptGames) drop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byID[id]; ok {
		c.order.Remove(e)
		delete(c.byID, id)
	}
}

// len is the number of games kept.
func (c *keptGames) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
