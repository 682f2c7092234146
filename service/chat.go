package service

import (
	"strings"
	"time"
	"unicode"

	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// Chat: "say TEXT" relays a message to every other player of the game, "say PLAYER
// TEXT" to one. Each recipient gets it in a short mail of its own in the game's
// thread (notice "chat"); the writer gets an acknowledgement ("said"). A message
// never changes the game: it is an admin event (adminSay, or adminTell for one
// recipient, whom alone besides the writer the history shows it to). The
// text goes in the body only (the subject is the game's), is cut of control and
// direction-override characters, and is at most maxSayBytes long; '#' starts a
// comment as on every command line. Chat mails have their own class in the
// persistent limits (store.ClassChat, Limits.ChatsPerHour per writer).
const (
	// maxSayBytes is the longest message relayed.
	maxSayBytes = 500
	// adminSay and adminTell are the admin acts of a message to all (Text) and to one
	// (Player, Text).
	adminSay  = "say"
	adminTell = "tell"
)

// chatKind marks a relayed message as to one player ("private") or to all ("").
func chatKind(private bool) string {
	if private {
		return "private"
	}
	return ""
}

// relay adds message m to the chat mail to p (the acknowledgement "said" when p is
// the writer): one mail per address and run, listing every message of the run.
func (r *run) relay(a actor, p store.Player, m templates.Move) {
	key := strings.ToLower(p.Email)
	if r.said == nil {
		r.said = map[string][]templates.Move{}
	}
	r.said[key] = append(r.said[key], m)
	kind := templates.Chat
	if p.Name == a.Name {
		kind = templates.Said
	}
	r.notify(p.Email, templates.Notice{Kind: kind, To: p.Name, Actor: a.Name, Moves: r.said[key]})
	if i, ok := r.noticed[key+"\x00"+string(kind)]; ok {
		r.mails[i].Class, r.mails[i].Cause = store.ClassChat, a.Email
	}
}

// chatLimit says why a message to the players to is refused by the chat limit
// ("" when it may go). The limit counts chat mails (a run sends each address one,
// with all its messages). The store enforces it when the mails are queued; this
// check says so in words, counting the mail log and this run's chat mails.
func (r *run) chatLimit(a actor, to []store.Player) string {
	lim := r.s.limits.ChatsPerHour
	if lim <= 0 {
		return ""
	}
	more := 0
	for _, p := range to {
		if _, mailed := r.said[strings.ToLower(p.Email)]; !mailed {
			more++
		}
	}
	if more == 0 {
		return "" // joins mails already counted
	}
	sent, err := r.s.store.ChatsSince(r.ctx, a.Email, r.now.Add(-time.Hour))
	if err != nil {
		r.s.log.Warn("count chats", "game", r.l.Game.ID, "err", err) // the store's check still holds
	}
	for addr := range r.said {
		if !strings.EqualFold(addr, a.Email) {
			sent++
		}
	}
	if sent+more > lim {
		return r.t("%d of your messages reached players' mailboxes in the last hour (one mail per recipient); the limit is %d. Nothing was relayed: try again later.", sent, lim)
	}
	return ""
}

// cleanChat replaces control and bidirectional-override characters with spaces:
// a message cannot reorder or hide the text around it.
func cleanChat(s string) string {
	return strings.Map(func(c rune) rune {
		if unicode.IsControl(c) || unicode.Is(unicode.Bidi_Control, c) {
			return ' '
		}
		return c
	}, s)
}

// chatVisible reports whether viewer may see event e: a message to one player
// (adminTell) is seen by its writer and its recipient only; every other event by
// all.
func chatVisible(e store.Event, viewer string) bool {
	a, ok := adminOf(e)
	if !ok || a.Act != adminTell {
		return true
	}
	return strings.EqualFold(viewer, e.Player) || strings.EqualFold(viewer, a.Player)
}

// isChat reports whether e is a message (adminSay, adminTell).
func isChat(e store.Event) bool {
	act := adminAct(e)
	return act == adminSay || act == adminTell
}
