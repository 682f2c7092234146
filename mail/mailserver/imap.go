package mailserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-message/textproto"
)

// imapCaps are the capabilities advertised besides those imapserver adds by
// itself (IDLE, UNSELECT, ENABLE, SASL-IR, LITERAL-, AUTH=PLAIN, APPENDLIMIT).
var imapCaps = imap.CapSet{
	imap.CapIMAP4rev1:   {},
	imap.CapNamespace:   {},
	imap.CapUIDPlus:     {},
	imap.CapMove:        {},
	imap.CapESearch:     {},
	imap.CapSearchRes:   {},
	imap.CapStatusSize:  {},
	imap.CapChildren:    {},
	imap.CapLiteralPlus: {},
}

// session is one IMAP connection. imapserver calls its methods from the
// connection's goroutine, except Idle, which runs in a goroutine of its own
// while the connection waits for DONE and nothing else is called — but Close,
// when the connection breaks, which does not wait for Idle to return.
type session struct {
	srv  *Server
	conn *limitedConn
	done func()    // releases the session's hold on Server.Close; idempotent
	acct *account  // nil before login
	sel  *selected // nil unless a mailbox is selected
	// selMu orders Idle's use of sel with Close: imapserver may close the
	// session (from the connection's goroutine) while Idle still runs in its
	// own goroutine.
	selMu sync.Mutex
}

// selected is the state of the selected mailbox.
type selected struct {
	box       *mailbox
	tracker   *imapserver.SessionTracker
	readOnly  bool
	searchRes imap.UIDSet // saved by SEARCH RETURN (SAVE), used as "$"
}

var (
	_ imapserver.Session            = (*session)(nil)
	_ imapserver.SessionMove        = (*session)(nil)
	_ imapserver.SessionNamespace   = (*session)(nil)
	_ imapserver.SessionAppendLimit = (*session)(nil)
)

func (s *session) ctx() context.Context { return s.srv.ctx }

// Close releases the selected mailbox and ends the session.
func (s *session) Close() error {
	s.unselect()
	s.done()
	return nil
}

// Login accepts any address with its mailbox's password, through the login
// throttle (see Server.login); the account is created on first login.
func (s *session) Login(username, password string) error {
	addr, err := s.srv.login(s.conn, "imap", username, password)
	if err != nil {
		return imapError(err)
	}
	a, err := s.srv.backend.account(s.ctx(), addr)
	if err != nil {
		return imapError(err)
	}
	s.acct = a
	return nil
}

// Namespace reports one personal namespace with "/" as the delimiter.
func (s *session) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: delim}}}, nil
}

// AppendLimit is Options.MaxMessageBytes.
func (s *session) AppendLimit() uint32 {
	if s.srv.opts.MaxMessageBytes > 0xffffffff {
		return 0xffffffff
	}
	return uint32(s.srv.opts.MaxMessageBytes)
}

// Select opens a mailbox; EXAMINE sets options.ReadOnly.
func (s *session) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	s.unselect()
	a := s.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	box, err := a.mailboxLocked(name)
	if err != nil {
		return nil, imapError(err)
	}
	s.sel = &selected{box: box, tracker: box.tracker.NewSession(), readOnly: options.ReadOnly}

	data := &imap.SelectData{
		NumMessages: uint32(len(box.msgs)),
		UIDNext:     box.uidNext,
		UIDValidity: box.uidValidity,
	}
	seen := make(map[imap.Flag]bool)
	for i, msg := range box.msgs {
		if data.FirstUnseenSeqNum == 0 && !hasFlag(msg.flags, imap.FlagSeen) {
			data.FirstUnseenSeqNum = uint32(i) + 1
		}
		for _, f := range msg.flags {
			seen[f] = true
		}
	}
	data.Flags = []imap.Flag{imap.FlagSeen, imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagDraft}
	for f := range seen {
		if !slices.Contains(data.Flags, f) {
			data.Flags = append(data.Flags, f)
		}
	}
	data.PermanentFlags = append(slices.Clone(data.Flags), imap.FlagWildcard)
	if options.ReadOnly {
		data.PermanentFlags = nil
	}
	return data, nil
}

// Unselect leaves the selected mailbox (CLOSE has expunged before).
func (s *session) Unselect() error {
	s.unselect()
	return nil
}

func (s *session) unselect() {
	s.selMu.Lock()
	defer s.selMu.Unlock()
	if s.sel != nil {
		s.sel.tracker.Close()
		s.sel = nil
	}
}

// Create makes a mailbox and any missing parents.
func (s *session) Create(name string, options *imap.CreateOptions) error {
	name = canonicalMailboxName(name)
	if !validMailboxName(name) {
		return imapError(errBadMailboxName)
	}
	a := s.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.boxes[name] != nil {
		return imapError(errMailboxExists)
	}
	var names []string
	parts := strings.Split(name, string(delim))
	for i := range parts {
		n := strings.Join(parts[:i+1], string(delim))
		if a.boxes[n] == nil {
			names = append(names, n)
		}
	}
	if len(a.boxes)+len(names) > s.srv.limits.MaxFolders {
		return imapError(errTooManyFolders)
	}
	boxes, err := s.srv.store.createMailboxes(s.ctx(), a.id, names)
	if err != nil {
		return imapError(err)
	}
	for _, b := range boxes {
		a.boxes[b.name] = newMailbox(b, nil)
	}
	return nil
}

// Delete removes a mailbox and its messages. Its children stay.
func (s *session) Delete(name string) error {
	name = canonicalMailboxName(name)
	if name == inboxName {
		return imapError(errInbox)
	}
	a := s.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	box, err := a.mailboxLocked(name)
	if err != nil {
		return imapError(err)
	}
	if err := s.srv.store.deleteMailbox(s.ctx(), box.id); err != nil {
		return imapError(err)
	}
	s.srv.backend.quota.release(a, usageOf(box.msgs))
	box.deleted = true
	box.notifyLocked()
	delete(a.boxes, name)
	return nil
}

// Rename renames a mailbox and its children. Renaming INBOX is refused.
func (s *session) Rename(oldName, newName string, options *imap.RenameOptions) error {
	oldName, newName = canonicalMailboxName(oldName), canonicalMailboxName(newName)
	if oldName == inboxName || newName == inboxName {
		return imapError(errInbox)
	}
	if !validMailboxName(newName) || strings.HasPrefix(newName, oldName+string(delim)) {
		return imapError(errBadMailboxName)
	}
	a := s.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.mailboxLocked(oldName); err != nil {
		return imapError(err)
	}
	if a.boxes[newName] != nil {
		return imapError(errMailboxExists)
	}
	renames := make(map[int64]string)
	moved := make(map[string]*mailbox)
	for n, b := range a.boxes {
		if n == oldName || strings.HasPrefix(n, oldName+string(delim)) {
			to := newName + n[len(oldName):]
			if a.boxes[to] != nil {
				return imapError(errMailboxExists)
			}
			renames[b.id] = to
			moved[n] = b
		}
	}
	if err := s.srv.store.renameMailboxes(s.ctx(), renames); err != nil {
		return imapError(err)
	}
	for n := range moved {
		delete(a.boxes, n)
	}
	for _, b := range moved {
		b.name = renames[b.id]
		a.boxes[b.name] = b
	}
	return nil
}

// Subscribe marks a mailbox subscribed (every new mailbox starts subscribed).
func (s *session) Subscribe(name string) error { return s.setSubscribed(name, true) }

// Unsubscribe clears the subscription of a mailbox.
func (s *session) Unsubscribe(name string) error { return s.setSubscribed(name, false) }

func (s *session) setSubscribed(name string, sub bool) error {
	a := s.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	box, err := a.mailboxLocked(name)
	if err != nil {
		return imapError(err)
	}
	if err := s.srv.store.setSubscribed(s.ctx(), box.id, sub); err != nil {
		return imapError(err)
	}
	box.subscribed = sub
	return nil
}

// List writes the mailboxes matching the patterns, with \HasChildren or
// \HasNoChildren, \Subscribed when asked, and STATUS when asked.
func (s *session) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		// LIST "" "": the hierarchy delimiter.
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: delim})
	}
	a := s.acct
	a.mu.Lock()
	var list []imap.ListData
	for name, box := range a.boxes {
		match := false
		for _, p := range patterns {
			if imapserver.MatchList(name, delim, ref, p) {
				match = true
				break
			}
		}
		if !match || (options.SelectSubscribed && !box.subscribed) || options.SelectSpecialUse {
			continue
		}
		data := imap.ListData{Mailbox: name, Delim: delim}
		data.Attrs = append(data.Attrs, imap.MailboxAttrHasNoChildren)
		for other := range a.boxes {
			if strings.HasPrefix(other, name+string(delim)) {
				data.Attrs[0] = imap.MailboxAttrHasChildren
				break
			}
		}
		if box.subscribed && (options.SelectSubscribed || options.ReturnSubscribed) {
			data.Attrs = append(data.Attrs, imap.MailboxAttrSubscribed)
		}
		if options.ReturnStatus != nil {
			data.Status = box.statusLocked(options.ReturnStatus)
		}
		list = append(list, data)
	}
	a.mu.Unlock()

	sort.Slice(list, func(i, j int) bool { return list[i].Mailbox < list[j].Mailbox })
	for i := range list {
		if err := w.WriteList(&list[i]); err != nil {
			return err
		}
	}
	return nil
}

// Status reports counters of a mailbox.
func (s *session) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	a := s.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	box, err := a.mailboxLocked(name)
	if err != nil {
		return nil, imapError(err)
	}
	return box.statusLocked(options), nil
}

func (m *mailbox) statusLocked(options *imap.StatusOptions) *imap.StatusData {
	data := &imap.StatusData{Mailbox: m.name}
	count := func(f imap.Flag) uint32 {
		var n uint32
		for _, msg := range m.msgs {
			if hasFlag(msg.flags, f) {
				n++
			}
		}
		return n
	}
	u32 := func(n uint32) *uint32 { return &n }
	if options.NumMessages {
		data.NumMessages = u32(uint32(len(m.msgs)))
	}
	if options.UIDNext {
		data.UIDNext = m.uidNext
	}
	if options.UIDValidity {
		data.UIDValidity = m.uidValidity
	}
	if options.NumUnseen {
		data.NumUnseen = u32(uint32(len(m.msgs)) - count(imap.FlagSeen))
	}
	if options.NumDeleted {
		data.NumDeleted = u32(count(imap.FlagDeleted))
	}
	if options.NumRecent {
		data.NumRecent = u32(0)
	}
	if options.Size {
		var size int64
		for _, msg := range m.msgs {
			size += msg.size
		}
		data.Size = &size
	}
	return data
}

// Append stores a message in a mailbox of the account.
func (s *session) Append(name string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	limit := s.srv.opts.MaxMessageBytes
	if limit > 0 && r.Size() > limit {
		return nil, imapError(ErrTooLarge)
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read APPEND literal: %w", err)
	}
	date := options.Time
	if date.IsZero() {
		date = s.srv.now()
	}

	a := s.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	box, err := a.mailboxLocked(name)
	if err != nil {
		return nil, tryCreate(err)
	}
	msg := &message{uid: box.uidNext, date: date.Truncate(1e9), size: int64(len(raw)), flags: normalizeFlags(options.Flags)}
	if err := s.srv.backend.quota.reserve(a, usage{msgs: 1, bytes: msg.size}, msg.size); err != nil {
		return nil, imapError(err)
	}
	row := newMessage{boxID: box.id, uid: msg.uid, date: msg.date, flags: msg.flags, raw: raw}
	if err := s.srv.store.insertMessages(s.ctx(), []newMessage{row}, map[int64]imap.UID{box.id: msg.uid + 1}); err != nil {
		s.srv.backend.quota.release(a, usage{msgs: 1, bytes: msg.size})
		return nil, imapError(err)
	}
	box.appendLocked(msg)
	return &imap.AppendData{UID: msg.uid, UIDValidity: box.uidValidity}, nil
}

// Poll writes the pending updates of the selected mailbox.
func (s *session) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if s.sel == nil {
		return nil
	}
	return s.sel.tracker.Poll(w, allowExpunge)
}

// Idle writes updates of the selected mailbox as they happen, until stop is
// closed.
//
// It does not use SessionTracker.Idle, which only wakes up on updates queued
// after it started and so would sleep through a delivery that arrived just
// before the client sent IDLE. Instead the mailbox's change channel is taken
// before each Poll: any update queued after that closes the channel.
func (s *session) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		changed, err := s.idlePoll(w)
		if err != nil || changed == nil {
			if changed == nil && err == nil {
				// Nothing selected (or closed meanwhile): wait for the end.
				select {
				case <-stop:
				case <-s.srv.ctx.Done():
				}
			}
			return err
		}
		select {
		case <-changed:
		case <-stop:
			return nil
		case <-s.srv.ctx.Done():
			return nil
		}
	}
}

// idlePoll sends the selected mailbox's pending updates and returns the
// channel that is closed at its next change; nil when no mailbox is selected.
func (s *session) idlePoll(w *imapserver.UpdateWriter) (<-chan struct{}, error) {
	s.selMu.Lock()
	defer s.selMu.Unlock()
	if s.sel == nil {
		return nil, nil
	}
	s.acct.mu.Lock()
	changed := s.sel.box.changed
	s.acct.mu.Unlock()
	return changed, s.sel.tracker.Poll(w, true)
}

// target is a message picked by a sequence set, with its number as the client
// knows it.
type target struct {
	seq   uint32 // client view
	index int    // into mailbox.msgs
	msg   *message
}

// targetsLocked resolves a sequence or UID set against the selected mailbox,
// in mailbox order. a.mu must be held.
func (sel *selected) targetsLocked(numSet imap.NumSet) ([]target, error) {
	box := sel.box
	if box.deleted {
		return nil, errMailboxGone
	}
	numSet = sel.staticNumSet(numSet)
	var out []target
	for i, msg := range box.msgs {
		seq := sel.tracker.EncodeSeqNum(uint32(i) + 1)
		var ok bool
		switch set := numSet.(type) {
		case imap.SeqSet:
			ok = seq != 0 && set.Contains(seq)
		case imap.UIDSet:
			ok = set.Contains(msg.uid)
		}
		if ok {
			out = append(out, target{seq: seq, index: i, msg: msg})
		}
	}
	return out, nil
}

// staticNumSet replaces "*" by the largest number and "$" by the saved search
// result.
func (sel *selected) staticNumSet(numSet imap.NumSet) imap.NumSet {
	if imap.IsSearchRes(numSet) {
		return sel.searchRes
	}
	switch set := numSet.(type) {
	case imap.SeqSet:
		var max uint32
		for i := range sel.box.msgs {
			if seq := sel.tracker.EncodeSeqNum(uint32(i) + 1); seq > max {
				max = seq
			}
		}
		out := slices.Clone(set)
		for i := range out {
			staticRange(&out[i].Start, &out[i].Stop, max)
		}
		return out
	case imap.UIDSet:
		max := uint32(sel.box.uidNext) - 1
		out := slices.Clone(set)
		for i := range out {
			staticRange((*uint32)(&out[i].Start), (*uint32)(&out[i].Stop), max)
		}
		return out
	}
	return numSet
}

func staticRange(start, stop *uint32, max uint32) {
	dyn := false
	if *start == 0 {
		*start, dyn = max, true
	}
	if *stop == 0 {
		*stop, dyn = max, true
	}
	if dyn && *start > *stop {
		*start, *stop = *stop, *start
	}
}

// Fetch writes the requested items. BODY[...] without PEEK sets \Seen (unless
// the mailbox was EXAMINEd); message bytes are read from SQLite outside the
// account lock.
func (s *session) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	markSeen := false
	for _, bs := range options.BodySection {
		markSeen = markSeen || !bs.Peek
	}
	markSeen = markSeen && !s.sel.readOnly

	type item struct {
		seq       uint32
		uid       imap.UID
		flags     []imap.Flag
		msg       *message
		flagsSent bool
	}
	a := s.acct
	a.mu.Lock()
	targets, err := s.sel.targetsLocked(numSet)
	if err != nil {
		a.mu.Unlock()
		return imapError(err)
	}
	// A UID FETCH may name a message delivered since the client's last
	// command, whose EXISTS is still queued: the client has no sequence
	// number for it, and a Session cannot send the EXISTS first. Leave it
	// out; the EXISTS follows with the tagged reply, and the client fetches
	// it next time.
	targets = slices.DeleteFunc(targets, func(t target) bool { return t.seq == 0 })
	var updates []flagUpdate
	var updated []int
	if markSeen {
		for i, t := range targets {
			if !hasFlag(t.msg.flags, imap.FlagSeen) {
				updates = append(updates, flagUpdate{uid: t.msg.uid, flags: normalizeFlags(append(slices.Clone(t.msg.flags), imap.FlagSeen))})
				updated = append(updated, i)
			}
		}
		if err := s.srv.store.setFlags(s.ctx(), s.sel.box.id, updates); err != nil {
			a.mu.Unlock()
			return imapError(err)
		}
		for j, i := range updated {
			t := targets[i]
			t.msg.flags = updates[j].flags
			s.sel.box.tracker.QueueMessageFlags(uint32(t.index)+1, t.msg.uid, t.msg.flags, s.sel.tracker)
		}
		if len(updated) > 0 {
			s.sel.box.notifyLocked()
		}
	}
	items := make([]item, len(targets))
	for i, t := range targets {
		items[i] = item{seq: t.seq, uid: t.msg.uid, flags: slices.Clone(t.msg.flags), msg: t.msg}
	}
	for _, i := range updated {
		items[i].flagsSent = true
	}
	boxID := s.sel.box.id
	a.mu.Unlock()

	needRaw := options.Envelope || options.BodyStructure != nil || len(options.BodySection) > 0 ||
		len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0
	var expunged bool
	for _, it := range items {
		var raw []byte
		if needRaw {
			raw, err = s.srv.store.raw(s.ctx(), boxID, it.uid)
			if errors.Is(err, errExpunged) {
				expunged = true
				continue
			} else if err != nil {
				return imapError(err)
			}
		}
		rw := w.CreateMessage(it.seq)
		if err := writeFetch(rw, it.uid, it.msg, it.flags, options.Flags || it.flagsSent, raw, options); err != nil {
			return err
		}
	}
	if expunged {
		return imapError(errExpunged)
	}
	return nil
}

// writeFetch writes one FETCH response and closes rw.
func writeFetch(rw *imapserver.FetchResponseWriter, uid imap.UID, msg *message, flags []imap.Flag, withFlags bool, raw []byte, options *imap.FetchOptions) error {
	rw.WriteUID(uid)
	if withFlags {
		if flags == nil {
			flags = []imap.Flag{}
		}
		rw.WriteFlags(flags)
	}
	if options.InternalDate {
		rw.WriteInternalDate(msg.date)
	}
	if options.RFC822Size {
		rw.WriteRFC822Size(msg.size)
	}
	if options.Envelope {
		if h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw))); err == nil {
			rw.WriteEnvelope(imapserver.ExtractEnvelope(h))
		} else {
			rw.WriteEnvelope(&imap.Envelope{})
		}
	}
	if options.BodyStructure != nil {
		rw.WriteBodyStructure(imapserver.ExtractBodyStructure(bytes.NewReader(raw)))
	}
	for _, bs := range options.BodySection {
		buf := imapserver.ExtractBodySection(bytes.NewReader(raw), bs)
		if err := writeLiteral(rw.WriteBodySection(bs, int64(len(buf))), buf); err != nil {
			return err
		}
	}
	for _, bs := range options.BinarySection {
		buf := imapserver.ExtractBinarySection(bytes.NewReader(raw), bs)
		if err := writeLiteral(rw.WriteBinarySection(bs, int64(len(buf))), buf); err != nil {
			return err
		}
	}
	for _, bss := range options.BinarySectionSize {
		rw.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(bytes.NewReader(raw), bss))
	}
	return rw.Close()
}

func writeLiteral(wc io.WriteCloser, b []byte) error {
	_, err := wc.Write(b)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

// Store changes flags and, unless .SILENT, writes the new flags back.
func (s *session) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	if s.sel.readOnly {
		return imapError(errReadOnly)
	}
	type item struct {
		seq   uint32
		uid   imap.UID
		flags []imap.Flag
	}
	a := s.acct
	a.mu.Lock()
	targets, err := s.sel.targetsLocked(numSet)
	if err != nil {
		a.mu.Unlock()
		return imapError(err)
	}
	updates := make([]flagUpdate, 0, len(targets))
	for _, t := range targets {
		updates = append(updates, flagUpdate{uid: t.msg.uid, flags: storeFlags(t.msg.flags, flags)})
	}
	if err := s.srv.store.setFlags(s.ctx(), s.sel.box.id, updates); err != nil {
		a.mu.Unlock()
		return imapError(err)
	}
	items := make([]item, len(targets))
	for i, t := range targets {
		changed := !slices.Equal(t.msg.flags, updates[i].flags)
		t.msg.flags = updates[i].flags
		if changed {
			s.sel.box.tracker.QueueMessageFlags(uint32(t.index)+1, t.msg.uid, t.msg.flags, s.sel.tracker)
		}
		items[i] = item{seq: t.seq, uid: t.msg.uid, flags: slices.Clone(t.msg.flags)}
	}
	if len(targets) > 0 {
		s.sel.box.notifyLocked()
	}
	a.mu.Unlock()

	if flags.Silent {
		return nil
	}
	for _, it := range items {
		if it.seq == 0 {
			continue // not announced yet; see Fetch
		}
		rw := w.CreateMessage(it.seq)
		rw.WriteUID(it.uid)
		if it.flags == nil {
			it.flags = []imap.Flag{}
		}
		rw.WriteFlags(it.flags)
		if err := rw.Close(); err != nil {
			return err
		}
	}
	return nil
}

// Expunge removes the messages flagged \Deleted (only those in uids, for UID
// EXPUNGE). The EXPUNGE responses reach the client through Poll.
func (s *session) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	if s.sel.readOnly {
		// CLOSE on an EXAMINEd mailbox must not expunge; EXPUNGE fails.
		return nil
	}
	a := s.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	box := s.sel.box
	if box.deleted {
		return imapError(errMailboxGone)
	}
	var idx []int
	var gone []imap.UID
	var freed usage
	for i, msg := range box.msgs {
		if (uids == nil || uids.Contains(msg.uid)) && hasFlag(msg.flags, imap.FlagDeleted) {
			idx = append(idx, i)
			gone = append(gone, msg.uid)
			freed.add(usage{msgs: 1, bytes: msg.size})
		}
	}
	if len(idx) == 0 {
		return nil
	}
	if err := s.srv.store.deleteMessages(s.ctx(), box.id, gone); err != nil {
		return imapError(err)
	}
	s.srv.backend.quota.release(a, freed)
	box.expungeLocked(idx)
	return nil
}

// Search evaluates the criteria on the selected mailbox. Criteria on flags,
// UIDs, sizes and dates use the in-memory index; header and text criteria read
// the message from SQLite.
func (s *session) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	a := s.acct
	a.mu.Lock()
	if s.sel.box.deleted {
		a.mu.Unlock()
		return nil, imapError(errMailboxGone)
	}
	s.sel.staticCriteria(criteria)
	items := make([]searchMsg, 0, len(s.sel.box.msgs))
	for i, msg := range s.sel.box.msgs {
		items = append(items, searchMsg{
			seq: s.sel.tracker.EncodeSeqNum(uint32(i) + 1), uid: msg.uid, date: msg.date,
			size: msg.size, flags: slices.Clone(msg.flags),
		})
	}
	boxID := s.sel.box.id
	a.mu.Unlock()

	var (
		data   imap.SearchData
		seqSet imap.SeqSet
		uidSet imap.UIDSet
	)
	for i := range items {
		m := &items[i]
		m.load = func() ([]byte, error) { return s.srv.store.raw(s.ctx(), boxID, m.uid) }
		ok, err := m.match(criteria)
		if errors.Is(err, errExpunged) {
			continue
		} else if err != nil {
			return nil, imapError(err)
		}
		if !ok {
			continue
		}
		uidSet.AddNum(m.uid)
		var num uint32
		switch kind {
		case imapserver.NumKindSeq:
			if m.seq == 0 {
				continue
			}
			seqSet.AddNum(m.seq)
			num = m.seq
		case imapserver.NumKindUID:
			num = uint32(m.uid)
		}
		if data.Min == 0 || num < data.Min {
			data.Min = num
		}
		if num > data.Max {
			data.Max = num
		}
		data.Count++
	}
	if kind == imapserver.NumKindSeq {
		data.All = seqSet
	} else {
		data.All = uidSet
	}
	if options.ReturnSave {
		s.sel.searchRes = uidSet
	}
	return &data, nil
}

// staticCriteria resolves "*" and "$" in the sequence and UID sets of the
// criteria. a.mu must be held.
func (sel *selected) staticCriteria(c *imap.SearchCriteria) {
	var seqs []imap.SeqSet
	for _, set := range c.SeqNum {
		switch set := sel.staticNumSet(set).(type) {
		case imap.SeqSet:
			seqs = append(seqs, set)
		case imap.UIDSet:
			c.UID = append(c.UID, set)
		}
	}
	c.SeqNum = seqs
	for i, set := range c.UID {
		c.UID[i] = sel.staticNumSet(set).(imap.UIDSet)
	}
	for i := range c.Not {
		sel.staticCriteria(&c.Not[i])
	}
	for i := range c.Or {
		sel.staticCriteria(&c.Or[i][0])
		sel.staticCriteria(&c.Or[i][1])
	}
}

// Copy copies messages into another mailbox of the account (UIDPLUS data in
// the reply).
func (s *session) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	data, _, err := s.copy(numSet, dest, false)
	return data, err
}

// Move moves messages into another mailbox of the account. The COPYUID
// response is written here; the EXPUNGE responses reach the client through
// the Poll that follows the command.
func (s *session) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	if s.sel.readOnly {
		return imapError(errReadOnly)
	}
	data, n, err := s.copy(numSet, dest, true)
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	return w.WriteCopyData(data)
}

func (s *session) copy(numSet imap.NumSet, destName string, move bool) (*imap.CopyData, int, error) {
	a := s.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	dst, err := a.mailboxLocked(destName)
	if err != nil {
		return nil, 0, tryCreate(err)
	}
	src := s.sel.box
	if move && dst == src {
		return nil, 0, imapError(errSameMailbox)
	}
	targets, err := s.sel.targetsLocked(numSet)
	if err != nil {
		return nil, 0, imapError(err)
	}
	data := &imap.CopyData{UIDValidity: dst.uidValidity}
	if len(targets) == 0 {
		return data, 0, nil
	}
	pairs := make([]uidPair, len(targets))
	next := dst.uidNext
	var added usage
	var largest int64
	for i, t := range targets {
		pairs[i] = uidPair{src: t.msg.uid, dst: next}
		next++
		added.add(usage{msgs: 1, bytes: t.msg.size})
		largest = max(largest, t.msg.size)
	}
	if !move { // a copy takes room; a move within the account does not
		if err := s.srv.backend.quota.reserve(a, added, largest); err != nil {
			return nil, 0, imapError(err)
		}
	}
	if err := s.srv.store.copyMessages(s.ctx(), src.id, dst.id, pairs, next, move); err != nil {
		if !move {
			s.srv.backend.quota.release(a, added)
		}
		return nil, 0, imapError(err)
	}
	idx := make([]int, len(targets))
	for i, t := range targets {
		data.SourceUIDs.AddNum(pairs[i].src)
		data.DestUIDs.AddNum(pairs[i].dst)
		dst.appendLocked(&message{uid: pairs[i].dst, date: t.msg.date, size: t.msg.size, flags: slices.Clone(t.msg.flags)})
		idx[i] = t.index
	}
	if move {
		src.expungeLocked(idx)
	}
	return data, len(targets), nil
}
