package service

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/mail"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/mail/auth"
	"github.com/turnmail/turnmail/mail/compose"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
	"github.com/turnmail/turnmail/web/page"
)

// ReplyAddress is the personal reply address of a seat.
func (s *Service) ReplyAddress(gameID string, seat int) string {
	return auth.ReplyAddress(s.local, s.domain, auth.Token(s.opts.Secret, gameID, seat))
}

// thread is where a mail stands in its reader's thread of a game. Every reader has
// a thread of their own: its root is the first mail of the game they were sent
// (for a player the opening mail), because a Message-ID names one message and each
// reader's opening mail is a different message. The store records the root and the
// latest mail per reader as the mails are queued (store.Reader). A mail with an empty
// root is the first: it starts the thread.
type thread struct {
	root, parent string
	// seen is the last event the reader's last state mail accounted for; known is
	// false when the store has no record of the reader (mail queued before it kept one).
	seen  int
	known bool
}

// threadOf returns the thread of a reader's mail of the game.
func (l *Loaded) threadOf(addr string) thread {
	r, ok := l.Readers[strings.ToLower(addr)]
	return thread{root: r.Root, parent: r.Last, seen: r.Seen, known: ok}
}

// readerThread reads a reader's thread from the store, for the mail of a game that
// was not loaded; a failure to read it gives a mail that starts a thread (logged).
func (s *Service) readerThread(ctx context.Context, gameID, addr string) thread {
	readers, err := s.store.Readers(ctx, gameID)
	if err != nil {
		s.log.Warn("thread of a reader not readable", "game", gameID, "err", err)
		return thread{}
	}
	l := Loaded{Readers: readers}
	return l.threadOf(addr)
}

// gameData is what the templates know of a game. Its data names its players (the
// seats taken, from the game's opening on), which makes every mail of it carry the
// game's one subject and stand in its thread (inThread); at most subjectNames names
// of at most subjectName bytes each.
func (s *Service) gameData(g store.Game, players []store.Player) templates.Game {
	d := templates.Game{ID: g.ID, Kind: g.Kind, Title: templates.GameTitle(g.Kind)}
	n := 0
	for _, p := range players {
		if p.Role != "" && p.Role != store.RolePlayer {
			continue
		}
		if n++; n <= subjectNames {
			d.Players = append(d.Players, boundText(p.Name, subjectName))
		}
	}
	if n > subjectNames {
		d.Players[subjectNames-1] = fmt.Sprintf("+%d", n-subjectNames+1)
	}
	return d
}

// Bounds of the players' names in a game's subject.
const (
	subjectNames = 5
	subjectName  = 24
)

// viewMap decodes an engine view into the map the templates read.
func viewMap(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode view: %w", err)
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("decode view: %w", err)
	}
	return m, nil
}

// address is the service address.
func (s *Service) address() string { return s.local + "@" + s.domain }

// stateData is the state mail's data for one seat (or, with an observer seat, the
// public view). It lists the last stateMoves of events.
func (s *Service) stateData(l *Loaded, state engine.State, p store.Player, events []store.Event) (templates.State, error) {
	if th := l.threadOf(p.Email); th.known && p.Email != "" {
		events = eventsAfter(l.Events, th.seen)
	}
	moves := make([]templates.Move, 0, len(events))
	for _, e := range events {
		if isPref(e) || !chatVisible(e, p.Name) {
			continue // a player's own settings are nobody else's news, nor a message to another
		}
		moves = append(moves, templates.Move{Seq: e.Seq, Player: e.Player, Command: e.Command, Kind: e.Kind})
	}
	moves, cut := lastOf(moves)
	finished, winners := gameOver(l, state)
	toAct := state.ToAct()
	if finished {
		toAct = nil
	}
	observer := p.Role == store.RoleObserver
	viewer := p.Name
	if observer {
		viewer = engine.Observer
	}
	lang := s.langOf(l.Settings, p.Name)
	words := func(t engine.Text) string { return s.tr.Text(lang, t) }
	for i := range moves {
		cmd := engine.MaskCommand(state, moves[i].Player, moves[i].Command, viewer)
		moves[i].Command = s.tr.Command(l.Game.Kind, lang, cmd) // shown only by a game that does not tell its moves
		if j, ok := eventIndex(l.Events, moves[i].Seq); ok {
			moves[i].Happened = s.account(l, l.Events, j, viewer, p.Name, lang)
		}
	}
	view, changed, err := l.board(state, p, viewer)
	if err != nil {
		return templates.State{}, err
	}
	data := templates.State{
		Game: s.gameData(l.Game, l.Players), Player: p.Name, Opening: len(l.Events) == 0 && len(events) == 0,
		Moves: moves, MovesCut: cut, ToAct: toAct, Finished: finished, Winners: winners, View: view, Changed: changed,
		Observer: observer, Lang: string(lang),
	}
	if finished {
		data.Scores = finalScores(state, words)
	} else {
		data.Responding = s.responding(l, state, toAct, p.Name)
	}
	data.Page = s.pageLink(l, p)
	if observer {
		data.Player = ""
		return data, nil
	}
	data.YourTurn = contains(toAct, p.Name) && !l.Facts.Resigned[p.Name]
	if !finished && !l.Facts.Resigned[p.Name] {
		data.Legal, data.LegalNotes = s.legalFor(lang, l.Game.Kind, state, p.Name)
		data.Legal, data.AnyTime = splitAnyTime(data.Legal, state.Legal(p.Name), engine.AnyTime(state, p.Name))
	}
	data.ReplyTo = s.replyAddr(l.Game.ID, p)
	if data.YourTurn && l.Game.Status == store.GameRunning {
		for _, d := range l.Deadlines() {
			if d.Player == p.Name {
				data.Deadline = s.when(l, p.Name, d.Due)
			}
		}
	}
	if why, otherwise := engine.Asked(state, p.Name); data.YourTurn && why.Key != "" {
		data.Asked = &templates.Asked{Why: s.tr.GameText(l.Game.Kind, lang, why), Otherwise: s.tr.GameText(l.Game.Kind, lang, otherwise),
			Order: s.tr.Command(l.Game.Kind, lang, standingOrderFor(l.Game.Kind))}
	}
	return data, nil
}

// responding returns those of toAct whom state asks out of turn (engine.Responder),
// each with their answer's deadline for reader ("" when none).
func (s *Service) responding(l *Loaded, state engine.State, toAct []string, reader string) map[string]string {
	var out map[string]string
	for _, p := range toAct {
		if !engine.Responding(state, p) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[p] = ""
		if l.Game.Status != store.GameRunning {
			continue
		}
		for _, d := range l.Deadlines() {
			if d.Player == p {
				out[p] = s.when(l, reader, d.Due)
			}
		}
	}
	return out
}

// viewerOf is the engine viewer of seat p: its name, or engine.Observer for an
// observer's or a list's seat.
func viewerOf(p store.Player) string {
	if p.Role == store.RoleObserver || p.Name == "" {
		return engine.Observer
	}
	return p.Name
}

// board returns state's view for viewer, seat p's (as the templates read it), and the ids of its
// regions that changed since the view p's last state mail showed (nil when p has had
// none, that state is not known, or the game has no regions).
func (l *Loaded) board(state engine.State, p store.Player, viewer string) (map[string]any, []string, error) {
	view, err := viewMap(state.View(viewer))
	if err != nil {
		return nil, nil, err
	}
	th := l.threadOf(p.Email)
	if !th.known || p.Email == "" {
		return view, nil, nil
	}
	seen := l.seenState(th.seen)
	if seen == nil {
		return view, nil, nil
	}
	old, err := viewMap(seen.View(viewer))
	if err != nil {
		return nil, nil, err
	}
	return view, page.ChangedRegions(old, view), nil
}

// reply is what a state mail that answers its reader's own mail reports: the lines
// applied, the line refused, the other answers to the mail (notes), and the mail's
// Message-ID (inReply; "" for a state mail that answers nothing).
type reply struct {
	applied []templates.Line
	lineErr *templates.LineError
	notes   []templates.Notice
	inReply string
}

// stateMail renders one seat's state mail after events, with what it says to the
// seat's own mail when it answers one (re).
func (s *Service) stateMail(l *Loaded, state engine.State, p store.Player, events []store.Event, re reply) (store.OutMail, error) {
	data, err := s.stateData(l, state, p, events)
	if err != nil {
		return store.OutMail{}, err
	}
	data.Applied, data.AppliedCut = lastOf(re.applied)
	data.Error, data.Notes = re.lineErr, re.notes
	auto := "auto-generated"
	if re.inReply != "" {
		auto = "auto-replied"
	}
	var files []compose.Attachment
	if data.Finished {
		if f, redacted, ok := s.archiveFile(l, viewerOf(p)); ok {
			files = append(files, f)
			data.Archive = &templates.Attachment{Name: f.Name, Redacted: redacted}
		}
	}
	files = append(files, s.withReplay(l, &data)...)
	inline := s.withPicture(l, state, viewerOf(p), &data)
	m, err := s.mail(outMail{kind: "state", data: data, game: l.Game.ID, to: p.Email, replyTo: data.ReplyTo, inReplyTo: re.inReply,
		thread: l.threadOf(p.Email), auto: auto, inline: inline, files: files})
	m.Seen = l.LastSeq()
	return m, err
}

// withPicture adds the board's picture to a state mail's data (issue 22): the inline
// part to send with it, or nil for a game without a picture.
func (s *Service) withPicture(l *Loaded, state engine.State, viewer string, data *templates.State) []compose.Inline {
	after := ""
	if n := len(data.Moves); n > 0 {
		after = data.Moves[n-1].Player
	}
	in, pic := s.picture(l, state, viewer, data.Changed, i18n.Lang(data.Lang), after)
	if in == nil {
		return nil
	}
	data.Picture = pic
	return []compose.Inline{*in}
}

// withReplay adds the replay of the whole game to a finished game's mail (issue 25):
// the file to attach, or nil.
func (s *Service) withReplay(l *Loaded, data *templates.State) []compose.Attachment {
	if !data.Finished {
		return nil
	}
	f, ok := s.replayFile(l, i18n.Lang(data.Lang))
	if !ok {
		return nil
	}
	data.Replay = &templates.Attachment{Name: f.Name}
	return []compose.Attachment{f}
}

// eventIndex returns the index in events of the event numbered seq.
func eventIndex(events []store.Event, seq int) (int, bool) {
	if i := seq - 1; i >= 0 && i < len(events) && events[i].Seq == seq {
		return i, true
	}
	for i, e := range events {
		if e.Seq == seq {
			return i, true
		}
	}
	return 0, false
}

// eventsAfter returns the events after seq.
func eventsAfter(events []store.Event, seq int) []store.Event {
	for i, e := range events {
		if e.Seq > seq {
			return events[i:]
		}
	}
	return nil
}

// change is a change of a game that its readers are mailed about (stateMails): the
// state before (nil when everyone is to be mailed, as at the start) and after the
// events appended, and the seat whose mail caused them (author, "" for none) with
// what its state mail answers to that mail.
type change struct {
	before, after engine.State
	events        []store.Event
	author        string
	reply         reply
}

// stateMails renders the state mail for every seat after a change (c.events were
// appended). The player whose mail caused them also sees what was applied, any
// refused line and the other answers to their mail (c.reply).
// Observers get the public view. In a mailing-list game the public view goes once to
// the list; a player gets a personal mail only when they must act, wrote the mail,
// or see more than the public view.
//
// While a turn goes on, a player who did not write the mail gets
// none unless they asked for every one (notify=every), and observers and the list
// get none: see turnEnded.
func (s *Service) stateMails(l *Loaded, c change) ([]store.OutMail, error) {
	before, state, events, author := c.before, c.after, c.events, c.author
	var out []store.OutMail
	list := l.Game.List
	if list == "" {
		list = l.Settings.List
	}
	public := ""
	if list != "" {
		b, _ := json.Marshal(state.View(engine.Observer))
		public = string(b)
	}
	finished, _ := gameOver(l, state)
	// A move that only answers a simultaneous phase (a sealed bid, a response),
	// while the others are still asked, changes nothing the others could act on: it
	// is a line in their next mail, not a mail.
	ended := finished || turnEnded(before, state) && !(answeredOnly(before, state) && sealedFor(state, events, engine.Observer))
	for _, p := range l.Seats() {
		if !s.mayMail(l, p.Email) {
			continue
		}
		if p.Name != author && !ended && !contains(state.ToAct(), p.Name) && l.Settings.notifyOf(p.Name) != NotifyEvery {
			continue // waits: told when the turn ends, with all that happened in it
		}
		if p.Name != author && !finished && l.Settings.notifyOf(p.Name) != NotifyEvery && askedAlready(before, state, p.Name) &&
			(engine.Responding(before, p.Name) && engine.Responding(state, p.Name) || sealedFor(state, events, p.Name)) {
			// Still asked the same (a bid, a response): the mail they have holds, and
			// what happened is told in their next one.
			continue
		}
		if list != "" && p.Name != author && !finished && !contains(state.ToAct(), p.Name) {
			b, _ := json.Marshal(state.View(p.Name))
			if string(b) == public {
				continue // nothing private: the list mail says it all
			}
		}
		var re reply
		if p.Name == author {
			re = c.reply
		}
		m, err := s.stateMail(l, state, p, events, re)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	for _, o := range l.Observers() {
		if !ended || !s.mayMail(l, o.Email) {
			continue
		}
		data, err := s.stateData(l, state, o, events)
		if err != nil {
			return nil, err
		}
		inline := s.withPicture(l, state, engine.Observer, &data)
		files := s.withReplay(l, &data)
		m, err := s.mail(outMail{kind: "state", data: data, game: l.Game.ID, to: o.Email, replyTo: s.address(), thread: l.threadOf(o.Email),
			headers: map[string]string{"List-Unsubscribe": s.unsubscribe(l.Game.ID)}, auto: "auto-generated", inline: inline, files: files})
		if err != nil {
			return nil, err
		}
		m.Seen = l.LastSeq()
		out = append(out, m)
	}
	if list != "" && ended && mayMailList(l, list) && s.mayMail(l, list) {
		data, err := s.stateData(l, state, store.Player{Role: store.RoleObserver}, events)
		if err != nil {
			return nil, err
		}
		headers := map[string]string{"List-Id": "<" + l.Game.ID + "." + s.domain + ">", "Precedence": "list", "List-Unsubscribe": s.unsubscribe(l.Game.ID)}
		inline := s.withPicture(l, state, engine.Observer, &data)
		files := s.withReplay(l, &data)
		m, err := s.mail(outMail{kind: "state", data: data, game: l.Game.ID, to: list, replyTo: s.address(), thread: l.threadOf(list),
			headers: headers, auto: "auto-generated", inline: inline, files: files})
		if err != nil {
			return nil, err
		}
		m.Seen = l.LastSeq()
		out = append(out, m)
	}
	return out, nil
}

// turnEnded reports whether the move from before to after ends a turn for the
// players who wait: the players to act changed (a turn passed, a phase or a bid
// round ended, someone became to act). A nil before counts as a change.
func turnEnded(before, after engine.State) bool {
	if before == nil {
		return true
	}
	b, a := before.ToAct(), after.ToAct()
	if len(a) != len(b) {
		return true
	}
	for _, name := range a {
		if !contains(b, name) {
			return true
		}
	}
	return false
}

// mayMailList reports whether a game's mailing list may get its mail: not while
// the request to confirm it waits, nor after it was declined. (A game opened
// before confirmations existed has no record and keeps its list.)
func mayMailList(l *Loaded, list string) bool {
	st := l.Consent[strings.ToLower(list)]
	return st != store.ConsentAsked && st != store.ConsentNo
}

// mayMail reports whether a game's stored address can be mailed. Addresses are
// checked where they enter; one stored before that check gets no mail (logged), so
// that it does not stop the mail to everyone else.
func (s *Service) mayMail(l *Loaded, addr string) bool {
	if err := compose.CheckAddress(addr); err != nil {
		s.log.Warn("no mail to an unusable address", "game", l.Game.ID, "err", err)
		return false
	}
	return true
}

// legalIn lists what player may send now in state, in the player's language.
func (s *Service) legalIn(l *Loaded, state engine.State, player string) ([]string, map[string]string) {
	return s.legalFor(s.langOf(l.Settings, player), l.Game.Kind, state, player)
}

// legalFor returns player's legal commands in lang, ready to copy, and their notes
// (engine.Noter) rendered in lang, keyed by the command as listed.
func (s *Service) legalFor(lang i18n.Lang, game string, state engine.State, player string) ([]string, map[string]string) {
	legal := state.Legal(player)
	shown := s.commandsIn(lang, game, legal)
	var notes map[string]string
	for e, n := range engine.NotesOf(state, player) {
		if i := slices.Index(legal, e); i >= 0 && n.Key != "" {
			if notes == nil {
				notes = map[string]string{}
			}
			notes[shown[i]] = s.tr.Text(lang, n)
		}
	}
	return shown, notes
}

// splitAnyTime splits shown, the legal commands as the reader sees them (in the order
// of legal, the canonical ones), into those of the moment and those of any moment
// (anyTime, canonical), which the state mail lists apart.
func splitAnyTime(shown, legal, anyTime []string) (now, any []string) {
	if len(anyTime) == 0 || len(shown) != len(legal) {
		return shown, nil
	}
	for i, c := range legal {
		if contains(anyTime, c) {
			any = append(any, shown[i])
		} else {
			now = append(now, shown[i])
		}
	}
	return now, any
}

// notice renders a notice mail to one address, in the thread th of a game's mail.
func (s *Service) notice(n templates.Notice, th thread, gameID, to, inReply string) (store.OutMail, error) {
	n.Service = s.address()
	if n.ReplyTo == "" {
		n.ReplyTo = s.address()
	}
	auto := "auto-generated"
	if inReply != "" {
		auto = "auto-replied"
	}
	return s.mail(outMail{kind: "notice", data: n, game: gameID, to: to, replyTo: n.ReplyTo, inReplyTo: inReply, thread: th, auto: auto})
}

// refusal renders the answer to a mail from which nothing was applied.
func (s *Service) refusal(l *Loaded, p store.Player, reason string, lineErr *templates.LineError, replyTo string) (store.OutMail, error) {
	data := templates.Refusal{
		Game:    s.gameData(l.Game, l.Players),
		Player:  p.Name,
		Error:   lineErr,
		ToAct:   l.State.ToAct(),
		ReplyTo: s.replyAddr(l.Game.ID, p),
		Lang:    string(s.langOf(l.Settings, p.Name)),
	}
	data.Legal, data.LegalNotes = s.legalIn(l, l.State, p.Name)
	var err error
	if data.View, data.Changed, err = l.board(l.State, p, viewerOf(p)); err != nil {
		return store.OutMail{}, err
	}
	if lineErr == nil {
		data.Reason = reason
	}
	var inline []compose.Inline
	if in, pic := s.picture(l, l.State, viewerOf(p), data.Changed, i18n.Lang(data.Lang), ""); in != nil {
		data.Picture, inline = pic, []compose.Inline{*in}
	}
	return s.mail(outMail{kind: "refusal", data: data, game: l.Game.ID, to: p.Email, replyTo: data.ReplyTo, inReplyTo: replyTo,
		thread: l.threadOf(p.Email), auto: "auto-replied", inline: inline})
}

// outMail is a mail to render and send (Service.mail).
type outMail struct {
	// kind is the template (state, notice, refusal, lobby, howto) and data its data.
	kind string
	data any
	// game is the id of the game the mail is about ("" for none).
	game string
	// to is the recipient; replyTo, when not "", the Reply-To address.
	to, replyTo string
	// inReplyTo is the Message-ID of the mail it answers ("" for none) and thread
	// where it stands in its reader's thread of the game.
	inReplyTo string
	thread    thread
	// headers are more header fields; auto the Auto-Submitted value
	// ("auto-generated", "auto-replied").
	headers map[string]string
	auto    string
	// inline are pictures that the HTML shows (a state mail's board), files the
	// attachments.
	inline []compose.Inline
	files  []compose.Attachment
}

// mail renders a mail and builds the outbox row. A mail of a game stands in its
// reader's thread: In-Reply-To names its parent (the mail it answers, else the
// reader's previous mail of the game) and References the root and the parent, which
// Gmail, Outlook and Thunderbird follow (with the game's one subject) to keep the game
// in one conversation; a mail without a root starts the thread. Its header inputs are made
// safe before compose sees them: an In-Reply-To that compose.ValidMessageID refuses
// is dropped (the subject is one line, see templates.Set.Subject, and compose encodes
// what is not plain ASCII), and a recipient that compose.CheckAddress refuses is an error naming it (addresses are
// checked where they enter, so that is a bug or a row stored before the check).
// A mail that its inline pictures would make larger than MaxMailBytes goes without
// them (its data's Picture dropped), before build cuts its text.
func (s *Service) mail(o outMail) (store.OutMail, error) {
	kind, data, gameID, to, inReplyTo, headers := o.kind, o.data, o.game, o.to, o.inReplyTo, o.headers
	if err := compose.CheckAddress(to); err != nil {
		return store.OutMail{}, fmt.Errorf("%s mail: %w", kind, err)
	}
	if !compose.ValidMessageID(inReplyTo) {
		inReplyTo = ""
	}
	subject, err := s.tmpl.Subject(kind, data)
	if err != nil {
		return store.OutMail{}, err
	}
	text, html, err := s.tmpl.Render(kind, data)
	if err != nil {
		return store.OutMail{}, err
	}
	lang := i18n.Lang(templates.LangOf(data)).Or(i18n.English)
	headers = withHeader(headers, "Content-Language", string(lang)) // RFC 3282
	m := compose.Mail{
		From:          mail.Address{Name: s.opts.Name, Address: s.local + "@" + s.domain},
		To:            []mail.Address{{Address: to}},
		Subject:       subject,
		MessageID:     s.newMessageID(gameID),
		Date:          s.opts.Clock(),
		AutoSubmitted: o.auto,
		Headers:       headers,
		Text:          text,
		Flowed:        true, // the templates break long lines softly
		HTML:          html,
		Attachments:   o.files,
	}
	if o.replyTo != "" {
		m.ReplyTo = mail.Address{Name: s.opts.Name, Address: o.replyTo}
	}
	m.InReplyTo, m.References = threadHeaders(o.thread, inReplyTo)
	if m.Inline = o.inline; len(o.inline) > 0 {
		if raw, err := compose.Build(m); err == nil && int64(len(raw)) > s.opts.MaxMailBytes {
			var without any
			switch d := data.(type) {
			case templates.State:
				d.Picture = nil
				without = d
			case templates.Refusal:
				d.Picture = nil
				without = d
			}
			if without != nil {
				m.Inline = nil
				if _, m.HTML, err = s.tmpl.Render(kind, without); err != nil {
					return store.OutMail{}, err
				}
			}
		}
	}
	raw, err := s.build(m, lang)
	if err != nil {
		return store.OutMail{}, fmt.Errorf("compose %s mail: %w", kind, err)
	}
	return store.OutMail{GameID: gameID, Kind: kind, From: s.local + "@" + s.domain, To: []string{to}, Raw: raw, Status: "pending",
		Thread: gameID != "" && inThread(data)}, nil
}

// inThread reports whether a mail's data is of a game's thread: state mails and
// refusals are; a notice, or a lobby answer about one game, is when it has the
// game's subject (see gameData; a confirmation request has not).
func inThread(data any) bool {
	switch d := data.(type) {
	case templates.State, templates.Refusal:
		return true
	case templates.Notice:
		return len(d.Game.Players) > 0
	case templates.Lobby:
		return len(d.Game.Players) > 0
	}
	return false
}

// threadHeaders returns a mail's In-Reply-To and References: the parent is the mail
// answered (inReplyTo) or else the previous mail of the thread; References are the
// root and the parent. Stored ids that compose would refuse are left out.
func threadHeaders(th thread, inReplyTo string) (string, []string) {
	root, parent := th.root, inReplyTo
	if parent == "" {
		parent = th.parent
	}
	if !compose.ValidMessageID(root) {
		root = ""
	}
	if !compose.ValidMessageID(parent) {
		parent = ""
	}
	var refs []string
	if root != "" {
		refs = append(refs, root)
	}
	if parent != "" && parent != root {
		refs = append(refs, parent)
	}
	return parent, refs
}

func (s *Service) newMessageID(gameID string) string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	prefix := "turnmail"
	if gameID != "" {
		prefix = gameID
	}
	return prefix + "." + hex.EncodeToString(b[:]) + "@" + s.domain
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// withHeader returns a copy of headers with the field k set to v (headers itself is
// the caller's and stays as it is).
func withHeader(headers map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(headers)+1)
	for hk, hv := range headers {
		out[hk] = hv
	}
	out[k] = v
	return out
}

// askedAlready reports whether player was to act before the command and still is,
// with the same commands to choose from. When another player's answer changes
// nothing they could send or learn (a response to the same window, a sealed bid),
// the mail they were sent still holds and they are not mailed again.
func askedAlready(before, state engine.State, player string) bool {
	if before == nil || !contains(before.ToAct(), player) || !contains(state.ToAct(), player) {
		return false
	}
	return slices.Equal(before.Legal(player), state.Legal(player))
}

// sealedFor reports whether every move of events is hidden from viewer (a sealed
// bid, engine.Masker): the reader would learn only that something was sent.
func sealedFor(state engine.State, events []store.Event, viewer string) bool {
	if len(events) == 0 {
		return false
	}
	for _, e := range events {
		if e.Kind != engine.KindMove || engine.MaskCommand(state, e.Player, e.Command, viewer) == e.Command {
			return false
		}
	}
	return true
}

// answeredOnly reports whether the move from before to after only took players out
// of those to act, leaving some still asked: an answer in a simultaneous phase (a
// bid, a response window), after which nobody new is to act.
func answeredOnly(before, after engine.State) bool {
	if before == nil {
		return false
	}
	b, a := before.ToAct(), after.ToAct()
	if len(a) == 0 || len(a) >= len(b) {
		return false
	}
	for _, name := range a {
		if !contains(b, name) {
			return false
		}
	}
	return true
}
