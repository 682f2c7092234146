package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/engine/games"
	"github.com/turnmail/turnmail/internal/selfplay"
	"github.com/turnmail/turnmail/service"
	"github.com/turnmail/turnmail/store"
	"github.com/turnmail/turnmail/templates"
)

// Parameters of the restart run (make bench): restartGames running Small World games
// of restartEvents events each.
const (
	restartGames  = 10000
	restartEvents = 60
)

// TestLoadRestart starts turnmail serve, as a separate process, on a database of
// restartGames running Small World games of restartEvents events each whose due times
// a previous run stored, and reports how long it takes to watch the mailbox and to
// finish its first deadline tick, and the memory it uses (its peak resident size).
// TURNMAIL_LOAD=1 (make bench).
func TestLoadRestart(t *testing.T) {
	if os.Getenv("TURNMAIL_LOAD") == "" {
		t.Skip("load run: set TURNMAIL_LOAD=1 (make bench)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "turnmail")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/turnmail").CombinedOutput(); err != nil {
		t.Fatalf("build turnmail: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "turnmail.db")
	start := time.Now()
	restartDatabase(t, db, restartGames, restartEvents)
	t.Logf("database of %d games of %d events made in %v", restartGames, restartEvents, time.Since(start).Round(time.Second))

	cmd := exec.Command(bin, "serve", "--database", db)
	cmd.Env = append(os.Environ(), "TURNMAIL_SECRET=restart-run-secret-0123456789abcdef",
		"TURNMAIL_EMBEDDED_IMAP_ADDR=127.0.0.1:0", "TURNMAIL_EMBEDDED_SMTP_ADDR=127.0.0.1:0", "TURNMAIL_LOG_LEVEL=info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	events := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			for _, m := range []string{"msg=watching", `msg="deadline scheduler started"`} {
				if strings.Contains(line, m) {
					events <- m
				}
			}
		}
		close(events)
	}()
	var watching, ticked time.Duration
	peak := 0
	sample := time.NewTicker(20 * time.Millisecond)
	defer sample.Stop()
	timeout := time.After(10 * time.Minute)
	for watching == 0 || ticked == 0 {
		select {
		case m, ok := <-events:
			if !ok {
				t.Fatal("turnmail serve stopped")
			}
			if strings.Contains(m, "watching") && watching == 0 {
				watching = time.Since(begin)
			} else if ticked == 0 {
				ticked = time.Since(begin)
			}
		case <-sample.C:
			peak = max(peak, rss(t, cmd.Process.Pid, "VmRSS"))
		case <-timeout:
			t.Fatal("turnmail serve did not start watching and tick within 10 minutes")
		}
	}
	// A little longer, as the watcher and the sender settle.
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); <-sample.C {
		peak = max(peak, rss(t, cmd.Process.Pid, "VmRSS"))
	}
	hwm := rss(t, cmd.Process.Pid, "VmHWM")
	t.Logf("serve with %d running games: watching after %v, first deadline tick done after %v; resident memory peak %d MB (VmHWM %d MB)",
		restartGames, watching.Round(time.Millisecond), ticked.Round(time.Millisecond), peak>>10, hwm>>10)
}

// rss reads a memory figure of process pid in KiB (VmRSS, VmHWM).
func rss(t *testing.T, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return 0
}

// restartDatabase makes a database of n running Small World games of events events
// each, as a previous run leaves it: one game imported from a self-played archive,
// its mails sent and its next due time stored by a deadline tick, then copied row by
// row under new ids.
func restartDatabase(t *testing.T, path string, n, events int) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tmpl, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(st, games.Registry(), tmpl, service.Options{Address: "turnmail@turnmail.localhost",
		Secret: []byte("restart-run-secret-0123456789abcdef"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	var a *engine.Archive
	for seed := int64(1); a == nil; seed++ {
		played, err := selfplay.Play(games.Registry()["smallworld"], selfplay.Config{Seed: seed, Players: 3}, func(selfplay.Step) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if len(played.Events) > events+10 {
			played.Events = played.Events[:events]
			a = played
		}
	}
	for i := range a.Players {
		a.Players[i].Email = a.Players[i].Name + "@turnmail.localhost"
	}
	id, err := svc.Import(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.DB().Exec(`UPDATE outbox SET status = 'sent', sent_at = created_at`); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	copyGame(t, st, id, n-1)
}

// copyGame copies game id's rows (game, seats, events, readers, snapshots) n times
// under new ids, in one transaction, keeping its stored due time.
func copyGame(t *testing.T, st *store.Store, id string, n int) {
	t.Helper()
	tx, err := st.DB().Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var due string
	if err := tx.QueryRow(`SELECT due_at FROM games WHERE id = ?`, id).Scan(&due); err != nil {
		t.Fatal(err)
	}
	tables := []string{"games", "players", "events", "readers", "snapshots"}
	cols := map[string][]string{}
	for _, table := range tables {
		rows, err := tx.Query(`SELECT name FROM pragma_table_info(?)`, table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				t.Fatal(err)
			}
			cols[table] = append(cols[table], c)
		}
		rows.Close()
	}
	for i := range n {
		nid := fmt.Sprintf("%s-%05d", id, i)
		for _, table := range tables {
			if len(cols[table]) == 0 {
				continue // a table this program's schema does not have
			}
			key := "game_id"
			if table == "games" {
				key = "id"
			}
			var sel []string
			for _, c := range cols[table] {
				if c == key {
					sel = append(sel, "?1")
				} else {
					sel = append(sel, `"`+c+`"`)
				}
			}
			q := fmt.Sprintf(`INSERT INTO %s ("%s") SELECT %s FROM %s WHERE %s = ?2`, table, strings.Join(cols[table], `", "`), strings.Join(sel, ", "), table, key)
			if _, err := tx.Exec(q, nid, id); err != nil {
				t.Fatalf("copy %s: %v", table, err)
			}
		}
	}
	if _, err := tx.Exec(`UPDATE games SET due_at = ?`, due); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}
