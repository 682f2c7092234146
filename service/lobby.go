package service

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/i18n"
	"github.com/turnmail/turnmail/internal/lookalike"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

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
	read, notRead := chatter(msg.Commands, lobbyVerbSet(), s.canonicalIn(""))
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
	if lobbyVerb(first) == nil {
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
	if n := notReadNotice(notRead, nil); n != nil && len(answers) < maxLobbyAnswers {
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
		if isInfo(verb) {
			if answered[verb] {
				continue // answered once per mail
			}
			answered[verb] = true
		}
		n, err := s.lobbyCommand(ctx, verb, lobbyCall{tx: tx, from: from, args: f[1:], msg: msg, lineNo: line.N, cred: cred})
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
	m, err := s.mail(outMail{kind: "lobby", data: data, game: gameID, to: from, replyTo: replyTo, inReplyTo: inReplyTo(msg), thread: th, auto: "auto-replied"})
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

// lobbyCommand runs one lobby command, verb with c's arguments (c.l and c.n are
// filled in here), and returns its answer. What it changes goes into c.tx, committed with the answer once every command of the mail has run.
//
// A command that acts for the sender (join, leave, observe, unobserve) needs c.cred
// to prove the sender; a host command needs it to prove the host. Without that
// proof the command waits for the sender's confirmation (pend) — a host command
// only when the sender is the game's host: anyone else is told only that the host
// must send it (the answer names no address).
func (s *Service) lobbyCommand(ctx context.Context, verb string, c lobbyCall) (templates.Notice, error) {
	tx, from, args, cred := c.tx, c.from, c.args, c.cred
	v := lobbyVerb(verb)
	if v == nil {
		return lobbyError(tx.t("unknown command %s", verb)), nil
	}
	if v.who == anyone {
		return v.lobby(s, ctx, c)
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
			// The command as sent with the game's id mended, to send with one tap.
			word := s.tr.Word(i18n.ServiceDomain, tx.lang, verb)
			sug := strings.Join(append([]string{word, near}, args[1:]...), " ")
			if len(sug) > 2*maxSuggestLen {
				sug = word + " " + near
			}
			n = lobbyError(tx.t("There is no game %s: did you mean %s? (send games for the list)", boundText(id, maxSuggestLen), sug))
			n.Suggest, n.ReplyTo = sug, s.address()
		}
		n.Brief = true
		return n, nil
	}
	if err != nil {
		return templates.Notice{}, err
	}
	c.l, c.n = l, templates.Notice{Game: s.gameData(l.Game, l.Players), Host: l.Game.Host}
	switch {
	case v.who == self && !cred.proven:
		return s.pendCommand(ctx, v, c)
	case v.who == host && !cred.isHost(l, from):
		if l.Game.Host == "" || !strings.EqualFold(from, l.Game.Host) {
			return lobbyError(tx.t("Only the host of game %s may send %s; the host sends host commands to the game's host address.", id, s.tr.Word(i18n.ServiceDomain, tx.lang, verb))), nil
		}
		return s.pendCommand(ctx, v, c)
	}
	return v.lobby(s, ctx, c)
}

// hostInGame runs a host command sent to the service address (pause GAME-ID …) in
// the running game it names: see runInGame.
func hostInGame(name string) func(s *Service, ctx context.Context, c lobbyCall) (templates.Notice, error) {
	return func(s *Service, ctx context.Context, c lobbyCall) (templates.Notice, error) {
		if c.l.State == nil {
			return lobbyError(c.tx.t("Game %s has not started.", c.l.Game.ID)), nil
		}
		return s.runInGame(ctx, c, name)
	}
}

// runInGame runs the game verb name (serviceVerb.game) sent to the service address
// in the game it names, answering in the sender's language.
func (s *Service) runInGame(ctx context.Context, c lobbyCall, name string) (templates.Notice, error) {
	l, n, tx, from := c.l, c.n, c.tx, c.from
	a := actor{Name: "host", Email: from}
	if p, ok := l.playerByEmail(from); ok {
		a.Name, a.Seat = p.Name, &p
	}
	rest := make([]string, len(c.args)-1)
	for i, x := range c.args[1:] {
		rest[i] = strings.ToLower(x)
	}
	r := s.newRun(ctx, l, c.msg.MessageID, "")
	r.sender = from  // its notices to the sender join the lobby answer
	r.lang = tx.lang // and are in the sender's language, not the game's
	r.consented = c.cred.consented
	if why := verbs[name].game(r, a, rest); why != "" {
		return lobbyError(why), nil
	}
	if err := r.finish("", nil, nil); err != nil {
		return n, err
	}
	tx.answers = append(tx.answers, r.answers...)
	tx.commit(r.c)
	n.Kind, n.Text = "done", s.tr.Word(i18n.ServiceDomain, tx.lang, name)
	if r.asked {
		n.Kind = "" // the answer is the notice that the new address was asked
	}
	return n, nil
}

// pendCommand holds a command that needs a proof the mail lacks until its sender
// confirms it (pend). The command is tried first, with the proof, on a copy of the
// transaction: a command that would fail is answered at once with why, and only
// one that would succeed is held.
func (s *Service) pendCommand(ctx context.Context, v *serviceVerb, c lobbyCall) (templates.Notice, error) {
	l, from, args, id := c.l, c.from, c.args, c.l.Game.ID
	try := c
	try.tx, try.cred = c.tx.tryTx(), credential{proven: true}
	if strings.EqualFold(from, l.Game.Host) {
		try.cred.game, try.cred.grant = id, grantHost
	}
	n, err := s.lobbyCommand(ctx, v.name, try)
	if err != nil || n.Kind == "error" {
		return n, err
	}
	// What the request shows: ours for the commands that act for the sender (a
	// forged one reaches a stranger); a host's own words for the host.
	canonical := strings.Join(append([]string{v.name, id}, args[1:]...), " ")
	switch {
	case v.pending != nil:
		canonical = v.pending(id, args)
	case v.who == self:
		canonical = v.name + " " + id
	}
	return s.pend(ctx, c.tx, l, from, canonical)
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
// host reply address, greeting them as hostTo does.
func (s *Service) tellHost(c *store.Commit, l *Loaded, n templates.Notice) error {
	if l.Game.Host == "" || !s.mayMail(l, l.Game.Host) {
		return nil
	}
	n.To = hostTo(l.Game.Host, l.Players)
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

// hostTo is whom a notice to the host at address host greets: the name of the
// host's seat among players when the host plays (as the others know them), else
// "host", which a notice greets without a name.
func hostTo(host string, players []store.Player) string {
	for _, p := range players {
		if (p.Role == "" || p.Role == "player") && strings.EqualFold(p.Email, host) {
			return p.Name
		}
	}
	return "host"
}

// unknownGame says, in lang, that there is no game called kind, and which there are.
func (s *Service) unknownGame(lang i18n.Lang, kind string) string {
	return s.tr.Sprintf(lang, "unknown game %q (known: %s)", kind, strings.Join(s.games.Names(), ", "))
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
