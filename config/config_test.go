package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoad_defaultsAreValidAndEmbedded(t *testing.T) {
	c, err := Load(NewViper(), "")
	if err != nil {
		t.Fatal(err)
	}
	if !c.EmbeddedMode() || c.Address != "turnmail@turnmail.localhost" || c.IMAP.PollInterval.Seconds() != 30 {
		t.Fatalf("unexpected defaults: %+v", c)
	}
	local, domain := c.LocalDomain()
	if local != "turnmail" || domain != "turnmail.localhost" {
		t.Fatalf("LocalDomain = %q %q", local, domain)
	}
}

func TestLoad_exampleFileIsValid(t *testing.T) {
	c, err := Load(NewViper(), filepath.Join("..", "config.example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if c.EmbeddedMode() {
		t.Fatal("the example configures a real mail server")
	}
}

func TestLoad_envOverridesFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(file, []byte("imap:\n  addr: mail.example.org:993\n  username: u\nsmtp:\n  addr: mail.example.org:587\naddress: games@example.org\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TURNMAIL_IMAP_PASSWORD", "from-env")
	t.Setenv("TURNMAIL_SMTP_MAX_ATTEMPTS", "3")
	c, err := Load(NewViper(), file)
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Password != "from-env" || c.SMTP.MaxAttempts != 3 || c.IMAP.Addr != "mail.example.org:993" {
		t.Fatalf("got %+v", c)
	}
}

// withRealServer configures c for a real mail server, with TLS.
func withRealServer(c *Config) {
	c.Address = "games@example.org"
	c.IMAP.Addr, c.IMAP.Username = "mail.example.org:993", "games@example.org"
	c.SMTP.Addr = "mail.example.org:587"
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Config)
		want   string // a text of the error; "" for a valid configuration
	}{
		{"plus in address", func(c *Config) { c.Address = "turnmail+x@turnmail.localhost" }, "must not contain '+'"},
		{"bad address", func(c *Config) { c.Address = "nobody" }, "not a plain mail address"},
		{"half configured", func(c *Config) { c.IMAP.Addr = "x:1" }, "set both"},
		{"bad security", func(c *Config) { c.SMTP.Security = "ssl" }, "smtp.security"},
		{"bad hostport", func(c *Config) { c.Embedded.IMAPAddr = "localhost" }, "not host:port"},
		{"wrong domain", func(c *Config) { c.Address = "t@example.org" }, "embedded.domain"},
		{"log level", func(c *Config) { c.LogLevel = "loud" }, "log_level"},
		{"no connections", func(c *Config) { c.SMTP.Connections = 0 }, "smtp.connections"},
		{"embedded imap on every interface", func(c *Config) { c.Embedded.IMAPAddr = ":1143" }, "embedded.imap_addr: \":1143\" is not a loopback address"},
		{"embedded smtp on a LAN address", func(c *Config) { c.Embedded.SMTPAddr = "192.168.1.5:2525" }, "embedded.smtp_addr: \"192.168.1.5:2525\" is not a loopback address"},
		{"plain imap to a remote host", func(c *Config) { withRealServer(c); c.IMAP.Security = "plain" }, "imap.addr: security plain to non-loopback host \"mail.example.org\""},
		{"plain smtp to a remote host", func(c *Config) { withRealServer(c); c.SMTP.Security = "plain" }, "smtp.addr: security plain to non-loopback host"},
		{"no quota", func(c *Config) { c.Embedded.TotalBytes = 0 }, "embedded.total_bytes: must be positive"},
		{"no login timeout", func(c *Config) { c.Embedded.LoginTimeout = 0 }, "embedded.login_timeout: must be positive"},
		{"the service's SMTP connections do not fit", func(c *Config) { c.Embedded.MaxConnectionsPerMailbox = c.SMTP.Connections },
			"embedded.max_connections_per_mailbox: 4 leaves the service no room beside its 4 SMTP connections"},
		// Valid: plain text on loopback.
		{"embedded defaults", func(*Config) {}, ""},
		{"embedded on localhost and ::1", func(c *Config) { c.Embedded.IMAPAddr, c.Embedded.SMTPAddr = "localhost:1143", "[::1]:2525" }, ""},
		{"real server with TLS", withRealServer, ""},
		{"plain to a loopback real server", func(c *Config) {
			withRealServer(c)
			c.IMAP.Addr, c.SMTP.Addr, c.IMAP.Security, c.SMTP.Security = "127.0.0.1:1143", "127.0.0.1:2525", "plain", "plain"
		}, ""},
		{"embedded addresses unused with a real server", func(c *Config) { withRealServer(c); c.Embedded.IMAPAddr = "0.0.0.0:1143" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(NewViper(), "")
			if err != nil {
				t.Fatal(err)
			}
			tt.mutate(c)
			err = c.Validate()
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}
