package service

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/compose"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// Inbox statuses written by the service.
const (
	// StatusApplied: at least one command line became an event.
	StatusApplied = "applied"
	// StatusRejected: the mail was answered (or deliberately not) and nothing applied.
	StatusRejected = "rejected"
	// StatusIgnored: auto-generated mail, our own mail, or an unknown sender; no answer.
	StatusIgnored = "ignored"
)

// Result says what became of one incoming mail.
type Result struct {
	InboxID int64
	// Status is StatusApplied, StatusRejected or StatusIgnored.
	Status string
	// Reason explains a rejection or why the mail was ignored.
	Reason string
	GameID string
	// Applied counts the command lines that became events.
	Applied int
	// Duplicate is true when the mail had been received before.
	Duplicate bool
}

// Receive stores a raw incoming mail (deduplicated by Message-ID, or by a hash of what
// the sender wrote: see store.DedupeKey) and processes it. A mail received before is not processed again. See
// ReceiveAll.
func (s *Service) Receive(ctx context.Context, in store.InboxMsg) (Result, error) {
	res, err := s.ReceiveAll(ctx, []store.InboxMsg{in})
	if err != nil {
		return Result{}, err
	}
	return res[0], nil
}

// ReceiveAll stores and processes mails in order, as Receive would one by one. A
// new mail is stored by the transaction that commits what it caused, and the
// outcomes of consecutive mails that concern different games share one transaction
// (one fsync for a burst of moves, not two per move): a mail is decided only after
// everything it may read is committed — a game's mail after the earlier mails to
// that game, a lobby mail or a bounce after all earlier mails. The mails of such a
// group are decided at the same time (one game, one mail at a time: see gameLocks),
// each game kept by the group until it is committed.
//
// It returns the results of the mails it stored, in order; on an error that is a
// prefix of ins, and the rest is stored nowhere: offer it again later.
func (s *Service) ReceiveAll(ctx context.Context, ins []store.InboxMsg) ([]Result, error) {
	var g group
	defer g.unlock()
	results := make([]Result, 0, len(ins))
	heldAny := false
	flush := func() error {
		res, held, err := s.flushGroup(ctx, &g)
		results = append(results, res...)
		heldAny = heldAny || held
		return err
	}
	for _, in := range ins {
		in = s.prepareInbox(in)
		if g.keys[in.DedupeKey] {
			if err := flush(); err != nil { // the copy must see the first one stored
				return results, err
			}
		}
		old, err := s.store.InboxOf(ctx, in)
		if err == nil {
			if err := flush(); err != nil {
				return results, err
			}
			res, err := s.Process(ctx, old.ID)
			if err != nil {
				return results, err
			}
			results = append(results, res)
			continue
		}
		if !errors.Is(err, store.ErrNotFound) {
			flushErr := flush()
			return results, errors.Join(fmt.Errorf("receive: %w", err), flushErr)
		}
		rt := s.routeGuarded(in)
		switch {
		case rt.reads == readsAll:
			// Alone: after the mails before it are committed, before the next is read.
			if err := flush(); err != nil {
				return results, err
			}
			g.unlocks = append(g.unlocks, s.locks.lockAll())
			g.pend(in, rt)
			if err := flush(); err != nil {
				return results, err
			}
			continue
		case rt.reads == readsGame && g.games[rt.gameID]:
			if err := flush(); err != nil {
				return results, err
			}
		}
		if rt.reads == readsGame {
			unlock, ok := s.locks.tryLock(rt.gameID)
			if !ok { // another holds it: wait for it holding nothing
				if err := flush(); err != nil {
					return results, err
				}
				unlock = s.locks.lock(rt.gameID)
			}
			g.unlocks = append(g.unlocks, unlock)
		}
		g.pend(in, rt)
	}
	if err := flush(); err != nil {
		return results, err
	}
	if heldAny {
		s.tellHeldLogged(ctx)
	}
	return results, nil
}

// tellHeldLogged is tellHeld, its failure logged: the notices owed wait for the next
// mail or tick.
func (s *Service) tellHeldLogged(ctx context.Context) {
	if err := s.tellHeld(ctx); err != nil {
		s.log.Error("notices of held mail", "err", err)
	}
}

// decideAll decides the mails the group waits with (decide), at the same time (they
// concern different games, each locked by the group), and adds their outcomes in
// order. A failure that is not quarantined stops it: the mails decided before it
// are added, and it returns the error.
func (s *Service) decideAll(ctx context.Context, g *group) error {
	type decided struct {
		res Result
		b   store.Batch
		err error
	}
	out := make([]decided, len(g.pending))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range g.pending {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i].res, out[i].b, out[i].err = s.decide(ctx, p.in, p.rt)
		}()
	}
	wg.Wait()
	pending := g.pending
	g.pending = nil
	for i, p := range pending {
		if err := out[i].err; err != nil {
			return fmt.Errorf("process mail: %w", err)
		}
		s.forgetTransient(p.in.DedupeKey)
		g.add(p.in, p.rt.from, out[i].res, out[i].b)
	}
	return nil
}

// prepareInbox fills in a received mail's defaults.
func (s *Service) prepareInbox(in store.InboxMsg) store.InboxMsg {
	if in.ReceivedAt.IsZero() {
		in.ReceivedAt = s.opts.Clock()
	}
	if in.MessageID == "" {
		in.MessageID = headerMessageID(in.Raw)
	}
	if in.DedupeKey == "" {
		in.DedupeKey = store.DedupeKey(in.MessageID, in.Raw)
	}
	in.ID, in.Status = 0, ""
	return in
}

// group is the mails of ReceiveAll not committed yet: those waiting to be decided
// (pending) and the decided outcomes, with the locks of the games they concern.
type group struct {
	pending []pendingMail
	mails   []store.InboxMsg // the decided mails, to be stored with their outcomes
	froms   []string         // their writers
	results []Result
	batches []store.Batch // what each mail decided
	games   map[string]bool
	keys    map[string]bool
	unlocks []func()
}

// pendingMail is a routed mail waiting to be decided.
type pendingMail struct {
	in store.InboxMsg
	rt route
}

// pend adds a routed mail to decide with the group.
func (g *group) pend(in store.InboxMsg, rt route) {
	g.init()
	g.pending = append(g.pending, pendingMail{in, rt})
	g.keys[in.DedupeKey] = true
	if rt.gameID != "" {
		g.games[rt.gameID] = true
	}
}

func (g *group) init() {
	if g.games == nil {
		g.games, g.keys = map[string]bool{}, map[string]bool{}
	}
}

func (g *group) add(in store.InboxMsg, from string, res Result, b store.Batch) {
	g.init()
	g.mails = append(g.mails, in)
	g.froms = append(g.froms, from)
	g.results = append(g.results, res)
	g.batches = append(g.batches, b)
	g.keys[in.DedupeKey] = true
	for _, ng := range b.Games {
		g.games[ng.Game.ID] = true
	}
	for _, c := range b.Commits {
		if c.GameID != "" {
			g.games[c.GameID] = true
		}
	}
}

// unlock lets the group's games go.
func (g *group) unlock() {
	for _, u := range g.unlocks {
		u()
	}
	g.unlocks = nil
}

// flushGroup decides the group's pending mails, commits the group and lets its games
// go, leaving it empty. held reports whether the limits held back mail the group
// caused (its readers are owed a notice: see tellHeld).
func (s *Service) flushGroup(ctx context.Context, g *group) (res []Result, held bool, err error) {
	err = s.decideAll(ctx, g)
	var each []store.InboxMsg
	if err == nil || len(g.mails) > 0 {
		var cerr error
		res, each, held, cerr = s.commitGroup(ctx, g)
		err = errors.Join(err, cerr)
	}
	g.unlock()
	*g = group{}
	if len(each) > 0 && err == nil {
		// Another writer got in first, or one mail's outcome cannot be committed:
		// each mail on its own (the one that cannot is quarantined there, and tells
		// the readers of mail it held back).
		res, err = s.receiveEach(ctx, each)
		return res, false, err
	}
	return res, held, err
}

// commitGroup commits g's decided mails in one transaction. When that fails because
// another writer got in first (a stale sequence number, a mail stored meanwhile), or
// one outcome cannot be committed, it returns the mails instead, to be processed
// again one by one.
func (s *Service) commitGroup(ctx context.Context, g *group) ([]Result, []store.InboxMsg, bool, error) {
	if len(g.mails) == 0 {
		return nil, nil, false, nil
	}
	var all store.Batch
	held := make([]*[]string, len(g.mails))
	for i := range g.mails {
		var b store.Batch
		b, held[i] = s.settle(g.batches[i], g.results[i], &g.mails[i], g.froms[i])
		all.Games = append(all.Games, b.Games...)
		all.Commits = append(all.Commits, b.Commits...)
	}
	err := s.commit(ctx, all)
	if errors.Is(err, store.ErrStaleSeq) || errors.Is(err, store.ErrDuplicate) || err != nil && !store.IsTransient(err) {
		return nil, g.mails, false, nil
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("commit %d mails: %w", len(g.mails), err)
	}
	heldAny := false
	for i := range g.results {
		g.results[i].InboxID = g.mails[i].ID
		g.results[i].Reason = withHeld(g.results[i].Reason, *held[i])
		heldAny = heldAny || len(*held[i]) > 0
		s.logResult(g.results[i])
	}
	return g.results, nil, heldAny, nil
}

// receiveEach stores and processes mails one at a time, each in its own
// transaction.
func (s *Service) receiveEach(ctx context.Context, mails []store.InboxMsg) ([]Result, error) {
	var results []Result
	for _, in := range mails {
		old, err := s.store.InboxOf(ctx, in)
		var res Result
		switch {
		case err == nil:
			res, err = s.processStored(ctx, old.ID)
		case errors.Is(err, store.ErrNotFound):
			in.ID = 0
			res, err = s.interpret(ctx, in)
		}
		if err != nil {
			return results, fmt.Errorf("receive: %w", err)
		}
		results = append(results, res)
	}
	return results, nil
}

// ProcessPending processes every stored mail not yet processed (after a crash, the
// mails that were stored but not interpreted).
func (s *Service) ProcessPending(ctx context.Context) (int, error) {
	n := 0
	for {
		batch, err := s.store.PendingInbox(ctx, 100)
		if err != nil {
			return n, fmt.Errorf("pending inbox: %w", err)
		}
		if len(batch) == 0 {
			return n, nil
		}
		for _, m := range batch {
			if _, err := s.Process(ctx, m.ID); err != nil {
				return n, err
			}
			n++
		}
	}
}

// Process interprets stored mail id: authenticates it, applies its command lines and
// commits the events, the mails reporting them and the mail's new status in one
// transaction. Processing a mail that is no longer pending does nothing.
func (s *Service) Process(ctx context.Context, id int64) (Result, error) {
	return s.processStored(ctx, id)
}

// processStored is Process.
func (s *Service) processStored(ctx context.Context, id int64) (Result, error) {
	m, err := s.store.Inbox(ctx, id)
	if err != nil {
		return Result{}, fmt.Errorf("process mail %d: %w", id, err)
	}
	if m.Status != store.InboxPending {
		return Result{InboxID: id, Status: m.Status, Reason: m.Error, GameID: m.GameID, Duplicate: true}, nil
	}
	return s.interpret(ctx, m)
}

// interpret decides mail m (decide) and commits the outcome with the mail's new
// status: a stored mail (m.ID != 0) is settled, a new one is stored with its
// outcome. When another writer appended to the game first, it decides again against
// the new state. An outcome that cannot be committed is a failure of the mail too
// (see fail): quarantined, the error returned is nil.
func (s *Service) interpret(ctx context.Context, m store.InboxMsg) (Result, error) {
	rt := s.routeGuarded(m)
	defer s.lockFor(rt)()
	for attempt := 0; ; attempt++ {
		res, b, err := s.decide(ctx, m, rt)
		if err != nil {
			return Result{}, fmt.Errorf("process mail %d: %w", m.ID, err)
		}
		fresh := m
		settled, held := s.settle(b, res, &fresh, rt.from)
		err = s.commit(ctx, settled)
		if errors.Is(err, store.ErrStaleSeq) && attempt < 3 {
			continue // another process appended first: re-check against the new state
		}
		if err != nil && res.Status != StatusFailed && !errors.Is(err, store.ErrDuplicate) {
			// What the mail caused cannot be committed: quarantine it alone.
			if qres, qb, qerr := s.fail(ctx, m, rt, fmt.Errorf("commit: %w", err)); qerr == nil {
				res, fresh = qres, m
				settled, held = s.settle(qb, res, &fresh, rt.from)
				err = s.commit(ctx, settled)
			}
		}
		if err != nil {
			return Result{}, fmt.Errorf("process mail %d: commit: %w", m.ID, err)
		}
		s.forgetTransient(m.DedupeKey)
		if len(*held) > 0 {
			defer s.tellHeldLogged(ctx)
		}
		res.InboxID = fresh.ID
		res.Reason = withHeld(res.Reason, *held)
		s.logResult(res)
		return res, nil
	}
}

// lockFor takes the locks a routed mail is decided and committed under (see
// gameLocks) and returns their unlock.
func (s *Service) lockFor(rt route) func() {
	switch rt.reads {
	case readsAll:
		return s.locks.lockAll()
	case readsGame:
		return s.locks.lock(rt.gameID)
	}
	return func() {}
}

func (s *Service) logResult(res Result) {
	s.log.Info("mail processed", "inbox", res.InboxID, "status", res.Status, "reason", res.Reason, "game", res.GameID, "applied", res.Applied)
}

// commit writes what processing mails decided, in one transaction.
func (s *Service) commit(ctx context.Context, b store.Batch) error {
	if len(b.Games) == 0 && len(b.Commits) == 1 {
		return s.store.Commit(ctx, b.Commits[0])
	}
	return s.store.CommitBatch(ctx, b)
}

// single wraps the one commit of a mail about one game (or none) as a batch.
func single(res Result, c store.Commit, err error) (Result, store.Batch, error) {
	return res, store.Batch{Commits: []store.Commit{c}}, err
}

// reads says which stored state deciding a mail reads.
type reads int

const (
	readsNothing reads = iota // decided from the mail alone
	readsGame                 // one game (route.gameID)
	readsAll                  // anything: lobby commands, bounces
)

// route is where a mail goes, found from the mail alone: an early outcome, the
// bounce handler, the lobby, or a game's seat.
type route struct {
	reads    reads
	early    Result // the outcome, when reads == readsNothing
	msg      *parse.Message
	from     string
	tooLarge bool
	bounce   bool
	gameID   string
	seat     int
	// hostGame is the game whose host reply address the mail came to; code the
	// one-time code of the confirmation address it came to.
	hostGame, code string
	// failed is why reading the mail failed (a panic: see routeGuarded).
	failed error
}

// route parses mail in and finds where it goes, without reading any state.
func (s *Service) route(in store.InboxMsg) route {
	early := func(status, reason string) route {
		return route{early: Result{Status: status, Reason: reason}}
	}
	var msg *parse.Message
	var err error
	tooLarge := in.Truncated || in.Size > s.opts.MaxMessageBytes
	if !tooLarge {
		msg, err = parse.Parse(in.Raw, &parse.Options{MaxSize: int(s.opts.MaxMessageBytes)})
		tooLarge = errors.Is(err, parse.ErrTooLarge)
	}
	if tooLarge {
		// Read only the header: enough to authenticate the writer and tell them.
		msg, err = parse.Parse(headerOf(in.Raw), nil)
	}
	if err != nil {
		return early(StatusRejected, "unreadable mail: "+err.Error())
	}
	from := strings.ToLower(msg.From.Address)
	switch {
	case msg.IsDSN:
		return route{reads: readsAll, msg: msg, from: from, bounce: true}
	case msg.Auto != "":
		return early(StatusIgnored, "auto-generated mail: "+msg.Auto)
	case msg.Header.Get("X-Turnmail") != "" || from == s.local+"@"+s.domain || strings.HasPrefix(from, s.local+"+") && strings.HasSuffix(from, "@"+s.domain):
		return early(StatusIgnored, "turnmail's own mail")
	case from == "":
		return early(StatusIgnored, "no From address")
	}
	if err := compose.CheckAddress(from); err != nil {
		// Nothing may be sent to it, so nothing it asks for is done: no answer.
		return early(StatusRejected, "From cannot be answered: "+err.Error())
	}
	return s.claimOf(msg, from, tooLarge)
}

// decide is the one step that decides a routed mail, for ReceiveAll's groups and
// for one mail alike: decideRoute, a panic recovered, and a failure that trying
// again cannot fix quarantined (fail). err is a failure after which the mail is
// offered again later (nothing was decided).
func (s *Service) decide(ctx context.Context, in store.InboxMsg, rt route) (Result, store.Batch, error) {
	if rt.failed != nil {
		return s.fail(ctx, in, rt, rt.failed)
	}
	res, b, err := s.decideGuarded(ctx, in, rt)
	if err != nil {
		return s.fail(ctx, in, rt, err)
	}
	return res, b, nil
}

// decideRoute decides a routed mail: it authenticates the mail and lets its
// principal's path decide it.
func (s *Service) decideRoute(ctx context.Context, in store.InboxMsg, rt route) (Result, store.Batch, error) {
	p, err := s.authenticate(ctx, rt)
	if err != nil {
		return Result{}, store.Batch{}, err
	}
	switch p.kind {
	case principalBounce:
		return s.bounce(ctx, in, p.msg)
	case principalConfirmation:
		return s.confirmReply(ctx, p)
	case principalHost, principalStranger:
		return s.lobby(ctx, p.from, p.msg, p.credential())
	case principalSeat:
		if p.tooLarge {
			return single(s.refuse(p.l, p.player, inReplyTo(p.msg), fmt.Sprintf(
				"Your mail was too large to read (over %d KB; attachments count). Nothing was applied: reply again with just your commands.",
				s.opts.MaxMessageBytes/1024), nil))
		}
		return single(s.play(ctx, p.l, p.player, p.msg))
	}
	return p.refused, store.Batch{}, nil
}

// reasonOf turns an engine error into text a player can act on.
func reasonOf(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Error()
	}
	return err.Error()
}

// reasonIn is reasonOf in lang: a rule error's text from the catalogue of game (in
// English too, for its plural forms: "1 army") and what is possible instead as
// commands in lang's words.
func (s *Service) reasonIn(lang i18n.Lang, game string, err error) string {
	var re *engine.RuleError
	if !errors.As(err, &re) {
		return reasonOf(err)
	}
	why := re.Reason
	if re.Text.Key != "" {
		why = s.tr.GameText(game, lang, re.Text)
	}
	if len(re.Instead) == 0 {
		return why
	}
	return why + s.tr.Sprintf(lang, "; possible: %s", strings.Join(s.commandsIn(lang, game, re.Instead), ", "))
}

// commandsIn returns canonical commands (or Legal entries) in lang's words.
func (s *Service) commandsIn(lang i18n.Lang, game string, cmds []string) []string {
	if lang == i18n.English {
		return cmds
	}
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = s.tr.Command(game, lang, c)
	}
	return out
}

// howTo answers a registered player who wrote without a reply token, in lang;
// anyone else gets nothing.
func (s *Service) howTo(ctx context.Context, from string, msg *parse.Message, lang i18n.Lang) (Result, store.Commit, error) {
	seats, err := s.store.SeatsOf(ctx, from)
	if err != nil {
		return Result{}, store.Commit{}, err
	}
	data := templates.HowTo{Service: s.local + "@" + s.domain, Lang: string(lang)}
	if len(msg.Commands) > 0 {
		if f := strings.Fields(msg.Commands[0].Text); len(f) > 0 {
			data.Word = cut(cleanChat(f[0]), maxWordBytes) // repeated to its writer: no control or bidi characters
		}
	}
	for _, p := range seats {
		if p.Role != store.RolePlayer {
			continue
		}
		g, _, err := s.store.Game(ctx, p.GameID)
		if err != nil {
			return Result{}, store.Commit{}, err
		}
		if g.Status == store.GameFinished || g.Status == store.GameOpen {
			continue // no moves there: nothing to tell
		}
		data.Player = p.Name
		data.Games = append(data.Games, templates.HowToGame{
			Game:    templates.Game{ID: g.ID, Kind: g.Kind, Title: templates.GameTitle(g.Kind)},
			ReplyTo: s.replyAddr(g.ID, p),
		})
	}
	if len(data.Games) == 0 {
		return Result{Status: StatusIgnored, Reason: "unknown sender without a reply token"}, store.Commit{}, nil
	}
	res := Result{Status: StatusRejected, Reason: "no reply token; told the player how to reply"}
	out, err := s.mail(outMail{kind: "howto", data: data, to: from, inReplyTo: inReplyTo(msg), auto: "auto-replied"})
	if err != nil {
		return res, store.Commit{}, err
	}
	return res, store.Commit{Outbox: []store.OutMail{out}}, nil
}

// inReplyTo is the Message-ID an answer to msg refers to: "" when it has none or
// one that compose.ValidMessageID refuses (a stranger's id is never echoed raw).
func inReplyTo(msg *parse.Message) string {
	if !compose.ValidMessageID(msg.MessageID) {
		return ""
	}
	return msg.MessageID
}
