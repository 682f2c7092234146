package templates

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/turnmail/turnmail/templates/doc"
)

// stateDoc builds a state mail: the turn, what happened since the reader's last
// mail, the picture, what changed and what the reader may act on, what they may
// send, then the details.
func (s *Set) stateDoc(st State) *doc.Doc {
	w := s.words(st.Lang)
	subject := s.gameSubject(st.Game, st.Lang)
	d := &doc.Doc{Lang: string(w.lang), Title: subject}
	turn := w.turn(st.YourTurn, st.ToAct, st.Deadline, st.Finished, st.Winners)
	if !st.YourTurn && len(st.Responding) > 0 && !st.Finished {
		turn = w.t("Waiting for %s", w.list(st.ToAct))
	}
	add := func(b ...doc.Block) { d.Blocks = append(d.Blocks, b...) }
	tp := &doc.Para{Role: doc.Turn, Lines: []doc.Line{doc.L(turn)}}
	add(tp)
	if p := w.asked(st); p != nil {
		add(p) // why the reader must decide out of turn, and what happens otherwise
	}
	if !st.YourTurn && !st.Finished {
		if p := w.responding(st.Responding); p != nil {
			add(p)
		}
	}
	if st.Error != nil {
		// The account tells what the applied lines did; beside a refused line, the
		// reader is told which lines went through.
		add(w.refused(st.Error, len(st.Applied) > 0, st.ReplyTo, subject))
		if p := w.applied(st.Applied, st.AppliedCut); p != nil {
			add(p)
		}
	}
	if p := w.opening(st); p != nil {
		add(p)
	}
	for _, n := range st.Notes {
		add(s.noticeBody(n)...)
	}
	account := w.account(st.Moves, st.MovesCut)
	if account != nil {
		add(account)
	}
	if st.Picture != nil {
		add(&doc.Picture{CID: st.Picture.CID, Width: st.Picture.Width, Height: st.Picture.Height, Alt: st.Picture.Alt})
	}
	// The page's link sits beside the picture in HTML; in the text part, whose
	// address takes a line of its own, it goes with the other ways to see more at
	// the end of the details when the mail has them.
	pageInDetails := st.Page != "" && !st.Finished && !st.Observer
	if st.Page != "" {
		p := doc.P(doc.Line{doc.A(w.t("See the whole board, and every move, on the web"), st.Page)})
		if pageInDetails {
			p.Only = doc.HTMLPart
		}
		add(p)
	}
	b := boardOf(st.Game, st.View, st.Player, st.Changed, st.Legal, st.Lang)
	b.AnyTime, b.Pictured = st.AnyTime, st.Picture != nil
	g := s.gameMail(st.Game.Kind)
	add(g.board(w, b)...)
	if st.Finished {
		add(w.final(st)...)
	} else if st.YourTurn {
		add(commands(doc.L(w.t("What you can send, one command per line:")), st.Legal, st.LegalNotes, st.ReplyTo, replySubject(subject)))
		add(g.help(w, b)...)
		add(w.anyTime(st.AnyTime, st.LegalNotes, st.ReplyTo, subject)...)
	} else {
		if len(st.Legal) > 0 {
			add(commands(doc.L(w.t("Meanwhile you may send:")), st.Legal, st.LegalNotes, st.ReplyTo, replySubject(subject)))
			add(g.help(w, b)...)
		}
		add(w.anyTime(st.AnyTime, st.LegalNotes, st.ReplyTo, subject)...)
	}
	details := g.details(w, b)
	if !st.Finished && !st.Observer {
		details = append(details, w.replyRules(st.Opening, st.Page)...)
	}
	if len(details) > 0 {
		add(&doc.Section{Title: w.t("Details"), Blocks: details})
	}
	d.Footer = w.gameFooter(st.Game.ID, st.ReplyTo, st.Finished)
	d.Preheader = preheader(turn, st.Error, account)
	return d
}

// turn is the line every state mail starts with: whose move it is and until when,
// or who won.
func (w words) turn(yours bool, toAct []string, deadline string, finished bool, winners []string) string {
	switch {
	case finished && len(winners) > 1:
		return w.t("Game over: a tie between %s", w.list(winners))
	case finished && len(winners) == 1:
		return w.t("Game over: %s won", winners[0])
	case finished:
		return w.t("Game over")
	case yours && deadline != "":
		return w.t("Your move — by %s", deadline)
	case yours:
		return w.t("Your move")
	case len(toAct) == 1:
		return w.move(toAct[0])
	case len(toAct) > 1:
		return w.t("Waiting for %s", w.list(toAct))
	}
	return w.t("The game goes on")
}

// move says whose move it is: "It is alice's move" ("Tocca ad alice": the
// catalogue's %#s puts the name after the preposition).
func (w words) move(name string) string { return w.t("It is %s's move", name) }

// asked is why the reader must decide out of their turn (a defender's
// redeployment, a response, a sealed bid), what is done for them when they do not
// answer by their deadline, and the standing order that answers so every time (nil
// when they are not asked).
func (w words) asked(st State) *doc.Para {
	a := st.Asked
	if a == nil || !st.YourTurn {
		return nil
	}
	p := &doc.Para{Lines: []doc.Line{doc.L(sentence(a.Why, st.Game.Players))}}
	if st.Deadline != "" {
		// the turn's line above says until when
		p.Lines = append(p.Lines, doc.L(w.t("If you do not answer in time, %s.", a.Otherwise)))
	} else {
		p.Lines = append(p.Lines, doc.L(w.t("If you do not answer, %s.", a.Otherwise)))
	}
	if a.Order != "" {
		p.Lines = append(p.Lines, w.rich("To have it done so every time, send: %s", doc.C(a.Order)))
	}
	return p
}

// sentence makes a clause a sentence: its first letter a capital, unless it starts
// with one of names (names keep the case their players wrote), and a full stop at
// its end.
func sentence(s string, names []string) string {
	s = capitalised(strings.TrimSpace(s), names)
	if s != "" && !strings.ContainsRune(".!?", rune(s[len(s)-1])) {
		s += "."
	}
	return s
}

// capitalised is s with a capital first letter, unless it starts with one of names
// (names keep the case their players wrote).
func capitalised(s string, names []string) string {
	if slices.ContainsFunc(names, func(n string) bool { return n != "" && strings.HasPrefix(s, n) }) {
		return s
	}
	if r, size := utf8.DecodeRuneInString(s); unicode.IsLower(r) {
		return string(unicode.ToUpper(r)) + s[size:]
	}
	return s
}

// responding says by when the players asked out of turn answer at the latest, in
// the order of their names (nil when no answer has a deadline).
func (w words) responding(due map[string]string) *doc.Para {
	names := make([]string, 0, len(due))
	for n, d := range due {
		if d != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	p := &doc.Para{}
	for _, n := range names {
		p.Lines = append(p.Lines, doc.L(w.t("%s answers by %s at the latest.", n, due[n])))
	}
	return p
}

// refused is the paragraph of the line of the reader's mail that was refused.
func (w words) refused(e *LineError, after bool, replyTo, subject string) *doc.Para {
	p := &doc.Para{Role: doc.Error, Lines: []doc.Line{w.rich("Not applied — line %d: %s", e.N, doc.C(e.Text)), suggesting(e.Reason, e.Suggest, replyTo, replySubject(subject))}}
	if after {
		p.Lines = append(p.Lines, doc.L(w.t("(the lines before it were applied; nothing after it was read)")))
	}
	return p
}

// applied is the paragraph of the lines of the reader's mail that were applied (nil
// for none): one line, the account tells what they did.
func (w words) applied(lines []Line, cut int) *doc.Para {
	if len(lines) == 0 {
		return nil
	}
	var l doc.Line
	if cut > 0 {
		l = doc.L(w.t("Applied from your mail (%d lines; the last %d are shown):", cut+len(lines), len(lines)) + " ")
	} else {
		l = doc.L(w.t("Applied from your mail:") + " ")
	}
	for i, a := range lines {
		if i > 0 {
			l = append(l, doc.T(", "))
		}
		l = append(l, doc.C(a.Text))
	}
	return doc.P(l)
}

// opening is the sentence that says what this mail is, for an observer, the first
// mail of a game or the last one (nil for any other).
func (w words) opening(st State) *doc.Para {
	var lines []doc.Line
	if st.Observer {
		lines = append(lines, doc.L(w.t("You observe this game: this is the public view.")))
	}
	switch {
	case st.Opening && st.Player != "":
		lines = append(lines, doc.L(w.t("A new game of %s (%s) has started, %s.", w.term(st.Game.Title), st.Game.ID, st.Player)))
	case st.Opening:
		lines = append(lines, doc.L(w.t("A new game of %s (%s) has started.", w.term(st.Game.Title), st.Game.ID)))
	case st.Finished:
		lines = append(lines, doc.L(w.t("The game %s is over.", st.Game.ID)))
	}
	if len(lines) == 0 {
		return nil
	}
	return &doc.Para{Lines: lines}
}

// account is the list of what happened since the reader's last mail (nil for
// nothing): every event in the game's own words (engine.Narrate), one item each,
// those that hit the reader set apart.
func (w words) account(moves []Move, cut int) *doc.List {
	if len(moves) == 0 {
		return nil
	}
	l := &doc.List{Title: doc.L(w.t("Since your last mail:"))}
	if cut > 0 {
		l.Title = doc.L(w.t("Since your last mail (the last %d of %d events; reply with history N for the last N):", len(moves), cut+len(moves)))
	}
	// An item that says what the one before it said is counted on it: a player
	// who redeployed four times without changing anything is one line, "(4 times)".
	var times []int
	for _, m := range moves {
		for _, it := range w.happened(m) {
			if n := len(l.Items); n > 0 && sameItem(l.Items[n-1], it) {
				times[n-1]++
				continue
			}
			l.Items, times = append(l.Items, it), append(times, 1)
		}
	}
	for i, n := range times {
		if n > 1 {
			l.Items[i].Line = append(slices.Clone(l.Items[i].Line), doc.T(" "+w.t("(%d times)", n)))
		}
	}
	return l
}

// sameItem reports whether two items of an account say the same, with nothing
// under them.
func sameItem(a, b doc.Item) bool {
	return len(a.Sub) == 0 && len(b.Sub) == 0 && a.Mark == b.Mark && a.Line.Text() == b.Line.Text()
}

// happened is the account of one event: what it did (its happenings), else what
// was sent.
func (w words) happened(m Move) []doc.Item {
	if len(m.Happened) > 0 {
		out := make([]doc.Item, 0, len(m.Happened))
		for _, h := range m.Happened {
			it := doc.Item{Line: doc.L(h.Text), Mark: h.You}
			for _, d := range h.Details {
				it.Sub = append(it.Sub, doc.L(d))
			}
			out = append(out, it)
		}
		return out
	}
	switch m.Kind {
	case "undo":
		return []doc.Item{{Line: doc.L(w.t("undo: %s", m.Command))}}
	case "admin":
		return []doc.Item{{Line: doc.L(m.Player + " — " + m.Command)}}
	}
	return []doc.Item{{Line: w.rich("%s sent: %s", m.Player, doc.C(m.Command))}}
}

// final are the blocks of a finished game's mail: the winners, the scores and the
// archive attached.
func (w words) final(st State) []doc.Block {
	var out []doc.Block
	if len(st.Winners) > 1 {
		out = append(out, doc.P(doc.L(w.t("Winners: %s", strings.Join(st.Winners, ", ")))))
	} else {
		out = append(out, doc.P(doc.L(w.t("Winner: %s", strings.Join(st.Winners, ", ")))))
	}
	if len(st.Scores) > 0 {
		l := &doc.List{Title: doc.L(w.t("Final scores:"))}
		for _, sc := range st.Scores {
			it := doc.Item{Line: doc.L(sc.Player + ": " + itoa(sc.Total))}
			for _, p := range sc.Parts {
				it.Sub = append(it.Sub, doc.L(p))
			}
			l.Items = append(l.Items, it)
		}
		out = append(out, l)
	}
	if r := st.Replay; r != nil {
		out = append(out, doc.P(doc.L(w.t("The whole game, move by move, is attached as %s: open it in any browser.", r.Name))))
	}
	switch a := st.Archive; {
	case a == nil:
	case a.Redacted:
		out = append(out, doc.P(doc.L(w.t("The game's record is attached (%s). It leaves out what the game keeps hidden from the players (the order of the decks, the seed), so it cannot be replayed; the host's export is complete.", a.Name))))
	default:
		out = append(out, &doc.Defs{Title: doc.L(w.t("The game's archive is attached (%s). To replay it with turnmail:", a.Name)), Items: []doc.Def{
			{Term: doc.Line{doc.C("turnmail replay " + a.Name)}, Text: doc.L(w.t("the final state"))},
			{Term: doc.Line{doc.C("turnmail replay " + a.Name + " --at N")}, Text: doc.L(w.t("the state after event N"))},
		}})
	}
	return out
}

// anyTime is the block of the commands of any moment (nil for none).
func (w words) anyTime(legal []string, notes map[string]string, replyTo, subject string) []doc.Block {
	if len(legal) == 0 {
		return nil
	}
	return []doc.Block{commands(doc.L(w.t("At any moment, even out of your turn, you may send:")), legal, notes, replyTo, replySubject(subject))}
}

// replyRules are the details every player's mail ends with: the commands beside
// the moves (map and rules first: what the mail leaves out), in the text part the
// reader's web page (page, when there is one), and in the first mail of a game how
// a reply is read.
func (w words) replyRules(first bool, page string) []doc.Block {
	var out []doc.Block
	if first {
		out = append(out, doc.P(doc.L(w.t("Lines are applied in order; reading stops at the first line that is not legal (you get a mail saying why) or at a line \"end\"."))))
	}
	also := w.rich("Also: %s (the whole board), %s, %s, %s.", w.code("map"), w.code("rules"), w.code("history"), w.code("help"))
	if page == "" {
		return append(out, doc.P(also))
	}
	return append(out,
		&doc.Para{Only: doc.HTMLPart, Lines: []doc.Line{also}},
		&doc.Para{Only: doc.TextPart, Lines: []doc.Line{also, {doc.A(w.t("On the web"), page)}}})
}

// gameFooter is the signature line of a game's mail.
func (w words) gameFooter(id, replyTo string, finished bool) doc.Line {
	if replyTo != "" && !finished {
		return w.rich("turnmail · game %s · your moves go to %s (just reply)", doc.C(id), doc.C(replyTo))
	}
	return w.rich("turnmail · game %s", doc.C(id))
}

// preheaderLen is about what an inbox list shows of a mail's first words.
const preheaderLen = 180

// preheader is the inbox preview of a state mail: the turn, then a refused line or
// the first things that happened.
func preheader(turn string, e *LineError, account *doc.List) string {
	parts := []string{turn}
	if e != nil {
		parts = append(parts, e.Reason)
	}
	if account != nil {
		for _, it := range account.Items {
			parts = append(parts, it.Line.Text())
		}
	}
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += " · "
		}
		out += p
		if utf8.RuneCountInString(out) >= preheaderLen {
			break
		}
	}
	return cutRunes(out, preheaderLen)
}

// cutRunes cuts s to at most n characters at a space, marking a cut with "…".
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := string([]rune(s)[:n])
	if i := strings.LastIndexByte(r, ' '); i > 0 {
		r = r[:i]
	}
	return strings.TrimRight(r, " ·,:;") + " …"
}

// itoa formats an int.
func itoa(n int) string { return Str(n) }

// refusalDoc builds the answer to a mail from which nothing was applied: the turn,
// the refused line and why, the board as the reader may act on it, and what they
// may send now.
func (s *Set) refusalDoc(r Refusal) *doc.Doc {
	w := s.words(r.Lang)
	subject := s.gameSubject(r.Game, r.Lang)
	d := &doc.Doc{Lang: string(w.lang), Title: subject}
	// Whose move it is comes first, as in a state mail (the refused line says what
	// was not applied); a game where nobody is to move says that the move was not.
	turn := w.t("Your move was not applied")
	if r.YourTurn || len(r.ToAct) > 0 {
		turn = w.turn(r.YourTurn, r.ToAct, r.Deadline, false, nil)
	}
	add := func(b ...doc.Block) { d.Blocks = append(d.Blocks, b...) }
	add(&doc.Para{Role: doc.Turn, Lines: []doc.Line{doc.L(turn)}})
	if p := w.applied(r.Applied, 0); p != nil {
		add(p)
	}
	if r.Error != nil {
		add(w.refused(r.Error, false, r.ReplyTo, subject))
	}
	if r.Reason != "" {
		add(&doc.Para{Role: doc.Error, Lines: []doc.Line{doc.L(r.Reason)}})
	}
	if r.Picture != nil {
		add(&doc.Picture{CID: r.Picture.CID, Width: r.Picture.Width, Height: r.Picture.Height, Alt: r.Picture.Alt})
	}
	g := s.gameMail(r.Game.Kind)
	b := boardOf(r.Game, r.View, r.Player, r.Changed, r.Legal, r.Lang)
	b.Pictured = r.Picture != nil
	if r.View != nil {
		add(g.board(w, b)...)
	}
	if len(r.Legal) > 0 {
		add(commands(doc.L(w.t("What you can send now:")), r.Legal, r.LegalNotes, r.ReplyTo, replySubject(subject)))
		add(g.help(w, b)...)
		add(w.replyRules(true, "")...)
	}
	d.Footer = w.gameFooter(r.Game.ID, r.ReplyTo, false)
	why := ""
	if r.Error != nil {
		why = r.Error.Reason
	} else {
		why = r.Reason
	}
	d.Preheader = cutRunes(turn+" · "+why, preheaderLen)
	return d
}
