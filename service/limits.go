package service

import (
	"slices"
	"strings"

	"github.com/turnmail/turnmail/store"
)

// Every mail the service queues goes through the persistent limits (store.Limits),
// checked by the store in the transaction that queues it. A mail is classified by
// why it is sent: a mail built for a third party says so where it is built
// (store.ClassContact: an invitation); every other mail is classified when the
// outcome of the mail being processed is settled (settle): to its writer it is an
// answer, to anyone else a notification caused by the writer's action. So a new
// path that queues mail cannot escape the limits.

// contact marks m as a first contact: a mail to a third party named by writer.
func contact(m store.OutMail, writer string) store.OutMail {
	m.Class, m.Cause = store.ClassContact, writer
	return m
}

// settle makes the last commit of b record mail m's outcome res: the stored row's
// new status, or (m.ID == 0) m itself, stored with it; m.ID is set once committed.
// The answer to a mail is committed together with its effects. Every commit gets
// the limits, and every mail its class (see classify). The strings the returned
// pointer points to say, once committed, which mails the limits held back.
func (s *Service) settle(b store.Batch, res Result, m *store.InboxMsg, from string) (store.Batch, *[]string) {
	b.Commits = slices.Clone(b.Commits)
	if len(b.Commits) == 0 {
		b.Commits = append(b.Commits, store.Commit{})
	}
	idle := !changes(b, from)
	held := new([]string)
	for i := range b.Commits {
		b.Commits[i] = s.limited(b.Commits[i], from, idle)
		b.Commits[i].Held = held
	}
	c := &b.Commits[len(b.Commits)-1]
	c.InboxStatus, c.InboxError = res.Status, res.Reason
	if res.Status != StatusIgnored {
		c.Writer = from
	}
	if m.ID != 0 {
		c.InboxID = m.ID
	} else {
		c.Inbox = m
	}
	return b, held
}

// limited gives c the service's limits and classifies its mails: caused by the
// mail of writer ("" for none: a deadline), an answer to it when it changed nothing
// (idle) or not.
func (s *Service) limited(c store.Commit, writer string, idle bool) store.Commit {
	c.Limits, c.Now = &s.limits, s.opts.Clock()
	c.Outbox = slices.Clone(c.Outbox)
	for i := range c.Outbox {
		o := &c.Outbox[i]
		if o.Class == "" {
			o.Class, o.Cause = store.ClassNotification, writer
			if writer != "" && isTo(*o, writer) {
				o.Class, o.Idle = store.ClassAnswer, idle
			}
		}
	}
	return c
}

// changes reports whether b does something beyond answering from: opens a game,
// changes one, or mails someone else. An answer to a mail that does not is idle
// (see store.Limits.IdleAnswersPerHour).
func changes(b store.Batch, from string) bool {
	if len(b.Games) > 0 {
		return true
	}
	for _, c := range b.Commits {
		if len(c.Events) > 0 || len(c.Players) > 0 || len(c.RemoveSeats) > 0 || c.GameStatus != "" || len(c.Settings) > 0 {
			return true
		}
		for _, o := range c.Outbox {
			if !isTo(o, from) {
				return true
			}
		}
	}
	return false
}

// isTo reports whether m goes to addr only.
func isTo(m store.OutMail, addr string) bool {
	return len(m.To) == 1 && strings.EqualFold(strings.TrimSpace(m.To[0]), addr)
}

// withHeld adds to a mail's reason why mails it caused were not sent.
func withHeld(reason string, held []string) string {
	if len(held) == 0 {
		return reason
	}
	return strings.TrimPrefix(reason+"; "+strings.Join(held, "; "), "; ")
}
