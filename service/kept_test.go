package service

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// keptFixture is a store and services on it, as many as a test needs (a new one is a
// restart: nothing kept).
type keptFixture struct {
	t   testing.TB
	st  *store.Store
	reg engine.Registry
	now time.Time
}

func newKeptFixture(t testing.TB, reg engine.Registry) *keptFixture {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &keptFixture{t: t, st: st, reg: reg, now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
}

// service returns a new service on the fixture's store.
func (f *keptFixture) service(opts Options) *Service {
	f.t.Helper()
	tmpl, err := templates.Load()
	if err != nil {
		f.t.Fatal(err)
	}
	opts.Address, opts.Secret = "turnmail@example.org", []byte("0123456789abcdef0123")
	opts.Clock = func() time.Time { return f.now }
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	svc, err := New(f.st, f.reg, tmpl, opts)
	if err != nil {
		f.t.Fatal(err)
	}
	return svc
}

// play applies up to n random legal commands to game id through a run of svc (as a
// mail would), committing them with the snapshot the run stores; it returns false
// when the game is over.
func (f *keptFixture) play(svc *Service, id string, n int, r *rand.Rand) bool {
	f.t.Helper()
	ctx := context.Background()
	l, err := svc.Load(ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	run := svc.newRun(ctx, l, "", "")
	for range n {
		if run.state.Finished() {
			break
		}
		toAct := run.state.ToAct()
		who := toAct[r.IntN(len(toAct))]
		var cmds []string
		for _, e := range run.state.Legal(who) {
			if c := selfplay.Fill(e, r); c != "" {
				cmds = append(cmds, c)
			}
		}
		if len(cmds) == 0 {
			if sk, ok := run.state.(engine.Skipper); ok {
				cmds = sk.SkipCommands(who)
			}
		} else {
			i := r.IntN(len(cmds))
			cmds = cmds[i : i+1]
		}
		if len(cmds) == 0 {
			f.t.Fatalf("%s has nothing to send in %q", who, run.state.Legal(who))
		}
		for _, c := range cmds {
			if err := run.apply(who, engine.Normalize(c)); err != nil {
				f.t.Fatalf("%s %q: %v", who, c, err)
			}
		}
	}
	run.c.Snapshots = run.snapshot()
	if err := f.st.Commit(ctx, run.c); err != nil {
		f.t.Fatal(err)
	}
	return !run.state.Finished()
}

// checkLoaded compares the game l as a service loaded it (kept, or from a snapshot)
// with a full replay of its log: the state (Hash, Legal for every player, View for
// every viewer), the facts, and the account of the last events and the board before
// them, which the service gets from the states it holds, snapshots or replays.
func (f *keptFixture) checkLoaded(where string, l *Loaded) {
	f.t.Helper()
	all, err := engine.ReplayAll(f.reg, l.Archive(), -1)
	if err != nil {
		f.t.Fatal(err)
	}
	want := all[len(all)-1]
	if d := selfplay.Differ(l.State, want); d != "" {
		f.t.Fatalf("%s: the state differs from the full replay at %s", where, d)
	}
	if l.State.Hash() != want.Hash() {
		f.t.Fatalf("%s: hash %s, the full replay's %s", where, l.State.Hash(), want.Hash())
	}
	viewers := []string{"", engine.Observer}
	for _, p := range l.Seats() {
		viewers = append(viewers, p.Name)
		if g, w := l.State.Legal(p.Name), want.Legal(p.Name); !reflect.DeepEqual(g, w) {
			f.t.Fatalf("%s: Legal(%s) = %q, the full replay's %q", where, p.Name, g, w)
		}
	}
	for _, v := range viewers {
		g, _ := json.Marshal(l.State.View(v))
		w, _ := json.Marshal(want.View(v))
		if string(g) != string(w) {
			f.t.Fatalf("%s: View(%q) differs from the full replay's", where, v)
		}
	}
	facts := newFacts(all[0].ToAct(), l.startedAt())
	for i, e := range l.Events {
		facts.step(e, all[i].ToAct(), all[i+1].ToAct(), l.startedAt())
	}
	if d := selfplay.Differ(l.Facts, facts); d != "" {
		f.t.Fatalf("%s: facts differ from the full replay's at %s", where, d)
	}
	for seq := max(1, len(l.Events)-12); seq <= len(l.Events); seq++ {
		e := l.Events[seq-1]
		before, after := l.stateAt(seq)
		if before == nil || after == nil {
			f.t.Fatalf("%s: no states around event %d", where, seq)
		}
		if before.Hash() != all[seq-1].Hash() || after.Hash() != all[seq].Hash() {
			f.t.Fatalf("%s: the states around event %d differ from the full replay's", where, seq)
		}
		for _, v := range viewers {
			if g, w := engine.Narrate(before, e.Player, e.Command, after, v), engine.Narrate(all[seq-1], e.Player, e.Command, all[seq], v); !reflect.DeepEqual(g, w) {
				f.t.Fatalf("%s: the account of event %d for %q differs: %v, want %v", where, seq, v, g, w)
			}
		}
	}
	if seen := max(0, len(l.Events)-40); l.seenState(seen).Hash() != all[seen].Hash() {
		f.t.Fatalf("%s: the board after event %d differs", where, seen)
	}
}

// TestSelfPlayKeptStates plays games of every engine through the service, a few
// commands a mail, with a snapshot every 8 events: at random points (and at the
// end) the game as the service keeps it, and as a new service (a restart) restores
// it from its newest snapshot, is the game a full replay of the log gives. Under
// make soak (TURNMAIL_SOAK=1) the games are longer and more.
func TestSelfPlayKeptStates(t *testing.T) {
	perEngine, maxEvents := 1, 400
	if os.Getenv("TURNMAIL_SOAK") == "1" {
		perEngine, maxEvents = 4, 5000
	}
	for kind, g := range games.Registry() {
		t.Run(kind, func(t *testing.T) {
			f := newKeptFixture(t, games.Registry())
			svc := f.service(Options{SnapshotEvery: 8})
			lo := 2
			if oc, ok := g.(engine.OptionChecker); ok {
				lo, _ = oc.PlayerRange()
			}
			for gi := range perEngine {
				r := rand.New(rand.NewPCG(uint64(gi), 99))
				id, err := svc.CreateGame(context.Background(), NewGame{Kind: kind, Players: selfplay.Seats(lo + gi%2), Seed: int64(gi + 1)})
				if err != nil {
					t.Fatal(err)
				}
				for mail := 0; ; mail++ {
					more := f.play(svc, id, 1+r.IntN(4), r)
					l, err := svc.Load(context.Background(), id)
					if err != nil {
						t.Fatal(err)
					}
					last := !more || len(l.Events) >= maxEvents
					if last || r.IntN(10) == 0 {
						f.checkLoaded(fmt.Sprintf("game %d, kept, after event %d", gi, len(l.Events)), l)
						fresh := f.service(Options{})
						restarted, err := fresh.Load(context.Background(), id)
						if err != nil {
							t.Fatal(err)
						}
						// From the newest snapshot: at most the 8 events between two and
						// the commands of the mail that passed the mark.
						if n := fresh.replayed.Load(); len(l.Events) >= 8 && n > 8+4 {
							t.Fatalf("game %d: a restart replayed %d events of %d", gi, n, len(l.Events))
						}
						f.checkLoaded(fmt.Sprintf("game %d, restored, after event %d", gi, len(l.Events)), restarted)
					}
					if last {
						break
					}
				}
			}
		})
	}
}

// TestImport_snapshots: an imported game gets the snapshots a game played through
// the service would have (its newest multiples of SnapshotEvery), so that loading it
// after a restart, and a move in it, replay at most SnapshotEvery events however long
// it is; what they load is the game a full replay gives.
func TestImport_snapshots(t *testing.T) {
	const every = 16
	ctx := context.Background()
	for _, kind := range []string{"smallworld", "dungeoneer"} {
		t.Run(kind, func(t *testing.T) {
			f := newKeptFixture(t, games.Registry())
			a, err := selfplay.Play(f.reg[kind], selfplay.Config{Seed: 5, Players: 2}, func(selfplay.Step) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			n := min(len(a.Events)-1, 10*every+5) // a game still running
			if n < 6*every {
				t.Fatalf("a game of %d events: too short to tell", len(a.Events))
			}
			a.Events = a.Events[:n]
			id, err := f.service(Options{SnapshotEvery: every}).Import(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			svc := f.service(Options{SnapshotEvery: every}) // a restart
			l, err := svc.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if got := svc.replayed.Load(); got > every {
				t.Errorf("loading the imported game of %d events replayed %d", n, got)
			}
			sn, err := f.st.LatestSnapshot(ctx, id, l.hist.format, n)
			if err != nil || sn.Seq != n/every*every {
				t.Errorf("the newest snapshot: after event %d (%v), want %d", sn.Seq, err, n/every*every)
			}
			f.checkLoaded("imported, restored", l)
			for i := range 3 { // moves, each by a new service (nothing kept)
				svc := f.service(Options{SnapshotEvery: every})
				if !f.play(svc, id, 1, rand.New(rand.NewPCG(uint64(i), 7))) {
					break
				}
				if got := svc.replayed.Load(); got > every {
					t.Errorf("move %d in the imported game replayed %d events", i+1, got)
				}
			}
			l, err = f.service(Options{}).Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			f.checkLoaded("imported, after moves", l)
		})
	}
}

// TestSnapshots_textsDigest: a snapshot's format carries the digest of the texts'
// keys, and a service whose catalogues have other keys (a text reworded since the
// snapshot: its journal would hold a key no catalogue knows) replays the game from
// its setup instead of using the snapshot.
func TestSnapshots_textsDigest(t *testing.T) {
	const every = 16
	ctx := context.Background()
	f := newKeptFixture(t, games.Registry())
	a, err := selfplay.Play(f.reg["dungeoneer"], selfplay.Config{Seed: 5, Players: 2}, func(selfplay.Step) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	n := min(len(a.Events)-1, 4*every+3)
	a.Events = a.Events[:n]
	first := f.service(Options{SnapshotEvery: every})
	id, err := first.Import(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	l, err := first.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if format := l.hist.format; !strings.HasSuffix(format, " texts "+first.tr.TextsDigest()) {
		t.Fatalf("the snapshot format %q has no texts digest", format)
	}
	same := f.service(Options{SnapshotEvery: every})
	if _, err := same.Load(ctx, id); err != nil || same.replayed.Load() > every {
		t.Fatalf("the same catalogues: %d events replayed (%v)", same.replayed.Load(), err)
	}
	other := f.service(Options{SnapshotEvery: every})
	g := f.reg["dungeoneer"]
	other.formats[g.Name()] = strings.TrimSuffix(l.hist.format, first.tr.TextsDigest()) + "0123456789abcdef"
	l2, err := other.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := other.replayed.Load(); got != int64(n) {
		t.Errorf("other catalogues: %d events replayed, want all %d", got, n)
	}
	f.checkLoaded("other catalogues", l2)
}
