package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/store"
)

// keep returns the kept game of l (its rows: game, seats and the whole log): the one
// kept since an earlier mail with the events after it applied, or else one restored
// from the newest snapshot and the events after it, or replayed from the setup. The
// recorded hash of every event replayed is verified, and so is a snapshot's.
func (s *Service) keep(ctx context.Context, l *Loaded) (*kept, error) {
	setup := keptSetup{kind: l.Game.Kind, setup: string(l.Game.Setup), setupO: string(l.Game.SetupOutcomes), started: fmt.Sprint(l.startedAt().UnixNano())}
	if k := s.kept.get(l.Game.ID); k != nil && k.matches(setup, l.Events) {
		if k.seq() == len(l.Events) {
			return k, nil
		}
		n, err := s.advance(ctx, l, k)
		if err == nil {
			s.kept.put(l.Game.ID, n)
			return n, nil
		}
		s.log.Warn("kept game not advanced: replaying it", "game", l.Game.ID, "err", err)
	}
	k, err := s.restore(ctx, l, setup)
	if err != nil {
		s.kept.drop(l.Game.ID)
		return nil, err
	}
	s.kept.put(l.Game.ID, k)
	return k, nil
}

// restore makes the kept game of l from the newest usable snapshot, or the setup,
// and the events after it (replayed without keeping their states or journals).
func (s *Service) restore(ctx context.Context, l *Loaded, setup keptSetup) (*kept, error) {
	g, err := s.games.Lookup(l.Game.Kind)
	if err != nil {
		return nil, err
	}
	a := l.archiveHead()
	es, err := a.SetupOf()
	if err != nil {
		return nil, err
	}
	initial, _, err := engine.Start(g, es, a.SetupOutcomes)
	if err != nil {
		return nil, err
	}
	k := &kept{setup: setup, events: capped(l.Events), evs: engineEvents(l.Events), initial: initial, format: s.snapshotFormat(g, initial),
		settingsRaw: l.Game.Settings, settings: settingsOf(l.Game.Settings).withChanges(l.Events)}
	started := l.startedAt()
	base, from := initial, 0
	k.facts = newFacts(initial.ToAct(), started)
	if sn, st, ts, ok := s.snapshotOf(ctx, k, l.Game.ID, len(l.Events)); ok {
		base, from = st, sn
		for _, e := range l.Events[:sn] {
			k.facts.observe(e)
		}
		k.facts.TurnStart, k.snapSeq = ts, sn
	}
	was := base.ToAct()
	f := engine.Fold{Seed: l.Seed, Events: k.evs, Base: base, BaseSeq: from,
		StateAt: k.history(ctx, s, l.Game.ID, l.Seed).at,
		Visit: func(seq int, st engine.State) error {
			now := st.ToAct()
			k.facts.step(l.Events[seq-1], was, now, started)
			was = now
			return nil
		}}
	s.replays.Add(1)
	s.replayed.Add(int64(len(l.Events) - from))
	if k.state, err = f.Run(-1); err != nil {
		return nil, fmt.Errorf("replay game %s: %w", l.Game.ID, err)
	}
	k.recent = map[int]engine.State{len(l.Events): k.state}
	return k, nil
}

// advance returns k with the events of l after it applied: the states after them
// are kept with their journals (the account of what they did is likely to be asked
// for next).
func (s *Service) advance(ctx context.Context, l *Loaded, k *kept) (*kept, error) {
	n := *k
	n.events = capped(l.Events)
	n.evs = append(capped(k.evs), engineEvents(l.Events[k.seq():])...)
	n.facts = k.facts.clone()
	n.recent = maps.Clone(k.recent)
	started := l.startedAt()
	was := k.state.ToAct()
	f := engine.Fold{Seed: l.Seed, Events: n.evs, Base: k.state, BaseSeq: k.seq(), Journal: true, Keep: true,
		StateAt: k.history(ctx, s, l.Game.ID, l.Seed).at,
		Visit: func(seq int, st engine.State) error {
			now := st.ToAct()
			n.facts.step(l.Events[seq-1], was, now, started)
			was = now
			n.recent[seq] = st
			delete(n.recent, seq-keptRecent)
			return nil
		}}
	var err error
	if n.state, err = f.Run(-1); err != nil {
		return nil, err
	}
	for seq := range n.recent {
		if seq <= n.seq()-keptRecent {
			delete(n.recent, seq)
		}
	}
	if n.settingsRaw = l.Game.Settings; string(n.settingsRaw) == string(k.settingsRaw) {
		n.settings = k.settings.withChanges(l.Events[k.seq():])
	} else {
		n.settings = settingsOf(n.settingsRaw).withChanges(l.Events)
	}
	if s.snapshotDue(k.seq(), n.seq()) {
		n.snapSeq = n.seq() // the commit that crossed the mark stored one with its events
	}
	return &n, nil
}

// history returns a history of the kept game holding the states it kept.
func (k *kept) history(ctx context.Context, s *Service, id string, seed int64) *history {
	known := maps.Clone(k.recent)
	if known == nil {
		known = map[int]engine.State{}
	}
	known[0] = k.initial
	if k.state != nil {
		known[k.seq()] = k.state
	}
	return &history{s: s, ctx: ctx, gameID: id, seed: seed, events: k.evs, initial: k.initial, format: k.format, known: known}
}

// snapshotOf returns the newest snapshot of the kept game at or before event upTo
// that restores to the state the log recorded there: its event, its state and the
// turn starts stored with it; ok is false when there is none.
func (s *Service) snapshotOf(ctx context.Context, k *kept, id string, upTo int) (int, engine.State, map[string]TurnStart, bool) {
	sn, err := s.store.LatestSnapshot(ctx, id, k.format, upTo)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("snapshot not readable", "game", id, "err", err)
		}
		return 0, nil, nil, false
	}
	var extra snapshotExtra
	if err := json.Unmarshal(sn.Extra, &extra); err != nil || extra.TurnStart == nil {
		s.log.Warn("snapshot ignored: no turn starts", "game", id, "seq", sn.Seq, "err", err)
		return 0, nil, nil, false
	}
	st, err := engine.Restore(k.initial, sn.State, k.events[sn.Seq-1].Hash)
	if err != nil {
		s.log.Warn("snapshot ignored", "game", id, "seq", sn.Seq, "err", err)
		return 0, nil, nil, false
	}
	return sn.Seq, st, extra.TurnStart, true
}

// snapshotExtra is what a snapshot holds beside the state: the turn starts (Facts),
// which the states before it would be needed to derive. The rest of the facts and
// the settings are derived from the log alone.
type snapshotExtra struct {
	TurnStart map[string]TurnStart `json:"turn_start"`
}

// snapshotFormat is engine.SnapshotFormat of game g with the digest of the texts'
// keys (i18n.Bundle.TextsDigest: a snapshot's journal holds keys, which must be the
// catalogues'), worked out once.
func (s *Service) snapshotFormat(g engine.Game, initial engine.State) string {
	s.formatsMu.Lock()
	defer s.formatsMu.Unlock()
	f, ok := s.formats[g.Name()]
	if !ok {
		f = engine.SnapshotFormat(g, initial) + " texts " + s.tr.TextsDigest()
		s.formats[g.Name()] = f
	}
	return f
}

// snapshotDue reports whether a commit that takes a game from event from to event
// to stores a snapshot: when it passes a multiple of Options.SnapshotEvery.
func (s *Service) snapshotDue(from, to int) bool {
	k := s.opts.SnapshotEvery
	return k > 0 && to/k > from/k
}

// snapshot returns the snapshots a run's commit stores with its events (none when
// none is due, or the state cannot be snapshotted): the state after the last event
// and the turn starts after it.
func (r *run) snapshot() []store.Snapshot {
	last := r.l.LastSeq() + len(r.c.Events)
	if !r.s.snapshotDue(r.l.LastSeq(), last) || r.state == nil || r.l.hist == nil {
		return nil
	}
	return r.s.snapshotAt(nil, r.l.Game.ID, r.l.hist.format, last, r.state, r.view().Facts.TurnStart)
}

// snapshotAt appends to sns the snapshot of game id's state st after event seq, with
// the turn starts ts after it; sns as it was when st cannot be snapshotted.
func (s *Service) snapshotAt(sns []store.Snapshot, id, format string, seq int, st engine.State, ts map[string]TurnStart) []store.Snapshot {
	data, err := engine.Snapshot(st)
	if errors.Is(err, engine.ErrNoSnapshot) {
		return sns
	}
	if err != nil {
		s.log.Warn("no snapshot", "game", id, "err", err)
		return sns
	}
	extra, err := json.Marshal(snapshotExtra{TurnStart: ts})
	if err != nil {
		return sns
	}
	return append(sns, store.Snapshot{Seq: seq, Format: format, Hash: st.Hash(), State: data, Extra: extra})
}

// importSnapshots returns the snapshots an imported game stores with its events, as
// if it had been played through the service: its states after the last
// store.KeepSnapshots multiples of Options.SnapshotEvery among its events (states[i]
// is the state after event i, states[0] the setup's), with the turn starts after
// them.
func (s *Service) importSnapshots(l *Loaded, events []store.Event, states []engine.State) ([]store.Snapshot, error) {
	k := s.opts.SnapshotEvery
	if k <= 0 || len(events) < k {
		return nil, nil
	}
	g, err := s.games.Lookup(l.Game.Kind)
	if err != nil {
		return nil, err
	}
	format := s.snapshotFormat(g, states[0])
	first := max(k, (len(events)/k-store.KeepSnapshots+1)*k)
	started := l.startedAt()
	f := newFacts(states[0].ToAct(), started)
	var sns []store.Snapshot
	for i, e := range events {
		f.step(e, states[i].ToAct(), states[i+1].ToAct(), started)
		if seq := i + 1; seq >= first && seq%k == 0 {
			sns = s.snapshotAt(sns, l.Game.ID, format, seq, states[seq], maps.Clone(f.TurnStart))
		}
	}
	return sns, nil
}

// engineEvents returns events as the engine reads them.
func engineEvents(events []store.Event) []engine.Event {
	out := make([]engine.Event, len(events))
	for i, e := range events {
		out[i] = engine.Event{Kind: e.Kind, Player: e.Player, Command: e.Command, Outcomes: decodeOutcomes(e.Outcomes), Hash: e.Hash}
	}
	return out
}

// capped returns s with its capacity cut to its length: whoever appends to it gets a
// copy, never writing into the memory of a kept log.
func capped[T any](s []T) []T { return s[:len(s):len(s)] }
