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
	// After alice's first conquests: the conquests' costs and the redeploy pattern
	// with their notes.
	at, err = run(t, "", "replay", game5p, "--at", "3")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"redeploy <region>=<tokens> …   # the region ends with that many; regions ", "   # 2 tokens\n"} {
		if !strings.Contains(at, want) {
			t.Errorf("replay --at 3 does not show %q:\n%s", want, at)
		}
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
	db := filepath.Join(t.TempDir(), "t.db")
	out, err := run(t, "", "config", "check", "--database", db)
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

// TestConfigCheck_reportsWhatServeDoes: config check names the addresses the servers
// would listen on and the passwords in effect — the service mailbox's own, the same
// one mailbox password and serve use — and refuses plain text off loopback.
func TestConfigCheck_reportsWhatServeDoes(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	write := func(name, yaml string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("database: "+db+"\n"+yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pws, err := run(t, "", "mailbox", "password", "--database", db, "turnmail@turnmail.localhost", "Alice@turnmail.localhost", "bob")
	if err != nil {
		t.Fatal(err)
	}
	pw := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(pws), "\n") {
		addr, p, _ := strings.Cut(line, " ")
		pw[addr] = p
	}
	svc, alice, bob := pw["turnmail@turnmail.localhost"], pw["alice@turnmail.localhost"], pw["bob@turnmail.localhost"]
	if len(pw) != 3 || svc == "" || alice == "" || bob == "" || alice == bob || svc == alice {
		t.Fatalf("mailbox password printed:\n%s", pws)
	}
	demo, err := run(t, "", "mailbox", "password", "--config", write("demo.yaml", "embedded:\n  password: letmein\n"), "alice@turnmail.localhost", "turnmail@turnmail.localhost")
	if err != nil || demo != "alice@turnmail.localhost letmein\nturnmail@turnmail.localhost "+svc+"\n" {
		t.Fatalf("with embedded.password, mailbox password printed %v:\n%s", err, demo)
	}

	tests := []struct {
		name, yaml string
		want       []string // lines printed; with wantErr, texts of the error
		wantErr    bool
	}{
		{"embedded", "embedded:\n  imap_addr: localhost:1993\n  smtp_addr: 127.0.0.1:2526\n", []string{
			"imap:      listens on localhost:1993", "smtp:      listens on 127.0.0.1:2526",
			"mailbox turnmail@turnmail.localhost: password " + svc + " (its own",
			"other mailboxes @turnmail.localhost: each its own password (turnmail mailbox password ADDRESS)",
			"bounces:   believed when they name a mail we sent, by Message-ID or VERP return path turnmail+bounce-ID-MAC@turnmail.localhost"}, false},
		{"embedded with a demo password", "embedded:\n  password: letmein\n", []string{
			"mailbox turnmail@turnmail.localhost: password " + svc,
			"other mailboxes @turnmail.localhost: the shared password embedded.password, set (hidden)"}, false},
		{"embedded on every interface", "embedded:\n  imap_addr: 0.0.0.0:1143\n", []string{`embedded.imap_addr: "0.0.0.0:1143" is not a loopback address`}, true},
		{"real server, plain to a remote host", "address: games@example.org\nimap:\n  addr: mail.example.org:143\n  security: plain\n  username: games\nsmtp:\n  addr: mail.example.org:587\n",
			[]string{`imap.addr: security plain to non-loopback host "mail.example.org"`}, true},
		{"real server with TLS", "address: games@example.org\nimap:\n  addr: mail.example.org:993\n  username: games\nsmtp:\n  addr: mail.example.org:587\n", []string{
			"mode:      real mail server", "imap:      tls mail.example.org:993 as games", "smtp:      starttls mail.example.org:587"}, false},
		{"real server without VERP", "address: games@example.org\nimap:\n  addr: mail.example.org:993\n  username: games\nsmtp:\n  addr: mail.example.org:587\n  verp: false\n", []string{
			"bounces:   believed when they name a mail we sent, by Message-ID (smtp.verp is off)"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, "", "config", "check", "--config", write("c.yaml", tt.yaml))
			var ee *exitError
			if tt.wantErr != (errors.As(err, &ee) && ee.code == 2) {
				t.Fatalf("err = %v, want exit 2: %v\n%s", err, tt.wantErr, out)
			}
			got := out
			if tt.wantErr {
				got = err.Error()
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
			if !tt.wantErr && strings.Contains(out, "letmein") {
				t.Errorf("prints the configured password:\n%s", out)
			}
		})
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

// TestServe_databaseReadableByOthers: serve refuses a database every user of the
// host may read, naming the chmod that fixes it, and warns when its group may.
func TestServe_databaseReadableByOthers(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "turnmail.db")
	s, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = run(t, "", "serve", "--database", path)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "every user of this host may read") || !strings.Contains(err.Error(), "chmod 600 "+path) {
		t.Errorf("serve on a 0644 database: %v, want exit 2 naming chmod 600", err)
	}

	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	if err := checkDatabaseFiles(&w, path); err != nil || !strings.Contains(w.String(), "WARNING: the group of "+path) {
		t.Errorf("a 0640 database: %v, warning %q", err, w.String())
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	w.Reset()
	if err := checkDatabaseFiles(&w, path); err != nil || w.Len() != 0 {
		t.Errorf("a 0600 database: %v, %q", err, w.String())
	}
}
