package service

import (
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/compose"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// stateAt returns the states before and after event seq of the game, the one after
// with its journal (nil when there is no such event or they cannot be replayed: the
// account then shows the command).
func (l *Loaded) stateAt(seq int) (before, after engine.State) {
	if l.hist == nil || seq < 1 || seq > len(l.hist.events) {
		return nil, nil
	}
	after, err := l.hist.at(seq)
	if err == nil {
		before, err = l.hist.at(seq - 1)
	}
	if err != nil {
		l.hist.s.log.Warn("account of a move left out", "game", l.Game.ID, "seq", seq, "err", err)
		return nil, nil
	}
	return before, after
}

// seenState returns the state after event seq, the last a reader's mail showed
// (nil when it cannot be replayed).
func (l *Loaded) seenState(seq int) engine.State {
	if l.hist == nil || seq < 0 || seq > len(l.hist.events) {
		return nil
	}
	st, err := l.hist.at(seq)
	if err != nil {
		l.hist.s.log.Warn("the board a reader saw left out", "game", l.Game.ID, "seq", seq, "err", err)
		return nil
	}
	return st
}

// happened says what move e did, as viewer may learn it; reader is the name the
// happenings that hit them are marked for. It is nil when the game does not narrate
// or e is not a move (then the command is shown). words renders a text in the
// reader's language.
func (l *Loaded) happened(e store.Event, viewer, reader string, words func(engine.Text) string) []templates.Happening {
	if e.Kind != engine.KindMove {
		return nil
	}
	before, after := l.stateAt(e.Seq)
	if before == nil {
		return nil
	}
	hs := engine.Narrate(before, e.Player, e.Command, after, viewer)
	out := make([]templates.Happening, 0, len(hs))
	for _, h := range hs {
		th := templates.Happening{Kind: h.Kind, Text: words(h.Text), You: reader != "" && contains(h.Hit, reader)}
		for _, d := range h.Details {
			th.Details = append(th.Details, words(d))
		}
		out = append(out, th)
	}
	return out
}

// finalScores are the scores of a finished game with their breakdown (nil when the
// game does not explain them).
func finalScores(state engine.State, words func(engine.Text) string) []templates.Score {
	sc, ok := state.(engine.Scorer)
	if !ok {
		return nil
	}
	var out []templates.Score
	for _, s := range sc.Scores() {
		ts := templates.Score{Player: s.Player, Total: s.Total}
		for _, p := range s.Parts {
			ts.Parts = append(ts.Parts, words(p))
		}
		out = append(out, ts)
	}
	return out
}

// archiveFile is the game's archive as a file for viewer (a player, or
// engine.Observer), without what is nobody else's business (the players' addresses,
// the Message-IDs of their mails) and without what the game hides from viewer
// (engine.Redact: deck orders, the seed); ok is false when it would not fit in a mail
// (the host's `turnmail export` has it, complete). redacted says whether anything was
// left out.
func (s *Service) archiveFile(l *Loaded, viewer string) (f compose.Attachment, redacted, ok bool) {
	a := l.Archive()
	if g, err := s.games.Lookup(l.Game.Kind); err == nil {
		a = engine.Redact(g, a, viewer)
	}
	redacted = len(a.Redacted) > 0
	for i := range a.Players {
		a.Players[i].Email = ""
	}
	for i := range a.Events {
		a.Events[i].MessageID = ""
	}
	b, err := a.Marshal()
	if err != nil || int64(len(b)) > s.opts.MaxMailBytes/3 {
		return compose.Attachment{}, false, false
	}
	return compose.Attachment{Name: l.Game.ID + ".json", ContentType: "application/json", Data: b}, redacted, true
}
