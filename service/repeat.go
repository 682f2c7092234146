package service

import (
	"context"
	"slices"
	"strings"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/mail/parse"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// A player who taps "send" twice, or sends again a mail they think was lost, sends
// a copy with a new Message-ID: the inbox's dedupe does not see it. When the
// player's last mail to the game had the same commands and nothing happened in the
// game since but what that mail did, the copy is answered "you sent this already;
// nothing was done" instead of being refused against a state it was not written for
// — unless its first move applies now (the same command may be right twice in a
// row: Dungeoneer's done ends one phase, then the next).

// repeatWindow is how many of a game's last mails are read to find a player's
// previous one: mails of the others after it mean something changed anyway.
const repeatWindow = 8

// repeated reports whether msg, from player, repeats their previous mail to the game
// of l with nothing changed since (see above); prev is that mail.
func (s *Service) repeated(ctx context.Context, l *Loaded, player store.Player, msg *parse.Message) (prev store.InboxMsg, ok bool) {
	lines := commandTexts(msg)
	if len(lines) == 0 || s.onlyInfo(l.Game.Kind, lines) {
		return prev, false // asking again for one's state is not a repeat
	}
	recent, err := s.store.RecentInbox(ctx, l.Game.ID, repeatWindow)
	if err != nil {
		s.log.Warn("recent mails not readable", "game", l.Game.ID, "err", err)
		return prev, false
	}
	changed := false // a mail of another writer applied after the player's last one
	for _, m := range recent {
		if m.MessageID == msg.MessageID && m.MessageID != "" {
			continue
		}
		pm, err := parse.Parse(m.Raw, &parse.Options{MaxSize: int(s.opts.MaxMessageBytes)})
		if err != nil {
			continue
		}
		if !strings.EqualFold(pm.From.Address, player.Email) {
			changed = changed || m.Status == store.InboxApplied
			continue
		}
		if changed || !slices.Equal(commandTexts(pm), lines) || m.ProcessedAt == nil || s.changedSince(ctx, l, m) {
			return prev, false
		}
		return m, true
	}
	return prev, false
}

// maxChangeScan bounds the events changedSince reads back.
const maxChangeScan = 64

// changedSince reports whether the game of l has events that came after mail m (not
// m's own): those of a mail stored after it (a host's pause or resume comes through
// the lobby, whose mails are not the game's), or of no mail (a deadline) recorded
// after m was processed. It reads the log back from its end to m's own events or to
// an older mail's.
func (s *Service) changedSince(ctx context.Context, l *Loaded, m store.InboxMsg) bool {
	first := max(0, len(l.Events)-maxChangeScan)
	for i := len(l.Events) - 1; i >= first; i-- {
		e := l.Events[i]
		switch {
		case e.MessageID == m.MessageID && m.MessageID != "":
			return false // m's own: nothing after it
		case e.MessageID == "":
			if e.At.After(*m.ProcessedAt) {
				return true
			}
			continue
		}
		other, err := s.store.InboxByKey(ctx, store.DedupeKey(e.MessageID, nil))
		return err != nil || other.ID > m.ID // a later mail's (or one not found: no repeat)
	}
	return first > 0 // read back as far as it may without finding m's place: no repeat
}

// firstMoveApplies reports whether the first line of msg is a move of the game that
// applies to l's state now (a service command is not tried: its copy is a repeat).
func (s *Service) firstMoveApplies(l *Loaded, player store.Player, msg *parse.Message) bool {
	lines := commandTexts(msg)
	if len(lines) == 0 || l.State == nil {
		return false
	}
	cmd, _ := s.tr.Canonical(l.Game.Kind, lines[0])
	verb, _, _ := strings.Cut(cmd, " ")
	if words := s.commandWords(l.Game.Kind); words == nil || !words[verb] || gameVerb(verb) != nil {
		return false
	}
	_, _, err := engine.Step(l.State, l.Seed, l.LastSeq()+1, player.Name, cmd, nil)
	return err == nil
}

// commandTexts are a mail's command lines, normalized (case, spaces, comments).
func commandTexts(msg *parse.Message) []string {
	var out []string
	for _, c := range msg.Commands {
		if t := engine.Normalize(c.Text); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// onlyInfo reports whether every line of a mail to a game of kind asks for
// information only (status, legal …), in any language.
func (s *Service) onlyInfo(kind string, lines []string) bool {
	for _, l := range lines {
		c, _ := s.tr.Canonical(kind, l)
		verb, _, _ := strings.Cut(c, " ")
		if !isInfo(verb) {
			return false
		}
	}
	return true
}

// repeatAnswer answers a repeated mail: a short notice, nothing applied.
func (s *Service) repeatAnswer(l *Loaded, player store.Player, msg *parse.Message, prev store.InboxMsg) (Result, store.Commit, error) {
	res := Result{GameID: l.Game.ID, Status: StatusRejected, Reason: "a copy of the player's previous mail; nothing done"}
	c := store.Commit{GameID: l.Game.ID, ExpectSeq: l.LastSeq()}
	lang := s.langOf(l.Settings, player.Name)
	n := templates.Notice{Kind: "repeat", Game: s.gameData(l.Game, l.Players), To: player.Name, Host: l.Game.Host, Lang: string(lang),
		ReplyTo: s.replyAddr(l.Game.ID, player), When: s.when(l, player.Name, prev.ReceivedAt)}
	if prev.Status == store.InboxApplied {
		n.Text = "applied"
	}
	m, err := s.notice(n, l.threadOf(player.Email), l.Game.ID, player.Email, inReplyTo(msg))
	if err != nil {
		return res, c, err
	}
	c.Outbox = append(c.Outbox, m)
	return res, c, nil
}
