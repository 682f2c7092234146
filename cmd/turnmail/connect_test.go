package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/turnmail/turnmail/mail/mailserver"
	"github.com/turnmail/turnmail/store"
)

// TestConfigCheck_connect: config check --connect logs in to the configured IMAP
// and SMTP servers and says which step fails (exit 1): a right password passes, a
// wrong one fails at login, the embedded servers of a serve that is not running
// fail at connect with a hint; a misspelled key fails the check (exit 2) naming it
// and the key meant.
func TestConfigCheck_connect(t *testing.T) {
	dir := t.TempDir()
	srv := startMailServer(t, dir)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	real := func(password string) string {
		return "address: games@example.test\nimap:\n  addr: " + srv.IMAPAddr() + "\n  security: plain\n  username: games@example.test\n  password: " + password +
			"\nsmtp:\n  addr: " + srv.SMTPAddr() + "\n  security: plain\n  username: games@example.test\n  password: " + password + "\n"
	}
	tests := []struct {
		name, yaml string
		code       int      // 0: success
		want       []string // in the output (exit 0 or 1) or the error (exit 2)
	}{
		{"logs in", real("secret"), 0, []string{"imap:      connected to " + srv.IMAPAddr() + " and logged in as games@example.test", "smtp:      connected to " + srv.SMTPAddr() + " and logged in as games@example.test"}},
		{"wrong password", real("wrong"), 1, []string{"imap:      FAILED at login: as games@example.test", "smtp:      FAILED at login: as games@example.test"}},
		{"embedded, serve not running", "embedded:\n  imap_addr: " + closed + "\n  smtp_addr: " + closed + "\n", 1, []string{"imap:      FAILED at connect", "(embedded mode: is turnmail serve running?)"}},
		{"misspelled key", real("secret") + "adress: x@example.test\n", 2, []string{"unknown key adress (did you mean address?)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, "c.yaml")
			if err := os.WriteFile(file, []byte("database: "+filepath.Join(dir, "t.db")+"\n"+tt.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := run(t, "", "config", "check", "--connect", "--config", file)
			code := 0
			var ee *exitError
			if errors.As(err, &ee) {
				code = ee.code
			} else if err != nil {
				code = -1
			}
			if code != tt.code {
				t.Fatalf("exit %d (%v), want %d:\n%s", code, err, tt.code, out)
			}
			got := out
			if code == 2 {
				got = err.Error()
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader at a time.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServe_loginRefusedOnStderr: serve with a wrong IMAP and SMTP password keeps
// running (retrying) and says so on stderr in a plain line, beside the log.
func TestServe_loginRefusedOnStderr(t *testing.T) {
	dir := t.TempDir()
	srv := startMailServer(t, dir)
	file := filepath.Join(dir, "c.yaml")
	yaml := "database: " + filepath.Join(dir, "t.db") + "\naddress: games@example.test\nimap:\n  addr: " + srv.IMAPAddr() +
		"\n  security: plain\n  username: games@example.test\n  password: wrong\nsmtp:\n  addr: " + srv.SMTPAddr() + "\n  security: plain\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errw syncBuffer
	cmd := newRootCmd(strings.NewReader(""), &out, &errw)
	cmd.SetArgs([]string{"serve", "--config", file})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	want := "turnmail: reading mail: the server refused the login: login: "
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(errw.String(), want) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
	if !strings.Contains(errw.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errw.String())
	}
}

// startMailServer starts embedded mail servers for example.test (password
// "secret") on a database in dir, stopped at the end of the test.
func startMailServer(t *testing.T, dir string) *mailserver.Server {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(dir, "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := mailserver.New(st.DB(), &mailserver.Options{WriteTx: st.WriteTx, Domain: "example.test", Password: "secret",
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}
