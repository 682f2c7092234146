package service

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// lobbyVerbs are the commands understood at the service address.
var lobbyVerbs = map[string]bool{
	"help": true, "games": true, "new": true, "join": true, "leave": true, "start": true,
	"observe": true, "unobserve": true, "rules": true, "invite": true,
	// host commands naming the game: pause GAME-ID, resume GAME-ID,
	// replace GAME-ID PLAYER ADDRESS, undo GAME-ID force, set GAME-ID key=value …
	"pause": true, "resume": true, "replace": true, "undo": true, "set": true,
}

// maxLobbyAnswers is the most commands of one mail to the service address that are
// answered (each may open a game or mail someone).
const maxLobbyAnswers = 20

// observerSeat is the first seat number of observers (players sit below it).
const observerSeat = 1000

// lobby answers mail to the service address (no reply token): lobby commands when the
// first line is one; otherwise the how-to for players, the command list for other
// addresses turnmail knows, and nothing for strangers (no backscatter). The commands'
// effects and the answer are one batch, committed together (see lobbyTx).
func (s *Service) lobby(ctx context.Context, from string, msg *parse.Message) (Result, store.Batch, error) {
	first := ""
	if len(msg.Commands) > 0 {
		if f := strings.Fields(engine.Normalize(msg.Commands[0].Text)); len(f) > 0 {
			first = f[0]
		}
	}
	tx := s.newLobbyTx()
	if !lobbyVerbs[first] {
		res, c, err := s.howTo(ctx, from, msg)
		if err != nil || res.Status != StatusIgnored {
			return single(res, c, err)
		}
		known, err := s.known(ctx, from)
		if err != nil || !known {
			return single(res, c, err)
		}
		// Someone turnmail knows (a host, an observer) wrote something else: the
		// command list, so they see the exact syntax.
		text := ""
		if len(msg.Commands) > 0 {
			text = msg.Commands[0].Text
		}
		return s.lobbyAnswer(tx, from, msg, []templates.Notice{{Kind: "error", Command: text, Text: "This is not a command turnmail knows."}}, false)
	}
	var answers []templates.Notice
	ok := false
	lines, unread := readLines(msg, s.opts.MaxCommandLines)
	answered := map[string]bool{}
	for i, line := range lines {
		if len(answers) >= maxLobbyAnswers {
			unread = &templates.Notice{Kind: "unread", Count: lines[i-1].N, Limit: maxLobbyAnswers}
			break
		}
		if why := lineTooLong(line.Text); why != "" {
			n := lobbyError(why)
			n.Command = echo(line.Text)
			answers = append(answers, n)
			continue
		}
		cmd := strings.Join(strings.Fields(line.Text), " ") // keep case: addresses, zones
		if i := strings.IndexByte(cmd, '#'); i >= 0 {
			cmd = strings.TrimSpace(cmd[:i])
		}
		f := strings.Fields(cmd)
		if len(f) == 0 {
			continue
		}
		verb := strings.ToLower(f[0])
		if infoVerbs[verb] {
			if answered[verb] {
				continue // answered once per mail
			}
			answered[verb] = true
		}
		n, err := s.lobbyCommand(ctx, tx, from, verb, f[1:], msg, line.N)
		if err != nil {
			return Result{}, store.Batch{}, err
		}
		n.Command = line.Text
		if n.Kind != "error" {
			ok = true
		}
		answers = append(answers, n)
		answers = append(answers, tx.answers...) // what the command told the sender besides
		tx.answers = nil
	}
	if unread != nil {
		answers = append(answers, *unread)
	}
	return s.lobbyAnswer(tx, from, msg, answers, ok)
}

// lobbyAnswer adds the answer mail to a lobby mail to its transaction and returns
// the transaction's batch.
func (s *Service) lobbyAnswer(tx *lobbyTx, from string, msg *parse.Message, answers []templates.Notice, ok bool) (Result, store.Batch, error) {
	res := Result{Status: StatusRejected, Reason: "lobby: " + answers[0].Kind}
	if ok {
		res.Status = StatusApplied
	}
	for i := range answers {
		answers[i].Service = s.address()
	}
	m, err := s.mail("lobby", templates.Lobby{Service: s.address(), Answers: answers}, "", from, s.address(), inReplyTo(msg), thread{}, nil, "auto-replied")
	if err != nil {
		return res, store.Batch{}, err
	}
	tx.commit(store.Commit{Outbox: []store.OutMail{m}})
	return res, tx.batch, nil
}

// known reports whether turnmail has the address as a player, observer or host.
func (s *Service) known(ctx context.Context, addr string) (bool, error) {
	seats, err := s.store.SeatsOf(ctx, addr)
	if err != nil || len(seats) > 0 {
		return len(seats) > 0, err
	}
	games, err := s.store.Games(ctx)
	if err != nil {
		return false, err
	}
	for _, g := range games {
		if strings.EqualFold(g.Host, addr) {
			return true, nil
		}
	}
	return false, nil
}

func lobbyError(text string) templates.Notice { return templates.Notice{Kind: "error", Text: text} }

// lobbyCommand runs one lobby command and returns its answer. What it changes goes
// into tx, committed with the answer once every command of the mail has run.
func (s *Service) lobbyCommand(ctx context.Context, tx *lobbyTx, from, verb string, args []string, msg *parse.Message, lineNo int) (templates.Notice, error) {
	switch verb {
	case "help":
		return templates.Notice{Kind: "help"}, nil
	case "games":
		return s.lobbyGames(ctx, tx)
	case "rules":
		if len(args) != 1 {
			return lobbyError("Write rules GAME, e.g. rules " + s.games.Names()[0] + "."), nil
		}
		if _, err := s.games.Lookup(strings.ToLower(args[0])); err != nil {
			return lobbyError(err.Error()), nil
		}
		return templates.Notice{Kind: "rules", Game: templates.Game{Kind: strings.ToLower(args[0]), Title: templates.GameTitle(strings.ToLower(args[0]))}}, nil
	case "new":
		return s.lobbyNew(ctx, tx, from, args, msg, lineNo)
	}
	if len(args) == 0 {
		return lobbyError(fmt.Sprintf("%s needs the game's id, e.g. %s sw-7k3p.", verb, verb)), nil
	}
	id := strings.ToLower(args[0])
	l, err := tx.load(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return lobbyError(fmt.Sprintf("There is no game %s; send games for the list.", id)), nil
	}
	if err != nil {
		return templates.Notice{}, err
	}
	n := templates.Notice{Game: s.gameData(l.Game, l.Players), Host: l.Game.Host}
	isHost := strings.EqualFold(from, l.Game.Host)
	hostOnly := func(what string) templates.Notice {
		if l.Game.Host == "" {
			return lobbyError(fmt.Sprintf("Only the host may %s, and game %s has none.", what, id))
		}
		return lobbyError(fmt.Sprintf("Only the host of game %s (%s) may %s.", id, l.Game.Host, what))
	}
	switch verb {
	case "join":
		return s.lobbyJoin(tx, l, from, args[1:], n)
	case "leave":
		p, ok := l.playerByEmail(from)
		switch {
		case !ok:
			return lobbyError(fmt.Sprintf("You do not play in game %s.", id)), nil
		case l.Game.Status != store.GameOpen:
			return lobbyError(fmt.Sprintf("Game %s has started; to stop playing, reply to a game mail with resign.", id)), nil
		case isHost:
			return lobbyError("The host cannot leave the game they opened."), nil
		}
		c := store.Commit{GameID: id, ExpectSeq: l.LastSeq(), RemoveSeats: []int{p.Seat}}
		if l.Game.Host != "" {
			m, err := s.notice(templates.Notice{Kind: "player-left", Game: n.Game, To: "host", Player: p.Name, Address: from}, thread{}, id, l.Game.Host, "")
			if err != nil {
				return n, err
			}
			c.Outbox = append(c.Outbox, m)
		}
		tx.commit(c)
		n.Kind, n.Player = "left", p.Name
		return n, nil
	case "start":
		if !isHost {
			return hostOnly("start it"), nil
		}
		return s.lobbyStart(tx, l, n)
	case "observe":
		for _, p := range l.Players {
			if strings.EqualFold(p.Email, from) {
				n.Kind = "observing"
				return n, nil
			}
		}
		if l.Game.Status == store.GameFinished {
			return lobbyError(fmt.Sprintf("Game %s is over.", id)), nil
		}
		seat := observerSeat
		for _, p := range l.Players {
			if p.Seat >= seat {
				seat = p.Seat + 1
			}
		}
		o := store.Player{Seat: seat, Name: "observer:" + from, Email: from, Role: store.RoleObserver, Active: true}
		c := store.Commit{GameID: id, ExpectSeq: l.LastSeq(), Players: []store.Player{o}}
		if l.State != nil {
			data, err := s.stateData(l, l.State, o, nil)
			if err != nil {
				return n, err
			}
			m, err := s.mail("state", data, id, from, s.address(), "", l.threadOf(from), nil, "auto-generated")
			if err != nil {
				return n, err
			}
			m.Seen = l.LastSeq()
			c.Outbox = append(c.Outbox, m)
		}
		tx.commit(c)
		n.Kind = "observing"
		return n, nil
	case "unobserve":
		for _, p := range l.Players {
			if strings.EqualFold(p.Email, from) && p.Role == store.RoleObserver {
				tx.commit(store.Commit{GameID: id, ExpectSeq: l.LastSeq(), RemoveSeats: []int{p.Seat}})
				n.Kind = "unobserved"
				return n, nil
			}
		}
		return lobbyError(fmt.Sprintf("You do not observe game %s.", id)), nil
	case "invite":
		if !isHost {
			return hostOnly("invite players"), nil
		}
		if len(args) != 2 {
			return lobbyError("Write invite GAME-ID ADDRESS, e.g. invite " + id + " carol@example.org."), nil
		}
		if l.Game.Status != store.GameOpen {
			return lobbyError(fmt.Sprintf("Game %s has started; invite people to observe it instead: observe %s.", id, id)), nil
		}
		to, why := recipient(args[1])
		if why != "" {
			return lobbyError(why + ". Nobody was invited."), nil
		}
		inv := templates.Notice{Kind: "invitation", Game: n.Game, Actor: from, Lines: l.Settings.Describe()}
		for _, p := range l.Seats() {
			inv.ToAct = append(inv.ToAct, p.Name)
		}
		m, err := s.notice(inv, thread{}, id, to, "")
		if err != nil {
			return n, err
		}
		tx.commit(store.Commit{GameID: id, ExpectSeq: l.LastSeq(), Outbox: []store.OutMail{contact(m, from)}})
		n.Kind, n.Address = "invited", to
		return n, nil
	case "pause", "resume", "replace", "undo", "set":
		if l.State == nil && verb != "set" {
			return lobbyError(fmt.Sprintf("Game %s has not started.", id)), nil
		}
		a := actor{Name: "host", Email: from}
		if p, ok := l.playerByEmail(from); ok {
			a.Name, a.Seat = p.Name, &p
		}
		rest := make([]string, len(args)-1)
		for i, x := range args[1:] {
			rest[i] = strings.ToLower(x)
		}
		r := s.newRun(l, msg.MessageID, "")
		r.sender = from // its notices to the sender join the lobby answer
		if why := inGame[verb](r, a, rest); why != "" {
			return lobbyError(why), nil
		}
		if err := r.finish("", nil, nil); err != nil {
			return n, err
		}
		tx.answers = append(tx.answers, r.answers...)
		tx.commit(r.c)
		n.Kind, n.Text = "done", verb
		if verb == "set" {
			n.Kind, n.Lines = "settings", l.Settings.Describe()
		}
		return n, nil
	}
	return lobbyError("unknown command " + verb), nil
}

// lobbyGames lists the open and running games, as they are after the commands
// before it in the same mail.
func (s *Service) lobbyGames(ctx context.Context, tx *lobbyTx) (templates.Notice, error) {
	stored, err := s.store.Games(ctx)
	if err != nil {
		return templates.Notice{}, err
	}
	var ids []string
	for _, ng := range slices.Backward(tx.batch.Games) {
		ids = append(ids, ng.Game.ID) // opened by this mail: the newest
	}
	for _, g := range stored {
		ids = append(ids, g.ID)
	}
	n := templates.Notice{Kind: "games"}
	for _, id := range ids {
		g, players, err := tx.seats(ctx, id)
		if err != nil {
			return n, err
		}
		if g.Status == store.GameFinished {
			continue
		}
		gi := templates.GameInfo{Game: s.gameData(g, nil), Status: g.Status, Host: g.Host, Seats: settingsOf(g.Settings).MaxPlayers}
		for _, p := range players {
			if p.Role != store.RoleObserver {
				gi.Players = append(gi.Players, p.Name)
			}
		}
		n.Games = append(n.Games, gi)
	}
	return n, nil
}

// lobbyNew opens a game with the sender as host and first player. Its options are
// checked through the engine first: nothing is created when one is wrong.
func (s *Service) lobbyNew(ctx context.Context, tx *lobbyTx, from string, args []string, msg *parse.Message, lineNo int) (templates.Notice, error) {
	if len(args) == 0 {
		return lobbyError("Write new GAME [option=value …], e.g. new smallworld deadline=48h. Games: " + strings.Join(s.games.Names(), ", ") + "."), nil
	}
	kind := strings.ToLower(args[0])
	eng, err := s.games.Lookup(kind)
	if err != nil {
		return lobbyError(err.Error()), nil
	}
	lowered := make([]string, len(args)-1)
	for i, a := range args[1:] {
		if k, v, ok := strings.Cut(a, "="); ok {
			lowered[i] = strings.ToLower(k) + "=" + v
		} else {
			lowered[i] = a
		}
	}
	settings, opts, err := SplitOptions(lowered)
	if err != nil {
		return lobbyError(err.Error()), nil
	}
	if why := checkNewOptions(eng, settings, opts); why != "" {
		return lobbyError(why), nil
	}
	id, err := s.newLobbyGameID(ctx, tx, kind, msg.MessageID, lineNo)
	if err != nil {
		return templates.Notice{}, err
	}
	optsJSON, _ := json.Marshal(opts)
	settingsJSON, _ := json.Marshal(settings)
	setup, _ := json.Marshal(map[string]int64{"seed": mrand.Int64N(1_000_000_000)})
	now := s.opts.Clock()
	g := store.Game{ID: id, Kind: kind, Options: optsJSON, Setup: setup, Status: store.GameOpen, Host: from,
		List: settings.List, CreatedAt: now, UpdatedAt: now, Settings: settingsJSON}
	name := seatName(from, nil)
	tx.create(g, []store.Player{{Seat: 0, Name: name, Email: from, Role: store.RolePlayer, Active: true}})
	return templates.Notice{Kind: "created", Game: s.gameData(g, nil), Player: name, Lines: settings.Describe(), Host: from}, nil
}

// checkNewOptions checks the engine options and the number of seats of a new game
// through the engine, and says what is wrong ("" when nothing is).
func checkNewOptions(eng engine.Game, st Settings, opts map[string]json.RawMessage) string {
	if oc, ok := eng.(engine.OptionChecker); ok && st.MaxPlayers > 0 {
		if lo, hi := oc.PlayerRange(); st.MaxPlayers < lo || st.MaxPlayers > hi {
			return fmt.Sprintf("players=%d: %s is for %d to %d players. Nothing was created.", st.MaxPlayers, eng.Name(), lo, hi)
		}
	}
	if err := engine.CheckOptions(eng, opts, st.MaxPlayers); err != nil {
		return fmt.Sprintf("%v. Nothing was created; see rules %s for the game's options.", err, eng.Name())
	}
	return ""
}

// newLobbyGameID returns an unused id for a game opened by mail: derived from the
// mail's Message-ID and line (so the same mail gives the same id), else random.
func (s *Service) newLobbyGameID(ctx context.Context, tx *lobbyTx, kind, messageID string, lineNo int) (string, error) {
	prefix, _, _ := strings.Cut(store.NewGameID(kind), "-")
	for try := 0; ; try++ {
		id := store.NewGameID(kind)
		if messageID != "" && try < 10 {
			sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%d", messageID, lineNo, try)))
			const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
			b := make([]byte, 5)
			for i := range b {
				b[i] = alphabet[sum[i]&31]
			}
			id = prefix + "-" + string(b)
		}
		taken, err := tx.exists(ctx, id)
		if err != nil || !taken {
			return id, err
		}
	}
}

// seatName derives a one-word player name from an address, unique among players.
func seatName(addr string, players []store.Player) string {
	local, _, _ := strings.Cut(strings.ToLower(addr), "@")
	var b strings.Builder
	for _, r := range local {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		}
		if b.Len() >= 16 {
			break
		}
	}
	base := b.String()
	if base == "" {
		base = "player"
	}
	taken := func(n string) bool {
		for _, p := range players {
			if strings.EqualFold(p.Name, n) {
				return true
			}
		}
		return false
	}
	name := base
	for i := 2; taken(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	return name
}

// lobbyJoin seats the sender in an open game, up to players= or the engine's most.
func (s *Service) lobbyJoin(tx *lobbyTx, l *Loaded, from string, args []string, n templates.Notice) (templates.Notice, error) {
	id := l.Game.ID
	if p, ok := l.playerByEmail(from); ok {
		n.Kind, n.Player = "joined", p.Name
		return n, nil
	}
	if l.Game.Status != store.GameOpen {
		return lobbyError(fmt.Sprintf("Game %s has started already; you can follow it with observe %s.", id, id)), nil
	}
	seats := l.Seats()
	if max := s.maxSeats(l); max > 0 && len(seats) >= max {
		return lobbyError(fmt.Sprintf("Game %s is full (%d players).", id, max)), nil
	}
	name := seatName(from, l.Players)
	if len(args) > 0 {
		want := strings.ToLower(args[0])
		if seatName(want+"@x", nil) != want {
			return lobbyError("A player name is one word of letters, digits, - or _."), nil
		}
		if _, taken := l.playerByName(want); taken {
			return lobbyError(fmt.Sprintf("The name %s is taken in game %s; choose another: join %s NAME.", want, id, id)), nil
		}
		name = want
	}
	seat := 0
	for _, p := range seats {
		if p.Seat >= seat {
			seat = p.Seat + 1
		}
	}
	p := store.Player{Seat: seat, Name: name, Email: from, Role: store.RolePlayer, Active: true}
	c := store.Commit{GameID: id, ExpectSeq: l.LastSeq(), Players: []store.Player{p}}
	if l.Game.Host != "" && !strings.EqualFold(l.Game.Host, from) {
		var names []string
		for _, q := range seats {
			names = append(names, q.Name)
		}
		names = append(names, name)
		m, err := s.notice(templates.Notice{Kind: "player-joined", Game: n.Game, To: "host", Player: name, Address: from, ToAct: names}, thread{}, id, l.Game.Host, "")
		if err != nil {
			return n, err
		}
		c.Outbox = append(c.Outbox, m)
	}
	tx.commit(c)
	n.Kind, n.Player = "joined", name
	return n, nil
}

// maxSeats is the most players a game opened by mail takes: players= or the
// engine's most (0: no limit known).
func (s *Service) maxSeats(l *Loaded) int {
	if l.Settings.MaxPlayers > 0 {
		return l.Settings.MaxPlayers
	}
	g, err := s.games.Lookup(l.Game.Kind)
	if oc, ok := g.(engine.OptionChecker); ok && err == nil {
		_, hi := oc.PlayerRange()
		return hi
	}
	return 0
}

// lobbyStart sets the game up through the engine and mails the opening state.
func (s *Service) lobbyStart(tx *lobbyTx, l *Loaded, n templates.Notice) (templates.Notice, error) {
	id := l.Game.ID
	if l.Game.Status != store.GameOpen {
		n.Kind = "started"
		return n, nil // already started (or a mail processed again)
	}
	a := l.Archive()
	setup, err := a.SetupOf()
	if err != nil {
		return n, err
	}
	g, _ := s.games.Lookup(l.Game.Kind)
	state, outcomes, err := engine.Start(g, setup, nil)
	if err != nil {
		return lobbyError(fmt.Sprintf("Game %s cannot start with %d players: %v", id, len(a.Players), err)), nil
	}
	now := s.opts.Clock().UTC()
	l.Settings.StartedAt = &now
	l.Game.Status = store.GameRunning
	l.State = state
	l.Facts = analyse(l, []engine.State{state})
	outcomesJSON, _ := json.Marshal(outcomes)
	settingsJSON, _ := json.Marshal(l.Settings)
	mails, err := s.stateMails(l, nil, state, nil, "", nil, nil, nil, "")
	if err != nil {
		return n, err
	}
	tx.commit(store.Commit{GameID: id, ExpectSeq: l.LastSeq(), GameStatus: store.GameRunning, SetupOutcomes: outcomesJSON, Settings: settingsJSON, Outbox: mails})
	n.Kind = "started"
	for _, p := range l.Seats() {
		n.ToAct = append(n.ToAct, p.Name)
	}
	return n, nil
}
