package backup_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/turnmail/turnmail/backup"
	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/internal/testgame"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

var registry = engine.Registry{"tally": testgame.Tally{}}

// site is a service on a database in a temporary directory, with tally games.
type site struct {
	t     *testing.T
	path  string
	st    *store.Store
	svc   *service.Service
	games []string
}

func newSite(t *testing.T, path string, games int) *site {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tmpl, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(st, registry, tmpl, service.Options{
		Address: "turnmail@games.example", Secret: []byte("0123456789abcdef0123"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), RepliesPerHour: 1 << 20,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &site{t: t, path: path, st: st, svc: svc}
	for i := 0; i < games; i++ {
		id, err := svc.CreateGame(ctx, service.NewGame{Kind: "tally", Players: []engine.Player{
			{Name: "ann", Email: fmt.Sprintf("ann%d@games.example", i)}, {Name: "ben", Email: fmt.Sprintf("ben%d@games.example", i)},
		}})
		if err != nil {
			t.Fatal(err)
		}
		s.games = append(s.games, id)
	}
	return s
}

// move mails "add n" from a game's player (seat 0 or 1) to their reply address.
func (s *site) move(game, seat int, n int, id string) error {
	from := fmt.Sprintf("%s%d@games.example", []string{"ann", "ben"}[seat], game)
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: <%s@client.example>\r\n\r\nadd %d\r\n",
		from, s.svc.ReplyAddress(s.games[game], seat), id, n)
	res, err := s.svc.Receive(context.Background(), store.InboxMsg{Mailbox: "INBOX", Raw: []byte(raw)})
	if err == nil && res.Status != service.StatusApplied {
		err = fmt.Errorf("%s: %s %s", id, res.Status, res.Reason)
	}
	return err
}

// TestBackup_duringBurst takes copies while every player of several games sends
// moves at once (concurrent commits): each copy is 0600, checks whole (every
// event's hash equal on replay), holds for each game a prefix of the final log,
// and restores: opened as a live database it loads every game and takes a move.
func TestBackup_duringBurst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	const games, movesEach = 4, 12
	s := newSite(t, filepath.Join(dir, "turnmail.db"), games)

	var wg sync.WaitGroup
	errs := make(chan error, 2*games)
	for g := 0; g < games; g++ {
		for seat := 0; seat < 2; seat++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < movesEach; i++ {
					if err := s.move(g, seat, 1+i%9, fmt.Sprintf("g%d-s%d-m%d", g, seat, i)); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
	}
	var copies []string
	burst := make(chan struct{})
	go func() { wg.Wait(); close(burst) }()
	for i := 0; ; i++ {
		dest := filepath.Join(dir, fmt.Sprintf("copy%d.db", i))
		if err := s.st.Backup(ctx, dest); err != nil {
			t.Fatalf("backup %d during the burst: %v", i, err)
		}
		copies = append(copies, dest)
		select {
		case <-burst:
		case <-time.After(20 * time.Millisecond):
			continue
		}
		break
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	final := filepath.Join(dir, "final.db")
	if err := s.st.Backup(ctx, final); err != nil {
		t.Fatal(err)
	}
	copies = append(copies, final)

	finalLogs := map[string][]store.Event{}
	for _, id := range s.games {
		events, err := s.st.Events(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(events) != 2*movesEach {
			t.Fatalf("game %s has %d events, want %d", id, len(events), 2*movesEach)
		}
		finalLogs[id] = events
	}
	midBurst := 0
	for _, c := range copies {
		fi, err := os.Stat(c)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(c), fi.Mode().Perm())
		}
		r, err := backup.Check(ctx, c, registry)
		if err != nil || !r.OK() || r.Games != games {
			t.Fatalf("%s: %+v, %v; want %d games, no problem", filepath.Base(c), r, err, games)
		}
		if r.Events < 2*games*movesEach {
			midBurst++
		}
		// A snapshot: each game's log in the copy is a prefix of the final one.
		cp, err := store.OpenCopy(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		for id, want := range finalLogs {
			got, err := cp.Events(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if got[i].Hash != want[i].Hash || got[i].Command != want[i].Command {
					t.Errorf("%s: game %s event %d is %q (%s), the database's %q (%s)", filepath.Base(c), id, i+1, got[i].Command, got[i].Hash, want[i].Command, want[i].Hash)
				}
			}
		}
		cp.Close()
	}
	if midBurst == 0 {
		t.Logf("every copy was taken after the burst (a fast machine); the copies still checked whole")
	}
	t.Logf("%d copies, %d taken while moves were committed", len(copies), midBurst)

	// Restore the final copy as the live database: every game loads (replayed,
	// hashes verified) and play goes on.
	restored := filepath.Join(t.TempDir(), "restored.db")
	raw, err := os.ReadFile(final)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(restored, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	r2 := newSite(t, restored, 0)
	r2.games = s.games
	for _, id := range s.games {
		l, err := r2.svc.Load(ctx, id)
		if err != nil {
			t.Fatalf("restored game %s: %v", id, err)
		}
		if l.LastSeq() != 2*movesEach {
			t.Errorf("restored game %s at event %d, want %d", id, l.LastSeq(), 2*movesEach)
		}
	}
	if err := r2.move(0, 0, 5, "after-restore"); err != nil {
		t.Errorf("a move on the restored database: %v", err)
	}
}

// TestCheck_findsDifferences: a copy whose event hash, command or setup was
// altered is reported, naming the game and the event; a file that is no
// database is an error.
func TestCheck_findsDifferences(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	s := newSite(t, filepath.Join(dir, "turnmail.db"), 2)
	for i := 0; i < 3; i++ {
		if err := s.move(0, 0, 2, fmt.Sprint("a", i)); err != nil {
			t.Fatal(err)
		}
		if err := s.move(1, 1, 3, fmt.Sprint("b", i)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, sql, want string
	}{
		{"a hash", `UPDATE events SET hash = 'x' || hash WHERE game_id = '%s' AND seq = 2`, "game %s (tally): event 2 (ann: \"add 2\"): state hash differs from the recorded one"},
		{"a command", `UPDATE events SET command = 'add 9' WHERE game_id = '%s' AND seq = 3`, "game %s (tally): event 3"},
		{"a missing hash", `UPDATE events SET hash = '' WHERE game_id = '%s' AND seq = 1`, "game %s event 1 (ann: \"add 2\"): no recorded hash"},
	}
	for i, tt := range tests {
		c := filepath.Join(dir, fmt.Sprintf("c%d.db", i))
		if err := s.st.Backup(ctx, c); err != nil {
			t.Fatal(err)
		}
		alter, err := store.Open(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		// What a damaged disk or a careless hand does: the log is append-only
		// for turnmail, not for them.
		if _, err := alter.DB().Exec(`DROP TRIGGER events_append_only_update`); err != nil {
			t.Fatal(err)
		}
		if _, err := alter.DB().Exec(fmt.Sprintf(tt.sql, s.games[0])); err != nil {
			t.Fatal(err)
		}
		alter.Close()
		r, err := backup.Check(ctx, c, registry)
		want := fmt.Sprintf(tt.want, s.games[0])
		if err != nil || r.OK() || !strings.Contains(strings.Join(r.Problems, "\n"), want) || r.Games < 1 {
			t.Errorf("%s altered: %+v, %v; want a problem %q", tt.name, r, err, want)
		}
	}
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte("not a database"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := backup.Check(ctx, junk, registry); err == nil {
		t.Errorf("a file that is no database checked without error")
	}
	if _, err := backup.Check(ctx, filepath.Join(dir, "missing.db"), registry); err == nil {
		t.Errorf("a missing file checked without error")
	}
}
