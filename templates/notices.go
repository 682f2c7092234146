package templates

import (
	"fmt"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/templates/doc"
)

// NoticeKind is the kind of a notice: it selects what the notice says, its topic
// and its body, defined once in noticeKinds. Adding a kind is one entry there.
type NoticeKind string

// The kinds of notices and lobby answers.
const (
	// Text is a notice that is its Text, a paragraph (or nothing when empty).
	Text            NoticeKind = ""
	Help            NoticeKind = "help"
	Error           NoticeKind = "error"
	Games           NoticeKind = "games"
	Rules           NoticeKind = "rules"
	Rule            NoticeKind = "rule"
	Map             NoticeKind = "map"
	Created         NoticeKind = "created"
	Joined          NoticeKind = "joined"
	PlayerJoined    NoticeKind = "player-joined"
	Left            NoticeKind = "left"
	PlayerLeft      NoticeKind = "player-left"
	Started         NoticeKind = "started"
	Observing       NoticeKind = "observing"
	Unobserved      NoticeKind = "unobserved"
	Invited         NoticeKind = "invited"
	Confirm         NoticeKind = "confirm"
	Pending         NoticeKind = "pending"
	ApprovalAsked   NoticeKind = "approval-asked"
	ObserverJoined  NoticeKind = "observer-joined"
	ReplaceAsked    NoticeKind = "replace-asked"
	Done            NoticeKind = "done"
	Settings        NoticeKind = "settings"
	SettingsChanged NoticeKind = "settings-changed"
	Legal           NoticeKind = "legal"
	History         NoticeKind = "history"
	ResignConfirm   NoticeKind = "resign-confirm"
	Resigned        NoticeKind = "resigned"
	UndoRequest     NoticeKind = "undo-request"
	Repeat          NoticeKind = "repeat"
	UndoAsked       NoticeKind = "undo-asked"
	UndoWaiting     NoticeKind = "undo-waiting"
	Paused          NoticeKind = "paused"
	Resumed         NoticeKind = "resumed"
	Reminder        NoticeKind = "reminder"
	DeadlineSkipped NoticeKind = "deadline-skipped"
	DeadlineNoSkip  NoticeKind = "deadline-noskip"
	DeadlinePaused  NoticeKind = "deadline-paused"
	DeadlineReplace NoticeKind = "deadline-replace"
	Vacation        NoticeKind = "vacation"
	ReplacedOld     NoticeKind = "replaced-old"
	ReplacedHost    NoticeKind = "replaced-host"
	ReplacedNew     NoticeKind = "replaced-new"
	Chat            NoticeKind = "chat"
	Said            NoticeKind = "said"
	NotRead         NoticeKind = "not-read"
	Unread          NoticeKind = "unread"
	Bounce          NoticeKind = "bounce"
	Failed          NoticeKind = "failed"
	TimersFailed    NoticeKind = "timers-failed"
	FailedHost      NoticeKind = "failed-host"
	// Held says that mail to the reader was held back by the limits, and when mail
	// resumes (its Text, from the service).
	Held NoticeKind = "held"
)

// noticeKind is what a kind of notice says.
type noticeKind struct {
	// topic is what the notice is about: the first line of a notice in a game's
	// thread, the subject of one outside it (nil: "about your command").
	topic func(n notice) string
	// body is what it says.
	body func(n notice) []doc.Block
}

// notice is a notice being put into words: its data, the reader's words, the set
// (for the parts of a game's mails it shows) and the subject of a reply to it.
type notice struct {
	Notice
	w     words
	s     *Set
	reply string
}

// noticeKinds defines every kind of notice.
var noticeKinds map[NoticeKind]noticeKind

func init() {
	noticeKinds = map[NoticeKind]noticeKind{
		Text: {body: func(n notice) []doc.Block { return paras(n.Text) }},
		Held: {topic: fixed("mail held back"), body: func(n notice) []doc.Block { return paras(n.Text) }},
		Help: {topic: fixed("the commands"), body: func(n notice) []doc.Block { return n.help() }},
		Error: {body: func(n notice) []doc.Block {
			why := []doc.Block{&doc.Para{Role: doc.Error, Lines: []doc.Line{suggesting(n.Text, n.Suggest, n.ReplyTo, n.reply)}}}
			if n.Brief {
				return why
			}
			return append(why, n.help()...)
		}},
		Games: {topic: fixed("the games you can join"), body: func(n notice) []doc.Block { return n.games() }},
		Rules: {topic: func(n notice) string { return n.w.t("the rules of %s", n.w.term(n.Game.Title)) }, body: func(n notice) []doc.Block { return n.rules() }},
		Rule:  {topic: func(n notice) string { return n.w.t("the rules of %s", n.w.term(n.Game.Title)) }, body: func(n notice) []doc.Block { return paras(n.Text) }},
		Map:   {topic: fixed("The whole board"), body: func(n notice) []doc.Block { return n.board() }},
		Created: {topic: func(n notice) string { return n.w.t("game %s is open", n.Game.ID) }, body: func(n notice) []doc.Block {
			w := n.w
			out := []doc.Block{doc.P(w.rich("Game %s (%s) is open. You are its host and play as %s.", doc.C(n.Game.ID), w.term(n.Game.Title), n.Player))}
			out = append(out, settingsList(n.Lines)...)
			if n.Address != "" {
				out = append(out, doc.P(doc.L(w.t("The mailing list %s was asked to confirm; it gets the game's mail once someone on it does.", n.Address))))
			}
			out = append(out, &doc.Defs{Items: []doc.Def{
				{Term: doc.L(w.t("Others join with")), Text: doc.Line{doc.C(w.word("join " + n.Game.ID))}},
				{Term: doc.L(w.t("Invite someone")), Text: doc.Line{doc.C(w.t("invite %s ADDRESS", n.Game.ID))}},
				{Term: doc.L(w.t("When everyone is in")), Text: doc.Line{doc.C(w.word("start " + n.Game.ID))}},
			}})
			if n.HostReply != "" {
				out = append(out, doc.P(w.rich("Your host address for this game is %s (the Reply-To of this mail):\nhost commands sent there from your address are done at once; sent to\n%s they wait for your confirmation. Keep it to yourself.", doc.C(n.HostReply), doc.C(n.Service))))
			}
			return out
		}},
		Joined: {topic: func(n notice) string { return n.w.t("you play in game %s", n.Game.ID) }, body: func(n notice) []doc.Block {
			w := n.w
			return []doc.Block{doc.P(w.rich("You play in game %s (%s) as %s. The host starts it;\nyou then get the opening mail.", doc.C(n.Game.ID), w.term(n.Game.Title), n.Player)),
				doc.P(append(doc.L(w.t("To give your seat back before that:")+" "), doc.C(w.word("leave "+n.Game.ID))))}
		}},
		PlayerJoined: {topic: func(n notice) string { return n.w.t("%s joined", n.Player) }, body: func(n notice) []doc.Block {
			w := n.w
			return append([]doc.Block{doc.P(doc.L(w.t("%s (%s) joined your game %s. Players now: %s.", n.Player, n.Address, n.Game.ID, strings.Join(n.ToAct, ", ")))),
				doc.P(append(doc.L(w.t("Start it with:")+" "), doc.C(w.word("start "+n.Game.ID))))}, n.hostReply()...)
		}},
		Left: {topic: func(n notice) string { return n.w.t("you left game %s", n.Game.ID) }, body: func(n notice) []doc.Block {
			return []doc.Block{doc.P(n.w.rich("You left game %s.", doc.C(n.Game.ID)))}
		}},
		PlayerLeft: {topic: func(n notice) string { return n.w.t("%s left", n.Player) }, body: func(n notice) []doc.Block {
			return append([]doc.Block{doc.P(n.w.rich("%s (%s) left your game %s.", n.Player, n.Address, doc.C(n.Game.ID)))}, n.hostReply()...)
		}},
		Started: {topic: func(n notice) string { return n.w.t("game %s has started", n.Game.ID) }, body: func(n notice) []doc.Block {
			w := n.w
			if len(n.ToAct) > 0 {
				return []doc.Block{doc.P(w.rich("Game %s (%s) has started with %s; every player has the opening mail.", doc.C(n.Game.ID), w.term(n.Game.Title), strings.Join(n.ToAct, ", ")))}
			}
			return []doc.Block{doc.P(w.rich("Game %s (%s) has started; every player has the opening mail.", doc.C(n.Game.ID), w.term(n.Game.Title)))}
		}},
		Observing: {topic: func(n notice) string { return n.w.t("you observe game %s", n.Game.ID) }, body: func(n notice) []doc.Block {
			w := n.w
			return []doc.Block{doc.P(w.rich("You observe game %s (%s): you get the public state after every move.", doc.C(n.Game.ID), w.term(n.Game.Title))),
				doc.P(append(doc.L(w.t("Stop with:")+" "), doc.C(w.word("unobserve "+n.Game.ID))))}
		}},
		Unobserved: {topic: func(n notice) string { return n.w.t("you no longer observe game %s", n.Game.ID) }, body: func(n notice) []doc.Block {
			return []doc.Block{doc.P(n.w.rich("You no longer observe game %s.", doc.C(n.Game.ID)))}
		}},
		Invited: {topic: func(n notice) string { return n.w.t("invitation to game %s sent", n.Game.ID) }, body: func(n notice) []doc.Block {
			return []doc.Block{doc.P(n.w.rich("The invitation to game %s went to %s.", doc.C(n.Game.ID), n.Address))}
		}},
		Confirm: {topic: func(n notice) string {
			switch n.Text {
			case "invite":
				return n.w.t("An invitation to %s", n.Game.Title)
			case "approve":
				return n.w.t("A request to observe your game")
			case "list":
				return n.w.t("A game for this mailing list")
			}
			return n.w.t("Please confirm")
		}, body: func(n notice) []doc.Block { return n.confirm() }},
		Pending: {topic: fixed("waiting for your confirmation"), body: func(n notice) []doc.Block {
			if n.Game.ID != "" {
				return paras(n.w.t("This waits for your confirmation."))
			}
			return paras(n.w.t("Some of your commands wait for your confirmation: we sent you a separate mail\nlisting them. Reply to it with yes to do them, or no to drop them."))
		}},
		ApprovalAsked: {topic: fixed("waiting for the host's approval"), body: func(n notice) []doc.Block {
			return []doc.Block{doc.P(n.w.rich("Game %s is private: its host was asked to approve you as an observer.\nYou get the public state once they do.", doc.C(n.Game.ID)))}
		}},
		ObserverJoined: {topic: fixed("A new observer"), body: func(n notice) []doc.Block {
			return append([]doc.Block{doc.P(n.w.rich("%s now observes game %s: they get the public state after every move\n(what every player sees, never your private information).", n.Address, doc.C(n.Game.ID)))}, n.hostReply()...)
		}},
		ReplaceAsked: {body: func(n notice) []doc.Block {
			return paras(n.w.t("%s was asked to confirm taking over the seat of %s; the seat changes\nhands when they do (nothing happens if they decline or do not answer).", n.Address, n.Player))
		}},
		Done: {topic: fixed("Done"), body: func(n notice) []doc.Block {
			return []doc.Block{doc.P(n.w.rich("Done: %s for game %s.", n.Text, doc.C(n.Game.ID)))}
		}},
		Settings: {topic: func(n notice) string { return n.w.t("the settings of game %s", n.Game.ID) }, body: func(n notice) []doc.Block {
			out := []doc.Block{doc.P(n.w.rich("The settings of game %s are now:", doc.C(n.Game.ID)))}
			return append(append(out, settingsList(n.Lines)...), doc.P(doc.L(n.w.t("Every player has been told."))))
		}},
		SettingsChanged: {topic: fixed("New settings"), body: func(n notice) []doc.Block {
			out := []doc.Block{doc.P(n.w.rich("The host changed the settings of game %s (%s). They are now:", doc.C(n.Game.ID), n.Text))}
			out = append(out, settingsList(n.Lines)...)
			if n.Due != "" {
				out = append(out, doc.P(doc.L(n.w.t("Your current deadline: %s.", n.Due))))
			}
			return out
		}},
		Legal: {topic: fixed("What you can send"), body: func(n notice) []doc.Block {
			w := n.w
			var out []doc.Block
			if len(n.ToAct) > 0 {
				yours := slices.Contains(n.ToAct, n.To)
				out = append(out, &doc.Para{Role: doc.Turn, Lines: []doc.Line{doc.L(w.turn(yours, n.ToAct, n.Due, false, nil))}})
			}
			if len(n.Legal) == 0 {
				return append(out, doc.P(doc.L(w.t("You have nothing to send now."))))
			}
			return append(out, commands(doc.L(w.t("You may send now:")), n.Legal, n.LegalNotes, n.ReplyTo, n.reply))
		}},
		History: {topic: fixed("History"), body: func(n notice) []doc.Block { return n.history() }},
		ResignConfirm: {topic: fixed("Confirm your resignation"), body: func(n notice) []doc.Block {
			w := n.w
			return []doc.Block{doc.P(w.rich("You asked to resign from game %s. Resigning cannot be taken back.", doc.C(n.Game.ID))),
				n.send(w.t("To confirm, reply with this line:"), n.Text),
				doc.P(doc.L(w.t("To keep playing, just ignore this mail.")))}
		}},
		Resigned: {topic: func(n notice) string { return n.w.t("%s resigned", n.Player) }, body: func(n notice) []doc.Block {
			p := doc.P(n.w.rich("%s resigned from game %s. From now on their turns are skipped.", n.Player, doc.C(n.Game.ID)))
			if n.Text != "" {
				p.Lines = append(p.Lines, doc.L(n.w.t("Their request to take back %s is withdrawn.", n.Text)))
			}
			return []doc.Block{p}
		}},
		Repeat: {topic: fixed("You sent this already"), body: func(n notice) []doc.Block {
			first := n.w.t("The first one was answered then.")
			if n.Text == "applied" {
				first = n.w.t("The first one was applied.")
			}
			return paras(n.w.t("You sent this mail already (%s): this copy changed nothing.", n.When) + " " + first)
		}},
		UndoRequest: {topic: func(n notice) string { return n.w.t("%s asks to take back a move", n.Player) }, body: func(n notice) []doc.Block {
			w := n.w
			ask := doc.P(doc.L(w.t("%s asks to take back the last move (%s).", n.Player, n.Text)))
			if n.Why != "" {
				ask.Lines = append(ask.Lines, doc.L(w.t("%s writes: %s", n.Player, n.Why)))
			}
			return []doc.Block{ask,
				n.send(w.t("To agree, reply with:"), w.word("accept")),
				doc.P(doc.L(w.t("The move is taken back when every other player has accepted (or the host forces it).")))}
		}},
		UndoAsked: {topic: fixed("Your undo request"), body: func(n notice) []doc.Block {
			return paras(n.w.t("You asked to take back the move “%s”. It is taken back once accepted by: %s.", n.Text, strings.Join(n.ToAct, ", ")))
		}},
		UndoWaiting: {topic: fixed("Waiting for consent to undo"), body: func(n notice) []doc.Block {
			return paras(n.w.t("You accepted %s's undo. Still waiting for: %s.", n.Player, strings.Join(n.ToAct, ", ")))
		}},
		Paused: {topic: fixed("Paused"), body: func(n notice) []doc.Block {
			if n.Actor == "the service" {
				return []doc.Block{doc.P(n.w.rich("Game %s is paused by the service. Moves are refused and deadlines stop until it resumes.", doc.C(n.Game.ID)))}
			}
			return []doc.Block{doc.P(n.w.rich("Game %s is paused by the host. Moves are refused and deadlines stop until it resumes.", doc.C(n.Game.ID)))}
		}},
		Resumed: {topic: fixed("Resumed"), body: func(n notice) []doc.Block {
			p := doc.P(n.w.rich("Game %s has resumed; deadlines count again from now.", doc.C(n.Game.ID)))
			if len(n.ToAct) > 0 {
				p.Lines = append(p.Lines, doc.L(n.w.turn(slices.Contains(n.ToAct, n.To), n.ToAct, n.Due, false, nil)))
			}
			return []doc.Block{p}
		}},
		Reminder: {topic: func(n notice) string { return n.w.t("Your move is due %s", n.Due) }, body: func(n notice) []doc.Block {
			w := n.w
			out := []doc.Block{&doc.Para{Role: doc.Turn, Lines: []doc.Line{w.rich("Reminder: your move in game %s (%s) is due %s (in %s).", doc.C(n.Game.ID), w.term(n.Game.Title), n.Due, n.Text)}}}
			if len(n.Legal) > 0 {
				out = append(out, commands(doc.L(w.t("You may send:")), n.Legal, n.LegalNotes, n.ReplyTo, n.reply))
			}
			return append(out, doc.P(doc.L(w.t("Reply to this mail with your commands. Away? Reply with vacation FROM TO (dates as YYYY-MM-DD)."))))
		}},
		DeadlineSkipped: {topic: fixed("Your deadline passed"), body: func(n notice) []doc.Block {
			l := &doc.List{Title: n.w.rich("Your deadline in game %s passed (%s). On your behalf turnmail played:", doc.C(n.Game.ID), n.Due)}
			for _, s := range n.Lines {
				l.Items = append(l.Items, doc.Item{Line: doc.L(s)})
			}
			return []doc.Block{l}
		}},
		DeadlineNoSkip: {topic: func(n notice) string { return n.w.t("%s's deadline passed", n.Player) }, body: func(n notice) []doc.Block {
			w := n.w
			return []doc.Block{doc.P(w.rich("%s's deadline in game %s passed (%s), and the game has no move to make on their behalf.", n.Player, doc.C(n.Game.ID), n.Due)),
				&doc.Commands{Title: doc.L(w.t("You may pause the game, hand the seat to someone else or wait:")), ReplyTo: n.ReplyTo, Subject: n.reply,
					Lines: []doc.Command{{Text: w.word("pause " + n.Game.ID)}, {Text: w.t("replace %s %s ADDRESS", n.Game.ID, n.Player), Pattern: true}}}}
		}},
		DeadlinePaused: {topic: func(n notice) string { return n.w.t("Paused: %s's deadline passed", n.Player) }, body: func(n notice) []doc.Block {
			return []doc.Block{doc.P(n.w.rich("%s's deadline in game %s passed (%s); the game is paused until the host resumes it\n(the host writes: resume %s).", n.Player, doc.C(n.Game.ID), n.Due, doc.C(n.Game.ID)))}
		}},
		DeadlineReplace: {topic: func(n notice) string { return n.w.t("%s needs a substitute", n.Player) }, body: func(n notice) []doc.Block {
			w := n.w
			return []doc.Block{doc.P(w.rich("%s's deadline in game %s passed (%s). Please find a substitute and send:", n.Player, doc.C(n.Game.ID), n.Due)),
				n.sendPattern(w.t("replace %s %s ADDRESS", n.Game.ID, n.Player)),
				doc.P(doc.L(w.t("%s (%s) may still move until then.", n.Player, n.Address)))}
		}},
		Vacation: {topic: fixed("Vacation recorded"), body: func(n notice) []doc.Block {
			l := n.w.rich("Your vacation %s is recorded for game %s; your deadlines stretch over it.\nYou have used %d of %d days.", n.Text, doc.C(n.Game.ID), n.Count, n.Limit)
			if n.Due != "" {
				l = append(l, doc.T(" "+n.w.t("Your current deadline: %s.", n.Due)))
			}
			return []doc.Block{doc.P(l)}
		}},
		ReplacedOld: {topic: fixed("Your seat was handed over"), body: func(n notice) []doc.Block {
			return []doc.Block{doc.P(n.w.rich("The host of game %s has handed your seat (%s) to another player.", doc.C(n.Game.ID), n.Player)),
				doc.P(doc.L(n.w.t("Mail from this address is no longer accepted for that seat. Thank you for playing.")))}
		}},
		ReplacedHost: {topic: func(n notice) string { return n.w.t("Seat %s handed over", n.Player) }, body: func(n notice) []doc.Block {
			return []doc.Block{doc.P(n.w.rich("The seat %s in game %s now belongs to %s; they have the current state.", n.Player, doc.C(n.Game.ID), n.Address))}
		}},
		ReplacedNew: {topic: func(n notice) string { return n.w.t("You take over %s", n.Player) }, body: func(n notice) []doc.Block {
			return paras(n.w.t("You take over the seat %s in this game from the previous player; the host (%s) asked you to.\nBelow is everything %s may see now.", n.Player, n.Host, n.Player))
		}},
		Chat: {topic: func(n notice) string { return n.w.t("%s says", n.Actor) }, body: func(n notice) []doc.Block {
			w := n.w
			var out []doc.Block
			for _, m := range n.Moves {
				head := w.t("%s says:", m.Player)
				if m.Kind == "private" {
					head = w.t("%s says (to you only):", m.Player)
				}
				out = append(out, &doc.Pre{Title: doc.L(head), Text: m.Command})
			}
			return append(out, doc.P(doc.L(w.t("To answer everyone: say TEXT; %s alone: say %s TEXT", n.Actor, n.Actor))))
		}},
		Said: {topic: fixed("Your message was relayed"), body: func(n notice) []doc.Block {
			var out []doc.Block
			for _, m := range n.Moves {
				out = append(out, &doc.Pre{Title: doc.L(n.w.t("Relayed to %s:", m.Player)), Text: m.Command})
			}
			return out
		}},
		NotRead: {topic: fixed("Lines not read as commands"), body: func(n notice) []doc.Block {
			w := n.w
			l := &doc.List{Title: doc.L(w.t("Not read as commands (no command word starts them):"))}
			for _, q := range n.Quoted {
				line := doc.L(w.t("line %d: %s", q.N, q.Text))
				if q.Suggest != "" && n.ReplyTo != "" {
					// a mistyped command word: the command it may have meant, to send
					line = append(line, doc.T(" — "))
					line = append(line, suggesting(w.t("did you mean %s?", q.Suggest), q.Suggest, n.ReplyTo, n.reply)...)
				}
				l.Items = append(l.Items, doc.Item{Line: line})
			}
			if n.Count > 0 {
				l.Items = append(l.Items, doc.Item{Line: doc.L(w.t("… and %d more", n.Count))})
			}
			return []doc.Block{l}
		}},
		Unread: {topic: fixed("Lines not read"), body: func(n notice) []doc.Block {
			return paras(n.w.t("Lines after line %d of your mail were not read: turnmail reads at most %d commands\nfrom one mail. Send the rest in another mail.", n.Count, n.Limit))
		}},
		Bounce: {topic: func(n notice) string { return n.w.t("Mail to %s bounced", n.Player) }, body: func(n notice) []doc.Block {
			w := n.w
			return []doc.Block{doc.P(w.rich("Mail to %s (%s in game %s) bounced: %s", n.Address, n.Player, doc.C(n.Game.ID), n.Text)),
				doc.P(doc.L(w.t("The address is marked unreachable. To hand the seat to another address:"))),
				n.sendPattern(w.t("replace %s %s ADDRESS", n.Game.ID, n.Player))}
		}},
		Failed: {topic: fixed("Your mail could not be processed"), body: func(n notice) []doc.Block {
			w := n.w
			first := w.t("Your mail could not be processed: something went wrong on our side.")
			if n.Text != "" {
				first = w.t("Your mail \"%s\" could not be processed: something went wrong on our side.", n.Text)
			}
			second := doc.L(w.t("Nothing in it was applied."))
			if n.Game.ID != "" {
				second = w.rich("Nothing in it was applied to game %s.", doc.C(n.Game.ID))
			}
			third := w.t("The service's operator can see it and have it processed again once\nthe fault is fixed.")
			if n.Host != "" {
				third = w.t("The game's host (%s) has been told and can have it processed\nagain once the fault is fixed; you need not send it again.", n.Host)
			}
			return []doc.Block{&doc.Para{Lines: []doc.Line{doc.L(first), second}}, doc.P(doc.L(third))}
		}},
		TimersFailed: {topic: fixed("Paused: a deadline could not be applied"), body: func(n notice) []doc.Block {
			w := n.w
			return []doc.Block{doc.P(w.rich("The deadline of a player in game %s could not be applied, so the game\nwas paused rather than left waiting. Nothing of it was applied.", doc.C(n.Game.ID))),
				&doc.Para{Role: doc.Error, Lines: []doc.Line{doc.L(n.Text)}},
				doc.P(doc.L(w.t("After the fault is fixed (or the deadline changed with set), resume the game\nwith resume.")))}
		}},
		FailedHost: {topic: fixed("A mail could not be processed"), body: func(n notice) []doc.Block {
			w := n.w
			first := w.rich("A mail from %s to game %s could not be processed\nand was put aside (quarantined); nothing in it was applied. Other mail goes on as usual.", n.Address, doc.C(n.Game.ID))
			if len(n.Lines) > 0 {
				first = w.rich("A mail from %s (\"%s\") to game %s could not be processed\nand was put aside (quarantined); nothing in it was applied. Other mail goes on as usual.", n.Address, n.Lines[0], doc.C(n.Game.ID))
			}
			return []doc.Block{doc.P(first), &doc.Para{Role: doc.Error, Lines: []doc.Line{doc.L(n.Text)}},
				doc.P(doc.L(w.t("`turnmail games` lists quarantined mail with its number; after the fault is fixed,\n`turnmail retry NUMBER` processes it again.")))}
		}},
	}
}

// fixed is the topic of a kind that is always the same text.
func fixed(key string) func(notice) string {
	return func(n notice) string { return n.w.tr.Sprintf(n.w.lang, key) }
}

// paras is a paragraph of text, or nothing for none.
func paras(text string) []doc.Block {
	if text == "" {
		return nil
	}
	return []doc.Block{doc.P(doc.L(text))}
}

// settingsList lists a game's settings (nothing for none).
func settingsList(lines []string) []doc.Block {
	if len(lines) == 0 {
		return nil
	}
	l := &doc.List{}
	for _, s := range lines {
		l.Items = append(l.Items, doc.Item{Line: doc.L(s)})
	}
	return []doc.Block{l}
}

// codeList lists lines as commands.
func codeList(lines []string) *doc.Commands {
	c := &doc.Commands{}
	for _, s := range lines {
		c.Lines = append(c.Lines, doc.Command{Text: s})
	}
	return c
}

// send is a command the reader is asked to reply with, under title: a link that
// replies with it in HTML.
func (n notice) send(title, command string) *doc.Commands {
	return &doc.Commands{Title: doc.L(title), ReplyTo: n.ReplyTo, Subject: n.reply, Lines: []doc.Command{{Text: command}}}
}

// sendPattern is a command to complete and send.
func (n notice) sendPattern(command string) *doc.Commands {
	return &doc.Commands{ReplyTo: n.ReplyTo, Subject: n.reply, Lines: []doc.Command{{Text: command, Pattern: true}}}
}

// hostReply is the note of the host's address for a game's host commands.
func (n notice) hostReply() []doc.Block {
	if n.HostReply == "" {
		return nil
	}
	return []doc.Block{&doc.Para{Role: doc.Note, Lines: []doc.Line{n.w.rich("(Host commands for this game: reply to this mail, or write to %s.)", doc.C(n.HostReply))}}}
}

// kindOf returns the definition of a notice's kind.
func kindOf(k NoticeKind) (noticeKind, error) {
	d, ok := noticeKinds[k]
	if !ok {
		return noticeKind{}, fmt.Errorf("notice: no kind %q", k)
	}
	return d, nil
}

// noticeOf prepares a notice for putting into words.
func (s *Set) noticeOf(n Notice) notice {
	subject, _ := s.Subject("notice", n)
	return notice{Notice: n, w: s.words(n.Lang), s: s, reply: replySubject(subject)}
}

// noticeBody is what a notice says, without its greeting and footer (the notes a
// state mail carries above its state).
func (s *Set) noticeBody(n Notice) []doc.Block {
	d, err := kindOf(n.Kind)
	if err != nil {
		return paras(n.Text)
	}
	return d.body(s.noticeOf(n))
}

// noticeTopic is what a notice is about.
func (s *Set) noticeTopic(n Notice) string {
	d, err := kindOf(n.Kind)
	if err != nil || d.topic == nil {
		return s.lobbyTopic(n)
	}
	return d.topic(s.noticeOf(n))
}

// lobbyTopic is what a lobby answer is about: its kind's topic, or the command it
// answers.
func (s *Set) lobbyTopic(n Notice) string {
	if d, err := kindOf(n.Kind); err == nil && d.topic != nil {
		return d.topic(notice{Notice: n, w: s.words(n.Lang), s: s})
	}
	w := s.words(n.Lang)
	if n.Game.ID != "" {
		return w.t("about your command for game %s", n.Game.ID)
	}
	return w.t("about your command")
}

// noticeSubject is a notice's subject: the game's one subject once it has started,
// else what the notice is about.
func (s *Set) noticeSubject(n Notice) string {
	if len(n.Game.Players) > 0 {
		return s.gameSubject(n.Game, n.Lang)
	}
	topic := s.lobbyTopic(n)
	if d, err := kindOf(n.Kind); err == nil && d.topic != nil {
		topic = d.topic(notice{Notice: n, w: s.words(n.Lang), s: s})
	}
	if n.Game.ID != "" {
		return "[" + n.Game.ID + "] " + topic
	}
	return topic
}

// noticeDoc builds a notice mail: in a game's thread its topic first, then the
// greeting, what it says and the footer.
func (s *Set) noticeDoc(n Notice) (*doc.Doc, error) {
	def, err := kindOf(n.Kind)
	if err != nil {
		return nil, err
	}
	w := s.words(n.Lang)
	subject := s.noticeSubject(n)
	d := &doc.Doc{Lang: string(w.lang), Title: subject}
	if len(n.Game.Players) > 0 {
		// The topic heads the mail: a capital, but a name as its player wrote it.
		d.Title = capitalised(s.noticeTopic(n), append([]string{n.Player}, n.Game.Players...))
		d.Heading = d.Title
	}
	switch {
	case n.To == "host": // a host who does not play: no name the players know
		d.Blocks = append(d.Blocks, doc.P(doc.L(w.t("Hello,"))))
	case n.To != "":
		d.Blocks = append(d.Blocks, doc.P(doc.L(w.t("Hello %s,", n.To))))
	}
	body := def.body(s.noticeOf(n))
	d.Blocks = append(d.Blocks, body...)
	var f doc.Line = doc.L("turnmail")
	if n.Game.ID != "" {
		f = append(f, w.rich(" · game %s", doc.C(n.Game.ID))...)
	}
	if n.ReplyTo != "" {
		f = append(f, w.rich(" · replies go to %s", doc.C(n.ReplyTo))...)
	}
	d.Footer = f
	d.Preheader = d.Heading
	if first := firstText(body); first != "" {
		if d.Preheader != "" {
			d.Preheader += " · "
		}
		d.Preheader = cutRunes(d.Preheader+first, preheaderLen)
	}
	return d, nil
}

// firstText is the text of the first paragraph of blocks ("" for none).
func firstText(bs []doc.Block) string {
	for _, b := range bs {
		if p, ok := b.(*doc.Para); ok && len(p.Lines) > 0 {
			return strings.Join(strings.Fields(p.Lines[0].Text()), " ")
		}
	}
	return ""
}
