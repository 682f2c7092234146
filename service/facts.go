package service

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/store"
)

// Administrative acts (adminPayload.Act of an engine.KindAdmin event).
const (
	adminPause       = "pause"
	adminResume      = "resume"
	adminResign      = "resign"
	adminUndoRequest = "undo request" // Why: the asker's reason
	adminAccept      = "accept"
	adminVacation    = "vacation"        // From, To
	adminReplace     = "replace"         // Player, Address
	adminDeadline    = "deadline passed" // Player, Policy
	// nothingToSkip is the Policy of a deadline that passed with no move to make.
	nothingToSkip = "nothing to skip"
)

// Facts are derived from the event log: nothing here is stored.
type Facts struct {
	// Resigned are the players who resigned.
	Resigned map[string]bool
	// Vacations are each player's absences.
	Vacations map[string][]Interval
	// Undo is the pending undo request, nil when none: a move or an undo ends
	// it, and so does its asker's resignation (the request is withdrawn).
	Undo *UndoRequest
	// TurnStart is, for each player who must act now, the event after which their
	// turn began (0: the start of the game) and its time.
	TurnStart map[string]TurnStart
}

// Interval is a half-open span of time.
type Interval struct{ From, To time.Time }

// UndoRequest is a request to take back the last move, waiting for consent.
type UndoRequest struct {
	Seq      int
	By       string
	Accepted map[string]bool
	// Why is the reason the asker wrote ("" when none).
	Why string
}

// TurnStart is when a player's current turn began.
type TurnStart struct {
	Seq int
	At  time.Time
}

// newFacts returns the facts of a game at its start: toAct must act, since started.
func newFacts(toAct []string, started time.Time) Facts {
	f := Facts{Resigned: map[string]bool{}, Vacations: map[string][]Interval{}, TurnStart: map[string]TurnStart{}}
	for _, p := range toAct {
		f.TurnStart[p] = TurnStart{0, started}
	}
	return f
}

// step folds event e into the facts: it led from a state where the players was must
// act to one where now must act.
func (f *Facts) step(e store.Event, was, now []string, started time.Time) {
	f.observe(e)
	f.TurnStart = nextTurnStart(f.TurnStart, e, was, now, started)
}

// clone returns a copy that shares nothing the methods of Facts change.
func (f Facts) clone() Facts {
	c := Facts{Resigned: maps.Clone(f.Resigned), Vacations: make(map[string][]Interval, len(f.Vacations)), TurnStart: maps.Clone(f.TurnStart)}
	for k, v := range f.Vacations {
		c.Vacations[k] = slices.Clone(v)
	}
	if f.Undo != nil {
		u := *f.Undo
		u.Accepted = maps.Clone(f.Undo.Accepted)
		c.Undo = &u
	}
	return c
}

// startedAt is when the game began.
func (l *Loaded) startedAt() time.Time {
	if l.Settings.StartedAt != nil {
		return *l.Settings.StartedAt
	}
	return l.Game.CreatedAt
}

// nextTurnStart returns the turn starts after event e, which led from a state where
// the players was must act to one where now must act: a player who must act after it
// keeps their turn's start unless their turn begins with e (it was not theirs before,
// it is their own move or deadline, or e resumes the game).
func nextTurnStart(cur map[string]TurnStart, e store.Event, was, now []string, started time.Time) map[string]TurnStart {
	next := map[string]TurnStart{}
	act := adminAct(e)
	for _, p := range now {
		ts, had := cur[p]
		own := strings.EqualFold(e.Player, p) && (e.Kind == engine.KindMove || act == adminDeadline)
		if !had || !contains(was, p) || own || act == adminResume {
			at := e.At
			if at.IsZero() {
				at = started // imported events may have no time
			}
			ts = TurnStart{e.Seq, at}
		}
		next[p] = ts
	}
	return next
}

// observe updates the facts with one event.
func (f *Facts) observe(e store.Event) {
	switch e.Kind {
	case engine.KindMove, engine.KindUndo:
		f.Undo = nil
		return
	}
	a, ok := adminOf(e)
	if !ok {
		return
	}
	switch a.Act {
	case adminResign:
		f.Resigned[e.Player] = true
		if f.Undo != nil && f.Undo.By == e.Player {
			f.Undo = nil // the asker left: the request is withdrawn
		}
	case adminUndoRequest:
		f.Undo = &UndoRequest{Seq: e.Seq, By: e.Player, Accepted: map[string]bool{}, Why: a.Why}
	case adminAccept:
		if f.Undo != nil {
			f.Undo.Accepted[e.Player] = true
		}
	case adminVacation:
		if iv, ok := parseVacation(a.From, a.To); ok {
			f.Vacations[e.Player] = append(f.Vacations[e.Player], iv)
		}
	}
}

// parseVacation reads a vacation's first and last days ("2026-12-01",
// "2026-12-05"): from the start of the first day to the end of the last, UTC.
func parseVacation(from, to string) (Interval, bool) {
	first, err1 := time.Parse("2006-01-02", from)
	last, err2 := time.Parse("2006-01-02", to)
	if err1 != nil || err2 != nil || last.Before(first) {
		return Interval{}, false
	}
	return Interval{From: first, To: last.AddDate(0, 0, 1)}, true
}

// days is the number of calendar days an interval covers.
func (iv Interval) days() int { return int(iv.To.Sub(iv.From) / (24 * time.Hour)) }

// Deadline is one player's current deadline.
type Deadline struct {
	Player string
	Seat   int
	// Start is when the turn began; StartSeq the event after which it began.
	Start    time.Time
	StartSeq int
	// Due is the deadline, stretched by the player's vacations.
	Due time.Time
	// Stretched is how much vacations added.
	Stretched time.Duration
}

// Deadlines returns the deadlines of the players who must act now, in seat order;
// none for a game that is not running or has no deadline.
func (l *Loaded) Deadlines() []Deadline {
	spec := l.Settings.deadline()
	if l.State == nil || l.Game.Status != store.GameRunning || spec.none() || l.State.Finished() {
		return nil
	}
	var out []Deadline
	for _, p := range l.Seats() {
		ts, ok := l.Facts.TurnStart[p.Name]
		if !ok || l.Facts.Resigned[p.Name] {
			continue
		}
		due := l.Settings.deadlineOf(l.State, p.Name, spec).after(ts.At)
		base := due
		for _, iv := range l.Facts.Vacations[p.Name] {
			if iv.From.Before(due) && iv.To.After(ts.At) {
				from := iv.From
				if from.Before(ts.At) {
					from = ts.At
				}
				due = due.Add(iv.To.Sub(from))
			}
		}
		out = append(out, Deadline{Player: p.Name, Seat: p.Seat, Start: ts.At, StartSeq: ts.Seq, Due: due, Stretched: due.Sub(base)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Seat < out[j].Seat })
	return out
}

// active returns the players who have not resigned.
func (l *Loaded) active() []store.Player {
	var out []store.Player
	for _, p := range l.Seats() {
		if !l.Facts.Resigned[p.Name] {
			out = append(out, p)
		}
	}
	return out
}

// Observers returns the observers.
func (l *Loaded) Observers() []store.Player {
	var out []store.Player
	for _, p := range l.Players {
		if p.Role == store.RoleObserver {
			out = append(out, p)
		}
	}
	return out
}

// playerByName finds a seat by name (case-insensitive).
func (l *Loaded) playerByName(name string) (store.Player, bool) {
	for _, p := range l.Seats() {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return store.Player{}, false
}

// playerByEmail finds a seat by address.
func (l *Loaded) playerByEmail(addr string) (store.Player, bool) {
	for _, p := range l.Seats() {
		if strings.EqualFold(p.Email, addr) {
			return p, true
		}
	}
	return store.Player{}, false
}

// epochStride separates the seat from its epoch in the seat number of a reply
// token: token seat = epoch*epochStride + seat. Epoch 0 keeps the tokens issued
// before seats had epochs.
const epochStride = 10000

// replyAddr is a seat's current personal reply address.
func (s *Service) replyAddr(gameID string, p store.Player) string {
	return s.ReplyAddress(gameID, p.Epoch*epochStride+p.Seat)
}

// confirmCode is the code that confirms a resignation: it proves the player read
// the mail that asked (a round trip), and changes when the seat changes hands.
func (s *Service) confirmCode(gameID string, p store.Player) string {
	h := hmac.New(sha256.New, s.opts.Secret)
	h.Write([]byte("turnmail/resign/v1\x00" + gameID + "\x00" + strconv.Itoa(p.Seat) + "\x00" + strconv.Itoa(p.Epoch)))
	return strings.ToLower(base32.StdEncoding.EncodeToString(h.Sum(nil)[:5]))
}
