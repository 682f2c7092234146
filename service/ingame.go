package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// actor is who gave a command: a seat, or the host writing to the service address.
type actor struct {
	Name  string // the seat's name, or "host"
	Email string
	Seat  *store.Player
}

// run accumulates what one mail (or one scheduler tick) does to one game: the events,
// the mails, the game's new status, all committed together.
type run struct {
	ctx    context.Context
	s      *Service
	l      *Loaded
	c      store.Commit
	state  engine.State
	after  []engine.State // the state after each of c.Events
	status string
	moved  bool // moves or an undo: every seat gets the new state
	mails  []store.OutMail
	// sender is the address whose mail this run answers ("" for none): the notices
	// to it are collected in answers and sent as one mail (see answer).
	sender  string
	answers []templates.Notice
	// wantState is set by status: the sender wants their state mail.
	wantState bool
	// noticed indexes the notices to other addresses in mails by address and kind:
	// a mail sends each of them one notice of a kind at most (the last).
	noticed map[string]int
	inReply string
	msgID   string
	now     time.Time
	// consented is an address that confirmed from its own mailbox (a confirmation
	// round trip); asked is set when a command asked another address to confirm
	// instead of acting.
	consented string
	asked     bool
	// lang is the language of the sender's answers.
	lang i18n.Lang
	// line is the command line being run as the player wrote it (case kept), and
	// said the messages relayed so far by address (see cmdSay).
	line string
	said map[string][]templates.Move
}

func (s *Service) newRun(ctx context.Context, l *Loaded, msgID, inReply string) *run {
	return &run{ctx: ctx, s: s, l: l, c: store.Commit{GameID: l.Game.ID, ExpectSeq: l.LastSeq()}, state: l.State,
		status: l.Game.Status, msgID: msgID, inReply: inReply, now: s.opts.Clock().UTC(), lang: s.langOf(l.Settings, "")}
}

// t renders a service sentence (an English fmt format, the key of its translations)
// in the language of the sender's answers.
func (r *run) t(format string, args ...any) string { return r.s.tr.Sprintf(r.lang, format, args...) }

func (r *run) seq() int { return r.l.LastSeq() + len(r.c.Events) + 1 }

// add appends an event and folds it into the facts.
func (r *run) add(e store.Event) {
	e.GameID, e.Seq, e.At, e.MessageID = r.l.Game.ID, r.seq(), r.now, r.msgID
	if e.Hash == "" {
		e.Hash = r.state.Hash()
	}
	r.c.Events = append(r.c.Events, e)
	r.after = append(r.after, r.state)
	r.l.Facts.observe(e)
}

func (r *run) admin(player, command string) {
	r.add(store.Event{Kind: engine.KindAdmin, Player: player, Command: command})
}

// choice matches a choice of a Legal entry ("<0,180>"), which a player who copies the
// line whole sends as it is.
var choice = regexp.MustCompile(`<\d+(?:,\d+)+>`)

// move applies one command through the engine. A line of the list with a choice left
// in it is answered for every game alike: send one of its values.
func (r *run) move(player, cmd string) error {
	if c := choice.FindString(cmd); c != "" {
		return failf("%s still has a choice in it: send the line with one of the values of %s, for example %s",
			engine.Command(cmd), c, engine.Command(choice.ReplaceAllStringFunc(cmd, func(c string) string { f, _, _ := strings.Cut(c[1:], ","); return f })))
	}
	if err := r.apply(player, cmd); err != nil {
		return err
	}
	return r.standingOrders()
}

// apply applies one command through the engine and records it.
func (r *run) apply(player, cmd string) error {
	next, outcomes, err := engine.Step(r.state, r.l.Seed, r.seq(), player, cmd, nil)
	if err != nil {
		return err
	}
	var raw json.RawMessage
	if len(outcomes) > 0 {
		raw, _ = json.Marshal(outcomes) // outcomes are JSON values already
	}
	r.state = next
	r.add(store.Event{Player: player, Command: cmd, Outcomes: raw, Hash: next.Hash()})
	r.moved = true
	return nil
}

// undoneOf is the recorded move e as an undo's payload names it.
func undoneOf(e store.Event) undoneMove {
	return undoneMove{Seq: e.Seq, Player: e.Player, Command: e.Command}
}

// undo takes back the move t (see undoTarget): one undo event for each turn skipped
// for a resigned player above it, then one for the move; it replays to learn the
// state they leave.
func (r *run) undo(why undoPayload, t undoTarget) error {
	first := len(r.c.Events)
	with := undoneOf(t.move)
	for _, e := range t.skipped {
		r.add(store.Event{Kind: engine.KindUndo, Command: undoPayload{How: undoSkipped, Move: undoneOf(e), With: &with}.encode()})
	}
	why.Move = with
	r.add(store.Event{Kind: engine.KindUndo, Player: "", Command: why.encode()})
	// The undo events go back to the states they name, which the game's history
	// gives (this run's own states are in view's).
	h := r.view().hist
	if h == nil {
		return errors.New("replay the undo: the game has no history")
	}
	for i := range h.events[r.l.LastSeq()+first:] {
		h.events[r.l.LastSeq()+first+i].Hash = "" // recorded by add as the state before: not to be checked
	}
	f := engine.Fold{Seed: r.l.Seed, Events: h.events, Base: r.state, BaseSeq: r.l.LastSeq() + first, StateAt: h.at, Journal: true, Keep: true,
		Visit: func(seq int, st engine.State) error {
			// Like every event, an undo records the state after it (add stored the one before).
			i := seq - r.l.LastSeq() - 1
			r.c.Events[i].Hash, r.after[i] = st.Hash(), st
			return nil
		}}
	st, err := f.Run(-1)
	if err != nil {
		return fmt.Errorf("replay the undo: %w", err)
	}
	r.state, r.moved = st, true
	return nil
}

// view is the game as the run leaves it: its events appended, its status and state,
// and the turn starts they give, so that the mails show the deadlines that count
// from this run's events (r.l keeps the game as it was loaded).
func (r *run) view() *Loaded {
	v := *r.l
	v.Game.Status = r.status
	v.State = r.state
	v.Events = append(capped(r.l.Events), r.c.Events...)
	if r.l.State == nil {
		return &v
	}
	if r.l.hist != nil {
		states := make(map[int]engine.State, len(r.after))
		for i, st := range r.after {
			states[r.l.LastSeq()+i+1] = st
		}
		v.hist = r.l.hist.with(append(capped(r.l.hist.events), engineEvents(r.c.Events)...), states)
	}
	was, started := r.l.State.ToAct(), r.l.startedAt()
	for i, e := range r.c.Events {
		now := r.after[i].ToAct()
		v.Facts.TurnStart = nextTurnStart(v.Facts.TurnStart, e, was, now, started)
		was = now
	}
	return &v
}

func decodeOutcomes(raw json.RawMessage) engine.Outcomes {
	var o engine.Outcomes
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &o)
	}
	return o
}

// over reports whether the game has ended, and who won: the engine's verdict, or the
// last player standing when every other resigned.
func (r *run) over() (bool, []string) { return gameOver(r.l, r.state) }

func gameOver(l *Loaded, state engine.State) (bool, []string) {
	if state == nil {
		return false, nil
	}
	if state.Finished() {
		return true, state.Winners()
	}
	seats := l.Seats()
	act := l.active()
	if len(seats) > 1 && len(act) <= 1 {
		var w []string
		for _, p := range act {
			w = append(w, p.Name)
		}
		return true, w
	}
	return false, nil
}

// autoSkip plays the engine's "no move" for resigned players whose turn it is.
func (r *run) autoSkip() {
	for i := 0; i < 100; i++ {
		if done, _ := r.over(); done {
			return
		}
		sk, ok := r.state.(engine.Skipper)
		if !ok {
			return
		}
		progressed := false
		for _, p := range r.state.ToAct() {
			if !r.l.Facts.Resigned[p] {
				continue
			}
			for _, cmd := range sk.SkipCommands(p) {
				if err := r.move(p, engine.Normalize(cmd)); err != nil {
					r.s.log.Warn("skip command refused by the engine", "game", r.l.Game.ID, "player", p, "command", cmd, "err", err)
					return
				}
				progressed = true
			}
		}
		if !progressed {
			return
		}
	}
}

// finish sets the game status and queues the state mails when the state changed.
func (r *run) finish(author string, applied []templates.Line, lineErr *templates.LineError) error {
	r.autoSkip()
	if done, _ := r.over(); done {
		r.status = store.GameFinished
	}
	if r.status != r.l.Game.Status {
		r.c.GameStatus = r.status
	}
	if r.moved {
		var notes []templates.Notice
		if author != "" {
			notes, r.answers, r.wantState = r.answers, nil, false // the author's state mail says it all
		}
		v := r.view()
		mails, err := r.s.stateMails(v, change{before: r.l.State, after: r.state, events: r.c.Events, author: author,
			reply: reply{applied: applied, lineErr: lineErr, notes: notes, inReply: r.inReply}})
		if err != nil {
			return err
		}
		r.c.Outbox = append(r.c.Outbox, play(mails, r.sender)...)
	}
	r.c.Outbox = append(r.c.Outbox, play(r.mails, r.sender)...)
	r.c.Snapshot = r.snapshot()
	return nil
}

// play marks the state mails among mails, those of a change to the game (a move, an
// undo, a seat that changed hands), as mails of play caused by writer: no cap holds
// them back (store.ClassPlay), so that nobody waits for a player who was not told it
// is their move. Other mails (a message relayed, a notice) keep their class.
func play(mails []store.OutMail, writer string) []store.OutMail {
	for i := range mails {
		if mails[i].Kind == "state" {
			mails[i].Class, mails[i].Cause = store.ClassPlay, writer
		}
	}
	return mails
}

// answer queues the one answer to a seat's mail that moved nothing (finish answered
// one that did): its only notice; else, when it asked for its state or there is
// more to say, the state mail with the notices, what was applied and the refused
// line; else the refusal of the refused line.
func (r *run) answer(seat store.Player, applied []templates.Line, lineErr *templates.LineError) error {
	var m store.OutMail
	var err error
	switch {
	case len(r.answers) == 1 && !r.wantState && lineErr == nil:
		m, err = r.s.notice(r.answers[0], r.l.threadOf(seat.Email), r.l.Game.ID, seat.Email, r.inReply)
	case len(r.answers) > 0 || r.wantState:
		if lineErr == nil {
			applied = nil // nothing to report beyond the answers
		}
		m, err = r.s.stateMail(r.view(), r.state, seat, nil, reply{applied: applied, lineErr: lineErr, notes: r.answers, inReply: r.inReply})
	case lineErr != nil:
		m, err = r.s.refusal(r.l, seat, lineErr.Reason, lineErr, r.inReply)
	default:
		return nil
	}
	if err != nil {
		return err
	}
	r.c.Outbox = append(r.c.Outbox, m)
	return nil
}

// noCommand refuses a mail without a command.
const noCommand = "No command was found in your mail. Write one command per line at the top of your reply."

// resignedReason refuses what a resigned player may no longer do.
const resignedReason = "You resigned from this game; you can still send status, history or legal."

// isMove reports whether verb is a verb of the game's own (a game may have a verb
// the service address also knows, such as Dungeoneer's take).
func (r *run) isMove(player, verb string) bool {
	if w, ok := r.s.games[r.l.Game.Kind].(engine.Worder); ok {
		return slices.Contains(w.Words(), verb)
	}
	return false
}

// The service verbs carried out in this file.
func init() {
	registerVerbs(
		&serviceVerb{name: "status", info: true, gameHelp: "resend my current view", game: (*run).cmdStatus},
		&serviceVerb{name: "legal", info: true, gameHelp: "what I can send now", game: (*run).cmdLegal},
		&serviceVerb{name: "history", info: true, gameHelp: "the last N events (default 10)", game: (*run).cmdHistory},
		&serviceVerb{name: "help", who: anyone, info: true, lobbyHelp: "this list", game: (*run).cmdHelp,
			lobby: func(*Service, context.Context, lobbyCall) (templates.Notice, error) {
				return templates.Notice{Kind: "help"}, nil
			}},
		&serviceVerb{name: "resign", gameHelp: "leave the game (you are asked to confirm)", game: (*run).cmdResign},
		&serviceVerb{name: "undo", who: host, lobbyHelp: "(host) take back the last move", gameHelp: "ask to take back the last move; the others answer accept",
			game: (*run).cmdUndo, lobby: hostInGame("undo")},
		&serviceVerb{name: "accept", gameHelp: "agree to an undo", game: (*run).cmdAccept},
		&serviceVerb{name: "pause", who: host, game: (*run).cmdPause, lobby: hostInGame("pause")},
		&serviceVerb{name: "resume", who: host, game: (*run).cmdResume, lobby: hostInGame("resume")},
		&serviceVerb{name: "vacation", gameHelp: "e.g. vacation 2026-12-24 2026-12-27: your deadlines stretch", game: (*run).cmdVacation},
		&serviceVerb{name: "replace", who: host, lobbyHelp: "(host) hand a seat to another address", game: (*run).cmdReplace, lobby: hostInGame("replace")},
	)
}

// play applies the mail's command lines in order: moves through the engine, the other
// commands (status, undo, pause …) by the service; it stops at the first line that
// cannot be applied.
// refuse answers a player's mail from which nothing is applied and settles it as
// rejected (the answer within the limits: see settle).
func (s *Service) refuse(l *Loaded, player store.Player, inReply, reason string, lineErr *templates.LineError) (Result, store.Commit, error) {
	res := Result{GameID: l.Game.ID, Status: StatusRejected, Reason: reason}
	c := store.Commit{GameID: l.Game.ID, ExpectSeq: l.LastSeq()}
	out, err := s.refusal(l, player, reason, lineErr, inReply)
	if err != nil {
		return res, c, err
	}
	c.Outbox = append(c.Outbox, out)
	return res, c, nil
}

func (s *Service) play(ctx context.Context, l *Loaded, player store.Player, msg *parse.Message) (Result, store.Commit, error) {
	res := Result{GameID: l.Game.ID}
	r := s.newRun(ctx, l, msg.MessageID, inReplyTo(msg))
	refuse := func(reason string, lineErr *templates.LineError) (Result, store.Commit, error) {
		return s.refuse(l, player, r.inReply, reason, lineErr)
	}
	if len(msg.Commands) == 0 {
		return refuse(r.t(noCommand), nil)
	}
	if prev, ok := s.repeated(ctx, l, player, msg); ok && !(prev.Status == store.InboxApplied && s.firstMoveApplies(l, player, msg)) {
		return s.repeatAnswer(l, player, msg, prev)
	}
	a := actor{Name: player.Name, Email: player.Email, Seat: &player}
	r.sender = player.Email
	r.lang = s.langOf(l.Settings, player.Name)
	lines, unread := readLines(msg.Commands, s.opts.MaxCommandLines)
	lines, notRead := chatter(lines, s.commandWords(l.Game.Kind), s.canonicalIn(l.Game.Kind))
	if n := notReadNotice(notRead); n != nil {
		r.answers = append(r.answers, r.noticeTo(player.Email, *n))
	}
	var applied []templates.Line
	var lineErr *templates.LineError
	answered := map[string]bool{}
	stopped := false
	for _, line := range lines {
		stop := func(why string) {
			lineErr = &templates.LineError{Line: templates.Line{N: line.N, Text: echo(line.Text)}, Reason: why}
			stopped = true
		}
		if why := lineTooLong(line.Text); why != "" {
			stop(why)
			break
		}
		cmd, _ := s.tr.Canonical(l.Game.Kind, engine.Normalize(line.Text)) // the log keeps the canonical command
		f := strings.Fields(cmd)
		if len(f) == 0 {
			continue
		}
		if alias, ok := standingAlias(f); ok {
			f = alias
		}
		if v := gameVerb(f[0]); v != nil {
			if v.info {
				if answered[f[0]] {
					continue // answered once per mail
				}
				answered[f[0]] = true
			}
			r.line = line.Text
			if why := v.game(r, a, f[1:]); why != "" {
				stop(why)
				break
			}
			applied = append(applied, templates.Line{N: line.N, Text: line.Text})
			continue
		}
		var why string
		switch done, _ := r.over(); {
		case lobbyVerb(f[0]) != nil && !r.isMove(player.Name, f[0]):
			// A command of the service address (games, join, new …), written in a
			// game's reply: say where it goes, in the reader's words.
			why = r.t("%s is a command of the service address: write it to %s.", engine.Command(f[0]), s.address())
		case done || r.status == store.GameFinished:
			why = r.t("The game is over; no more moves are accepted.")
		case r.status == store.GamePaused:
			why = r.t("The game is paused by its host; moves are accepted again when it resumes.")
		case l.Facts.Resigned[player.Name]:
			why = r.t(resignedReason)
		case s.commandWords(l.Game.Kind) != nil && !r.isMove(player.Name, f[0]):
			// A mistyped command word: the nearest command instead of the whole list.
			typed := strings.Fields(engine.Normalize(line.Text))[0]
			if sug := s.commandSuggestion(l.Game.Kind, r.lang, r.state, player.Name, typed, f[1:]); sug != "" {
				why = r.t("%q is not a command: did you mean %s?", boundText(typed, maxSuggestLen), sug)
			}
		}
		if why == "" {
			if err := r.move(player.Name, cmd); err != nil {
				if !errors.Is(err, engine.ErrIllegal) {
					s.log.Warn("engine error", "game", l.Game.ID, "command", cmd, "err", err)
				}
				why = s.reasonIn(r.lang, l.Game.Kind, err)
			}
		}
		if why != "" {
			stop(why)
			break
		}
		applied = append(applied, templates.Line{N: line.N, Text: line.Text})
		if done, _ := r.over(); done {
			stopped = true
			break
		}
	}
	if unread != nil && !stopped {
		r.answers = append(r.answers, r.noticeTo(player.Email, *unread))
	}
	if len(applied) == 0 {
		if lineErr == nil {
			return refuse(r.t(noCommand), nil)
		}
		return refuse(lineErr.Reason, lineErr)
	}
	res.Status, res.Applied = StatusApplied, len(applied)
	if lineErr != nil {
		res.Reason = fmt.Sprintf("line %d: %s", lineErr.N, lineErr.Reason)
	}
	if err := r.finish(player.Name, applied, lineErr); err != nil {
		return res, r.c, err
	}
	if !r.moved {
		if err := r.answer(player, applied, lineErr); err != nil {
			return res, r.c, err
		}
	}
	return res, r.c, nil
}

// notify queues a notice to one address: to the sender of the mail the run answers,
// as one of its answers; to another address as a mail. Either way, one notice of a
// kind at most (the last).
func (r *run) notify(to string, n templates.Notice) {
	if to == "" {
		return
	}
	n = r.noticeTo(to, n)
	if r.sender != "" && strings.EqualFold(to, r.sender) {
		r.answers = append(slices.DeleteFunc(r.answers, func(a templates.Notice) bool { return a.Kind == n.Kind }), n)
		return
	}
	m, err := r.s.notice(n, r.l.threadOf(to), r.l.Game.ID, to, "") // not an answer: the mail it answers is not the recipient's
	if err != nil {
		r.s.log.Error("render notice", "kind", n.Kind, "err", err)
		return
	}
	key := strings.ToLower(to) + "\x00" + string(n.Kind)
	if i, ok := r.noticed[key]; ok {
		r.mails[i] = m
		return
	}
	if r.noticed == nil {
		r.noticed = map[string]int{}
	}
	r.noticed[key] = len(r.mails)
	r.mails = append(r.mails, m)
}

// noticeTo fills in what a notice to an address of the game says about the game
// and the recipient.
func (r *run) noticeTo(to string, n templates.Notice) templates.Notice {
	n.Game = r.s.gameData(r.l.Game, r.l.Players)
	n.Host = r.l.Game.Host
	n.Lang = string(r.langTo(to))
	if n.ReplyTo == "" {
		if p, ok := r.l.playerByEmail(to); ok {
			n.ReplyTo = r.s.replyAddr(r.l.Game.ID, p)
			if n.To == "" {
				n.To = p.Name
			}
		} else if strings.EqualFold(to, r.l.Game.Host) {
			n.ReplyTo = r.s.HostAddress(r.l.Game.ID)
			n.HostReply = n.ReplyTo
		}
	}
	return n
}

// langTo is the language of the reader at an address of the game (see
// Service.langAt).
func (r *run) langTo(to string) i18n.Lang { return r.s.langAt(r.l, to) }

// notifyAll queues a notice to every active player and the host (once per address).
func (r *run) notifyAll(n templates.Notice) { r.notifyEach(n, false, nil) }

// notifyEach is notifyAll; withDue adds each player's current deadline, and words,
// when not nil, fills in what each reader reads in their language.
func (r *run) notifyEach(n templates.Notice, withDue bool, words func(i18n.Lang, *templates.Notice)) {
	var due map[string]string
	if withDue {
		due = map[string]string{}
		for _, d := range r.view().Deadlines() {
			due[d.Player] = r.s.when(r.l, d.Player, d.Due)
		}
	}
	seen := map[string]bool{}
	for _, p := range r.l.Seats() {
		if seen[p.Email] {
			continue
		}
		seen[p.Email] = true
		m := n
		m.To = p.Name
		if withDue {
			m.Due = due[p.Name]
		}
		if words != nil {
			words(r.langTo(p.Email), &m)
		}
		r.notify(p.Email, m)
	}
	if h := r.l.Game.Host; h != "" && !seen[h] {
		m := n
		m.To = "host"
		if words != nil {
			words(r.langTo(h), &m)
		}
		r.notify(h, m)
	}
}

func (r *run) isHost(a actor) bool {
	return r.l.Game.Host != "" && strings.EqualFold(a.Email, r.l.Game.Host)
}

func (r *run) notHost(what string) string {
	if r.l.Game.Host == "" {
		return r.t("Only the host may %s, and this game has none; the operator can set one with turnmail.", what)
	}
	return r.t("Only the host of game %s (%s) may %s.", r.l.Game.ID, r.l.Game.Host, what)
}

func (r *run) cmdStatus(a actor, _ []string) string {
	if a.Seat == nil {
		return r.t("status is for players: reply to a game mail.")
	}
	r.wantState = true // answered by the state mail (see answer)
	return ""
}

func (r *run) cmdLegal(a actor, _ []string) string {
	if a.Seat == nil {
		return r.t("legal is for players: reply to a game mail.")
	}
	legal, notes := r.s.legalIn(r.l, r.state, a.Name)
	r.notify(a.Email, templates.Notice{Kind: "legal", To: a.Name, ToAct: r.state.ToAct(), Legal: legal, LegalNotes: notes, Due: r.dueOf(a.Name)})
	return ""
}

func (r *run) cmdHelp(a actor, _ []string) string {
	r.notify(a.Email, templates.Notice{Kind: "help", To: a.Name, Service: r.s.address()})
	return ""
}

// dueOf formats a player's current deadline ("" when none).
func (r *run) dueOf(name string) string {
	for _, d := range r.view().Deadlines() {
		if d.Player == name {
			return r.s.when(r.l, name, d.Due)
		}
	}
	return ""
}

// fmtTime formats a time for the host and the logs (players read times through
// Loaded.when, in their time zone).
func fmtTime(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 UTC") }

func (r *run) cmdHistory(a actor, args []string) string {
	n := 10
	if len(args) > 0 {
		v, err := strconv.Atoi(args[0])
		if err != nil || v < 1 {
			return r.t("history takes a number of events, e.g. history 20")
		}
		n = min(v, maxHistory)
	}
	v := r.view()
	first := max(0, len(v.Events)-n)
	var moves []templates.Move
	lang := r.langTo(a.Email)
	viewer := a.Name
	if a.Seat == nil {
		viewer = engine.Observer // the host without a seat reads the public account
	}
	for i := first; i < len(v.Events); i++ {
		e := v.Events[i]
		if isPref(e) && e.Player != a.Name || !chatVisible(e, a.Name) {
			continue // another player's own settings, a message to someone else
		}
		// Sealed commands (bids) stay sealed in the history as long as the game hides them.
		cmd := engine.MaskCommand(r.state, e.Player, e.Command, viewer)
		m := templates.Move{Seq: e.Seq, Player: e.Player, Command: r.s.tr.Command(r.l.Game.Kind, lang, cmd), Kind: e.Kind,
			Happened: r.s.account(v, v.Events, i, viewer, a.Name, lang)}
		if !e.At.IsZero() {
			m.At = r.s.when(r.l, a.Name, e.At)
		}
		moves = append(moves, m)
	}
	r.notify(a.Email, templates.Notice{Kind: "history", To: a.Name, Moves: moves, Count: len(moves)})
	return ""
}

func (r *run) cmdResign(a actor, args []string) string {
	if a.Seat == nil {
		return r.t("resign is for players: reply to a game mail.")
	}
	if r.l.Facts.Resigned[a.Name] {
		return r.t("You have resigned from this game already.")
	}
	if done, _ := r.over(); done {
		return r.t("The game is over.")
	}
	code := r.s.confirmCode(r.l.Game.ID, *a.Seat)
	if len(args) == 0 {
		line := r.s.tr.Command("", r.langTo(a.Email), "resign confirm "+code) // the line to send back, in the reader's words
		r.notify(a.Email, templates.Notice{Kind: "resign-confirm", To: a.Name, Text: line})
		return ""
	}
	if len(args) != 2 || args[0] != "confirm" || args[1] != code {
		return r.t("To resign, send the exact line from the confirmation mail (%s); send %s to get it.", engine.Command("resign confirm CODE"), engine.Command("resign"))
	}
	pending := r.l.Facts.Undo
	r.admin(a.Name, adminResign) // withdraws the player's own undo request (Facts.observe)
	var withdrawn func(i18n.Lang, *templates.Notice)
	if pending != nil && pending.By == a.Name {
		withdrawn = func(lang i18n.Lang, n *templates.Notice) { n.Text = r.undoWhat(lang) }
	}
	r.notifyEach(templates.Notice{Kind: "resigned", Player: a.Name}, false, withdrawn)
	r.moved = true // the others see the new situation (and the end, when it is one)
	if pending != nil && pending.By != a.Name {
		return r.undoIfAgreed(pending, a.Name)
	}
	return ""
}

// undoWhat names the move an undo would take back now, for a reader of lang ("" when
// none), as the public account tells it.
func (r *run) undoWhat(lang i18n.Lang) string {
	last, ok := lastStanding(append(append([]store.Event{}, r.l.Events...), r.c.Events...))
	if !ok {
		return ""
	}
	return r.moveIn(lang, engine.Observer, last.move)
}

// moveIn tells a recorded move to viewer in lang (see Service.moveWords).
func (r *run) moveIn(lang i18n.Lang, viewer string, e store.Event) string {
	return r.s.moveWords(r.view(), e, viewer, lang)
}

// undoIfAgreed applies the pending undo u when player's resignation left no one
// to wait for (every other active player had accepted), unless it ended the game.
func (r *run) undoIfAgreed(u *UndoRequest, player string) string {
	if done, _ := r.over(); done {
		return ""
	}
	waiting, agreed := r.undoConsent(u)
	if len(waiting) > 0 {
		return ""
	}
	last, ok := lastStanding(append(append([]store.Event{}, r.l.Events...), r.c.Events...))
	if !ok {
		return ""
	}
	if err := r.undo(undoPayload{How: undoAgreed, By: agreed, Resigned: player}, last); err != nil {
		return r.t("The undo failed: %v", err)
	}
	return ""
}

// undoConsent splits the active players other than the asker of u into those
// still to accept and those who accepted (sorted).
func (r *run) undoConsent(u *UndoRequest) (waiting, agreed []string) {
	for _, p := range r.l.active() {
		switch {
		case p.Name == u.By:
		case u.Accepted[p.Name]:
			agreed = append(agreed, p.Name)
		default:
			waiting = append(waiting, p.Name)
		}
	}
	sort.Strings(agreed)
	return waiting, agreed
}

// undoTarget is the move an undo takes back, with the turns skipped for resigned
// players that stand above it (latest first): autoSkip would play those again at
// once, so an undo that took back only them would change nothing.
type undoTarget struct {
	move    store.Event
	skipped []store.Event
}

// lastStanding returns the move an undo would take back.
func lastStanding(events []store.Event) (undoTarget, bool) {
	var stack []store.Event
	resigned := map[string]int{} // player → the seq of their resignation
	for _, e := range events {
		switch e.Kind {
		case engine.KindMove:
			stack = append(stack, e)
		case engine.KindUndo:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case engine.KindAdmin:
			if _, ok := resigned[e.Player]; !ok && e.Command == adminResign {
				resigned[e.Player] = e.Seq
			}
		}
	}
	var t undoTarget
	for i := len(stack) - 1; i >= 0; i-- {
		e := stack[i]
		if at, ok := resigned[e.Player]; ok && at < e.Seq {
			t.skipped = append(t.skipped, e)
			continue
		}
		t.move = e
		return t, true
	}
	return undoTarget{}, false
}

func (r *run) cmdUndo(a actor, args []string) string {
	last, ok := lastStanding(append(append([]store.Event{}, r.l.Events...), r.c.Events...))
	if !ok {
		return r.t("There is no move to take back.")
	}
	if r.status == store.GameFinished {
		return r.t("The game is over.")
	}
	if len(args) == 1 && args[0] == "force" {
		if !r.isHost(a) {
			return r.notHost(r.t("force an undo"))
		}
		if err := r.undo(undoPayload{How: undoForced}, last); err != nil {
			return r.t("The undo failed: %v", err)
		}
		return ""
	}
	why := ""
	if len(args) != 0 {
		// The reason, as the player wrote it (the line less its verb).
		words := strings.Fields(cleanChat(r.line))
		if len(words) > 1 {
			why = strings.Join(words[1:], " ")
		}
		if len(why) > maxSayBytes {
			return r.t("Your reason is longer than %d characters; nothing was asked. Send a shorter one.", maxSayBytes)
		}
	}
	if a.Seat == nil {
		return r.t("As the host, write undo force (without a seat you cannot ask the players).")
	}
	if r.l.Facts.Resigned[a.Name] {
		return r.t(resignedReason)
	}
	if u := r.l.Facts.Undo; u != nil {
		return r.t("%s has asked for an undo already; the others answer with accept.", u.By)
	}
	var others []string
	for _, p := range r.l.active() {
		if p.Name != a.Name {
			others = append(others, p.Name)
		}
	}
	if len(others) == 0 {
		if err := r.undo(undoPayload{How: undoAlone, By: []string{a.Name}}, last); err != nil {
			return r.t("The undo failed: %v", err)
		}
		return ""
	}
	if why == "" {
		r.admin(a.Name, adminUndoRequest)
	} else {
		r.admin(a.Name, adminUndoRequest+": "+why)
	}
	for _, p := range r.l.active() {
		what := r.moveIn(r.langTo(p.Email), engine.Observer, last.move) // the public account: what every reader may know
		if p.Name == a.Name {
			r.notify(p.Email, templates.Notice{Kind: "undo-asked", To: p.Name, Text: what, ToAct: others})
			continue
		}
		r.notify(p.Email, templates.Notice{Kind: "undo-request", To: p.Name, Player: a.Name, Text: what, Why: why})
	}
	return ""
}

func (r *run) cmdAccept(a actor, _ []string) string {
	u := r.l.Facts.Undo
	if u == nil {
		return r.t("There is no undo request to accept.")
	}
	if a.Seat == nil {
		return r.t("accept is for players.")
	}
	if r.l.Facts.Resigned[a.Name] {
		return r.t(resignedReason)
	}
	if u.By == a.Name {
		return r.t("You asked for the undo; the other players accept it.")
	}
	if u.Accepted[a.Name] {
		return r.t("You have accepted already.")
	}
	r.admin(a.Name, adminAccept)
	waiting, agreed := r.undoConsent(u)
	if len(waiting) > 0 {
		r.notify(a.Email, templates.Notice{Kind: "undo-waiting", To: a.Name, Player: u.By, ToAct: waiting})
		return ""
	}
	last, _ := lastStanding(append(append([]store.Event{}, r.l.Events...), r.c.Events...))
	if err := r.undo(undoPayload{How: undoAgreed, By: agreed}, last); err != nil {
		return r.t("The undo failed: %v", err)
	}
	return ""
}

func (r *run) cmdPause(a actor, _ []string) string {
	if !r.isHost(a) {
		return r.notHost(r.t("pause the game"))
	}
	switch r.status {
	case store.GamePaused:
		return r.t("The game is paused already; resume it with resume.")
	case store.GameRunning:
	default:
		return r.t("Only a running game can be paused.")
	}
	r.admin(a.Name, adminPause)
	r.status = store.GamePaused
	r.notifyAll(templates.Notice{Kind: "paused", Actor: "the host"})
	return ""
}

func (r *run) cmdResume(a actor, _ []string) string {
	if !r.isHost(a) {
		return r.notHost(r.t("resume the game"))
	}
	if r.status != store.GamePaused {
		return r.t("The game is not paused.")
	}
	r.admin(a.Name, adminResume)
	r.status = store.GameRunning
	r.notifyAll(templates.Notice{Kind: "resumed", ToAct: r.state.ToAct()})
	return ""
}

func (r *run) cmdVacation(a actor, args []string) string {
	if a.Seat == nil {
		return r.t("vacation is for players: reply to a game mail.")
	}
	if r.l.Facts.Resigned[a.Name] {
		return r.t(resignedReason)
	}
	syntax := r.t("Write vacation FROM TO with dates as YYYY-MM-DD, e.g. vacation 2026-12-24 2026-12-27 (both days included).")
	if len(args) != 2 {
		return syntax
	}
	iv, ok := parseVacation(args[0] + " " + args[1])
	if !ok {
		return syntax
	}
	if !iv.To.After(r.now) {
		return r.t("That vacation is over already.")
	}
	used := 0
	for _, v := range r.l.Facts.Vacations[a.Name] {
		used += v.days()
	}
	limit := r.l.Settings.vacationDays()
	if used+iv.days() > limit {
		return r.t("That is %d days; you have used %d of the %d days of vacation this game allows.", iv.days(), used, limit)
	}
	r.admin(a.Name, adminVacation+" "+args[0]+" "+args[1])
	r.notify(a.Email, templates.Notice{Kind: "vacation", To: a.Name, Text: r.s.vacationWords(r.langTo(a.Email), args[0], args[1]), Count: used + iv.days(), Limit: limit, Due: r.dueOf(a.Name)})
	return ""
}

func (r *run) cmdReplace(a actor, args []string) string {
	if !r.isHost(a) {
		return r.notHost(r.t("hand a seat to another player"))
	}
	if len(args) != 2 {
		return r.t("Write replace PLAYER ADDRESS, e.g. replace bob carol@example.org.")
	}
	p, ok := r.l.playerByName(args[0])
	if !ok {
		return r.t("There is no player %q in this game.", args[0])
	}
	to, err := recipient(args[1])
	if err != nil {
		return r.s.reasonIn(r.lang, "", err) + "."
	}
	if _, taken := r.l.playerByEmail(to); taken {
		return r.t("%s plays in this game already.", to)
	}
	if r.status == store.GameFinished {
		return r.t("The game is over.")
	}
	if !strings.EqualFold(to, r.consented) {
		// The new address gets the seat only once it confirms from its own mailbox.
		if !mayAsk(r.l, to) {
			return r.t("%s was asked about this game before and did not accept; nothing was sent.", to)
		}
		k := store.Confirmation{Address: to, Actor: a.Email, GameID: r.l.Game.ID, Grant: grantHost,
			Commands: []string{"replace " + r.l.Game.ID + " " + p.Name + " " + to}}
		// The new address is asked in the game's language.
		ask := templates.Notice{Game: r.s.gameData(r.l.Game, r.l.Players), Text: "replace", Actor: a.Email, Player: p.Name, Lang: string(r.s.langOf(r.l.Settings, ""))}
		if err := r.s.ask(&r.c, k, ask, true, a.Email); err != nil {
			return "internal error: " + err.Error()
		}
		r.asked = true
		r.notify(a.Email, templates.Notice{Kind: "replace-asked", Player: p.Name, Address: to})
		return ""
	}
	old := p.Email
	r.admin(a.Name, adminReplace+" "+p.Name+" "+to)
	p.Email, p.Epoch, p.Unreachable = to, p.Epoch+1, ""
	r.c.Players = append(r.c.Players, p)
	for i := range r.l.Players {
		if r.l.Players[i].Seat == p.Seat {
			r.l.Players[i] = p
		}
	}
	r.notify(old, templates.Notice{Kind: "replaced-old", To: p.Name, Player: p.Name, ReplyTo: r.s.address()})
	r.notify(r.l.Game.Host, templates.Notice{Kind: "replaced-host", To: "host", Player: p.Name, Address: to, ReplyTo: r.s.address()})
	note := templates.Notice{Kind: "replaced-new", Player: p.Name, Host: r.l.Game.Host}
	m, err := r.s.stateMail(r.view(), r.state, p, nil, reply{notes: []templates.Notice{note}})
	if err != nil {
		return "internal error: " + err.Error()
	}
	r.mails = append(r.mails, m)
	return ""
}
