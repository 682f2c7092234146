package store

import (
	"context"
	"reflect"
	"sort"
	"testing"
	"time"
)

// TestStore_DueGames: a running game's stored next due time hides it from
// DueGames until that time; an event, a status or a settings change forgets the
// time (the game is due at once), other writes do not; SetDue stores nothing
// computed before such a change.
func TestStore_DueGames(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	later := t0.Add(12 * time.Hour)
	// event appends one event to game g.
	event := func(s *Store, g string) error {
		last, err := s.LastSeq(context.Background(), g)
		if err != nil {
			return err
		}
		return s.Commit(context.Background(), Commit{GameID: g, ExpectSeq: last, Events: []Event{{Player: "alice", Command: "pass"}}})
	}
	type step struct {
		name string
		// do changes the store; it gets the DueGame rows a tick at t0 read first.
		do func(s *Store, read map[string]DueGame) error
		// wantAt are the games due at t0, wantLater those due at t0+12h, wantAll
		// the running games.
		wantAt, wantLater, wantAll []string
	}
	setDue := func(id string, at time.Time, wantStored int) func(*Store, map[string]DueGame) error {
		return func(s *Store, read map[string]DueGame) error {
			g := read[id]
			g.At = at
			n, err := s.SetDue(context.Background(), []DueGame{g})
			if err == nil && n != wantStored {
				t.Errorf("SetDue(%s) stored %d, want %d", id, n, wantStored)
			}
			return err
		}
	}
	steps := []step{
		{name: "new running games are due: their time is not known",
			wantAt: []string{"g1", "g2"}, wantLater: []string{"g1", "g2"}, wantAll: []string{"g1", "g2"}},
		{name: "a stored time hides a game until it comes", do: setDue("g1", later, 1),
			wantAt: []string{"g2"}, wantLater: []string{"g1", "g2"}, wantAll: []string{"g1", "g2"}},
		{name: "none pending: never due", do: setDue("g2", time.Time{}, 1),
			wantLater: []string{"g1"}, wantAll: []string{"g1", "g2"}},
		{name: "mail and fired timers keep the time",
			do: func(s *Store, _ map[string]DueGame) error {
				return s.Commit(context.Background(), Commit{GameID: "g1", Outbox: []OutMail{mail("g1", "bob@example.org")},
					Timers: []Timer{{Seat: 0, Kind: "remind-12h"}}})
			},
			wantLater: []string{"g1"}, wantAll: []string{"g1", "g2"}},
		{name: "an event forgets it, and a time computed before it is not stored",
			do: func(s *Store, read map[string]DueGame) error {
				if err := event(s, "g1"); err != nil {
					return err
				}
				return setDue("g1", later, 0)(s, read)
			},
			wantAt: []string{"g1"}, wantLater: []string{"g1"}, wantAll: []string{"g1", "g2"}},
		{name: "a paused game is never due", do: func(s *Store, _ map[string]DueGame) error {
			return s.SetGameStatus(context.Background(), "g2", GamePaused)
		}, wantAt: []string{"g1"}, wantLater: []string{"g1"}, wantAll: []string{"g1"}},
		{name: "a game that runs again is due", do: func(s *Store, _ map[string]DueGame) error {
			return s.SetGameStatus(context.Background(), "g2", GameRunning)
		}, wantAt: []string{"g1", "g2"}, wantLater: []string{"g1", "g2"}, wantAll: []string{"g1", "g2"}},
		{name: "both computed", do: func(s *Store, read map[string]DueGame) error {
			if err := setDue("g1", later, 1)(s, read); err != nil {
				return err
			}
			return setDue("g2", later.Add(time.Hour), 1)(s, read)
		}, wantLater: []string{"g1"}, wantAll: []string{"g1", "g2"}},
		{name: "a settings change forgets the time", do: func(s *Store, _ map[string]DueGame) error {
			return s.Commit(context.Background(), Commit{GameID: "g2", Settings: []byte(`{"deadline":"1h"}`)})
		}, wantAt: []string{"g2"}, wantLater: []string{"g1", "g2"}, wantAll: []string{"g1", "g2"}},
	}
	s := mustOpen(t)
	mustCreateGame(t, s, "g1")
	mustCreateGame(t, s, "g2")
	ids := func(now time.Time) []string {
		games, err := s.DueGames(context.Background(), now)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, g := range games {
			out = append(out, g.ID)
		}
		sort.Strings(out)
		return out
	}
	for _, st := range steps {
		read := map[string]DueGame{}
		all, err := s.DueGames(context.Background(), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range all {
			read[g.ID] = g
		}
		if st.do != nil {
			if err := st.do(s, read); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		}
		for _, c := range []struct {
			label string
			now   time.Time
			want  []string
		}{{"at t0", t0, st.wantAt}, {"12h later", later, st.wantLater}, {"all", time.Time{}, st.wantAll}} {
			want := c.want
			if want == nil {
				want = []string{}
			}
			if got := ids(c.now); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: due %s: %v, want %v", st.name, c.label, got, want)
			}
		}
	}
}
