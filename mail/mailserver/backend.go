package mailserver

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

const (
	inboxName = "INBOX"
	delim     = '/'
)

// backend is the in-memory index of all accounts, loaded lazily from the
// store and written through to it. Every change goes to SQLite first and is
// applied in memory (and announced to IMAP sessions through the trackers)
// only once the transaction has committed.
//
// Locking: backend.mu guards the accounts map only. account.mu guards
// everything inside one account (its mailboxes and their messages and
// trackers) and is held across the write-through transaction, which orders
// all changes of an account. Locks of several accounts are taken in address
// order. No lock is held while writing to a network connection.
type backend struct {
	store *store
	quota *quota

	mu       sync.Mutex
	accounts map[string]*account
}

// account is the set of mailboxes of one address.
type account struct {
	addr string
	id   int64

	mu    sync.Mutex
	boxes map[string]*mailbox
	used  usage // what all its mailboxes hold; see quota
}

// mailbox is one folder. All fields are guarded by account.mu.
type mailbox struct {
	id          int64
	name        string
	uidValidity uint32
	uidNext     imap.UID
	subscribed  bool
	msgs        []*message // ordered by UID; index+1 is the sequence number
	deleted     bool

	tracker *imapserver.MailboxTracker
	// changed is closed and replaced whenever an update is queued on the
	// tracker, to wake idling sessions (see session.Idle).
	changed chan struct{}
}

// message is the metadata of one message; its bytes stay in SQLite.
type message struct {
	uid   imap.UID
	date  time.Time
	size  int64
	flags []imap.Flag // canonical spelling, sorted; guarded by account.mu
}

func newMailbox(b dbMailbox, msgs []dbMessage) *mailbox {
	m := &mailbox{
		id:          b.id,
		name:        b.name,
		uidValidity: b.uidValidity,
		uidNext:     b.uidNext,
		subscribed:  b.subscribed,
		changed:     make(chan struct{}),
	}
	for _, dm := range msgs {
		m.msgs = append(m.msgs, &message{uid: dm.uid, date: dm.date, size: dm.size, flags: normalizeFlags(dm.flags)})
	}
	m.tracker = imapserver.NewMailboxTracker(uint32(len(m.msgs)))
	return m
}

// account returns the account of a normalized address, loading it from the
// store or creating it (with an empty INBOX) on first use.
func (b *backend) account(ctx context.Context, addr string) (*account, error) {
	return b.lookup(ctx, addr, true)
}

// lookup returns the account of a normalized address, loading it from the store;
// a missing account is created when create is set, else lookup returns nil.
func (b *backend) lookup(ctx context.Context, addr string, create bool) (*account, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if a := b.accounts[addr]; a != nil {
		return a, nil
	}
	id, boxes, msgs, found, err := b.store.loadAccount(ctx, addr)
	if err != nil {
		return nil, err
	}
	if !found {
		if !create {
			return nil, nil
		}
		undo, err := b.quota.newAccount()
		if err != nil {
			return nil, err
		}
		var inbox dbMailbox
		if id, inbox, err = b.store.createAccount(ctx, addr); err != nil {
			undo()
			return nil, err
		}
		boxes = []dbMailbox{inbox}
	}
	a := &account{addr: addr, id: id, boxes: make(map[string]*mailbox, len(boxes))}
	for _, box := range boxes {
		m := newMailbox(box, msgs[box.id])
		a.boxes[box.name] = m
		a.used.add(usageOf(m.msgs))
	}
	b.accounts[addr] = a
	return a, nil
}

// room reports whether the INBOX of addr (a normalized address) has room for one
// more message, without creating the account.
func (b *backend) room(ctx context.Context, addr string) error {
	a, err := b.lookup(ctx, addr, false)
	if err != nil {
		return err
	}
	if a == nil {
		return b.quota.room(nil)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return b.quota.room(a)
}

// delivery is one message for the INBOX of one account: head (its own trace
// headers) followed by body, which deliveries of one message share.
type delivery struct {
	addr       string // normalized account address
	head, body []byte
}

func (d delivery) size() int64 { return int64(len(d.head) + len(d.body)) }

// deliver stores messages in the INBOXes of their accounts, all or nothing,
// and wakes the sessions watching those INBOXes. It refuses them all when one
// account or the total would pass its quota.
func (b *backend) deliver(ctx context.Context, ds []delivery) error {
	accts := make(map[string]*account)
	for _, d := range ds {
		if accts[d.addr] != nil {
			continue
		}
		a, err := b.account(ctx, d.addr)
		if err != nil {
			return err
		}
		accts[d.addr] = a
	}
	addrs := make([]string, 0, len(accts))
	for addr := range accts {
		addrs = append(addrs, addr)
	}
	sort.Strings(addrs)
	for _, addr := range addrs {
		accts[addr].mu.Lock()
		defer accts[addr].mu.Unlock()
	}

	adds := make(map[string]usage)
	var largest int64
	for _, d := range ds {
		u := adds[d.addr]
		u.add(usage{msgs: 1, bytes: d.size()})
		adds[d.addr] = u
		largest = max(largest, d.size())
	}
	var reserved []string
	release := func() {
		for _, addr := range reserved {
			b.quota.release(accts[addr], adds[addr])
		}
	}
	for _, addr := range addrs {
		if err := b.quota.reserve(accts[addr], adds[addr], largest); err != nil {
			release()
			return err
		}
		reserved = append(reserved, addr)
	}

	now := time.Now().Truncate(time.Second)
	uidNext := make(map[int64]imap.UID)
	rows := make([]newMessage, len(ds))
	boxes := make([]*mailbox, len(ds))
	for i, d := range ds {
		box := accts[d.addr].boxes[inboxName]
		next, ok := uidNext[box.id]
		if !ok {
			next = box.uidNext
		}
		rows[i] = newMessage{boxID: box.id, uid: next, date: now, head: d.head, raw: d.body}
		boxes[i] = box
		uidNext[box.id] = next + 1
	}
	if err := b.store.insertMessages(ctx, rows, uidNext); err != nil {
		release()
		return err
	}
	for i, row := range rows {
		boxes[i].appendLocked(&message{uid: row.uid, date: row.date, size: row.size()})
	}
	return nil
}

// appendLocked adds a message that was stored with the next UID and announces
// it.
func (m *mailbox) appendLocked(msg *message) {
	m.msgs = append(m.msgs, msg)
	if msg.uid >= m.uidNext {
		m.uidNext = msg.uid + 1
	}
	m.tracker.QueueNumMessages(uint32(len(m.msgs)))
	m.notifyLocked()
}

// expungeLocked removes the messages at the given 0-based indexes and
// announces it.
func (m *mailbox) expungeLocked(idx []int) {
	slices.Sort(idx)
	// Highest first: every EXPUNGE is then valid against the sequence
	// numbers the client has after the previous one.
	for i := len(idx) - 1; i >= 0; i-- {
		m.tracker.QueueExpunge(uint32(idx[i]) + 1)
		m.msgs = slices.Delete(m.msgs, idx[i], idx[i]+1)
	}
	if len(idx) > 0 {
		m.notifyLocked()
	}
}

func (m *mailbox) notifyLocked() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// mailbox returns a mailbox of the account by name; a.mu must be held.
func (a *account) mailboxLocked(name string) (*mailbox, error) {
	if m := a.boxes[canonicalMailboxName(name)]; m != nil {
		return m, nil
	}
	return nil, errNoMailbox
}

// canonicalMailboxName maps INBOX case-insensitively and drops a trailing
// delimiter.
func canonicalMailboxName(name string) string {
	if strings.EqualFold(name, inboxName) {
		return inboxName
	}
	name = strings.TrimRight(name, string(delim))
	if len(name) > len(inboxName) && strings.EqualFold(name[:len(inboxName)+1], inboxName+string(delim)) {
		name = inboxName + name[len(inboxName):]
	}
	return name
}

// validMailboxName rejects names this server cannot store or list sensibly.
func validMailboxName(name string) bool {
	if name == "" || strings.ContainsAny(name, "\x00\r\n*%") {
		return false
	}
	for _, part := range strings.Split(name, string(delim)) {
		if part == "" {
			return false
		}
	}
	return true
}

// Flags.

var systemFlags = map[string]imap.Flag{
	`\seen`:     imap.FlagSeen,
	`\answered`: imap.FlagAnswered,
	`\flagged`:  imap.FlagFlagged,
	`\deleted`:  imap.FlagDeleted,
	`\draft`:    imap.FlagDraft,
}

// canonicalFlag gives system flags their RFC spelling; keywords keep theirs.
func canonicalFlag(f imap.Flag) imap.Flag {
	if sf, ok := systemFlags[strings.ToLower(string(f))]; ok {
		return sf
	}
	return f
}

// normalizeFlags canonicalizes, deduplicates (case-insensitively) and sorts a
// flag list, dropping \Recent, which clients cannot set.
func normalizeFlags(flags []imap.Flag) []imap.Flag {
	out := make([]imap.Flag, 0, len(flags))
	for _, f := range flags {
		f = canonicalFlag(f)
		if strings.EqualFold(string(f), `\Recent`) || f == "" || hasFlag(out, f) {
			continue
		}
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	for _, g := range flags {
		if strings.EqualFold(string(g), string(f)) {
			return true
		}
	}
	return false
}

// storeFlags applies a STORE operation to a flag list and returns the new one.
func storeFlags(flags []imap.Flag, op *imap.StoreFlags) []imap.Flag {
	switch op.Op {
	case imap.StoreFlagsSet:
		return normalizeFlags(op.Flags)
	case imap.StoreFlagsAdd:
		return normalizeFlags(append(slices.Clone(flags), op.Flags...))
	case imap.StoreFlagsDel:
		out := make([]imap.Flag, 0, len(flags))
		for _, f := range flags {
			if !hasFlag(op.Flags, f) {
				out = append(out, f)
			}
		}
		return out
	default:
		return flags
	}
}
