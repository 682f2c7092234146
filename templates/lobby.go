package templates

import (
	"strings"

	"github.com/turnmail/turnmail/templates/doc"
)

// help is the list of the service's commands: at the service address, then in a
// game.
func (n notice) help() []doc.Block {
	w := n.w
	def := func(term, text string) doc.Def { return doc.Def{Term: doc.Line{doc.C(term)}, Text: doc.L(text)} }
	lobby := &doc.Defs{Title: doc.L(w.t("At %s:", n.Service)), Items: []doc.Def{
		def(w.word("help"), w.t("this list")),
		def(w.word("games"), w.t("the open games you can join")),
		def(w.t("rules GAME [NAME]"), w.t("a game's rules in short, or what NAME does (a race, power, place, relic or card)")),
		def(w.t("new GAME [option=value …]"), w.t("open a game; you are its host and first player")),
		def(w.t("join GAME-ID [NAME]"), w.t("take a seat in an open game")),
		def(w.t("leave GAME-ID"), w.t("give your seat back before the game starts")),
		def(w.t("start GAME-ID"), w.t("(host) start the game; everyone gets the opening mail")),
		def(w.t("invite GAME-ID ADDRESS"), w.t("(host) invite someone; they reply to the invitation to join")),
		def(w.t("observe GAME-ID"), w.t("get the public state after every move")),
		def(w.t("unobserve GAME-ID"), w.t("stop that")),
		def(w.t("pause GAME-ID, resume GAME-ID"), w.t("(host)")),
		def(w.t("replace GAME-ID PLAYER ADDRESS"), w.t("(host) hand a seat to another address")),
		def(w.t("undo GAME-ID force"), w.t("(host) take back the last move")),
		def(w.t("set GAME-ID option=value …"), w.t("(host) change deadline=, remind=, expiry=, vacation=, tz=, lang=")),
	}}
	options := &doc.List{Title: doc.L(w.t("Options of new:")), Items: []doc.Item{
		{Line: doc.L(w.t("deadline=24h, 2d, weekdays 20:00 ZONE, daily 20:00 ZONE or none"))},
		{Line: doc.L(w.t("remind=12h,1h"))},
		{Line: doc.L(w.t("expiry=skip, pause or replace"))},
		{Line: doc.L(w.t("vacation=DAYS, tz=ZONE, lang=it|en, players=N, list=ADDRESS"))},
		{Line: doc.L(w.t("private=true (not listed; players by invitation, observers with the host's approval)"))},
		{Line: doc.L(w.t("and the game's own (map=… and others: see rules GAME)"))},
	}}
	game := &doc.Defs{Title: doc.L(w.t("In a game (reply to a game mail), beside your moves:")), Items: []doc.Def{
		def(w.word("status"), w.t("resend my current view")),
		def(w.word("legal"), w.t("what I can send now")),
		def(w.word("map"), w.t("the whole board: every region, card and piece")),
		def(w.t("rules [NAME]"), w.t("the game's rules in short and what every piece in play does, or what NAME does")),
		def(w.t("history [N]"), w.t("the last N events (default 10)")),
		def(w.word("undo"), w.t("ask to take back the last move; the others answer accept")),
		def(w.word("accept"), w.t("agree to an undo")),
		def(w.word("resign"), w.t("leave the game (you are asked to confirm)")),
		def(w.t("vacation FROM TO"), w.t("e.g. vacation 2026-12-24 2026-12-27: your deadlines stretch")),
		def(w.t("tz ZONE"), w.t("times in your zone, e.g. tz Europe/Rome")),
		def(w.t("notify every|turn"), w.t("while waiting: a mail per move, or per turn")),
		def(w.t("lang it|en"), w.t("the language of your mails (lingua it: in italiano)")),
		def(w.t("say TEXT, say PLAYER TEXT"), w.t("a message to every player, or to one")),
		def(w.t("pause, resume, undo force, replace PLAYER ADDRESS"), w.t("(host)")),
		def(w.t("set option=value …"), w.t("(host) e.g. set deadline=48h remind=6h")),
	}}
	return []doc.Block{
		doc.P(w.rich("turnmail runs board games by mail. Write commands one per line to\n%s; in a game, reply to the game's mail (your personal\nreply address) instead.", doc.C(n.Service))),
		lobby,
		&doc.Para{Role: doc.Note, Lines: []doc.Line{doc.L(w.t("e.g. new smallworld deadline=48h\n             new empire players=3 deadline=weekdays 20:00 Europe/Rome")), doc.L(w.t("e.g. set GAME-ID deadline=48h expiry=pause"))}},
		options,
		doc.P(w.rich("Nobody acts in your name on a From header alone. join, leave, observe and\nunobserve, and host commands sent to %s, wait until you\nreply to the confirmation mail we send you (write yes, or no to drop them).\nHost commands sent to the game's host address (the Reply-To of the mails\nabout your game) need no confirmation.", doc.C(n.Service))),
		game,
		// For English readers this paragraph is in Italian: the key is the Italian
		// text, and its Italian translation points Italian readers to the same pages.
		doc.P(doc.L(w.t("In italiano: scrivi lingua it; i comandi in italiano sono in docs/it/ di\nturnmail (comandi.md, smallworld.md, empire.md, dungeoneer.md). Italiano e\ninglese valgono sempre."))),
	}
}

// games lists the open games.
func (n notice) games() []doc.Block {
	w := n.w
	if len(n.Games) == 0 {
		return paras(w.t("There is no open game. Open one with new GAME, e.g. new smallworld."))
	}
	t := &doc.Table{Title: doc.L(w.t("Open games you can join:")), Head: []string{w.t("Game"), w.t("Players"), w.t("To join")}}
	for _, g := range n.Games {
		seats := w.t("players: %d", g.Count)
		if g.Seats > 0 {
			seats = w.t("players: %d of %d", g.Count, g.Seats)
		}
		t.Rows = append(t.Rows, doc.Row{Cells: []doc.Line{{doc.C(g.Game.ID), doc.T(" " + w.term(g.Game.Title))}, doc.L(seats), {doc.C(w.word("join " + g.Game.ID))}}})
	}
	return []doc.Block{t, doc.P(doc.L(w.t("Join one with join GAME-ID; follow a game with observe GAME-ID.")))}
}

// rules is a game's rules in short and, in a game, what its pieces in play do.
func (n notice) rules() []doc.Block {
	w := n.w
	var lines []string
	switch n.Game.Kind {
	case "smallworld":
		lines = []string{w.t("Small World (2–5 players): pick a race/power combo from the offer, conquer regions\n(2 tokens plus 1 per defender, mountain, fortress …), redeploy, score 1 coin per region held.\nWhen your race is spread thin, decline it and pick a new one. Most coins after the last turn wins."),
			w.t("Commands: pick N, conquer R, conquer R roll, abandon R, redeploy R=N …, decline, done."),
			w.t("Option of new: map=smallworld-2p … smallworld-5p (by default the board for the number of players).")}
	case "necromancer":
		lines = []string{w.t("Small World: Necromancer Island (3–6 players): Small World on the board for one player\nfewer; the last player is the Necromancer, who buys Ghosts and powers, conquers from his Island\non the central lake and wins at once when no Ghost is left in his reserve or in the Soul Well."),
			w.t("Commands: as Small World; the Necromancer: keep N, buy ghost, buy power N, conquer R, redeploy, done."),
			w.t("Option of new: difficulty=1|2 (Ghosts removed from the Necromancer's reserve).")}
	case "underground":
		lines = []string{w.t("Small World Underground (2–5 players): Small World below ground. Monsters guard\nsome regions: conquering one reveals a place or relic that helps whoever holds its region.\nRivers take one token, which leaves at the end of the conquests; chasms are never entered."),
			w.t("Commands: as Small World, plus the verbs of the races, powers, places and relics you hold\n(swap, volcano, ancient, wisp, vampire, reborn, bag, armour, queen, sword, socks, doormat,\norb, balrog, ghost, scepter, ring, altar); every mail lists those you may send."),
			w.t("Options of new: map=underground-2p … underground-5p (by default the board for the number of\nplayers) or a surface board, smallworld-2p … smallworld-5p; races=underground (the default),\nsurface (Small World's races and powers) or all (both).")}
	case "empire":
		lines = []string{w.t("Eight-Minute Empire: Legends (2–4 players): take one card a turn from the row (cost by\nposition), carry out its action (place or move armies, build a city, destroy an army) and keep\nits ability. Score regions, islands, abilities and elixirs at the end."),
			w.t("Commands: take N, then the card's action (place, move, city, destroy, skip)."),
			w.t("Options of new: layout=t|ring, faces=1a,2b,…, long=true, exploration=true, swamp=true,\nfortresses=true, encounters=dragon,portals,bandits, leaders=true, die_tiebreak=true.")}
	case "dungeoneer":
		lines = []string{w.t("Dungeoneer: Tomb of the Lich Lord (2–4 players): on your turn you are first the Dungeon\nLord, sending monsters, traps and banes at the other heroes (paid with their Peril), then\nyou add a map card to the dungeon and move your hero: explore, fight, complete quests.\nThree completed quests win at once; the last hero standing wins too."),
			w.t("Commands: play CARD on PLAYER FORM, done, build MAP at X,Y rot R, move n|e|s|w, explore,\nquest QUEST, challenge PLAYER FORM, discard CARD; every mail lists those you may send."),
			w.t("Option of new: map=view, the rulebook's Map in View: every map card is placed\nbefore the first turn, one at a time; no turn has a build phase (default:\nmap=explore).")}
	case "tally":
		lines = []string{w.t("Tally (a test game): every player adds 1 to 9 to their sum; with target=N the first to\nreach N wins; with turns=true players move in turn and may pass."),
			w.t("Commands: add N (1–9), pass. Options of new: target=N, turns=true.")}
	default:
		lines = []string{w.t("No summary for %s yet; every game mail lists the commands that are legal.", n.Game.Kind)}
	}
	var out []doc.Block
	for _, l := range lines {
		out = append(out, doc.P(doc.L(l)))
	}
	if n.View != nil {
		b := boardOf(n.Game, n.View, n.To, nil, nil, n.Lang)
		out = append(out, n.s.gameMail(n.Game.Kind).pieces(w, b)...)
	}
	return append(out, doc.P(doc.L(w.t("Every game mail lists the exact commands that are legal for you now, ready to copy.\nOne command per line; lines are applied in order and reading stops at the first illegal one."))))
}

// board is the whole board of the reader's game (the answer to map).
func (n notice) board() []doc.Block {
	if n.View == nil {
		return nil
	}
	b := boardOf(n.Game, n.View, n.To, nil, nil, n.Lang)
	return n.s.gameMail(n.Game.Kind).full(n.w, b)
}

// confirm is a request to confirm: an invitation, a seat to take over, a mailing
// list, an observer to approve, or the reader's own commands.
func (n notice) confirm() []doc.Block {
	w := n.w
	var out []doc.Block
	switch n.Text {
	case "invite":
		first := w.rich("%s invites you to play %s in game %s.", n.Actor, w.term(n.Game.Title), doc.C(n.Game.ID))
		if len(n.ToAct) > 0 {
			first = w.rich("%s invites you to play %s in game %s with %s.", n.Actor, w.term(n.Game.Title), doc.C(n.Game.ID), strings.Join(n.ToAct, ", "))
		}
		out = append(out, doc.P(first))
		out = append(out, settingsList(n.Lines)...)
		out = append(out, doc.P(doc.L(w.t("To take a seat, reply to this mail with yes. To decline, reply with no: you get no\nmore mail about this game. If you do not answer, you get no more mail about it either."))))
	case "replace":
		out = append(out, doc.P(w.rich("%s, the host of game %s (%s), asks you to take over\nthe seat of %s.", n.Actor, doc.C(n.Game.ID), w.term(n.Game.Title), n.Player)),
			doc.P(doc.L(w.t("To take the seat, reply to this mail with yes; you then get the game's mail. To decline,\nreply with no: you get no more mail about this game."))))
	case "list":
		out = append(out, doc.P(w.rich("%s opened game %s (%s) with this address (%s)\nas its mailing list: the list would get the public state after every move.", n.Actor, doc.C(n.Game.ID), w.term(n.Game.Title), n.Address)))
		out = append(out, settingsList(n.Lines)...)
		out = append(out, doc.P(doc.L(w.t("Anyone who received this mail may confirm: reply to it with yes. Reply no to decline;\nthen the list gets no more mail about this game, nor does it if nobody answers."))))
	case "approve":
		out = append(out, doc.P(w.rich("%s asks to observe your private game %s (%s): they would\nget the public state after every move.", n.Actor, doc.C(n.Game.ID), w.term(n.Game.Title))),
			doc.P(doc.L(w.t("Reply to this mail with yes to approve, or no to deny (they are not asked about again)."))))
	default:
		c := codeList(n.Lines)
		c.Title = doc.L(w.t("Someone asked turnmail, from your address (%s), for this:", n.Address))
		last := doc.L(w.t("If it was you, reply to this mail with yes and it is done. If not, reply no or\nignore this mail: nothing happens."))
		if n.Game.ID != "" {
			last = w.rich("If it was you, reply to this mail with yes and it is done. If not, reply no or\nignore this mail: nothing happens, and you get no more mail about game %s.", doc.C(n.Game.ID))
		}
		out = append(out, c, doc.P(last))
	}
	return append(out, &doc.Para{Role: doc.Note, Lines: []doc.Line{doc.L(w.t("This request expires %s.", n.When))}})
}

// history lists the last events of a game by day: the day once, as the heading of
// its events, and the time of an event only where it differs from the one before
// (a mail's commands are events of the same minute).
func (n notice) history() []doc.Block {
	w := n.w
	if n.Count == 0 {
		return []doc.Block{doc.P(w.rich("No event yet in game %s.", doc.C(n.Game.ID)))}
	}
	out := []doc.Block{doc.P(w.rich("The last %d events of game %s:", n.Count, doc.C(n.Game.ID)))}
	var t *doc.Table
	clock := ""
	for i, m := range n.Moves {
		if i == 0 || m.Day != n.Moves[i-1].Day {
			t, clock = &doc.Table{Record: []string{". ", "  "}}, ""
			if m.Day != "" {
				t.Title = doc.Line{doc.B(m.Day)}
			}
			out = append(out, t)
		}
		var what doc.Line
		switch {
		case len(m.Happened) > 0: // what it did, in the game's words
			var parts []string
			for _, h := range m.Happened {
				parts = append(parts, h.Text)
			}
			what = doc.L(strings.Join(parts, "; "))
		case m.Kind == "undo":
			what = doc.L(w.t("undo — %s", m.Command))
		case m.Kind == "":
			what = doc.Line{doc.T(m.Player + ": "), doc.C(m.Command)}
		default:
			what = doc.L(m.Player + " — " + m.Command)
		}
		when := doc.Line(nil)
		if m.Time != "" && m.Time != clock {
			when, clock = doc.L("("+m.Time+")"), m.Time
		}
		t.Rows = append(t.Rows, doc.Row{Cells: []doc.Line{doc.L(itoa(m.Seq)), what, when}})
	}
	return out
}

// lobbyDoc builds the answer to a mail of lobby commands: each command quoted, then
// its answer.
func (s *Set) lobbyDoc(l Lobby) (*doc.Doc, error) {
	w := s.words(l.Lang)
	subject, err := s.Subject("lobby", l)
	if err != nil {
		return nil, err
	}
	d := &doc.Doc{Lang: string(w.lang), Title: subject}
	for _, a := range l.Answers {
		def, err := kindOf(a.Kind)
		if err != nil {
			return nil, err
		}
		if a.Command != "" {
			d.Blocks = append(d.Blocks, doc.P(doc.Line{doc.T("> "), doc.C(a.Command)}))
		}
		n := s.noticeOf(a)
		n.reply = replySubject(subject) // a command it links replies to this mail
		d.Blocks = append(d.Blocks, def.body(n)...)
	}
	d.Footer = w.rich("turnmail · %s · write help for the commands", doc.C(l.Service))
	d.Preheader = cutRunes(subject, preheaderLen)
	return d, nil
}

// howtoDoc builds the answer to a registered player who wrote to the service
// address without a game's reply address.
func (s *Set) howtoDoc(h HowTo) *doc.Doc {
	w := s.words(h.Lang)
	subject := w.t("How to send your moves to turnmail")
	d := &doc.Doc{Lang: string(w.lang), Title: subject}
	l := &doc.List{Title: doc.L(w.t("Your games and their reply addresses:"))}
	for _, g := range h.Games {
		l.Items = append(l.Items, doc.Item{Line: doc.Line{doc.T(g.Game.ID + " (" + w.term(g.Game.Title) + "): "), doc.C(g.ReplyTo)}})
	}
	d.Blocks = []doc.Block{
		doc.P(doc.L(w.t("Hello %s,", h.Player))),
		doc.P(doc.L(w.t("your mail reached turnmail, but not through a game's reply address, so it was not\napplied to any game. Moves are accepted only as replies to a game mail: each mail\ncarries your personal reply address, which tells turnmail the game and your seat."))),
		l,
		doc.P(doc.L(w.t("Reply to the last mail of the game, or write to the address above, with one\ncommand per line."))),
	}
	if h.Word != "" {
		d.Blocks = append(d.Blocks, doc.P(doc.L(w.t("%q is not a command of the service address either: write help for the list.", h.Word))))
	}
	d.Footer = w.rich("turnmail · %s · write help for the commands", doc.C(h.Service))
	d.Preheader = subject
	return d
}

// cutDoc is the note that ends a mail cut to the size limit.
func (s *Set) cutDoc(c Cut) *doc.Doc {
	w := s.words(c.Lang)
	return &doc.Doc{Lang: string(w.lang), Blocks: []doc.Block{doc.P(doc.L(w.t("[The rest of this mail was cut: turnmail's mails are at most %d KB. Reply with %s for your current state, or %s for the last N events.]", c.KB, w.word("status"), w.word("history N"))))}}
}

// terminalDoc is a state as `turnmail replay` and `turnmail play` print it, in
// English: the game, the whole board, who is to act and the commands legal for the
// player shown.
func (s *Set) terminalDoc(st State) *doc.Doc {
	w := s.words("")
	title := st.Game.Title
	if st.Game.ID != "" {
		title += " (" + st.Game.ID + ")"
	}
	d := &doc.Doc{Lang: "en", Title: title, Heading: title}
	b := boardOf(st.Game, st.View, st.Player, st.Changed, st.Legal, "")
	d.Blocks = append(d.Blocks, s.gameMail(st.Game.Kind).full(w, b)...)
	if st.Finished {
		d.Blocks = append(d.Blocks, doc.P(doc.L(w.turn(false, nil, "", true, st.Winners))))
		return d
	}
	d.Blocks = append(d.Blocks, doc.P(doc.L(w.turn(false, st.ToAct, "", false, nil))))
	if len(st.Legal) > 0 {
		d.Blocks = append(d.Blocks, commands(doc.L(w.t("Legal for %s:", st.Player)), st.Legal, st.LegalNotes, "", ""))
	}
	return d
}
