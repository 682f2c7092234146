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
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/lookalike"
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

// lobby answers mail to the service address (no reply token), or to a game's host
// reply address (cred proves the host): lobby commands when the first line is one;
// otherwise the how-to for players, the command list for other addresses turnmail
// knows, and nothing for strangers (no backscatter). The commands' effects and the
// answer are one batch, committed together (see lobbyTx).
func (s *Service) lobby(ctx context.Context, from string, msg *parse.Message, cred credential) (Result, store.Batch, error) {
	tx := s.newLobbyTx()
	// A greeting before the first command is skipped, as in a game's reply.
	read, notRead := chatter(msg.Commands, lobbyVerbs, s.canonicalIn(""))
	m := *msg
	m.Commands = read
	msg = &m
	first := ""
	if len(msg.Commands) > 0 {
		canon, _ := s.tr.Canonical("", engine.Normalize(msg.Commands[0].Text))
		if f := strings.Fields(canon); len(f) > 0 {
			first = f[0]
		}
	}
	tx.lang = s.lobbyLang(ctx, from, msg)
	if !lobbyVerbs[first] {
		res, c, err := s.howTo(ctx, from, msg, tx.lang)
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
		return s.lobbyAnswer(ctx, tx, from, msg, []templates.Notice{{Kind: "error", Command: text, Text: tx.t("This is not a command turnmail knows.")}}, false)
	}
	lines, unread := readLines(msg.Commands, s.opts.MaxCommandLines)
	answers, ok, err := s.lobbyLines(ctx, tx, from, lines, msg, cred)
	if err != nil {
		return Result{}, store.Batch{}, err
	}
	if n := notReadNotice(notRead); n != nil && len(answers) < maxLobbyAnswers {
		answers = append(answers, *n)
	}
	if unread != nil && len(answers) < maxLobbyAnswers {
		answers = append(answers, *unread)
	}
	return s.lobbyAnswer(ctx, tx, from, msg, answers, ok)
}

// lobbyLang is the language of the answer to a lobby mail: Italian when its commands
// use Italian words or ask for Italian (lang=it, lingua it); else the sender's own
// language (their lang/lingua setting in one of their latest games); else the
// language of one of those games that has one; else the default.
func (s *Service) lobbyLang(ctx context.Context, from string, msg *parse.Message) i18n.Lang {
	if lang := s.commandsLang(msg); lang != "" {
		return lang
	}
	return s.senderLang(ctx, from)
}

// langGames is how many of an address's latest games knownLangs reads: each costs a
// read of the game's log, on every lobby mail from that address.
const langGames = 3

// senderLang is the language known for an address from its latest seats (see
// knownLangs): a player's own setting first, else a game's, else the service's
// default.
func (s *Service) senderLang(ctx context.Context, from string) i18n.Lang {
	own, game := s.knownLangs(ctx, from)
	return own.Or(game).Or(s.opts.Language)
}

// storedLang is the language of a notice to addr about the stored game g, read
// without replaying it: addr's own setting in its latest games (see knownLangs),
// else g's language, else the service's default.
func (s *Service) storedLang(ctx context.Context, addr string, g store.Game) i18n.Lang {
	own, _ := s.knownLangs(ctx, addr)
	return own.Or(settingsOf(g.Settings).Lang).Or(s.opts.Language)
}

// knownLangs reads what is known of an address's language from its latest seats
// (at most langGames games read): its own setting (lang, lingua) and the language of
// one of those games; "" when unknown. Only the language of a mail is at stake: a
// game that cannot be read is passed over.
func (s *Service) knownLangs(ctx context.Context, addr string) (own, game i18n.Lang) {
	seats, err := s.store.SeatsOf(ctx, addr)
	if err != nil {
		return "", ""
	}
	for i := len(seats) - 1; i >= 0 && i >= len(seats)-langGames; i-- {
		g, _, err := s.store.Game(ctx, seats[i].GameID)
		if err != nil {
			continue
		}
		events, err := s.store.Events(ctx, g.ID)
		if err != nil {
			continue
		}
		st := settingsOf(g.Settings).withChanges(events)
		if own := st.Prefs[seats[i].Name].Lang; own != "" {
			return own, game.Or(st.Lang)
		}
		game = game.Or(st.Lang)
	}
	return "", game
}

// commandsLang is the language a lobby mail's commands are written in or ask for
// ("" when they do not tell).
func (s *Service) commandsLang(msg *parse.Message) i18n.Lang {
	for i, c := range msg.Commands {
		if i >= s.opts.MaxCommandLines {
			break
		}
		canon, it := s.tr.Canonical("", engine.Normalize(c.Text))
		if it || strings.Contains(canon, "lang=it") || strings.Contains(canon, "lang=italiano") {
			return i18n.Italian
		}
		if strings.Contains(canon, "lang=en") {
			return i18n.English
		}
	}
	return ""
}

// lobbyLines runs lobby command lines for from, with what cred proves, and returns
// the answers; ok is true when one of them did something.
func (s *Service) lobbyLines(ctx context.Context, tx *lobbyTx, from string, lines []parse.Line, msg *parse.Message, cred credential) ([]templates.Notice, bool, error) {
	var answers []templates.Notice
	ok := false
	answered := map[string]bool{}
	for i, line := range lines {
		if len(answers) >= maxLobbyAnswers {
			answers = append(answers, templates.Notice{Kind: "unread", Count: lines[i-1].N, Limit: maxLobbyAnswers})
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
		cmd, _ = s.tr.Canonical("", cmd)
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
		n, err := s.lobbyCommand(ctx, tx, from, verb, f[1:], msg, line.N, cred)
		if err != nil {
			return nil, false, err
		}
		// The answer quotes the command in the reader's words: a confirmed command
		// comes back from the store in the canonical ones.
		n.Command = s.tr.Command("", tx.lang, cmd)
		if n.Kind != "error" && n.Kind != "" {
			ok = true
		}
		answers = append(answers, n)
		answers = append(answers, tx.answers...) // what the command told the sender besides
		tx.answers = nil
	}
	return answers, ok, nil
}

// lobbyAnswer sends the confirmation requests the commands wait for, adds the
// answer mail to a lobby mail to its transaction and returns the transaction's
// batch. Commands that wait for the sender's confirmation say so in the request
// (pend): when nothing else is to be said, the request is the only mail, and a
// command dropped without an answer (Kind "") leaves no trace in it. The answer's
// Reply-To is the host reply address of the one game it is about when the sender
// hosts it, else the service address.
func (s *Service) lobbyAnswer(ctx context.Context, tx *lobbyTx, from string, msg *parse.Message, answers []templates.Notice, ok bool) (Result, store.Batch, error) {
	if err := s.askPending(ctx, tx); err != nil {
		return Result{}, store.Batch{}, err
	}
	var said []templates.Notice
	hostOf, pending := "", false
	for _, n := range answers {
		switch n.Kind {
		case "":
			continue
		case "pending":
			pending = true
			continue
		}
		n.Service = s.address()
		n.Lang = string(tx.lang)
		if n.Game.ID != "" && n.Host != "" && strings.EqualFold(n.Host, from) {
			if hostOf == "" || hostOf == n.Game.ID {
				hostOf = n.Game.ID
			} else {
				hostOf = "-" // about several games: the service address
			}
		}
		said = append(said, n)
	}
	res := Result{Status: StatusRejected, Reason: "lobby: nothing done"}
	switch {
	case len(said) > 0:
		res.Reason = "lobby: " + string(said[0].Kind)
	case pending:
		res.Reason = "lobby: waiting for a confirmation"
	}
	if ok {
		res.Status = StatusApplied
	}
	if len(said) == 0 {
		return res, tx.batch, nil
	}
	if pending {
		said = append(said, templates.Notice{Kind: "pending", Service: s.address()})
	}
	replyTo := s.address()
	if hostOf != "" && hostOf != "-" {
		replyTo = s.HostAddress(hostOf)
		for i := range said {
			if said[i].Game.ID == hostOf {
				said[i].HostReply = replyTo
			}
		}
	}
	data := templates.Lobby{Service: s.address(), Answers: said, Lang: string(tx.lang)}
	gameID, th := "", thread{}
	if g, ok := oneGame(said); ok {
		// About one game: in its thread, with its subject, like every other mail of it.
		data.Game, gameID, th = g, g.ID, s.readerThread(ctx, g.ID, from)
	}
	m, err := s.mail("lobby", data, gameID, from, replyTo, inReplyTo(msg), th, nil, "auto-replied")
	if err != nil {
		return res, store.Batch{}, err
	}
	tx.commit(store.Commit{Outbox: []store.OutMail{m}})
	return res, tx.batch, nil
}

// oneGame returns the game every answer is about, when there is one and it has the
// game's subject (see gameData).
func oneGame(answers []templates.Notice) (templates.Game, bool) {
	var g templates.Game
	for _, n := range answers {
		switch {
		case n.Kind == "pending":
			continue
		case n.Game.ID == "" || len(n.Game.Players) == 0 || g.ID != "" && n.Game.ID != g.ID:
			return templates.Game{}, false
		}
		g = n.Game
	}
	return g, g.ID != ""
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
//
// A command that acts for the sender (join, leave, observe, unobserve) needs cred
// to prove the sender; a host command needs it to prove the host. Without that
// proof the command waits for the sender's confirmation (pend) — a host command
// only when the sender is the game's host: anyone else is told only that the host
// must send it (the answer names no address).
func (s *Service) lobbyCommand(ctx context.Context, tx *lobbyTx, from, verb string, args []string, msg *parse.Message, lineNo int, cred credential) (templates.Notice, error) {
	switch verb {
	case "help":
		return templates.Notice{Kind: "help"}, nil
	case "games":
		return s.lobbyGames(ctx, tx)
	case "rules":
		return s.lobbyRules(tx, args), nil
	case "new":
		return s.lobbyNew(ctx, tx, from, args, msg, lineNo)
	}
	if len(args) == 0 {
		return lobbyError(tx.t("%s needs the game's id, e.g. %s sw-7k3p.", s.tr.Word(i18n.ServiceDomain, tx.lang, verb), s.tr.Word(i18n.ServiceDomain, tx.lang, verb))), nil
	}
	id := strings.ToLower(args[0])
	l, err := tx.load(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		// Each says what to send instead: no list of commands after it.
		n := lobbyError(tx.t("There is no game %s; send games for the list.", boundText(id, maxSuggestLen)))
		if near := s.nearestGame(ctx, from, id); near != "" {
			n = lobbyError(tx.t("There is no game %s: did you mean %s? (send games for the list)", boundText(id, maxSuggestLen), near))
		}
		n.Brief = true
		return n, nil
	}
	if err != nil {
		return templates.Notice{}, err
	}
	n := templates.Notice{Game: s.gameData(l.Game, l.Players), Host: l.Game.Host}
	if verb == "join" || verb == "leave" || verb == "observe" || verb == "unobserve" {
		if !cred.proven {
			return s.pendCommand(ctx, tx, l, from, verb, args, msg, lineNo)
		}
	} else if !cred.isHost(l, from) { // host commands
		if l.Game.Host == "" || !strings.EqualFold(from, l.Game.Host) {
			return lobbyError(tx.t("Only the host of game %s may send %s; the host sends host commands to the game's host address.", id, s.tr.Word(i18n.ServiceDomain, tx.lang, verb))), nil
		}
		return s.pendCommand(ctx, tx, l, from, verb, args, msg, lineNo)
	}
	switch verb {
	case "join":
		if why := s.joinRefusal(tx.lang, l, from, args[1:], cred); why != "" {
			return lobbyError(why), nil
		}
		return s.lobbyJoin(tx, l, from, args[1:], n)
	case "leave":
		p, ok := l.playerByEmail(from)
		switch {
		case !ok:
			return lobbyError(tx.t("You do not play in game %s.", id)), nil
		case l.Game.Status != store.GameOpen:
			return lobbyError(tx.t("Game %s has started; to stop playing, reply to a game mail with resign.", id)), nil
		case strings.EqualFold(from, l.Game.Host):
			return lobbyError(tx.t("The host cannot leave the game they opened.")), nil
		}
		c := store.Commit{GameID: id, ExpectSeq: l.LastSeq(), RemoveSeats: []int{p.Seat}}
		if err := s.tellHost(&c, l, templates.Notice{Kind: "player-left", Game: n.Game, To: "host", Player: p.Name, Address: from}); err != nil {
			return n, err
		}
		tx.commit(c)
		n.Kind, n.Player = "left", p.Name
		return n, nil
	case "start":
		return s.lobbyStart(tx, l, n)
	case "observe":
		return s.lobbyObserve(tx, l, from, n, cred)
	case "unobserve":
		for _, p := range l.Players {
			if strings.EqualFold(p.Email, from) && p.Role == store.RoleObserver {
				tx.commit(store.Commit{GameID: id, ExpectSeq: l.LastSeq(), RemoveSeats: []int{p.Seat}})
				n.Kind = "unobserved"
				return n, nil
			}
		}
		return lobbyError(tx.t("You do not observe game %s.", id)), nil
	case "invite":
		return s.lobbyInvite(tx, l, from, args, n)
	case "pause", "resume", "replace", "undo", "set":
		if l.State == nil && verb != "set" {
			return lobbyError(tx.t("Game %s has not started.", id)), nil
		}
		a := actor{Name: "host", Email: from}
		if p, ok := l.playerByEmail(from); ok {
			a.Name, a.Seat = p.Name, &p
		}
		rest := make([]string, len(args)-1)
		for i, x := range args[1:] {
			rest[i] = strings.ToLower(x)
		}
		r := s.newRun(ctx, l, msg.MessageID, "")
		r.sender = from  // its notices to the sender join the lobby answer
		r.lang = tx.lang // and are in the sender's language, not the game's
		r.consented = cred.consented
		if why := inGame[verb](r, a, rest); why != "" {
			return lobbyError(why), nil
		}
		if err := r.finish("", nil, nil); err != nil {
			return n, err
		}
		tx.answers = append(tx.answers, r.answers...)
		tx.commit(r.c)
		n.Kind, n.Text = "done", s.tr.Word(i18n.ServiceDomain, tx.lang, verb)
		switch {
		case r.asked:
			n.Kind = "" // the answer is the notice that the new address was asked
		case verb == "set":
			n.Kind, n.Lines = "settings", l.Settings.Describe(s.tr, tx.lang)
		}
		return n, nil
	}
	return lobbyError(tx.t("unknown command %s", verb)), nil
}

// pendCommand holds a command that needs a proof the mail lacks until its sender
// confirms it (pend). The command is tried first, with the proof, on a copy of the
// transaction: a command that would fail is answered at once with why, and only
// one that would succeed is held.
func (s *Service) pendCommand(ctx context.Context, tx *lobbyTx, l *Loaded, from, verb string, args []string, msg *parse.Message, lineNo int) (templates.Notice, error) {
	id := l.Game.ID
	try := credential{proven: true}
	if strings.EqualFold(from, l.Game.Host) {
		try.game, try.grant = id, grantHost
	}
	n, err := s.lobbyCommand(ctx, tx.tryTx(), from, verb, args, msg, lineNo, try)
	if err != nil || n.Kind == "error" {
		return n, err
	}
	// What the request shows: ours for the commands that act for the sender (a
	// forged one reaches a stranger); a host's own words for the host.
	canonical := verb + " " + id
	switch {
	case verb == "join" && len(args) > 1:
		canonical += " " + args[1] // checked: one word, kept as written
	case verb != "join" && verb != "leave" && verb != "observe" && verb != "unobserve":
		canonical = strings.Join(append([]string{verb, id}, args[1:]...), " ")
	}
	return s.pend(ctx, tx, l, from, canonical)
}

// joinRefusal says why from cannot join game l ("" when they can, or play there
// already): a game that has started, a private game without an invitation, a
// full game, a player name that is not one word or is taken.
func (s *Service) joinRefusal(lang i18n.Lang, l *Loaded, from string, args []string, cred credential) string {
	id := l.Game.ID
	t := func(format string, args ...any) string { return s.tr.Sprintf(lang, format, args...) }
	if _, ok := l.playerByEmail(from); ok {
		return ""
	}
	if l.Settings.Private && !(cred.game == id && cred.grant == grantInvite) {
		return t("Game %s takes players by invitation only.", id)
	}
	if l.Game.Status != store.GameOpen {
		return t("Game %s has started already; you can follow it with observe %s.", id, id)
	}
	if max := s.maxSeats(l); max > 0 && len(l.Seats()) >= max {
		return t("Game %s is full (%d players).", id, max)
	}
	if len(args) > 0 {
		want := args[0] // as written: "Davide" stays Davide, compared without case
		if len(args) > 1 || !strings.EqualFold(seatName(want+"@x", nil), want) {
			return t("A player name is one word of letters, digits, - or _.")
		}
		if _, taken := l.playerByName(want); taken {
			return t("The name %s is taken in game %s; choose another: join %s NAME.", want, id, id)
		}
		if s.reservedName(want) {
			return t("The name %s is reserved for the service (or the host); choose another: join %s NAME.", want, id)
		}
		if other := lookalikePlayer(want, l.Seats()); other != "" {
			return t("The name %s reads too much like %s, who plays in game %s; choose another: join %s NAME.", want, other, id, id)
		}
	}
	return ""
}

// reservedName reports whether name reads as the service's (its display name,
// the local part of its address) or as "host" (what turnmail calls a game's
// host), however it is spelt: case, accents, look-alike characters.
func (s *Service) reservedName(name string) bool {
	for _, r := range []string{s.opts.Name, s.local, "host"} {
		if r != "" && lookalike.Same(name, r) {
			return true
		}
	}
	return false
}

// lookalikePlayer returns the name of the player of players that name reads as
// ("" when none does).
func lookalikePlayer(name string, players []store.Player) string {
	for _, p := range players {
		if lookalike.Same(name, p.Name) {
			return p.Name
		}
	}
	return ""
}

// nameFree reports whether a player name derived from an address may be used
// among players: not reserved, and reading as nobody's.
func (s *Service) nameFree(players []store.Player) func(string) bool {
	return func(name string) bool { return !s.reservedName(name) && lookalikePlayer(name, players) == "" }
}

// tellHost queues a notice to the host of game l (when it has one) in c, with the
// host reply address.
func (s *Service) tellHost(c *store.Commit, l *Loaded, n templates.Notice) error {
	if l.Game.Host == "" || !s.mayMail(l, l.Game.Host) {
		return nil
	}
	n.ReplyTo = s.HostAddress(l.Game.ID)
	n.HostReply = n.ReplyTo
	n.Lang = string(s.langAt(l, l.Game.Host))
	m, err := s.notice(n, l.threadOf(l.Game.Host), l.Game.ID, l.Game.Host, "")
	if err != nil {
		return err
	}
	c.Outbox = append(c.Outbox, m)
	return nil
}

// lobbyInvite sends an invitation — a confirmation request whose reply joins the
// game — to an address not asked about the game before.
func (s *Service) lobbyInvite(tx *lobbyTx, l *Loaded, from string, args []string, n templates.Notice) (templates.Notice, error) {
	id := l.Game.ID
	if len(args) != 2 {
		return lobbyError(tx.t("Write invite GAME-ID ADDRESS, e.g. invite %s carol@example.org.", id)), nil
	}
	if l.Game.Status != store.GameOpen {
		return lobbyError(tx.t("Game %s has started; invite people to observe it instead: observe %s.", id, id)), nil
	}
	to, err := recipient(args[1])
	if err != nil {
		return lobbyError(tx.t("%s. Nobody was invited.", s.reasonIn(tx.lang, "", err))), nil
	}
	if _, ok := l.playerByEmail(to); ok {
		return lobbyError(tx.t("%s plays in game %s already.", to, id)), nil
	}
	if !mayAsk(l, to) {
		return lobbyError(tx.t("%s was asked about game %s before and did not accept; nothing was sent.", to, id)), nil
	}
	lang := s.langOf(l.Settings, "") // the invitation is in the game's language
	inv := templates.Notice{Game: n.Game, Text: "invite", Actor: from, Lines: l.Settings.Describe(s.tr, lang), Lang: string(lang)}
	for _, p := range l.Seats() {
		inv.ToAct = append(inv.ToAct, p.Name)
	}
	c := store.Commit{}
	k := store.Confirmation{Address: to, Actor: to, GameID: id, Grant: grantInvite, Commands: []string{"join " + id}}
	if err := s.ask(&c, k, inv, true, from); err != nil {
		return n, err
	}
	tx.commit(c)
	n.Kind, n.Address = "invited", to
	return n, nil
}

// lobbyObserve makes from an observer of game l (proven by cred). Its players are
// told. A private game needs its host's approval first: the host is asked (once
// per address).
func (s *Service) lobbyObserve(tx *lobbyTx, l *Loaded, from string, n templates.Notice, cred credential) (templates.Notice, error) {
	id := l.Game.ID
	for _, p := range l.Players {
		if strings.EqualFold(p.Email, from) {
			n.Kind = "observing"
			return n, nil
		}
	}
	if l.Game.Status == store.GameFinished {
		return lobbyError(tx.t("Game %s is over.", id)), nil
	}
	if l.Settings.Private && !(cred.game == id && cred.grant == grantApprove) {
		if l.Game.Host == "" {
			return lobbyError(tx.t("Game %s is private.", id)), nil
		}
		if l.Consent[strings.ToLower(from)] == store.ConsentNo {
			return templates.Notice{}, nil // denied before: the host is not asked again
		}
		c := store.Commit{}
		k := store.Confirmation{Address: l.Game.Host, Actor: from, GameID: id, Grant: grantApprove, Commands: []string{"observe " + id}}
		approve := templates.Notice{Game: n.Game, Text: "approve", Actor: from, HostReply: s.HostAddress(id), Lang: string(s.langAt(l, l.Game.Host))}
		if err := s.ask(&c, k, approve, false, ""); err != nil {
			return n, err
		}
		c.Consents = append(c.Consents, store.Consent{GameID: id, Address: from, State: store.ConsentAsked})
		tx.commit(c)
		n.Kind = "approval-asked"
		return n, nil
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
	// The players (and the host) are told who follows their game.
	told := map[string]bool{}
	for _, p := range l.Seats() {
		if told[p.Email] || !s.mayMail(l, p.Email) {
			continue
		}
		told[p.Email] = true
		note := templates.Notice{Kind: "observer-joined", Game: n.Game, To: p.Name, Address: from}
		if l.State != nil {
			note.ReplyTo = s.replyAddr(id, p)
		}
		m, err := s.notice(note, l.threadOf(p.Email), id, p.Email, "")
		if err != nil {
			return n, err
		}
		c.Outbox = append(c.Outbox, m)
	}
	if !told[strings.ToLower(l.Game.Host)] {
		if err := s.tellHost(&c, l, templates.Notice{Kind: "observer-joined", Game: n.Game, To: "host", Address: from}); err != nil {
			return n, err
		}
	}
	tx.commit(c)
	n.Kind = "observing"
	return n, nil
}

// lobbyGames lists the public open games, as they are after the commands before
// it in the same mail: no private game, and no address (players are counted, not
// named: their names come from their addresses).
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
		st := settingsOf(g.Settings)
		if g.Status != store.GameOpen || st.Private {
			continue
		}
		gi := templates.GameInfo{Game: s.gameData(g, nil), Status: g.Status, Seats: st.MaxPlayers}
		for _, p := range players {
			if p.Role != store.RoleObserver {
				gi.Count++
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
		return lobbyError(tx.t("Write new GAME [option=value …], e.g. new smallworld deadline=48h. Games: %s.", strings.Join(s.games.Names(), ", "))), nil
	}
	kind := strings.ToLower(args[0])
	eng, err := s.games.Lookup(kind)
	if err != nil {
		return lobbyError(s.unknownGame(tx.lang, kind)), nil
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
		return lobbyError(tx.t("%s. Nothing was created.", s.reasonIn(tx.lang, "", err))), nil
	}
	if why := checkNewOptions(tx.t, func(err error) string { return s.reasonIn(tx.lang, kind, err) }, eng, settings, opts); why != "" {
		return lobbyError(why), nil
	}
	if settings.Lang == "" {
		settings.Lang = tx.lang // a host who writes Italian opens an Italian game
	}
	id, err := s.newLobbyGameID(ctx, tx, kind, msg.MessageID, lineNo)
	if err != nil {
		return templates.Notice{}, err
	}
	optsJSON, _ := json.Marshal(opts)
	settingsJSON, _ := json.Marshal(settings)
	stamp := map[string]json.RawMessage{"seed": json.RawMessage(fmt.Sprint(mrand.Int64N(1_000_000_000)))}
	engine.StampSetup(eng, stamp)
	setup, _ := json.Marshal(stamp)
	now := s.opts.Clock()
	g := store.Game{ID: id, Kind: kind, Options: optsJSON, Setup: setup, Status: store.GameOpen, Host: from,
		List: settings.List, CreatedAt: now, UpdatedAt: now, Settings: settingsJSON}
	name := seatName(from, s.nameFree(nil))
	seats := []store.Player{{Seat: 0, Name: name, Email: from, Role: store.RolePlayer, Active: true}}
	tx.create(g, seats)
	n := templates.Notice{Kind: "created", Game: s.gameData(g, seats), Player: name, Lines: settings.Describe(s.tr, tx.lang), Host: from}
	if settings.List != "" {
		// The list gets the game's mail once someone on it confirms (mayMailList).
		var c store.Commit
		k := store.Confirmation{Address: settings.List, Actor: from, GameID: id, Grant: grantList, AnyFrom: true}
		lang := s.langOf(settings, "") // the list reads the game's language
		ask := templates.Notice{Game: n.Game, Text: "list", Actor: from, Lines: settings.Describe(s.tr, lang), Lang: string(lang)}
		if err := s.ask(&c, k, ask, true, from); err != nil {
			return n, err
		}
		tx.commit(c)
		n.Address = settings.List
	}
	return n, nil
}

// checkNewOptions checks the engine options and the number of seats of a new game
// through the engine, and says what is wrong with t, in the reader's language ("" when
// nothing is); reason renders the engine's error (its rule error in the reader's
// language).
func checkNewOptions(t sprintf, reason func(error) string, eng engine.Game, st Settings, opts map[string]json.RawMessage) string {
	if oc, ok := eng.(engine.OptionChecker); ok && st.MaxPlayers > 0 {
		if lo, hi := oc.PlayerRange(); st.MaxPlayers < lo || st.MaxPlayers > hi {
			return t("players=%d: %s is for %d to %d players. Nothing was created.", st.MaxPlayers, eng.Name(), lo, hi)
		}
	}
	if err := engine.CheckOptions(eng, opts, st.MaxPlayers); err != nil {
		return t("%s. Nothing was created; see rules %s for the game's options.", reason(err), eng.Name())
	}
	return ""
}

// unknownGame says, in lang, that there is no game called kind, and which there are.
func (s *Service) unknownGame(lang i18n.Lang, kind string) string {
	return s.tr.Sprintf(lang, "unknown game %q (known: %s)", kind, strings.Join(s.games.Names(), ", "))
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

// seatName derives a one-word player name from an address, free by free (nil:
// any name is).
func seatName(addr string, free func(string) bool) string {
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
	name := base
	for i := 2; free != nil && !free(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	return name
}

// lobbyJoin seats the sender in an open game (joinRefusal has said they may).
func (s *Service) lobbyJoin(tx *lobbyTx, l *Loaded, from string, args []string, n templates.Notice) (templates.Notice, error) {
	id := l.Game.ID
	if p, ok := l.playerByEmail(from); ok {
		n.Kind, n.Player = "joined", p.Name
		return n, nil
	}
	seats := l.Seats()
	name := seatName(from, s.nameFree(l.Players))
	if len(args) > 0 {
		name = args[0] // the case the player wrote (joinRefusal checked it)
	}
	seat := 0
	for _, p := range seats {
		if p.Seat >= seat {
			seat = p.Seat + 1
		}
	}
	p := store.Player{Seat: seat, Name: name, Email: from, Role: store.RolePlayer, Active: true}
	c := store.Commit{GameID: id, ExpectSeq: l.LastSeq(), Players: []store.Player{p}}
	if !strings.EqualFold(l.Game.Host, from) {
		var names []string
		for _, q := range seats {
			names = append(names, q.Name)
		}
		names = append(names, name)
		if err := s.tellHost(&c, l, templates.Notice{Kind: "player-joined", Game: n.Game, To: "host", Player: name, Address: from, ToAct: names}); err != nil {
			return n, err
		}
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
		return lobbyError(tx.t("Game %s cannot start with %d players: %v", id, len(a.Players), err)), nil
	}
	now := s.opts.Clock().UTC()
	l.Settings.StartedAt = &now
	l.Game.Status = store.GameRunning
	l.State = state
	l.Facts = newFacts(state.ToAct(), l.startedAt())
	outcomesJSON, _ := json.Marshal(outcomes)
	settingsJSON, _ := json.Marshal(l.Settings)
	mails, err := s.stateMails(l, nil, state, nil, "", nil, nil, nil, "")
	if err != nil {
		return n, err
	}
	tx.commit(store.Commit{GameID: id, ExpectSeq: l.LastSeq(), GameStatus: store.GameRunning, SetupOutcomes: outcomesJSON, Settings: settingsJSON, Outbox: play(mails, l.Game.Host)})
	n.Kind = "started"
	for _, p := range l.Seats() {
		n.ToAct = append(n.ToAct, p.Name)
	}
	return n, nil
}
