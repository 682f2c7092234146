package games

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/selfplay"
)

// everyGame is every game turnmail ships (the test game, tally, has no Legal entry
// self-play can fill; the service's tests snapshot it).
func everyGame() engine.Registry { return Registry() }

// selfPlays is the number of self-played games per engine: a few in make test, many
// under make soak.
func selfPlays() int {
	if os.Getenv("TURNMAIL_SOAK") == "1" {
		return 40
	}
	return 5 // Empire samples four sets of options beside the default
}

// playAll self-plays n games of g and returns, for each, its archive and its states.
func playAll(t *testing.T, g engine.Game, n int) (archives []*engine.Archive, states [][]engine.State) {
	t.Helper()
	for _, cfg := range selfplay.Configs(g, 11, n) {
		var ss []engine.State
		a, err := selfplay.Play(g, cfg, func(st selfplay.Step) error {
			ss = append(ss, st.State)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		archives, states = append(archives, a), append(states, ss)
	}
	return archives, states
}

// TestSelfPlaySnapshots takes snapshots of every engine's states at random points of
// self-played games and restores them: the restored state is the same in every field
// (reflect.DeepEqual: a field the codec forgets fails here as soon as a game gives it
// a value), so it has the same Hash, Legal for every player, View for every viewer and
// account of its command, and the next command gives the same state.
func TestSelfPlaySnapshots(t *testing.T) {
	t.Parallel()
	for name, g := range everyGame() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			archives, states := playAll(t, g, selfPlays())
			r := rand.New(rand.NewPCG(1, 2))
			for gi, a := range archives {
				ss := states[gi]
				initial := ss[0]
				for i := range ss {
					if i > 0 && i < len(ss)-1 && r.IntN(8) != 0 {
						continue // the first, the last and about one state in eight
					}
					data, err := engine.Snapshot(ss[i])
					if err != nil {
						t.Fatalf("game %d, event %d: %v", gi, i, err)
					}
					got, err := engine.Restore(initial, data, ss[i].Hash())
					if err != nil {
						t.Fatalf("game %d, event %d: %v", gi, i, err)
					}
					where := fmt.Sprintf("game %d, event %d", gi, i)
					if d := selfplay.Differ(got, ss[i]); d != "" {
						t.Fatalf("%s: the restored state differs from the one snapshotted at %s", where, d)
					}
					sameState(t, where, a, got, ss[i])
					if i > 0 {
						sameAccount(t, where, a.Events[i-1], ss[i-1], got, ss[i])
					}
					if i < len(ss)-1 {
						e := a.Events[i]
						next, _, err := engine.Step(got, mustSeed(t, a), i+1, e.Player, e.Command, e.Outcomes)
						if err != nil || next.Hash() != ss[i+1].Hash() {
							t.Fatalf("%s: the next command from the restored state: %v", where, err)
						}
					}
				}
			}
		})
	}
}

// sameState checks that two states agree in what a player and a mail see.
func sameState(t *testing.T, where string, a *engine.Archive, got, want engine.State) {
	t.Helper()
	if got.Hash() != want.Hash() {
		t.Fatalf("%s: hash %s, want %s", where, got.Hash(), want.Hash())
	}
	viewers := []string{"", engine.Observer}
	for _, p := range a.Players {
		viewers = append(viewers, p.Name)
		if g, w := got.Legal(p.Name), want.Legal(p.Name); !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: Legal(%s) = %q, want %q", where, p.Name, g, w)
		}
	}
	for _, v := range viewers {
		if g, w := mustJSON(t, got.View(v)), mustJSON(t, want.View(v)); g != w {
			t.Fatalf("%s: View(%q) differs:\n%s\nwant\n%s", where, v, g, w)
		}
	}
}

// sameAccount checks that the command e tells the same story whichever state it led to.
func sameAccount(t *testing.T, where string, e engine.Event, before, got, want engine.State) {
	t.Helper()
	for _, v := range []string{"", engine.Observer, e.Player} {
		g := engine.Narrate(before, e.Player, e.Command, got, v)
		w := engine.Narrate(before, e.Player, e.Command, want, v)
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: the account for %q differs: %v, want %v", where, v, g, w)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustSeed(t *testing.T, a *engine.Archive) int64 {
	t.Helper()
	seed, err := a.Seed()
	if err != nil {
		t.Fatal(err)
	}
	return seed
}

// TestSelfPlayFoldFromSnapshots replays self-played games of every engine from
// snapshots taken every few events, to random points: the state a fold from the last
// snapshot before a point reaches is the state the full replay reaches there, and so
// is the account of each command it replays with the journal.
func TestSelfPlayFoldFromSnapshots(t *testing.T) {
	t.Parallel()
	const every = 7
	for name, g := range everyGame() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			archives, _ := playAll(t, g, selfPlays())
			r := rand.New(rand.NewPCG(3, 4))
			for gi, a := range archives {
				all, err := engine.ReplayAll(everyGame(), a, -1)
				if err != nil {
					t.Fatal(err)
				}
				snaps := map[int][]byte{}
				for i := 0; i < len(all); i += every {
					if snaps[i], err = engine.Snapshot(all[i]); err != nil {
						t.Fatal(err)
					}
				}
				for range 10 {
					to := r.IntN(len(all))
					base := to / every * every
					from, err := engine.Restore(all[0], snaps[base], all[base].Hash())
					if err != nil {
						t.Fatal(err)
					}
					f := engine.Fold{Seed: mustSeed(t, a), Events: a.Events, Base: from, BaseSeq: base, Journal: true,
						StateAt: func(seq int) (engine.State, error) { return all[seq], nil }}
					prev := from
					f.Visit = func(seq int, s engine.State) error {
						sameAccount(t, fmt.Sprintf("game %d, event %d from %d", gi, seq, base), a.Events[seq-1], prev, s, all[seq])
						prev = s
						return nil
					}
					got, err := f.Run(to)
					if err != nil {
						t.Fatal(err)
					}
					sameState(t, fmt.Sprintf("game %d, event %d from %d", gi, to, base), a, got, all[to])
				}
			}
		})
	}
}

// TestSnapshot_damaged: a snapshot cut short, altered, or of another game's setup is
// an error (never a panic, never a wrong state).
func TestSnapshot_damaged(t *testing.T) {
	for name, g := range everyGame() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			archives, states := playAll(t, g, 2)
			ss, other := states[0], states[1]
			mid := ss[len(ss)/2]
			data, err := engine.Snapshot(mid)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(5, 6))
			damaged := [][]byte{nil, []byte("{}"), []byte("null"), data[:len(data)/2], append(append([]byte{}, data...), " {}"...)}
			for range 20 {
				d := append([]byte{}, data...)
				d[r.IntN(len(d))] ^= byte(1 + r.IntN(255))
				damaged = append(damaged, d)
			}
			for i, d := range damaged {
				if s, err := engine.Restore(ss[0], d, mid.Hash()); err == nil {
					if diff := selfplay.Differ(s, mid); diff != "" {
						t.Errorf("damaged snapshot %d restored to another state (%s)", i, diff)
					}
				}
			}
			// The initial state of another setup does not give the snapshot's state.
			if s, err := engine.Restore(other[0], data, mid.Hash()); err == nil && s.Hash() != mid.Hash() {
				t.Errorf("restored on another setup to a state of another hash without an error")
			}
			if _, err := engine.Restore(ss[0], data, "0123"); !errors.Is(err, engine.ErrStaleSnapshot) {
				t.Errorf("restore against another hash: %v, want ErrStaleSnapshot", err)
			}
			_ = archives
		})
	}
}

// TestSnapshotFormat: each engine names its own format, the same for every state.
func TestSnapshotFormat(t *testing.T) {
	seen := map[string]string{}
	for name, g := range everyGame() {
		_, states := playAll(t, g, 1)
		f := engine.SnapshotFormat(g, states[0][0])
		if f != engine.SnapshotFormat(g, states[0][len(states[0])-1]) {
			t.Errorf("%s: the format changes with the state", name)
		}
		if other, dup := seen[f]; dup {
			t.Errorf("%s and %s share the snapshot format %q", name, other, f)
		}
		seen[f] = name
	}
}
