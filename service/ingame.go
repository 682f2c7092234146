package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
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

// admin appends an administrative event: player's act a (player "" for the service).
func (r *run) admin(player string, a adminPayload) {
	r.add(store.Event{Kind: engine.KindAdmin, Player: player, Command: a.encode()})
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
	r.c.Snapshots = r.snapshot()
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

// play applies the mail's command lines in order: moves through the engine, the other
// commands (status, undo, pause …) by the service; it stops at the first line that
// cannot be applied.
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
		var why, suggest string
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
			if sug, typed := r.suggest(player.Name, line.Text); sug != "" {
				why, suggest = r.t("%q is not a command: did you mean %s?", boundText(typed, maxSuggestLen), sug), sug
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
			lineErr.Suggest = suggest
			break
		}
		applied = append(applied, templates.Line{N: line.N, Text: line.Text})
		if done, _ := r.over(); done {
			stopped = true
			break
		}
	}
	// The lines not read come first among the answers; a mistyped command word in
	// one gets the command it may have meant, now that the lines before it are applied.
	if n := notReadNotice(notRead, func(text string) string { sug, _ := r.suggest(player.Name, text); return sug }); n != nil {
		r.answers = slices.Insert(r.answers, 0, r.noticeTo(player.Email, *n))
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
