package service

import "sync"

// gameLocks serialises the processing of each game, not of the service: the mails
// (and deadlines) of different games are decided at the same time, while two never
// run at once for one game — from reading it to committing what they decided, which
// the store still checks against the game's last event. Work that may read or change
// any game (a lobby command, a bounce) runs alone.
type gameLocks struct {
	all   sync.RWMutex // game work holds it to read, work on any game to write
	mu    sync.Mutex   // guards games
	games map[string]*gameLock
}

// gameLock is one game's lock and the number of holders and waiters (the entry goes
// when none is left, so the map holds only the games being processed).
type gameLock struct {
	sync.Mutex
	users int
}

func newGameLocks() *gameLocks { return &gameLocks{games: map[string]*gameLock{}} }

// entry returns game id's lock, counting the caller as a user.
func (g *gameLocks) entry(id string) *gameLock {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.games[id]
	if !ok {
		e = &gameLock{}
		g.games[id] = e
	}
	e.users++
	return e
}

// release counts a user of e out.
func (g *gameLocks) release(id string, e *gameLock) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if e.users--; e.users == 0 {
		delete(g.games, id)
	}
}

// lock waits for game id and returns its unlock.
func (g *gameLocks) lock(id string) func() {
	g.all.RLock()
	e := g.entry(id)
	e.Lock()
	return func() {
		e.Unlock()
		g.release(id, e)
		g.all.RUnlock()
	}
}

// tryLock takes game id's lock when nobody holds it, without waiting; ok is false
// otherwise (the caller, holding other games, must let them go before it waits).
func (g *gameLocks) tryLock(id string) (unlock func(), ok bool) {
	if !g.all.TryRLock() {
		return nil, false
	}
	e := g.entry(id)
	if !e.TryLock() {
		g.release(id, e)
		g.all.RUnlock()
		return nil, false
	}
	return func() {
		e.Unlock()
		g.release(id, e)
		g.all.RUnlock()
	}, true
}

// lockAll waits until no game is being processed and keeps every game for the
// caller; it returns the unlock.
func (g *gameLocks) lockAll() func() {
	g.all.Lock()
	return g.all.Unlock
}
