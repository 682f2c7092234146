package daemon

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/turnmail/turnmail/config"
)

// webConfig is an embedded configuration with the pages on a free port of loopback.
func webConfig(t *testing.T) *config.Config {
	t.Helper()
	c, err := config.Load(config.NewViper(), "")
	if err != nil {
		t.Fatal(err)
	}
	c.Database = filepath.Join(t.TempDir(), "t.db")
	c.Embedded.IMAPAddr, c.Embedded.SMTPAddr = "127.0.0.1:0", "127.0.0.1:0"
	c.Web.Addr = "127.0.0.1:0"
	return c
}

// withoutMailServers makes c use a real mail server (never reached here), so that New
// starts no embedded servers.
func withoutMailServers(c *config.Config) {
	c.Address = "games@example.org"
	c.IMAP.Addr, c.IMAP.Username, c.SMTP.Addr = "127.0.0.1:1", "games@example.org", "127.0.0.1:1"
}

// fetch gets url: its status and body (status 0 when nothing answers).
func fetch(url string) (int, string) {
	res, err := http.Get(url)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestWeb_listeners: the pages have their own listener, opened by New; /healthz and
// /metrics are on http_addr, or beside the pages when http_addr is web.addr; a taken
// port leaves the daemon without pages, and says so to the host.
func TestWeb_listeners(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	run := func(t *testing.T, c *config.Config) (*Daemon, func()) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		d, err := New(ctx, c, Options{Logger: log, TickEvery: -1, OutboxPoll: -1})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- d.Run(ctx) }()
		return d, func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("run: %v", err)
			}
			d.Close()
		}
	}
	t.Run("apart", func(t *testing.T) {
		d, stop := run(t, webConfig(t))
		defer stop()
		base := "http://" + d.WebAddr() + "/"
		if code, body := fetch(base); code != http.StatusOK || !strings.Contains(body, "<!DOCTYPE html>") {
			t.Fatalf("the index: %d %q", code, body)
		}
		if code, _ := fetch(base + "healthz"); code != http.StatusNotFound {
			t.Errorf("/healthz beside the pages: %d, want 404", code)
		}
	})
	t.Run("shared", func(t *testing.T) {
		c := webConfig(t)
		c.HTTPAddr = c.Web.Addr
		d, stop := run(t, c)
		defer stop()
		base := "http://" + d.WebAddr() + "/"
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if code, _ := fetch(base); code == http.StatusOK {
				break
			}
		}
		if code, body := fetch(base + "metrics"); code != http.StatusOK || !strings.Contains(body, "turnmail_healthy") {
			t.Errorf("/metrics beside the pages: %d %q", code, body)
		}
		if code, _ := fetch(base); code != http.StatusOK {
			t.Errorf("the index: %d", code)
		}
	})
	t.Run("taken", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		c := webConfig(t)
		withoutMailServers(c)
		c.Web.Addr = ln.Addr().String()
		var told bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		d, err := New(ctx, c, Options{Logger: log, Problems: &told})
		if err != nil {
			cancel()
			t.Fatalf("a taken port stopped the daemon: %v", err)
		}
		defer d.Close()
		defer cancel() // before Close: the embedded servers stop with it
		if d.WebAddr() != "" || d.Pages != nil {
			t.Errorf("pages at %q on a taken port", d.WebAddr())
		}
		if !strings.Contains(told.String(), "game pages are off") {
			t.Errorf("the host was told %q", told.String())
		}
	})
	t.Run("off", func(t *testing.T) {
		c := webConfig(t)
		withoutMailServers(c)
		c.Web.Addr = config.WebOff
		ctx, cancel := context.WithCancel(context.Background())
		d, err := New(ctx, c, Options{Logger: log})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		defer d.Close()
		defer cancel()
		if d.WebAddr() != "" {
			t.Errorf("pages at %q while off", d.WebAddr())
		}
	})
}
