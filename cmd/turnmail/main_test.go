package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/turnmail/turnmail/engine"
	"github.com/turnmail/turnmail/store"
)

// run executes the CLI with args and returns its output and error.
func run(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errw bytes.Buffer
	cmd := newRootCmd(strings.NewReader(stdin), &out, &errw)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

const game5p = "../../engine/smallworld/testdata/selfplay-5p.json"

func TestReplay(t *testing.T) {
	out, err := run(t, "", "replay", game5p, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var state map[string]any
	if err := json.Unmarshal([]byte(out), &state); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	for _, field := range []string{"game", "turn", "current", "finished", "winners", "players", "legal", "regions", "offer"} {
		if _, ok := state[field]; !ok {
			t.Errorf("state JSON lacks %q", field)
		}
	}
	if state["finished"] != true {
		t.Errorf("the recorded game replays to an unfinished state")
	}

	at, err := run(t, "", "replay", game5p, "--at", "0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(at, "Small World") || !strings.Contains(at, "Legal for alice") || !strings.Contains(at, "pick 1") {
		t.Errorf("replay --at 0 does not show the opening with alice's commands:\n%s", at)
	}
}

func TestReplay_illegalEvent(t *testing.T) {
	f, err := os.Open(game5p)
	if err != nil {
		t.Fatal(err)
	}
	arch, err := engine.ReadArchive(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	arch.Events = arch.Events[:3]
	arch.Events = append(arch.Events, engine.Event{Player: arch.Events[2].Player, Command: "conquer 4242"})
	path := filepath.Join(t.TempDir(), "bad.json")
	b, _ := arch.Marshal()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = run(t, "", "replay", path)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "event 4") || !strings.Contains(err.Error(), "conquer 4242") {
		t.Fatalf("err = %v, want exit 2 naming event 4 and its command", err)
	}
}

func TestParseMail(t *testing.T) {
	dir := "../../../shared/data/reply-corpus/049-crisp-email_italian"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("reply corpus not present")
	}
	want, err := os.ReadFile(filepath.Join(dir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "", "parse-mail", filepath.Join(dir, "message.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out) != strings.TrimSpace(string(want)) {
		t.Errorf("parse-mail printed:\n%s\nwant:\n%s", out, want)
	}
	raw := "From: a@b.example\r\nSubject: x\r\n\r\npick 1\r\n\r\n# a comment\r\nconquer 4\r\nend\r\nconquer 9\r\n"
	out, err = run(t, raw, "parse-mail", "-", "--commands")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "1: pick 1") || !strings.Contains(out, "4: conquer 4") || strings.Contains(out, "conquer 9") {
		t.Errorf("--commands printed:\n%s", out)
	}
}

func TestConfigCheck(t *testing.T) {
	out, err := run(t, "", "config", "check")
	if err != nil || !strings.Contains(out, "embedded IMAP and SMTP servers") {
		t.Fatalf("config check on defaults: %v\n%s", err, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("address: nobody\nlog_level: loud\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = run(t, "", "config", "check", "--config", bad)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "log_level") || !strings.Contains(err.Error(), "address") {
		t.Fatalf("config check on a bad file: %v", err)
	}
}

func TestPlay_hotSeat(t *testing.T) {
	save := filepath.Join(t.TempDir(), "game.json")
	out, err := run(t, "pick 1\nnonsense\nsave "+save+"\nquit\n", "play", "smallworld", "--player", "ann", "--player", "ben", "--seed", "3")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "not applied:") {
		t.Errorf("an illegal command was not refused:\n%s", out)
	}
	replayed, err := run(t, "", "replay", save, "--json")
	if err != nil {
		t.Fatalf("the saved hot-seat game does not replay: %v", err)
	}
	if !strings.Contains(replayed, `"ann"`) {
		t.Errorf("saved game: %s", replayed)
	}
}

func TestNewGamesShowExport(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	out, err := run(t, "", "new", "smallworld", "--database", db, "--player", "ann=ann@example.org", "--player", "ben=ben@example.org", "--seed", "9")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSuffix(strings.Fields(strings.TrimPrefix(out, "created game "))[0], ";")
	list, err := run(t, "", "games", "--database", db)
	if err != nil || !strings.Contains(list, id) || !strings.Contains(list, "ann") {
		t.Fatalf("games: %v\n%s", err, list)
	}
	show, err := run(t, "", "show", id, "--database", db, "--player", "ann")
	if err != nil || !strings.Contains(show, "ann@example.org") || !strings.Contains(show, "pick 1") || !strings.Contains(show, "2 pending") {
		t.Fatalf("show: %v\n%s", err, show)
	}
	file := filepath.Join(t.TempDir(), "export.json")
	if _, err := run(t, "", "export", id, file, "--database", db); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "", "replay", file); err != nil {
		t.Fatalf("exported game does not replay: %v", err)
	}
	if _, err := run(t, "", "new", "chess", "--database", db, "--player", "a=a@x.org"); err == nil || !strings.Contains(err.Error(), "unknown game") {
		t.Fatalf("new with an unknown game: %v", err)
	}
}

// TestQuarantinedMail: games and show list a quarantined mail with its number and
// error; retry processes it again, and refuses a number that is not quarantined.
func TestQuarantinedMail(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	out, err := run(t, "", "new", "smallworld", "--database", db, "--player", "ann=ann@example.org", "--player", "ben=ben@example.org", "--seed", "9")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSuffix(strings.Fields(strings.TrimPrefix(out, "created game "))[0], ";")
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	raw := "From: cy@example.org\r\nTo: games@example.org\r\nSubject: hi\r\nMessage-ID: <q1@example.org>\r\n\r\nhelp\r\n"
	mailID, _, err := st.AddInbox(ctx, store.InboxMsg{Mailbox: "INBOX", Raw: []byte(raw), Status: store.InboxFailed, Error: "processing failed: boom", GameID: id})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	num := strconv.FormatInt(mailID, 10)
	for _, args := range [][]string{{"games"}, {"show", id}} {
		list, err := run(t, "", append(args, "--database", db)...)
		if err != nil || !strings.Contains(list, "QUARANTINED") || !regexp.MustCompile(`(?m)^`+num+` .*processing failed: boom`).MatchString(list) {
			t.Errorf("%v does not list the quarantined mail %s: %v\n%s", args, num, err, list)
		}
	}
	res, err := run(t, "", "retry", num, "--database", db)
	if err != nil || !strings.HasPrefix(res, "mail "+num+": ") || strings.Contains(res, "failed") {
		t.Fatalf("retry: %v\n%s", err, res)
	}
	if list, _ := run(t, "", "games", "--database", db); strings.Contains(list, "QUARANTINED") {
		t.Errorf("the retried mail is still listed as quarantined:\n%s", list)
	}
	if _, err := run(t, "", "retry", num, "--database", db); err == nil {
		t.Error("retry of a mail no longer quarantined succeeded")
	}
	if _, err := run(t, "", "retry", "abc", "--database", db); err == nil {
		t.Error("retry of a non-number succeeded")
	}
}
